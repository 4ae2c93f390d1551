//! [`Comparison`]: rows × kernels of cells, serialisable to the versioned JSON
//! schema that the Python layer, `schedlab batch` and the renderers share.

use super::cell_test::CellTest;
use super::meta::Meta;
use super::rows::Rows;
use super::verdict::Verdict;
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// Version of the JSON form of [`Comparison`]; bump on incompatible changes.
pub const SCHEMA_VERSION: u32 = 1;

/// Which way is better for a metric.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// Bigger values are better (throughput, score).
    Higher,
    /// Smaller values are better (time, latency).
    Lower,
    /// Not known (many lkp monitor counters).
    #[default]
    Unknown,
}

impl crate::choice::Choice for Direction {
    const WHAT: &'static str = "direction";
    const ALL: &'static [Self] = &[Direction::Higher, Direction::Lower, Direction::Unknown];

    fn name(self) -> &'static str {
        Direction::name(self)
    }
}

impl Direction {
    /// "higher", "lower" or "unknown".
    pub fn name(self) -> &'static str {
        match self {
            Direction::Higher => "higher",
            Direction::Lower => "lower",
            Direction::Unknown => "unknown",
        }
    }

    /// The direction named `s` ([`crate::choice::Choice::parse`]).
    pub fn parse(s: &str) -> Result<Self> {
        <Self as crate::choice::Choice>::parse(s)
    }

    /// `Higher` when `higher_is_better`, else `Lower`.
    pub fn from_higher(higher_is_better: bool) -> Self {
        if higher_is_better {
            Direction::Higher
        } else {
            Direction::Lower
        }
    }
}

/// What a cell's `change` means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum ChangeKind {
    /// Percent, positive = better (MMTests' and AMD's tables).
    Improvement,
    /// Percent, (new − base)/base·100 regardless of direction (lkp's `%change`).
    #[default]
    Percent,
    /// Absolute difference new − base (lkp for `%` metrics and perf-profile).
    Absolute,
}

impl ChangeKind {
    /// Parse "improvement", "percent" or "absolute".
    pub fn parse(s: &str) -> Result<Self> {
        match s {
            "improvement" => Ok(ChangeKind::Improvement),
            "percent" => Ok(ChangeKind::Percent),
            "absolute" => Ok(ChangeKind::Absolute),
            _ => Err(Error::domain(format!("change_kind must be 'improvement', 'percent' or 'absolute', got '{s}'"))),
        }
    }

    /// "improvement", "percent" or "absolute".
    pub fn name(self) -> &'static str {
        match self {
            ChangeKind::Improvement => "improvement",
            ChangeKind::Percent => "percent",
            ChangeKind::Absolute => "absolute",
        }
    }
}

/// One kernel's entry in a row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct Cell {
    /// The displayed statistic; None where the tool shows nothing or NaN.
    #[serde(default)]
    pub value: Option<f64>,
    /// Spread of the value (e.g. lkp's %stddev, a coefficient of variation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spread: Option<f64>,
    /// Change against the baseline, in the row's [`ChangeKind`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub change: Option<f64>,
    /// The source tool's own significance marker, where it prints one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub significant: Option<bool>,
    /// p-value of the test that decided the verdict.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p: Option<f64>,
    /// Multiple-comparison adjusted p-value (BH q), where computed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub q: Option<f64>,
    /// The test or rule behind `p`/`significant` (e.g. "welch", "mmtests-ci").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub test: Option<CellTest>,
    /// The decision for this cell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<Verdict>,
    /// Number of samples behind the value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n: Option<u64>,
    /// The raw samples, where known (for plots and re-testing); a boxed slice, which
    /// keeps no spare capacity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub samples: Option<Box<[f64]>>,
}

impl Cell {
    /// The cell with its numbers that are not finite (NaN, ±inf) as None, as the JSON
    /// form writes them.
    pub fn finite_only(mut self) -> Cell {
        let keep = |x: Option<f64>| x.filter(|v| v.is_finite());
        self.value = keep(self.value);
        self.spread = keep(self.spread);
        self.change = keep(self.change);
        self.p = keep(self.p);
        self.q = keep(self.q);
        self
    }
}

/// One operation or metric across all kernels.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct Row {
    /// Statistic or section (e.g. "Hmean", "Amean", "BAmean-95"; "" for lkp metrics).
    #[serde(default)]
    pub group: String,
    /// Operation or metric name (e.g. "send-64", "unixbench.score").
    pub name: String,
    /// Which way is better.
    #[serde(default)]
    pub direction: Direction,
    /// Meaning of the cells' `change`.
    #[serde(default)]
    pub change_kind: ChangeKind,
    /// Unit of the values, where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    /// One cell per kernel, in [`Comparison::kernels`] order.
    pub cells: Vec<Cell>,
}

/// A comparison table: kernels (the first is the baseline) × rows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// JSON schema version ([`SCHEMA_VERSION`]).
    pub schema: u32,
    /// Producing tool or format: "mmtests", "lkp", "amd", "schedlab".
    pub tool: String,
    /// Benchmark or test name.
    #[serde(default)]
    pub benchmark: String,
    /// Kernel (or commit) names; index 0 is the baseline.
    pub kernels: Vec<String>,
    /// The rows, in display order.
    pub rows: Rows,
    /// What the table records about itself: its tool's layout, the verdicts' test,
    /// warnings, a user's facts ([`Meta`]).
    #[serde(default)]
    pub meta: Meta,
}

impl Comparison {
    /// An empty comparison of `kernels` by `tool`.
    pub fn new(tool: impl Into<String>, benchmark: impl Into<String>, kernels: Vec<String>) -> Self {
        Comparison {
            schema: SCHEMA_VERSION,
            tool: tool.into(),
            benchmark: benchmark.into(),
            kernels,
            rows: Rows::new(),
            meta: Meta::default(),
        }
    }

    /// The comparison with every cell's non-finite numbers as None ([`Cell::finite_only`]).
    pub fn finite_only(mut self) -> Comparison {
        self.rows.finite_only();
        self
    }

    /// Check the shape: at least one kernel, and every row has one cell per kernel.
    pub fn validate(&self) -> Result<()> {
        if self.schema != SCHEMA_VERSION {
            return Err(Error::domain(format!(
                "comparison schema {} is not supported (this schedlab reads {SCHEMA_VERSION})",
                self.schema
            )));
        }
        if self.kernels.is_empty() {
            return Err(Error::domain("a comparison needs at least one kernel"));
        }
        for i in 0..self.rows.len() {
            let cells = self.rows.cell_count(i);
            if cells != self.kernels.len() {
                return Err(Error::domain(format!(
                    "row '{} {}' has {cells} cells for {} kernels",
                    self.rows.group(i).unwrap_or_default(),
                    self.rows.name(i).unwrap_or_default(),
                    self.kernels.len()
                )));
            }
        }
        Ok(())
    }

    /// The JSON form (NaN and infinities become null).
    pub fn to_json(&self) -> Result<String> {
        serde_json::to_string(self).map_err(|e| Error::Internal(format!("JSON encoding: {e}")))
    }

    /// The JSON form, pretty-printed with `indent` spaces per level when given (as
    /// Python's `json.dumps(indent=...)` lays it out), else on one line.
    pub fn to_json_indented(&self, indent: Option<usize>) -> Result<String> {
        crate::json_text::to_string(self, indent)
    }

    /// Read the JSON form back, validating it: a wrong shape (cells per row, schema) is
    /// a parse error of the JSON, as a syntax error is.
    pub fn from_json(text: &str) -> Result<Self> {
        const SOURCE: &str = "<comparison json>";
        let c: Comparison = serde_json::from_str(text).map_err(|e| {
            let line = (e.line() > 0).then_some(e.line());
            Error::parse(Some(SOURCE), line, format!("invalid comparison JSON: {e}"))
        })?;
        c.validated(SOURCE)
    }

    /// A comparison read from some form (`source` names it in errors), validated: a
    /// wrong shape is a parse error of that source.
    pub fn validated(self, source: &str) -> Result<Self> {
        self.validate().map_err(|e| Error::parse(Some(source), None, format!("not a valid comparison: {e}")))?;
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_finite_numbers_become_none() {
        let c = Cell { value: Some(f64::NAN), change: Some(f64::INFINITY), p: Some(0.5), ..Default::default() };
        let f = c.finite_only();
        assert_eq!((f.value, f.change, f.p), (None, None, Some(0.5)));
    }

    #[test]
    fn json_round_trip_and_validation() {
        let mut c = Comparison::new("mmtests", "netperf-udp", vec!["a".into(), "b".into()]);
        c.rows.push(Row {
            group: "Hmean".into(),
            name: "send-64".into(),
            direction: Direction::Higher,
            change_kind: ChangeKind::Improvement,
            unit: None,
            cells: vec![
                Cell { value: Some(431.34), change: Some(0.0), ..Default::default() },
                Cell { value: Some(428.83), change: Some(-0.58), significant: Some(false), ..Default::default() },
            ],
        });
        let j = c.to_json().unwrap();
        assert_eq!(Comparison::from_json(&j).unwrap(), c);
        let mut short = c.rows.first().unwrap();
        short.cells.pop();
        c.rows = Rows::from(vec![short]);
        let j = c.to_json().unwrap();
        // a wrong shape is a parse error of the JSON (fuzz regression comparison_json/row-with-too-few-cells)
        let e = Comparison::from_json(&j).unwrap_err();
        assert!(matches!(&e, Error::Parse { loc, .. } if loc.path.as_deref() == Some("<comparison json>")), "{e:?}");
        assert!(e.to_string().contains("has 1 cells for 2 kernels"), "{e}");
        assert!(matches!(Comparison::from_json("{"), Err(Error::Parse { .. })));
    }
}
