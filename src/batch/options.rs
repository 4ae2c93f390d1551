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
    /// Decide each row sequentially (docs/sequential.md): by the confidence sequence of
    /// its runs in the order taken, valid however often the run is repeated as runs are
    /// added, with e-BH across the rows instead of BH.
    pub sequential: bool,
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
            sequential: false,
        }
    }
}

/// The archive bounds of batch runs: 256 MiB in total, 64 MiB per entry, 100,000
/// entries per archive. Far above an MMTests or lkp result archive, and small
/// enough that several archives read at once stay within a CI runner's memory.
pub fn batch_limits() -> Limits {
    Limits { max_total_bytes: 256 << 20, max_entry_bytes: 64 << 20, max_entries: 100_000 }
}

/// [`batch_limits`] with each bound that is given instead of its default: bytes per
/// entry, bytes per archive, entries per archive.
pub fn batch_limits_with(
    max_entry_bytes: Option<u64>,
    max_total_bytes: Option<u64>,
    max_entries: Option<u64>,
) -> Limits {
    let d = batch_limits();
    Limits {
        max_entry_bytes: max_entry_bytes.unwrap_or(d.max_entry_bytes),
        max_total_bytes: max_total_bytes.unwrap_or(d.max_total_bytes),
        max_entries: max_entries.unwrap_or(d.max_entries),
    }
}

/// A batch run's options as a front end gives them: the choices by name (`test`,
/// `fail_on`, `progress`) and `None` for a margin or power left at its default.
#[derive(Debug, Clone, PartialEq)]
pub struct Named<'a> {
    /// [`Options::baseline`].
    pub baseline: String,
    /// A name of [`Test`] (`welch`, `mann-whitney`).
    pub test: &'a str,
    /// [`Options::alpha`].
    pub alpha: f64,
    /// [`Options::min_change`].
    pub min_change: f64,
    /// A name of [`FailOn`].
    pub fail_on: &'a str,
    /// [`Options::jobs`].
    pub jobs: Option<usize>,
    /// [`Options::keep_going`].
    pub keep_going: bool,
    /// [`Options::allow_missing`].
    pub allow_missing: bool,
    /// A name of [`super::progress::Mode`].
    pub progress: &'a str,
    /// [`Options::margin`], the default when None.
    pub margin: Option<f64>,
    /// [`Options::power`], the default when None.
    pub power: Option<f64>,
    /// [`Options::limits`].
    pub limits: Limits,
    /// [`Options::sequential`].
    pub sequential: bool,
}

impl Options {
    /// The options `n` names, parsed (an unknown name is an error listing the valid
    /// ones) and checked ([`Options::validate`]).
    pub fn from_named(n: Named<'_>) -> Result<Options> {
        let d = Options::default();
        let o = Options {
            baseline: n.baseline,
            test: Test::parse(n.test)?,
            alpha: n.alpha,
            margin: n.margin.unwrap_or(d.margin),
            power: n.power.unwrap_or(d.power),
            min_change: n.min_change,
            fail_on: FailOn::parse(n.fail_on)?,
            jobs: n.jobs,
            keep_going: n.keep_going,
            allow_missing: n.allow_missing,
            progress: super::progress::Mode::parse(n.progress)?,
            limits: n.limits,
            sequential: n.sequential,
        };
        o.validate()?;
        Ok(o)
    }

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

#[cfg(test)]
mod tests {
    use super::*;

    fn named() -> Named<'static> {
        Named {
            baseline: "v6.1".into(),
            test: "mann-whitney",
            alpha: 0.01,
            min_change: 2.0,
            fail_on: "any-change",
            jobs: Some(2),
            keep_going: true,
            allow_missing: false,
            progress: "lines",
            margin: None,
            power: Some(0.9),
            limits: batch_limits_with(Some(1), None, Some(3)),
            sequential: false,
        }
    }

    #[test]
    fn options_from_names() {
        let o = Options::from_named(named()).unwrap();
        let d = Options::default();
        assert_eq!(o.test, Test::MannWhitney);
        assert_eq!(o.fail_on, FailOn::AnyChange);
        assert_eq!(o.progress, super::super::progress::Mode::Lines);
        assert_eq!((o.margin, o.power, o.alpha, o.min_change), (d.margin, 0.9, 0.01, 2.0));
        assert_eq!(o.limits, Limits { max_entry_bytes: 1, max_total_bytes: 256 << 20, max_entries: 3 });
        let bad = Options::from_named(Named { fail_on: "sometimes", ..named() }).unwrap_err().to_string();
        assert!(bad.starts_with("fail-on must be one of regression, "), "{bad}");
        assert!(Options::from_named(Named { baseline: " ".into(), ..named() }).is_err());
        assert!(Options::from_named(Named { jobs: Some(0), ..named() }).is_err());
    }
}
