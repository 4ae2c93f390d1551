//! What a batch run is asked: the baseline, the test behind the p-values, the
//! verdict thresholds, what makes the run fail, and how much it may cost.

use crate::archive::Limits;
use crate::choice::Choice;
use crate::error::{Error, Result};
use crate::table::VerdictRule;
use serde::{Deserialize, Serialize};

pub use crate::stats::Test;

/// Which verdicts make the run fail (exit code 1, or 3 for `inconclusive`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum FailOn {
    /// A row judged `worse` (a significant change in the bad direction).
    #[default]
    #[serde(rename = "regression")]
    Regression,
    /// Any significant change: `worse`, `better` or `changed`.
    #[serde(rename = "any-change")]
    AnyChange,
    /// Never: the run only reports (exit code 0 unless an input is bad).
    #[serde(rename = "never")]
    Never,
    /// A regression (exit code 1), else any row judged `inconclusive` (exit code 3):
    /// CI can tell "worse" from "needs more runs".
    #[serde(rename = "inconclusive")]
    Inconclusive,
}

impl Choice for FailOn {
    const WHAT: &'static str = "fail-on";
    const ALL: &'static [Self] = &[FailOn::Regression, FailOn::AnyChange, FailOn::Inconclusive, FailOn::Never];

    /// The name used on the command line and in results.
    fn name(self) -> &'static str {
        match self {
            FailOn::Regression => "regression",
            FailOn::AnyChange => "any-change",
            FailOn::Never => "never",
            FailOn::Inconclusive => "inconclusive",
        }
    }
}

/// Options of a batch run ([`super::run`], [`super::reduce`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// The baseline kernel (MMTests run name) or commit (lkp; a unique prefix of at
    /// least 7 characters also matches).
    pub baseline: String,
    /// The test behind each row's p-value.
    pub test: Test,
    /// Significance level of the BH-adjusted p-value (q < alpha) and of the
    /// equivalence test, in (0, 1).
    pub alpha: f64,
    /// Equivalence margin in percent of the baseline mean (docs/verdicts.md).
    pub margin: f64,
    /// Power wanted against a change of the margin (for the runs needed).
    pub power: f64,
    /// Minimum absolute percent change to call a row better or worse.
    pub min_change: f64,
    /// Which verdicts fail the run.
    pub fail_on: FailOn,
    /// Worker threads (None = `SCHEDLAB_NUM_THREADS`, else the CPUs).
    pub jobs: Option<usize>,
    /// Bounds on reading each archive.
    pub limits: Limits,
    /// Record a bad input in the result (exit code 2) and go on with the others,
    /// instead of stopping at the first one.
    pub keep_going: bool,
    /// Data found missing (an unreadable directory, a log without a result line, a
    /// metric without samples on a side, a kernel without its baseline) is listed in
    /// [`super::BatchResult::missing`] either way; with this it no longer makes the
    /// exit code 2 (docs/batch.md: fail closed).
    pub allow_missing: bool,
    /// How progress is shown on stderr.
    pub progress: super::progress::Mode,
}

impl Default for Options {
    fn default() -> Self {
        let rule = VerdictRule::default();
        Options {
            baseline: String::new(),
            test: Test::Welch,
            alpha: rule.alpha,
            margin: rule.margin,
            power: rule.power,
            min_change: rule.min_change,
            fail_on: FailOn::Regression,
            jobs: None,
            limits: batch_limits(),
            keep_going: false,
            allow_missing: false,
            progress: super::progress::Mode::Off,
        }
    }
}

/// The archive bounds of batch runs: 256 MiB in total, 64 MiB per entry, 100,000
/// entries per archive. Far above an MMTests or lkp result archive, and small
/// enough that several archives read at once stay within a CI runner's memory.
pub fn batch_limits() -> Limits {
    Limits { max_total_bytes: 256 << 20, max_entry_bytes: 64 << 20, max_entries: 100_000 }
}

impl Options {
    /// Options for `baseline` with every other field at its default.
    pub fn new(baseline: impl Into<String>) -> Self {
        Options { baseline: baseline.into(), ..Default::default() }
    }

    /// The verdict rule of these options.
    pub fn rule(&self) -> VerdictRule {
        VerdictRule {
            alpha: self.alpha,
            margin: self.margin,
            power: self.power,
            min_change: self.min_change,
            min_samples: 2,
        }
    }

    /// Check the values: a baseline and a valid rule ([`VerdictRule::validate`]).
    pub fn validate(&self) -> Result<()> {
        if self.baseline.trim().is_empty() {
            return Err(Error::domain("give the baseline kernel or commit (--baseline NAME)"));
        }
        self.rule().validate()?;
        if self.jobs == Some(0) {
            return Err(Error::domain("jobs must be a positive integer, got 0"));
        }
        Ok(())
    }
}
