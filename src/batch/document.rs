//! [`BatchResult`]: the one result of a batch run, serialised as the versioned
//! JSON document described by `schemas/batch-result.schema.json`
//! (schema `schedlab-batch`, version [`RESULT_VERSION`]; docs/batch.md).

use super::options::{FailOn, Options};
use crate::choice::Choice;
use crate::error::{Error, Result};
use crate::table::{Direction, Evidence, Verdict};
use serde::{Deserialize, Serialize};

/// Name of the JSON document type.
pub const RESULT_SCHEMA: &str = "schedlab-batch";
/// Version of the JSON form of [`BatchResult`]; bump on incompatible changes.
pub const RESULT_VERSION: u32 = 1;
/// The fields every result document has (the schema's `required`).
pub const REQUIRED: [&str; 10] = [
    "schedlab_version",
    "options",
    "inputs",
    "rows",
    "unmatched",
    "summary",
    "warnings",
    "errors",
    "missing",
    "exit_code",
];
/// The columns of a result's table of rows (`BatchResult.to_pandas`): the fields of
/// [`Row`] but its warnings.
pub const ROW_COLUMNS: [&str; 24] = [
    "tool",
    "benchmark",
    "setup",
    "era",
    "metric",
    "statistic",
    "direction",
    "kernel",
    "baseline",
    "input",
    "base_input",
    "n_base",
    "n_new",
    "mean_base",
    "mean_new",
    "change_pct",
    "p",
    "q",
    "test",
    "p_equivalent",
    "power",
    "runs_needed",
    "more_runs",
    "verdict",
];
/// The columns of [`ROW_COLUMNS`] that are numbers with gaps (float, NaN where none).
pub const ROW_FLOAT_COLUMNS: [&str; 7] = ["mean_base", "mean_new", "change_pct", "p", "q", "p_equivalent", "power"];
/// How a document read from JSON text is named in errors.
const JSON_NAME: &str = "<batch result json>";

fn kind(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "a JSON null",
        serde_json::Value::Bool(_) => "a JSON bool",
        serde_json::Value::Number(_) => "a JSON number",
        serde_json::Value::String(_) => "a JSON string",
        serde_json::Value::Array(_) => "a JSON array",
        serde_json::Value::Object(_) => "a JSON object",
    }
}

/// One compared metric: a kernel against the baseline of its group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// "mmtests", "lkp" or "results" (result files of benchmark tools).
    pub tool: String,
    /// MMTests benchmark (`-b`) or lkp `testcase`.
    pub benchmark: String,
    /// What runs must share to be compared: the `work/log` directory's path inside
    /// its input (MMTests), or the job axes other than `commit` (lkp).
    pub setup: String,
    /// The MMTests era whose extractor read the kernel's logs (None for lkp).
    pub era: Option<String>,
    /// Operation (MMTests) or metric key (lkp).
    pub metric: String,
    /// The statistic in `mean_base`/`mean_new`: "hmean", "amean" (MMTests shows the
    /// harmonic mean when higher is better) or "mean" (lkp's arithmetic mean).
    pub statistic: String,
    /// Which way is better.
    pub direction: Direction,
    /// The compared kernel (MMTests run name) or commit.
    pub kernel: String,
    /// The baseline kernel or commit it is compared with.
    pub baseline: String,
    /// The input (directory or archive) holding the kernel's results.
    pub input: String,
    /// The input holding the baseline's results.
    pub base_input: String,
    /// Samples of the baseline.
    pub n_base: u64,
    /// Samples of the kernel.
    pub n_new: u64,
    /// The baseline's statistic (None when undefined, e.g. a harmonic mean of zeros).
    pub mean_base: Option<f64>,
    /// The kernel's statistic.
    pub mean_new: Option<f64>,
    /// Percent change of the statistic, positive = better (MMTests' convention).
    pub change_pct: Option<f64>,
    /// Two-sided p-value of `test` on the samples.
    pub p: Option<f64>,
    /// Benjamini-Hochberg adjusted p-value across every row of the run.
    pub q: Option<f64>,
    /// "welch" or "mann-whitney".
    pub test: String,
    /// TOST (Welch t) p that the change lies within ± the margin (options.margin).
    #[serde(default)]
    pub p_equivalent: Option<f64>,
    /// Power of Welch's t-test against a change of the margin with these runs.
    #[serde(default)]
    pub power: Option<f64>,
    /// Runs per side that give Welch's t-test options.power against the margin.
    #[serde(default)]
    pub runs_needed: Option<u64>,
    /// Runs per side to add to reach `runs_needed` (0 when there are enough).
    #[serde(default)]
    pub more_runs: Option<u64>,
    /// What limits this row's result (e.g. a rank test that cannot reach alpha).
    #[serde(default)]
    pub warnings: Vec<String>,
    /// The decision: better, worse, equivalent, inconclusive, changed or not_enough_data.
    pub verdict: Verdict,
}

impl Row {
    /// The evidence behind the row's verdict ([`crate::table::decide`]).
    pub fn evidence(&self) -> Evidence {
        Evidence {
            n_base: self.n_base,
            n_new: self.n_new,
            p: self.p,
            p_equivalent: self.p_equivalent,
            power: self.power,
            runs_needed: self.runs_needed,
            warnings: self.warnings.clone(),
        }
    }
}

/// What one input held.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InputSummary {
    /// The path as given.
    pub path: String,
    /// "dir", "tar", "tar.gz", "tar.xz", "zip" or "file" (None when it could not be read).
    pub kind: Option<String>,
    /// MMTests runs (kernel × benchmark) found.
    pub mmtests_runs: u64,
    /// lkp result roots found.
    pub lkp_roots: u64,
    /// Result files of benchmark tools read (docs/batch.md); left out when none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub result_files: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// A run that could not be compared, and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Unmatched {
    /// "mmtests", "lkp" or "results" (result files of benchmark tools).
    pub tool: String,
    /// Benchmark.
    pub benchmark: String,
    /// Setup (see [`Row::setup`]).
    pub setup: String,
    /// The kernel or commit.
    pub kernel: String,
    /// Its input.
    pub input: String,
    /// Why it was not compared.
    pub reason: String,
}

/// An input that could not be read (only with `keep_going`), or data in an input
/// found missing ([`BatchResult::missing`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InputError {
    /// The input as given.
    pub input: String,
    /// The error, naming the file (and archive entry) at fault.
    pub message: String,
}

/// Counts over the rows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct Summary {
    /// Inputs given.
    pub inputs: u64,
    /// Kernel-against-baseline comparisons made.
    pub comparisons: u64,
    /// Rows (metrics compared).
    pub rows: u64,
    /// Rows judged better.
    pub better: u64,
    /// Rows judged worse (regressions).
    pub worse: u64,
    /// Significant rows of unknown direction.
    pub changed: u64,
    /// Rows shown to lie within ± the margin.
    #[serde(default)]
    pub equivalent: u64,
    /// Rows where neither a change nor equivalence is shown.
    #[serde(default)]
    pub inconclusive: u64,
    /// Rows judged `noise` (kept for version 1 readers; batch itself no longer
    /// gives this verdict, which mixed `equivalent` with `inconclusive`).
    pub noise: u64,
    /// Rows with fewer than two samples on a side.
    pub not_enough_data: u64,
}

/// The options a result was computed with (what the JSON records).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResultOptions {
    /// Baseline kernel or commit.
    pub baseline: String,
    /// Test behind p.
    pub test: String,
    /// Significance level of q.
    pub alpha: f64,
    /// Equivalence margin, percent of the baseline mean.
    #[serde(default)]
    pub margin: f64,
    /// Power wanted against a change of the margin.
    #[serde(default)]
    pub power: f64,
    /// Minimum absolute percent change.
    pub min_change: f64,
    /// What fails the run.
    pub fail_on: String,
    /// Whether missing data is left out of the exit code ([`Options::allow_missing`]).
    #[serde(default)]
    pub allow_missing: bool,
}

/// How long the work took, in seconds: measurements, so the one part of a result
/// that differs between two runs on the same inputs (JUnit `time` attributes).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct Timings {
    /// Wall time of the whole run (on a cluster: the reduce plus the scans' sum).
    pub total: f64,
    /// Per input, in input order: the time its scan took (0 for an unreadable input).
    pub inputs: Vec<f64>,
    /// Per row, in row order: the time its statistics took.
    pub rows: Vec<f64>,
}

/// The result of a batch run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BatchResult {
    /// Always [`RESULT_SCHEMA`].
    pub schema: String,
    /// [`RESULT_VERSION`].
    pub version: u32,
    /// The schedlab that computed it.
    pub schedlab_version: String,
    /// The options used.
    pub options: ResultOptions,
    /// Per input, what it held.
    pub inputs: Vec<InputSummary>,
    /// Every compared metric, grouped by comparison, in input order.
    pub rows: Vec<Row>,
    /// Runs found but not compared (no baseline in their group).
    pub unmatched: Vec<Unmatched>,
    /// Counts.
    pub summary: Summary,
    /// Things a user should know (skipped benchmarks, metrics missing on a side).
    pub warnings: Vec<String>,
    /// Inputs that could not be read (with `keep_going`).
    pub errors: Vec<InputError>,
    /// Data that should be there and is not: unreadable directories, logs without a
    /// result line, metrics without samples on a side, kernels without their
    /// baseline. Exit code 2 unless `allow_missing` (docs/batch.md).
    #[serde(default)]
    pub missing: Vec<InputError>,
    /// The exit code `schedlab batch` returns: 0 fine, 1 failed per `fail_on`, 2 an input
    /// error or missing data, 3 inconclusive rows (only with `fail_on` inconclusive).
    pub exit_code: i32,
    /// How long it took ([`Timings`]; absent in documents of schedlab 0.1.0).
    #[serde(default)]
    pub timings: Timings,
    /// Why each MMTests benchmark was read with its era (what the era detection
    /// found in the files, or that they cannot tell); absent in older documents.
    #[serde(default)]
    pub notes: Vec<String>,
}

impl Summary {
    /// Count the verdicts of `rows`.
    pub fn of(rows: &[Row], inputs: u64, comparisons: u64) -> Summary {
        let mut s = Summary { inputs, comparisons, rows: rows.len() as u64, ..Default::default() };
        for r in rows {
            match r.verdict {
                Verdict::Better => s.better += 1,
                Verdict::Equivalent => s.equivalent += 1,
                Verdict::Inconclusive => s.inconclusive += 1,
                Verdict::Worse => s.worse += 1,
                Verdict::Changed => s.changed += 1,
                Verdict::NotEnoughData => s.not_enough_data += 1,
                Verdict::Noise | Verdict::Baseline => s.noise += 1,
            }
        }
        s
    }
}

/// Whether a row's verdict fails the run under `fail_on`.
pub fn fails(verdict: Verdict, fail_on: FailOn) -> bool {
    match fail_on {
        FailOn::Regression | FailOn::Inconclusive => verdict == Verdict::Worse,
        FailOn::AnyChange => matches!(verdict, Verdict::Worse | Verdict::Better | Verdict::Changed),
        FailOn::Never => false,
    }
}

impl BatchResult {
    /// An empty result for `opts` (filled by [`super::reduce`]).
    pub fn new(opts: &Options) -> Self {
        BatchResult {
            schema: RESULT_SCHEMA.to_string(),
            version: RESULT_VERSION,
            schedlab_version: env!("CARGO_PKG_VERSION").to_string(),
            options: ResultOptions {
                baseline: opts.baseline.clone(),
                test: opts.test.name().to_string(),
                alpha: opts.alpha,
                margin: opts.margin,
                power: opts.power,
                min_change: opts.min_change,
                fail_on: opts.fail_on.name().to_string(),
                allow_missing: opts.allow_missing,
            },
            inputs: Vec::new(),
            rows: Vec::new(),
            unmatched: Vec::new(),
            summary: Summary::default(),
            warnings: Vec::new(),
            errors: Vec::new(),
            missing: Vec::new(),
            exit_code: 0,
            timings: Timings::default(),
            notes: Vec::new(),
        }
    }

    /// The exit code for `fail_on`: 2 when an input could not be read or data is
    /// missing (unless `allow_missing`), else 1 when a row fails under `fail_on`, else
    /// (with `fail_on` inconclusive) 3 when a row is inconclusive, else 0.
    pub fn exit_code_for(&self, fail_on: FailOn) -> i32 {
        if !self.errors.is_empty() || (!self.missing.is_empty() && !self.options.allow_missing) {
            2
        } else if self.rows.iter().any(|r| fails(r.verdict, fail_on)) {
            1
        } else if fail_on == FailOn::Inconclusive && self.rows.iter().any(|r| r.verdict == Verdict::Inconclusive) {
            3
        } else {
            0
        }
    }

    /// The fail-on rule the result was computed with.
    pub fn fail_on(&self) -> FailOn {
        FailOn::parse(&self.options.fail_on).unwrap_or_default()
    }

    /// The JSON document (compact).
    pub fn to_json(&self) -> Result<String> {
        serde_json::to_string(self).map_err(|e| Error::Internal(format!("JSON encoding: {e}")))
    }

    /// The JSON document, indented by two spaces, with a final newline.
    pub fn to_json_pretty(&self) -> Result<String> {
        serde_json::to_string_pretty(self).map(|s| s + "\n").map_err(|e| Error::Internal(format!("JSON encoding: {e}")))
    }

    /// Read the JSON document back, checking its schema name, version and fields
    /// ([`BatchResult::from_value`]); a syntax error names the line.
    pub fn from_json(text: &str) -> Result<Self> {
        let v: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| Error::parse(Some(JSON_NAME), Some(e.line()), format!("invalid batch result JSON: {e}")))?;
        Self::from_value(v)
    }

    /// The document from its parsed JSON value: a domain error when it is not a
    /// [`RESULT_SCHEMA`] document of [`RESULT_VERSION`], a parse error naming the
    /// first field of [`REQUIRED`] it lacks or the field whose value does not fit.
    pub fn from_value(v: serde_json::Value) -> Result<Self> {
        let Some(obj) = v.as_object() else {
            return Err(Error::domain(format!(
                "not a {RESULT_SCHEMA} version {RESULT_VERSION} document: {}",
                kind(&v)
            )));
        };
        let (schema, version) = (obj.get("schema"), obj.get("version"));
        if schema.and_then(|s| s.as_str()) != Some(RESULT_SCHEMA)
            || version.and_then(|v| v.as_u64()) != Some(u64::from(RESULT_VERSION))
        {
            let show = |x: Option<&serde_json::Value>| x.map_or_else(|| "none".to_string(), |x| x.to_string());
            return Err(Error::domain(format!(
                "not a {RESULT_SCHEMA} version {RESULT_VERSION} document: schema={} version={} (this schedlab reads {RESULT_SCHEMA} version {RESULT_VERSION})",
                show(schema),
                show(version)
            )));
        }
        let absent: Vec<&str> = REQUIRED.iter().copied().filter(|k| !obj.contains_key(*k)).collect();
        if !absent.is_empty() {
            let msg = format!("not a complete {RESULT_SCHEMA} document: no {}", absent.join(", "));
            return Err(Error::parse(Some(JSON_NAME), None, msg));
        }
        serde_json::from_value(v)
            .map_err(|e| Error::parse(Some(JSON_NAME), None, format!("invalid batch result document: {e}")))
    }

    /// The rows judged worse (the regressions, whatever `fail_on` says).
    pub fn regressions(&self) -> Vec<&Row> {
        self.rows.iter().filter(|r| r.verdict == Verdict::Worse).collect()
    }

    /// The one-line summary a Python `repr()` shows: the baseline, the number of rows,
    /// of worse and better ones, and the exit code.
    pub fn repr_line(&self) -> String {
        let s = &self.summary;
        format!(
            "BatchResult(baseline='{}', rows={}, worse={}, better={}, exit_code={})",
            self.options.baseline, s.rows, s.worse, s.better, self.exit_code
        )
    }

    /// The same result apart from the measured [`Timings`], which differ between two
    /// runs on the same inputs.
    pub fn same_result(&self, other: &BatchResult) -> bool {
        let untimed = |r: &BatchResult| BatchResult { timings: Timings::default(), ..r.clone() };
        untimed(self) == untimed(other)
    }
}

/// One line of the JSON-lines form ([`BatchResult::to_jsonl`]): a header, one line
/// per input and per row (each with its measured seconds), and an end line with
/// the counts and lists, so a reader can stream the rows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "record", rename_all = "snake_case")]
pub enum Line {
    /// First line: what the document is and the options.
    Header {
        /// [`RESULT_SCHEMA`].
        schema: String,
        /// [`RESULT_VERSION`].
        version: u32,
        /// The schedlab that computed it.
        schedlab_version: String,
        /// The options used.
        options: ResultOptions,
    },
    /// One input, in input order.
    Input {
        /// What it held.
        #[serde(flatten)]
        input: InputSummary,
        /// Seconds its scan took.
        seconds: f64,
    },
    /// One row, in row order.
    Row {
        /// The row.
        #[serde(flatten)]
        row: Box<Row>,
        /// Seconds its statistics took.
        seconds: f64,
    },
    /// Last line: everything else.
    End {
        /// Runs not compared.
        unmatched: Vec<Unmatched>,
        /// Counts.
        summary: Summary,
        /// Warnings.
        warnings: Vec<String>,
        /// Unreadable inputs.
        errors: Vec<InputError>,
        /// Missing data.
        missing: Vec<InputError>,
        /// The exit code.
        exit_code: i32,
        /// Wall time of the run.
        total_seconds: f64,
        /// Why each MMTests benchmark was read with its era.
        #[serde(default)]
        notes: Vec<String>,
    },
}

impl BatchResult {
    /// The JSON-lines form: [`Line`]s, one JSON object a line, each line ending in `\n`.
    pub fn to_jsonl(&self) -> Result<String> {
        let mut lines = vec![Line::Header {
            schema: self.schema.clone(),
            version: self.version,
            schedlab_version: self.schedlab_version.clone(),
            options: self.options.clone(),
        }];
        for (i, input) in self.inputs.iter().enumerate() {
            lines.push(Line::Input {
                input: input.clone(),
                seconds: self.timings.inputs.get(i).copied().unwrap_or(0.0),
            });
        }
        for (i, row) in self.rows.iter().enumerate() {
            lines.push(Line::Row {
                row: Box::new(row.clone()),
                seconds: self.timings.rows.get(i).copied().unwrap_or(0.0),
            });
        }
        lines.push(Line::End {
            unmatched: self.unmatched.clone(),
            summary: self.summary.clone(),
            warnings: self.warnings.clone(),
            errors: self.errors.clone(),
            missing: self.missing.clone(),
            exit_code: self.exit_code,
            total_seconds: self.timings.total,
            notes: self.notes.clone(),
        });
        let mut out = String::new();
        for (i, l) in lines.iter().enumerate() {
            crate::cancel::check_every(i)?;
            out.push_str(&serde_json::to_string(l).map_err(|e| Error::Internal(format!("JSON encoding: {e}")))?);
            out.push('\n');
        }
        Ok(out)
    }

    /// Read the JSON-lines form back: a header first, an end line last.
    pub fn from_jsonl(text: &str) -> Result<Self> {
        const NAME: &str = "<batch result jsonl>";
        let mut res: Option<BatchResult> = None;
        let mut ended = false;
        for (n, text) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let at = Some(n + 1);
            if ended {
                return Err(Error::parse(Some(NAME), at, "a line after the end record"));
            }
            let line: Line = serde_json::from_str(text)
                .map_err(|e| Error::parse(Some(NAME), at, format!("invalid batch result line: {e}")))?;
            match (line, res.as_mut()) {
                (Line::Header { schema, version, schedlab_version, options }, None) => {
                    if schema != RESULT_SCHEMA || version != RESULT_VERSION {
                        return Err(Error::domain(format!(
                            "batch result {schema} version {version} is not supported (this schedlab reads \
                             {RESULT_SCHEMA} version {RESULT_VERSION})"
                        )));
                    }
                    let mut r = BatchResult::new(&Options::new(options.baseline.clone()));
                    r.schedlab_version = schedlab_version;
                    r.options = options;
                    res = Some(r);
                }
                (_, None) => return Err(Error::parse(Some(NAME), at, "expected the header record first")),
                (Line::Header { .. }, Some(_)) => return Err(Error::parse(Some(NAME), at, "a second header record")),
                (Line::Input { input, seconds }, Some(r)) => {
                    r.inputs.push(input);
                    r.timings.inputs.push(seconds);
                }
                (Line::Row { row, seconds }, Some(r)) => {
                    r.rows.push(*row);
                    r.timings.rows.push(seconds);
                }
                (
                    Line::End { unmatched, summary, warnings, errors, missing, exit_code, total_seconds, notes },
                    Some(r),
                ) => {
                    r.unmatched = unmatched;
                    r.summary = summary;
                    r.warnings = warnings;
                    r.errors = errors;
                    r.missing = missing;
                    r.exit_code = exit_code;
                    r.timings.total = total_seconds;
                    r.notes = notes;
                    ended = true;
                }
            }
        }
        match res {
            Some(r) if ended => Ok(r),
            _ => Err(Error::parse(Some(NAME), None, "no end record: the output was cut short")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repr_line_and_no_regressions_of_an_empty_result() {
        let r = BatchResult::new(&Options::new("v6.1"));
        assert_eq!(r.repr_line(), "BatchResult(baseline='v6.1', rows=0, worse=0, better=0, exit_code=0)");
        assert!(r.regressions().is_empty());
    }
}
