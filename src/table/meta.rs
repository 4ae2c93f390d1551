//! [`Meta`]: what a comparison records about itself, typed — the layout facts a tool's
//! text renderer needs (MMTests' field length and precision, lkp's axes and options, the
//! units, statistic and labels), the test that decided the verdicts, warnings, and facts a user
//! gave. The JSON form writes it as one flat `meta` object under the keys of
//! docs/tables.md §1.1; this file is the one place that knows those keys. Documents
//! written before the values were typed (every value a string, lists as JSON text, lkp's
//! options without the `lkp.` prefix) still read.

use super::comparison::Direction;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// Which of compare-mmtests.pl's two layouts a table has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MmtestsLayout {
    /// The comparison table: statistic × operation rows, `value (change%)` cells.
    #[default]
    Table,
    /// `--print-ratio`: Ratio rows with `(change%) (n s)`, then Dmean/Dmin/Dmax/Gmean.
    Ratio,
}

/// MMTests' layout of a table (docs/mmtests.md §5.4, §7.5).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MmtestsMeta {
    /// Comparison or ratio table (`mmtests.layout`).
    pub layout: MmtestsLayout,
    /// Values without percentages, as `--print-monitor` prints (`mmtests.compare` = `hidden`).
    pub values_only: bool,
    /// Parsed from text (mail) rather than extracted from logs (`mmtests.source` = `parsed`).
    pub parsed: bool,
    /// The MMTests era whose rules made the table (`mmtests.era`: 2018, 2024, 2025, head).
    pub era: Option<String>,
    /// Why that era was chosen (`mmtests.era_reason`).
    pub era_reason: Option<String>,
    /// Width of a value field (`mmtests.field_length`; 12 when not given).
    pub field_length: Option<usize>,
    /// Decimals of a value (`mmtests.precision`; 2 when not given).
    pub precision: Option<usize>,
    /// The benchmark's better direction, MMTests' preferred value (`mmtests.preferred`).
    pub preferred: Option<Direction>,
    /// The statistic `--print-ratio` divides (`mmtests.ratio_group`, e.g. Hmean).
    pub ratio_group: Option<String>,
    /// The operations `--print-ratio` divides (`mmtests.ratio_ops`).
    pub ratio_ops: Option<Vec<String>>,
    /// The summary kind of the benchmark's extractor (`mmtests.summary`).
    pub summary: Option<String>,
    /// The `--sub-heading` the table was restricted to (`mmtests.subheading`).
    pub subheading: Option<String>,
    /// How many runs a parsed ratio table printed formatted (`mmtests.formatted_runs`).
    pub formatted_runs: Option<usize>,
    /// Whether a ratio table had normalised rows (`mmtests.norm`).
    pub norm: Option<bool>,
    /// The label column widths of a parsed table (`mmtests.label_width`, `mmtests.op_width`).
    pub label_width: Option<usize>,
    /// See `label_width`.
    pub op_width: Option<usize>,
    /// The monitor of a `--print-monitor` table (`mmtests.monitor`).
    pub monitor: Option<String>,
    /// The runs compare-mmtests.pl lost while summarising them (`mmtests.lost_runs`,
    /// docs/mmtests.md §12): a lost run whose column is kept is one of the table's
    /// kernels, printed without a name.
    pub lost_runs: Vec<LostRun>,
}

/// A run compare-mmtests.pl lost (its summary died inside the Perl's per-run `eval`),
/// and why (docs/mmtests.md §12).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LostRun {
    /// The run's name.
    pub run: String,
    /// Why its summary died, without its name.
    pub reason: String,
    /// Whether the table keeps its column (without a name, 0.00 cells): every lost run
    /// but the last does.
    pub column_kept: bool,
}

impl LostRun {
    /// The line saying what the table leaves out (a missing-data line of
    /// `schedlab mmtests compare`).
    pub fn message(&self) -> String {
        let column = if self.column_kept {
            "prints an unnamed column of 0.00 cells in its place"
        } else {
            "leaves its column out"
        };
        format!(
            "run '{}' is not in the table: {}; compare-mmtests.pl drops the run and {column}",
            self.run, self.reason
        )
    }
}

impl MmtestsMeta {
    /// Whether `kernel` is a lost run whose column the table keeps (printed without a name).
    pub fn is_blank_column(&self, kernel: &str) -> bool {
        self.lost_runs.iter().any(|l| l.column_kept && l.run == kernel)
    }
}

/// lkp's compare options and result axes, which its text needs (docs/lkp.md §5).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LkpMeta {
    /// Per result root, its axes as (key, value) pairs (`lkp.axes`).
    pub axes: Option<Vec<Vec<(String, String)>>>,
    /// `-a`: every key shown (`lkp.all_keys`).
    pub all_keys: bool,
    /// `-m`: more keys shown (`lkp.more`).
    pub more: bool,
    /// The axes that tell the roots apart (`lkp.compare_keys`).
    pub compare_keys: Vec<String>,
    /// Whether the axes differ per root (`lkp.per_root_axes`).
    pub per_root_axes: bool,
    /// Where the table came from when not from result roots (`lkp.source`, e.g. "parsed report").
    pub source: Option<String>,
}

/// The test that decided a table's verdicts.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct VerdictMeta {
    /// Its name (`schedlab.verdict_test`: welch, mann-whitney).
    pub test: String,
    /// The significance level, where the tool records it (`schedlab.alpha`).
    pub alpha: Option<f64>,
}

/// What a comparison records about itself (see the module comment).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Meta {
    /// MMTests' layout, for tables of that tool.
    pub mmtests: Option<MmtestsMeta>,
    /// lkp's options and axes, for tables of that tool.
    pub lkp: Option<LkpMeta>,
    /// The test behind the verdicts, when one was applied.
    pub verdicts: Option<VerdictMeta>,
    /// What the reader warned about (`schedlab.warnings`).
    pub warnings: Vec<String>,
    /// The machine a pasted table names (`machine`).
    pub machine: Option<String>,
    /// Decimals of the values in the generic views (`precision`).
    pub precision: Option<usize>,
    /// The values' unit (`units`; AMD's `Units` line).
    pub units: Option<String>,
    /// The statistic the values are (`statistic`, e.g. AMean; AMD's `Statistic` line).
    pub statistic: Option<String>,
    /// The first column's header (`label`, e.g. "Case", as AMD's tables print it).
    pub label: Option<String>,
    /// Which way is better for a table without rows to say it (`interpretation`).
    pub interpretation: Option<Direction>,
    /// The configuration every compared run shares, as Go's benchmark format gives
    /// it (`benchfmt.config`: `key: value` lines, printed above the benchstat view).
    pub config: Vec<(String, String)>,
    /// The units whose values are exact (`benchfmt.exact_units`: Go's `Unit U
    /// assume=exact`; the benchstat view prints no interval or test for them).
    pub exact_units: Vec<String>,
    /// Anything else a user recorded, as given.
    pub other: BTreeMap<String, Value>,
}

fn put<T: Into<Value>>(m: &mut Map<String, Value>, key: &str, v: Option<T>) {
    if let Some(v) = v {
        m.insert(key.to_string(), v.into());
    }
}

/// MMTests' spelling of a direction in `mmtests.preferred` ("Higher", "Lower", "Unknown").
pub fn direction_name(d: Direction) -> &'static str {
    match d {
        Direction::Higher => "Higher",
        Direction::Lower => "Lower",
        Direction::Unknown => "Unknown",
    }
}

impl Meta {
    /// The JSON form: one flat object (docs/tables.md §1.1).
    pub fn to_map(&self) -> Map<String, Value> {
        let mut m: Map<String, Value> = self.other.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        if let Some(mm) = &self.mmtests {
            let layout = match mm.layout {
                MmtestsLayout::Table => "table",
                MmtestsLayout::Ratio => "ratio",
            };
            put(&mut m, "mmtests.layout", Some(layout));
            put(&mut m, "mmtests.compare", mm.values_only.then_some("hidden"));
            put(&mut m, "mmtests.source", mm.parsed.then_some("parsed"));
            put(&mut m, "mmtests.era", mm.era.clone());
            put(&mut m, "mmtests.era_reason", mm.era_reason.clone());
            put(&mut m, "mmtests.field_length", mm.field_length);
            put(&mut m, "mmtests.precision", mm.precision);
            put(&mut m, "mmtests.preferred", mm.preferred.map(direction_name));
            put(&mut m, "mmtests.ratio_group", mm.ratio_group.clone());
            put(&mut m, "mmtests.ratio_ops", mm.ratio_ops.clone());
            put(&mut m, "mmtests.summary", mm.summary.clone());
            put(&mut m, "mmtests.subheading", mm.subheading.clone());
            put(&mut m, "mmtests.formatted_runs", mm.formatted_runs);
            put(&mut m, "mmtests.norm", mm.norm);
            put(&mut m, "mmtests.label_width", mm.label_width);
            put(&mut m, "mmtests.op_width", mm.op_width);
            put(&mut m, "mmtests.monitor", mm.monitor.clone());
            if !mm.lost_runs.is_empty() {
                let lost = mm
                    .lost_runs
                    .iter()
                    .map(|l| {
                        let mut o = Map::new();
                        o.insert("run".into(), l.run.clone().into());
                        o.insert("reason".into(), l.reason.clone().into());
                        o.insert("column_kept".into(), l.column_kept.into());
                        Value::Object(o)
                    })
                    .collect::<Vec<Value>>();
                put(&mut m, "mmtests.lost_runs", Some(lost));
            }
        }
        if let Some(l) = &self.lkp {
            let axes = l.axes.as_ref().map(|a| {
                Value::Array(
                    a.iter()
                        .map(|root| {
                            Value::Array(
                                root.iter()
                                    .map(|(k, v)| Value::Array(vec![k.clone().into(), v.clone().into()]))
                                    .collect(),
                            )
                        })
                        .collect(),
                )
            });
            put(&mut m, "lkp.axes", axes);
            put(&mut m, "lkp.all_keys", Some(l.all_keys));
            put(&mut m, "lkp.more", Some(l.more));
            put(&mut m, "lkp.compare_keys", Some(l.compare_keys.clone()));
            put(&mut m, "lkp.per_root_axes", Some(l.per_root_axes));
            put(&mut m, "lkp.source", l.source.clone());
        }
        if let Some(v) = &self.verdicts {
            put(&mut m, "schedlab.verdict_test", Some(v.test.clone()));
            put(&mut m, "schedlab.alpha", v.alpha);
        }
        if !self.warnings.is_empty() {
            put(&mut m, "schedlab.warnings", Some(self.warnings.clone()));
        }
        put(&mut m, "machine", self.machine.clone());
        put(&mut m, "precision", self.precision);
        put(&mut m, "units", self.units.clone());
        put(&mut m, "statistic", self.statistic.clone());
        put(&mut m, "label", self.label.clone());
        put(&mut m, "interpretation", self.interpretation.map(|d| d.name()));
        if !self.config.is_empty() {
            let pairs =
                self.config.iter().map(|(k, v)| Value::Array(vec![k.clone().into(), v.clone().into()])).collect();
            put(&mut m, "benchfmt.config", Some(Value::Array(pairs)));
        }
        if !self.exact_units.is_empty() {
            put(&mut m, "benchfmt.exact_units", Some(self.exact_units.clone()));
        }
        m
    }

    /// Read the JSON form back; a value of the wrong type is an error naming its key.
    pub fn from_map(map: Map<String, Value>) -> Result<Meta, String> {
        let mut meta = Meta::default();
        for (key, v) in map {
            let k = key.as_str();
            if let Some(field) = k.strip_prefix("mmtests.") {
                let mm = meta.mmtests.get_or_insert_with(MmtestsMeta::default);
                match field {
                    "layout" => {
                        mm.layout = match text(k, &v)?.as_str() {
                            "table" => MmtestsLayout::Table,
                            "ratio" => MmtestsLayout::Ratio,
                            other => return Err(format!("{k}: expected 'table' or 'ratio', got '{other}'")),
                        }
                    }
                    "compare" => mm.values_only = text(k, &v)? == "hidden",
                    "source" => mm.parsed = text(k, &v)? == "parsed",
                    "era" => mm.era = Some(text(k, &v)?),
                    "era_reason" => mm.era_reason = Some(text(k, &v)?),
                    "field_length" => mm.field_length = Some(count(k, &v)?),
                    "precision" => mm.precision = Some(count(k, &v)?),
                    "preferred" => mm.preferred = Some(direction(k, &v)?),
                    "ratio_group" => mm.ratio_group = Some(text(k, &v)?),
                    "ratio_ops" => mm.ratio_ops = Some(texts(k, v)?),
                    "summary" => mm.summary = Some(text(k, &v)?),
                    "subheading" => mm.subheading = Some(text(k, &v)?),
                    "formatted_runs" => mm.formatted_runs = Some(count(k, &v)?),
                    "norm" => mm.norm = Some(flag(k, &v)?),
                    "label_width" => mm.label_width = Some(count(k, &v)?),
                    "op_width" => mm.op_width = Some(count(k, &v)?),
                    "monitor" => mm.monitor = Some(text(k, &v)?),
                    "lost_runs" => mm.lost_runs = lost_runs(k, v)?,
                    _ => {
                        meta.other.insert(key, v);
                    }
                }
                continue;
            }
            // lkp's options were written without a prefix before the values were typed
            let lkp_field = k.strip_prefix("lkp.").or(match k {
                "axes" | "all_keys" | "more" | "compare_keys" | "per_root_axes" => Some(k),
                _ => None,
            });
            if let Some(field) = lkp_field {
                let l = meta.lkp.get_or_insert_with(LkpMeta::default);
                match field {
                    "axes" => l.axes = Some(axes(k, v)?),
                    "all_keys" => l.all_keys = flag(k, &v)?,
                    "more" => l.more = flag(k, &v)?,
                    "compare_keys" => l.compare_keys = keys(k, v)?,
                    "per_root_axes" => l.per_root_axes = flag(k, &v)?,
                    "source" => l.source = Some(text(k, &v)?),
                    _ => {
                        meta.other.insert(key, v);
                    }
                }
                continue;
            }
            match k {
                "label" => meta.label = Some(text(k, &v)?),
                "units" => meta.units = Some(text(k, &v)?),
                "statistic" => meta.statistic = Some(text(k, &v)?),
                "interpretation" => meta.interpretation = Some(direction(k, &v)?),
                "schedlab.verdict_test" | "verdict_test" => {
                    meta.verdicts.get_or_insert_with(VerdictMeta::default).test = text(k, &v)?
                }
                "schedlab.alpha" | "alpha" => {
                    meta.verdicts.get_or_insert_with(VerdictMeta::default).alpha = Some(number(k, &v)?)
                }
                "schedlab.warnings" => {
                    meta.warnings = match v {
                        Value::String(s) => s.lines().map(str::to_string).collect(),
                        v => texts(k, v)?,
                    }
                }
                "machine" => meta.machine = Some(text(k, &v)?),
                "precision" => meta.precision = Some(count(k, &v)?),
                "benchfmt.config" => meta.config = pairs(k, v)?,
                "benchfmt.exact_units" => meta.exact_units = texts(k, v)?,
                _ => {
                    meta.other.insert(key, v);
                }
            }
        }
        Ok(meta)
    }

    /// The decimals the generic views print a value with: the table's own `precision`,
    /// else MMTests' (docs/tables.md §2).
    pub fn value_precision(&self) -> Option<usize> {
        self.precision.or_else(|| self.mmtests.as_ref().and_then(|m| m.precision))
    }

    /// Whether the table has MMTests' ratio layout.
    pub fn is_mmtests_ratio(&self) -> bool {
        self.mmtests.as_ref().is_some_and(|m| m.layout == MmtestsLayout::Ratio)
    }
}

fn text(k: &str, v: &Value) -> Result<String, String> {
    match v {
        Value::String(s) => Ok(s.clone()),
        Value::Number(n) => Ok(n.to_string()),
        other => Err(format!("{k}: expected a string, got {other}")),
    }
}

/// A non-negative integer, or one written as a string of digits (the untyped form).
fn count(k: &str, v: &Value) -> Result<usize, String> {
    let n = match v {
        Value::Number(n) => n.as_u64(),
        Value::String(s) if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => s.parse().ok(),
        _ => None,
    };
    n.and_then(|n| usize::try_from(n).ok()).ok_or_else(|| format!("{k}: expected a non-negative integer, got {v}"))
}

fn number(k: &str, v: &Value) -> Result<f64, String> {
    let n = match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.parse().ok(),
        _ => None,
    };
    n.ok_or_else(|| format!("{k}: expected a number, got {v}"))
}

fn flag(k: &str, v: &Value) -> Result<bool, String> {
    match v {
        Value::Bool(b) => Ok(*b),
        Value::String(s) if matches!(s.as_str(), "true" | "yes") => Ok(true),
        Value::String(s) if matches!(s.as_str(), "false" | "no") => Ok(false),
        other => Err(format!("{k}: expected true or false, got {other}")),
    }
}

fn direction(k: &str, v: &Value) -> Result<Direction, String> {
    match text(k, v)?.to_ascii_lowercase().as_str() {
        "higher" => Ok(Direction::Higher),
        "lower" => Ok(Direction::Lower),
        "unknown" => Ok(Direction::Unknown),
        other => Err(format!("{k}: expected Higher or Lower, got '{other}'")),
    }
}

/// A list, or the untyped form's list written as JSON text.
fn list(k: &str, v: Value) -> Result<Vec<Value>, String> {
    match v {
        Value::Array(a) => Ok(a),
        Value::String(s) => match serde_json::from_str(&s) {
            Ok(Value::Array(a)) => Ok(a),
            _ => Err(format!("{k}: expected a list, got '{s}'")),
        },
        other => Err(format!("{k}: expected a list, got {other}")),
    }
}

fn texts(k: &str, v: Value) -> Result<Vec<String>, String> {
    list(k, v)?.iter().map(|x| text(k, x)).collect()
}

/// lkp's compare keys: a list, or the untyped form's comma-separated text.
fn keys(k: &str, v: Value) -> Result<Vec<String>, String> {
    match v {
        Value::String(s) => Ok(s.split(',').filter(|x| !x.is_empty()).map(str::to_string).collect()),
        v => texts(k, v),
    }
}

/// `mmtests.lost_runs`: objects with `run`, `reason` and `column_kept`.
fn lost_runs(k: &str, v: Value) -> Result<Vec<LostRun>, String> {
    list(k, v)?
        .into_iter()
        .map(|o| {
            let Value::Object(o) = o else {
                return Err(format!("{k}: expected objects with run, reason, column_kept"));
            };
            let field = |name: &str| o.get(name).ok_or_else(|| format!("{k}: an entry without '{name}'"));
            Ok(LostRun {
                run: text(k, field("run")?)?,
                reason: text(k, field("reason")?)?,
                column_kept: flag(k, field("column_kept")?)?,
            })
        })
        .collect()
}

fn axes(k: &str, v: Value) -> Result<Vec<Vec<(String, String)>>, String> {
    list(k, v)?.into_iter().map(|root| pairs(k, root)).collect()
}

/// A list of `[key, value]` pairs.
fn pairs(k: &str, v: Value) -> Result<Vec<(String, String)>, String> {
    list(k, v)?
        .into_iter()
        .map(|pair| match list(k, pair)?.as_slice() {
            [a, b] => Ok((text(k, a)?, text(k, b)?)),
            _ => Err(format!("{k}: expected [key, value] pairs")),
        })
        .collect()
}

impl Serialize for Meta {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_map().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Meta {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let map = Map::<String, Value>::deserialize(d)?;
        Meta::from_map(map).map_err(|e| D::Error::custom(format!("meta: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_untyped_form_of_older_documents_reads() {
        let old = serde_json::json!({
            "mmtests.era": "2025", "mmtests.field_length": "12", "mmtests.layout": "ratio",
            "mmtests.norm": "no", "mmtests.preferred": "Higher",
            "mmtests.ratio_ops": "[\"send-64\",\"send-128\"]", "schedlab.warnings": "a\nb",
            "axes": "[[[\"testcase\",\"unixbench\"]]]", "all_keys": "true", "compare_keys": "commit,rootfs",
            "verdict_test": "welch", "alpha": "0.05", "mine": "kept"
        });
        let Value::Object(map) = old else { unreachable!() };
        let m = Meta::from_map(map).unwrap();
        let mm = m.mmtests.as_ref().unwrap();
        assert_eq!(mm.field_length, Some(12));
        assert_eq!(mm.layout, MmtestsLayout::Ratio);
        assert_eq!(mm.norm, Some(false));
        assert_eq!(mm.preferred, Some(Direction::Higher));
        assert_eq!(mm.ratio_ops.as_deref(), Some(&["send-64".to_string(), "send-128".to_string()][..]));
        assert_eq!(m.warnings, ["a", "b"]);
        let l = m.lkp.as_ref().unwrap();
        assert_eq!(l.axes, Some(vec![vec![("testcase".to_string(), "unixbench".to_string())]]));
        assert!(l.all_keys);
        assert_eq!(l.compare_keys, ["commit", "rootfs"]);
        assert_eq!(m.verdicts, Some(VerdictMeta { test: "welch".into(), alpha: Some(0.05) }));
        assert_eq!(m.other["mine"], "kept");
        // and the typed form reads back to the same value
        assert_eq!(Meta::from_map(m.to_map()).unwrap(), m);
        let go = Meta {
            config: vec![("goos".into(), "linux".into()), ("cpu".into(), "x".into())],
            exact_units: vec!["text-bytes".into()],
            ..Meta::default()
        };
        assert_eq!(Meta::from_map(go.to_map()).unwrap(), go);
    }

    #[test]
    fn a_value_of_the_wrong_type_names_its_key() {
        let Value::Object(map) = serde_json::json!({"mmtests.field_length": "wide"}) else { unreachable!() };
        let e = Meta::from_map(map).unwrap_err();
        assert!(e.contains("mmtests.field_length") && e.contains("integer"), "{e}");
    }
}
