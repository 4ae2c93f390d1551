//! The verdict on one cell: better, worse, equivalent, or inconclusive (and how many
//! more runs would decide it); docs/verdicts.md explains the rule and its defaults.
//!
//! From the two samples ([`evidence`]): the two-sided p of the difference test (Welch's
//! t or Mann–Whitney U), the equivalence p of TOST (two one-sided Welch t-tests) against
//! ± `margin` percent of the baseline's arithmetic mean, the power of Welch's t-test to
//! detect a change of the margin with the runs at hand, and the runs per side that
//! would give it the stated `power`. Then ([`decide`]):
//!
//! - `equivalent` when TOST's p < alpha (the 1 − 2·alpha interval of the difference lies
//!   inside ± margin): whatever the difference test says, the change is smaller than
//!   the margin;
//! - else `better`/`worse` (`changed` when the direction is unknown) when the
//!   difference test's p (or its BH q) < alpha and |change| ≥ `min_change`;
//! - else `inconclusive`: neither a change nor its absence is shown; the evidence says
//!   how many runs a side would detect a change of the margin.
//!
//! `noise` is kept for tools whose own significance marker is reported as it is
//! (MMTests' compare), which tests no equivalence.

use crate::error::{Error, Result};
pub use crate::stats::Test;
use crate::stats::{amean, mann_whitney_min_p, mann_whitney_min_runs, runs_needed, stddev, tost_welch, welch_power};
use serde::{Deserialize, Serialize};

/// Decision for one cell of a comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The baseline column itself.
    Baseline,
    /// Significantly better (and not shown equivalent).
    Better,
    /// Significantly worse (and not shown equivalent).
    Worse,
    /// Shown to lie within ± margin of the baseline (TOST).
    Equivalent,
    /// Neither a change nor equivalence is shown: more runs are needed.
    Inconclusive,
    /// Significant, but the metric's direction is unknown.
    Changed,
    /// Not significant by a tool's own marker, which tests no equivalence (MMTests).
    Noise,
    /// Too few samples to decide.
    NotEnoughData,
}

impl Verdict {
    /// Every verdict, in declaration order.
    pub const ALL: [Verdict; 8] = [
        Verdict::Baseline,
        Verdict::Better,
        Verdict::Worse,
        Verdict::Equivalent,
        Verdict::Inconclusive,
        Verdict::Changed,
        Verdict::Noise,
        Verdict::NotEnoughData,
    ];

    /// The verdict named `s` (as [`Verdict::name`] spells it).
    pub fn parse(s: &str) -> Result<Self> {
        Verdict::ALL.into_iter().find(|v| v.name() == s).ok_or_else(|| {
            let names: Vec<&str> = Verdict::ALL.iter().map(|v| v.name()).collect();
            Error::domain(format!("verdict must be one of {}, got '{s}'", names.join(", ")))
        })
    }

    /// Lower-case name as used in JSON and tables ("better", "not_enough_data", ...).
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Baseline => "baseline",
            Verdict::Better => "better",
            Verdict::Worse => "worse",
            Verdict::Equivalent => "equivalent",
            Verdict::Inconclusive => "inconclusive",
            Verdict::Changed => "changed",
            Verdict::Noise => "noise",
            Verdict::NotEnoughData => "not_enough_data",
        }
    }
}

/// The thresholds of [`evidence`] and [`decide`] (defaults: docs/verdicts.md).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VerdictRule {
    /// Significance level of the difference and equivalence tests (default 0.05).
    pub alpha: f64,
    /// Practical margin in percent of the baseline mean: changes inside ± margin are
    /// "no change" for the equivalence test, and a change of the margin is what the
    /// runs-needed estimate is for (default 2).
    pub margin: f64,
    /// Power wanted against a change of the margin (default 0.8).
    pub power: f64,
    /// Minimum absolute percent change to call better or worse (default 0).
    pub min_change: f64,
    /// Minimum samples per side (default 2).
    pub min_samples: u64,
}

impl Default for VerdictRule {
    fn default() -> Self {
        VerdictRule { alpha: 0.05, margin: 2.0, power: 0.8, min_change: 0.0, min_samples: 2 }
    }
}

impl VerdictRule {
    /// Check the values: alpha in (0, 1), margin > 0 and finite, power in (alpha, 1),
    /// min_change finite and ≥ 0.
    pub fn validate(&self) -> Result<()> {
        if !(self.alpha > 0.0 && self.alpha < 1.0) {
            return Err(Error::domain(format!("alpha must be within (0, 1), got {}", self.alpha)));
        }
        if !(self.margin.is_finite() && self.margin > 0.0) {
            return Err(Error::domain(format!("margin must be a percentage > 0, got {}", self.margin)));
        }
        if !(self.power > self.alpha && self.power < 1.0) {
            return Err(Error::domain(format!("power must be within (alpha, 1), got {}", self.power)));
        }
        if !(self.min_change.is_finite() && self.min_change >= 0.0) {
            return Err(Error::domain(format!("min-change must be a percentage >= 0, got {}", self.min_change)));
        }
        Ok(())
    }

    /// One line naming the tests and thresholds, for every output that shows verdicts.
    pub fn describe(&self, test: Test) -> String {
        format!(
            "{} test, alpha {}; equivalence: TOST (Welch t) within ±{}%; runs needed: Welch t power {} at ±{}% \
             (noncentral t)",
            test.name(),
            self.alpha,
            self.margin,
            self.power,
            self.margin
        )
    }
}

/// What two samples say, before the decision ([`evidence`]).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Evidence {
    /// Samples of the baseline.
    pub n_base: u64,
    /// Samples of the new side.
    pub n_new: u64,
    /// Two-sided p of the difference test (None with fewer than two samples a side).
    pub p: Option<f64>,
    /// TOST p against ± margin % of the baseline's arithmetic mean.
    pub p_equivalent: Option<f64>,
    /// Power of Welch's t-test against a change of the margin with these runs and the
    /// observed standard deviations.
    pub power: Option<f64>,
    /// Runs per side at which that power reaches the rule's `power`.
    pub runs_needed: Option<u64>,
    /// What limits the result (sample sizes too small for a test, undefined parts).
    pub warnings: Vec<String>,
}

/// The evidence of `base` against `new` under `rule` (never fails: what cannot be
/// computed is None, and a warning says why when it is not just too few samples).
pub fn evidence(base: &[f64], new: &[f64], test: Test, rule: &VerdictRule) -> Evidence {
    let (nb, nn) = (base.len() as u64, new.len() as u64);
    let mut e = Evidence { n_base: nb, n_new: nn, p: test.verdict_p(base, new), ..Default::default() };
    if nb < 2 || nn < 2 {
        return e;
    }
    let min_p = mann_whitney_min_p(nb, nn);
    if min_p >= rule.alpha {
        e.warnings.push(format!(
            "Mann-Whitney U cannot reach p < {} with {nb} and {nn} runs (the smallest possible p is {:.3}); a rank \
             test needs at least {} runs a side",
            rule.alpha,
            min_p,
            mann_whitney_min_runs(rule.alpha)
        ));
    }
    if nb == 2 || nn == 2 {
        e.warnings.push(
            "2 runs on a side: that variance rests on one degree of freedom, so p, the equivalence test and the runs \
             needed are rough"
                .to_string(),
        );
    }
    let (Ok(mean), Ok(sd_b), Ok(sd_n)) = (amean(base), stddev(base, 1), stddev(new, 1)) else {
        return e;
    };
    let delta = rule.margin / 100.0 * mean.abs();
    if delta == 0.0 || !delta.is_finite() {
        e.warnings.push("the baseline mean is 0: a margin in percent of it is undefined (no equivalence test)".into());
        return e;
    }
    e.p_equivalent = tost_welch(base, new, -delta, delta).ok().map(|t| t.p);
    e.power = welch_power(delta, sd_b, sd_n, nb as f64, nn as f64, rule.alpha).ok();
    match runs_needed(delta, sd_b, sd_n, rule.alpha, rule.power) {
        Ok(n) => e.runs_needed = Some(n),
        Err(err) => e.warnings.push(format!("runs needed: {err}")),
    }
    e
}

/// Decide a cell from its direction-aligned percent change (positive = better, or
/// raw when `direction_known` is false), the p-value that decides significance (the
/// evidence's `p`, or its Benjamini–Hochberg q across a family), and the evidence.
pub fn decide(
    improvement_pct: f64,
    p: Option<f64>,
    e: &Evidence,
    direction_known: bool,
    rule: &VerdictRule,
) -> Verdict {
    if e.n_base < rule.min_samples || e.n_new < rule.min_samples {
        return Verdict::NotEnoughData;
    }
    let Some(p) = p.filter(|p| !p.is_nan()) else {
        return Verdict::NotEnoughData;
    };
    if e.p_equivalent.is_some_and(|q| q < rule.alpha) {
        return Verdict::Equivalent;
    }
    let called = p < rule.alpha && improvement_pct.abs() >= rule.min_change && improvement_pct != 0.0;
    if !called || improvement_pct.is_nan() {
        Verdict::Inconclusive
    } else if !direction_known {
        Verdict::Changed
    } else if improvement_pct > 0.0 {
        Verdict::Better
    } else {
        Verdict::Worse
    }
}

/// More runs per side than `have` that the evidence asks for (0 when it has them).
pub fn more_runs(e: &Evidence) -> Option<u64> {
    e.runs_needed.map(|n| n.saturating_sub(e.n_base.min(e.n_new)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(p_equivalent: Option<f64>) -> Evidence {
        Evidence { n_base: 5, n_new: 5, p_equivalent, ..Default::default() }
    }

    #[test]
    fn rules() {
        let r = VerdictRule { alpha: 0.05, min_change: 1.0, min_samples: 3, ..Default::default() };
        let none = ev(None);
        assert_eq!(decide(-9.9, Some(1e-6), &none, true, &r), Verdict::Worse);
        assert_eq!(decide(9.9, Some(1e-6), &none, true, &r), Verdict::Better);
        assert_eq!(decide(9.9, Some(0.2), &none, true, &r), Verdict::Inconclusive);
        assert_eq!(decide(0.5, Some(1e-6), &none, true, &r), Verdict::Inconclusive);
        assert_eq!(decide(9.9, Some(1e-6), &none, false, &r), Verdict::Changed);
        assert_eq!(decide(9.9, None, &none, true, &r), Verdict::NotEnoughData);
        let two = Evidence { n_base: 2, ..none };
        assert_eq!(decide(9.9, Some(1e-6), &two, true, &r), Verdict::NotEnoughData);
        // equivalence first: a significant change inside the margin is no change
        assert_eq!(decide(-0.8, Some(1e-6), &ev(Some(0.01)), true, &r), Verdict::Equivalent);
        assert_eq!(decide(-0.8, Some(0.4), &ev(Some(0.01)), true, &r), Verdict::Equivalent);
        assert_eq!(decide(-0.8, Some(0.4), &ev(Some(0.2)), true, &r), Verdict::Inconclusive);
    }

    #[test]
    fn evidence_warns_where_a_test_cannot_decide() {
        let r = VerdictRule::default();
        let e = evidence(&[10.0, 10.2, 9.9], &[10.5, 10.7, 10.6], Test::Welch, &r);
        assert_eq!(e.warnings.len(), 1);
        assert!(
            e.warnings[0].contains("smallest possible p is 0.100") && e.warnings[0].contains("at least 4"),
            "{e:?}"
        );
        let e = evidence(&[10.0, 10.2, 9.9, 10.1], &[10.5, 10.7, 10.6, 10.4], Test::MannWhitney, &r);
        assert!(e.warnings.is_empty(), "{e:?}");
        assert!(e.p_equivalent.is_some() && e.power.is_some() && e.runs_needed.is_some());
        let e = evidence(&[0.0, 0.0], &[0.0, 1.0], Test::Welch, &r);
        assert!(e.p_equivalent.is_none() && e.warnings.iter().any(|w| w.contains("baseline mean is 0")), "{e:?}");
        let e = evidence(&[1.0], &[1.0, 2.0], Test::Welch, &r);
        assert!(e.p.is_none() && e.warnings.is_empty());
    }

    #[test]
    fn rule_validation() {
        assert!(VerdictRule::default().validate().is_ok());
        for bad in [
            VerdictRule { alpha: 1.0, ..Default::default() },
            VerdictRule { margin: 0.0, ..Default::default() },
            VerdictRule { power: 0.01, ..Default::default() },
            VerdictRule { min_change: -1.0, ..Default::default() },
        ] {
            assert!(bad.validate().is_err(), "{bad:?}");
        }
    }
}
