//! The segments around a change point and Apache Otava's Student's t-test between
//! them (`TTestSignificanceTester`): the two segments' means and population
//! standard deviations (numpy's `np.mean`, `np.std`), and the two-sided p-value of
//! the pooled-variance t-test scipy's `ttest_ind_from_stats` computes from those
//! figures (docs/change-points.md §2).

use super::numpy_sum;
use crate::error::{Error, Result};
use crate::stats::student_t;

/// The statistics of a change point: its two segments and the p-value that they differ.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SegmentStats {
    /// Mean of the segment before the change.
    pub mean_before: f64,
    /// Mean of the segment from the change on.
    pub mean_after: f64,
    /// Population (ddof 0) standard deviation before; 0 for one value.
    pub std_before: f64,
    /// Population (ddof 0) standard deviation after; 0 for one value.
    pub std_after: f64,
    /// Two-sided p-value of the test that the segments have the same mean.
    pub p: f64,
}

impl SegmentStats {
    /// The means and deviations of `left` and `right` (both non-empty) with `p` unset (NaN).
    pub fn describe(left: &[f64], right: &[f64]) -> Self {
        let (m1, m2) = (numpy_sum::mean(left), numpy_sum::mean(right));
        let sd = |x: &[f64], m: f64| if x.len() >= 2 { numpy_sum::std(x, m) } else { 0.0 };
        SegmentStats {
            mean_before: m1,
            mean_after: m2,
            std_before: sd(left, m1),
            std_after: sd(right, m2),
            p: f64::NAN,
        }
    }

    /// Otava's t-test: `describe`, then Student's t with the pooled variance of the
    /// two population variances (a segment of one value counts as variance 0);
    /// p = 1 when the two segments hold two values in all.
    pub fn t_test(left: &[f64], right: &[f64]) -> Result<Self> {
        let mut s = Self::describe(left, right);
        let (n1, n2) = (left.len() as f64, right.len() as f64);
        s.p = if left.len() + right.len() > 2 {
            let v1 = if left.len() == 1 { 0.0 } else { s.std_before * s.std_before };
            let v2 = if right.len() == 1 { 0.0 } else { s.std_after * s.std_after };
            let df = n1 + n2 - 2.0;
            let svar = ((n1 - 1.0) * v1 + (n2 - 1.0) * v2) / df;
            let denom = (svar * (1.0 / n1 + 1.0 / n2)).sqrt();
            let t = (s.mean_before - s.mean_after) / denom;
            student_t::two_sided_p(t, df)?
        } else {
            1.0
        };
        Ok(s)
    }

    /// Otava's relative change of the means in the larger of its two directions:
    /// max(|after/before − 1|, |before/after − 1|), a term with a zero denominator counting 0.
    pub fn magnitude(&self) -> f64 {
        let fwd = if self.mean_before == 0.0 { 0.0 } else { self.mean_after / self.mean_before - 1.0 };
        let bwd = if self.mean_after == 0.0 { 0.0 } else { self.mean_before / self.mean_after - 1.0 };
        let (a, b) = (fwd.abs(), bwd.abs());
        if b > a {
            b
        } else {
            a
        }
    }
}

/// The segments between sorted change points `cps` over a series of `n` values:
/// `[0, c0), [c0, c1), …, [c_last, n)`, empty ones left out.
pub fn intervals(cps: &[usize], n: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::with_capacity(cps.len() + 1);
    let mut start = 0;
    for &c in cps.iter().chain(std::iter::once(&n)) {
        if c != start {
            out.push((start, c));
        }
        start = c;
    }
    out
}

/// The two segments on either side of `index` among `intervals`: the interval
/// ending at `index` and the next one (an existing change point), or the two halves
/// of the interval `index` falls inside (a new candidate).
pub fn around(index: usize, intervals: &[(usize, usize)]) -> Result<((usize, usize), (usize, usize))> {
    for (k, &(s, e)) in intervals.iter().enumerate() {
        if e == index {
            if let Some(&next) = intervals.get(k + 1) {
                return Ok(((s, e), next));
            }
        } else if s < index && index < e {
            return Ok(((s, index), (index, e)));
        }
    }
    Err(Error::Internal(format!("change point {index} is in none of the segments {intervals:?}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn otava_significance_tester_cases() {
        // Otava's tests/analysis_test.py test_significance_tester: the two halves of
        // [1.00, 1.02, 1.05, 0.95, 0.98] repeated have equal means (p ≈ 1) ...
        let x = [1.00, 1.02, 1.05, 0.95, 0.98, 1.00, 1.02, 1.05, 0.95, 0.98];
        let s = SegmentStats::t_test(&x[..5], &x[5..]).unwrap();
        assert!(0.99 < s.p && s.p < 1.01, "{s:?}");
        // ... and a drop to ~0.8 is significant at 0.001
        let x = [1.00, 1.02, 1.05, 0.95, 0.98, 0.80, 0.82, 0.85, 0.79, 0.77];
        let s = SegmentStats::t_test(&x[..5], &x[5..]).unwrap();
        assert!(0.0 < s.p && s.p < 0.001, "{s:?}");
        // scipy.stats.ttest_ind_from_stats(1.0, 0.0, 1, 2.0, 0.5, 2) (equal_var): p = 0.34980171228104273
        let s = SegmentStats::t_test(&[1.0], &[1.5, 2.5]).unwrap();
        assert!((s.p - 0.34980171228104273).abs() < 1e-12, "{s:?}");
        assert_eq!(SegmentStats::t_test(&[1.0], &[2.0]).unwrap().p, 1.0);
    }

    #[test]
    fn segments() {
        assert_eq!(intervals(&[], 4), vec![(0, 4)]);
        assert_eq!(intervals(&[2, 3], 4), vec![(0, 2), (2, 3), (3, 4)]);
        let iv = intervals(&[2, 3], 6);
        assert_eq!(around(3, &iv).unwrap(), ((2, 3), (3, 6)));
        assert_eq!(around(5, &iv).unwrap(), ((3, 5), (5, 6)));
        assert!(around(6, &iv).is_err());
        let m = SegmentStats { mean_before: 2.0, mean_after: 1.0, std_before: 0.0, std_after: 0.0, p: 0.0 };
        assert_eq!(m.magnitude(), 1.0);
    }
}
