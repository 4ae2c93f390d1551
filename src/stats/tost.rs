//! Equivalence test: two one-sided Welch t-tests (TOST, Schuirmann 1987) that the
//! difference of means lies within a margin, as statsmodels'
//! `stats.weightstats.ttost_ind(new, base, low, upp, usevar="unequal")`.
//!
//! With d = mean(new) − mean(base), standard error se = √(s_new²/n_new + s_base²/n_base)
//! and Welch's df: H0 d ≤ low against d > low gives t_low = (d − low)/se and
//! p_low = P(T > t_low); H0 d ≥ upp against d < upp gives t_upp = (d − upp)/se and
//! p_upp = P(T < t_upp). The equivalence p-value is max(p_low, p_upp): p < alpha
//! exactly when the (1 − 2·alpha) confidence interval of d lies inside (low, upp).

use super::student_t;
use super::welch::WelchMoments;
use crate::error::{Error, Result};

/// Result of [`tost_welch`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TostResult {
    /// The equivalence p-value, max(p_low, p_upp).
    pub p: f64,
    /// t of the test against the lower margin, (d − low)/se.
    pub t_low: f64,
    /// One-sided p against the lower margin.
    pub p_low: f64,
    /// t of the test against the upper margin, (d − upp)/se.
    pub t_upp: f64,
    /// One-sided p against the upper margin.
    pub p_upp: f64,
    /// Welch–Satterthwaite degrees of freedom (NaN when both variances are zero).
    pub df: f64,
    /// The difference of means, mean(new) − mean(base).
    pub diff: f64,
}

/// TOST of mean(new) − mean(base) within (`low`, `upp`) (low < upp); each side
/// needs two samples. Two zero-variance samples: p = 0 when the difference lies
/// strictly inside the margins, else 1 (the limits of the t statistics).
pub fn tost_welch(base: &[f64], new: &[f64], low: f64, upp: f64) -> Result<TostResult> {
    if !(low.is_finite() && upp.is_finite() && low < upp) {
        return Err(Error::domain(format!("equivalence margins must be finite with low < upp, got ({low}, {upp})")));
    }
    let m = WelchMoments::of(new, base, "the equivalence test (TOST)")?;
    let diff = m.mean_a - m.mean_b;
    if m.se2 == 0.0 {
        let inside = low < diff && diff < upp;
        let p = if inside { 0.0 } else { 1.0 };
        let lim = |x: f64| if x == 0.0 { 0.0 } else { x.signum() * f64::INFINITY };
        let p_low = if diff > low { 0.0 } else { 1.0 };
        let p_upp = if diff < upp { 0.0 } else { 1.0 };
        return Ok(TostResult { p, t_low: lim(diff - low), p_low, t_upp: lim(diff - upp), p_upp, df: m.df, diff });
    }
    let se = m.se2.sqrt();
    let t_low = (diff - low) / se;
    let t_upp = (diff - upp) / se;
    let p_low = student_t::sf(t_low, m.df)?;
    let p_upp = student_t::sf(-t_upp, m.df)?;
    Ok(TostResult { p: p_low.max(p_upp), t_low, p_low, t_upp, p_upp, df: m.df, diff })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tost_by_hand() {
        // base = [1, 2, 3] (mean 2, s² = 1), new = [2, 4, 6] (mean 4, s² = 4):
        // d = 2, se² = 4/3 + 1/3 = 5/3, df = 50/17 (as in welch.rs)
        let r = tost_welch(&[1.0, 2.0, 3.0], &[2.0, 4.0, 6.0], -5.0, 5.0).unwrap();
        let se = (5.0f64 / 3.0).sqrt();
        assert!((r.t_low - 7.0 / se).abs() < 1e-14 && (r.t_upp - (-3.0 / se)).abs() < 1e-14);
        assert!((r.df - 50.0 / 17.0).abs() < 1e-13);
        assert_eq!(r.p, r.p_low.max(r.p_upp));
        // the nearer margin (upp, 3 away against 7) decides
        assert_eq!(r.p, r.p_upp);
    }

    #[test]
    fn degenerate_and_bad_margins() {
        let r = tost_welch(&[1.0, 1.0], &[1.5, 1.5], -1.0, 1.0).unwrap();
        assert_eq!((r.p, r.t_low, r.t_upp), (0.0, f64::INFINITY, f64::NEG_INFINITY));
        assert_eq!(tost_welch(&[1.0, 1.0], &[3.0, 3.0], -1.0, 1.0).unwrap().p, 1.0);
        assert!(tost_welch(&[1.0, 2.0], &[1.0, 2.0], 1.0, -1.0).is_err());
        assert!(tost_welch(&[1.0], &[1.0, 2.0], -1.0, 1.0).is_err());
    }
}
