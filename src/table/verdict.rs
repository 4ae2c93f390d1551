//! The verdict on one cell: better, worse, noise, or not enough data.
//!
//! A change is called only when it is statistically significant (p < alpha of the
//! named test) **and** at least `min_change` percent (a practical threshold, as
//! criterion's noise threshold); the sign of the direction-aligned change then
//! says better or worse. Direction unknown gives "changed".

use serde::{Deserialize, Serialize};

/// Decision for one cell of a comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The baseline column itself.
    Baseline,
    /// Significantly better.
    Better,
    /// Significantly worse.
    Worse,
    /// Significant, but the metric's direction is unknown.
    Changed,
    /// No significant change.
    Noise,
    /// Too few samples to decide.
    NotEnoughData,
}

impl Verdict {
    /// Lower-case name as used in JSON and tables ("better", "not_enough_data", ...).
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Baseline => "baseline",
            Verdict::Better => "better",
            Verdict::Worse => "worse",
            Verdict::Changed => "changed",
            Verdict::Noise => "noise",
            Verdict::NotEnoughData => "not_enough_data",
        }
    }
}

/// Thresholds of [`decide`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VerdictRule {
    /// Significance level (default 0.05).
    pub alpha: f64,
    /// Minimum absolute percent change to call (default 0).
    pub min_change: f64,
    /// Minimum samples per side (default 2).
    pub min_samples: u64,
}

impl Default for VerdictRule {
    fn default() -> Self {
        VerdictRule { alpha: 0.05, min_change: 0.0, min_samples: 2 }
    }
}

/// Decide a cell from its direction-aligned percent change (positive = better, or
/// raw when `direction_known` is false), the p-value of the test, and the sample
/// counts of both sides.
pub fn decide(
    improvement_pct: f64,
    p: Option<f64>,
    n_base: u64,
    n_new: u64,
    direction_known: bool,
    rule: &VerdictRule,
) -> Verdict {
    if n_base < rule.min_samples || n_new < rule.min_samples {
        return Verdict::NotEnoughData;
    }
    let Some(p) = p.filter(|p| !p.is_nan()) else {
        return Verdict::NotEnoughData;
    };
    if p >= rule.alpha || improvement_pct.is_nan() || improvement_pct.abs() < rule.min_change {
        return Verdict::Noise;
    }
    if !direction_known {
        Verdict::Changed
    } else if improvement_pct > 0.0 {
        Verdict::Better
    } else if improvement_pct < 0.0 {
        Verdict::Worse
    } else {
        Verdict::Noise
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules() {
        let r = VerdictRule { alpha: 0.05, min_change: 1.0, min_samples: 3 };
        assert_eq!(decide(-9.9, Some(1e-6), 5, 5, true, &r), Verdict::Worse);
        assert_eq!(decide(9.9, Some(1e-6), 5, 5, true, &r), Verdict::Better);
        assert_eq!(decide(9.9, Some(0.2), 5, 5, true, &r), Verdict::Noise);
        assert_eq!(decide(0.5, Some(1e-6), 5, 5, true, &r), Verdict::Noise);
        assert_eq!(decide(9.9, Some(1e-6), 2, 5, true, &r), Verdict::NotEnoughData);
        assert_eq!(decide(9.9, Some(1e-6), 5, 5, false, &r), Verdict::Changed);
        assert_eq!(decide(9.9, None, 5, 5, true, &r), Verdict::NotEnoughData);
    }
}
