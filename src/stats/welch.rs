//! Welch's unequal-variance two-sample t-test, two-sided
//! (scipy.stats.ttest_ind(a, b, equal_var=False)); the t tail is
//! [`super::student_t`], statrs' Student's t refined to machine precision.

use super::descriptive::{amean_checked, variance_about};
use super::sample::{check, check_len};
use crate::error::Result;

/// Result of [`welch_ttest`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WelchResult {
    /// t statistic, (mean_a − mean_b)/√(s_a²/n_a + s_b²/n_b).
    pub t: f64,
    /// Welch–Satterthwaite degrees of freedom.
    pub df: f64,
    /// Two-sided p-value 2·P(T_df > |t|).
    pub p: f64,
}

/// Welch's t-test of `a` against `b` (two-sided); each side needs two samples.
///
/// When both samples have zero variance the test degenerates: identical means
/// give t = p = df = NaN, different means give t = ±inf, p = 0, df = NaN
/// (scipy gives the same t and p, and reports df = 1).
pub fn welch_ttest(a: &[f64], b: &[f64]) -> Result<WelchResult> {
    let m = WelchMoments::of(a, b, "Welch's t-test")?;
    let diff = m.mean_a - m.mean_b;
    if m.se2 == 0.0 {
        return Ok(if diff == 0.0 {
            WelchResult { t: f64::NAN, df: f64::NAN, p: f64::NAN }
        } else {
            WelchResult { t: diff.signum() * f64::INFINITY, df: f64::NAN, p: 0.0 }
        });
    }
    let t = diff / m.se2.sqrt();
    let p = two_sided_t_p(t, m.df)?;
    Ok(WelchResult { t, df: m.df, p })
}

/// What every Welch-type t statistic of two samples is built from (the two-sample
/// t-test, TOST): the means, the squared standard error of their difference and
/// the Welch–Satterthwaite degrees of freedom.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct WelchMoments {
    /// Mean of `a`.
    pub mean_a: f64,
    /// Mean of `b`.
    pub mean_b: f64,
    /// s_a²/n_a + s_b²/n_b.
    pub se2: f64,
    /// Welch–Satterthwaite df (NaN when both variances are zero).
    pub df: f64,
}

impl WelchMoments {
    /// The moments of `a` and `b` (each finite, at least two samples; `purpose` names
    /// the test in the error).
    pub fn of(a: &[f64], b: &[f64], purpose: &str) -> Result<Self> {
        check(a, "a")?;
        check(b, "b")?;
        check_len(a, 2, "a", purpose)?;
        check_len(b, 2, "b", purpose)?;
        let (na, nb) = (a.len() as f64, b.len() as f64);
        let (ma, mb) = (amean_checked(a)?, amean_checked(b)?);
        let (va, vb) = (variance_about(a, ma, 1)? / na, variance_about(b, mb, 1)? / nb);
        Ok(WelchMoments { mean_a: ma, mean_b: mb, se2: va + vb, df: welch_df(va, vb, na, nb) })
    }
}

/// Welch–Satterthwaite degrees of freedom of the squared standard errors `va` =
/// s_a²/n_a and `vb` = s_b²/n_b, scaled by the larger term so that it neither
/// underflows (values ~1e-150) nor overflows (~1e150); NaN when both are zero.
pub(crate) fn welch_df(va: f64, vb: f64, na: f64, nb: f64) -> f64 {
    let scale = va.max(vb);
    let (ra, rb) = (va / scale, vb / scale);
    (ra + rb) * (ra + rb) / (ra * ra / (na - 1.0) + rb * rb / (nb - 1.0))
}

/// Two-sided p-value of a t statistic with `df` degrees of freedom.
pub(crate) fn two_sided_t_p(t: f64, df: f64) -> Result<f64> {
    super::student_t::two_sided_p(t, df)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;

    #[test]
    fn welch_by_hand() {
        // a = [1, 2, 3]: mean 2, s² = 1; b = [2, 4, 6]: mean 4, s² = 4
        // se² = 1/3 + 4/3 = 5/3; t = -2 / sqrt(5/3)
        // df = (5/3)² / ((1/3)²/2 + (4/3)²/2) = (25/9) / (17/18) = 50/17
        let r = welch_ttest(&[1.0, 2.0, 3.0], &[2.0, 4.0, 6.0]).unwrap();
        assert!((r.t - (-2.0 / (5.0f64 / 3.0).sqrt())).abs() < 1e-15);
        assert!((r.df - 50.0 / 17.0).abs() < 1e-13);
        assert!(r.p > 0.0 && r.p < 1.0);
    }

    #[test]
    fn scale_invariant_at_extreme_magnitudes() {
        let a = [1.0, 2.0, 3.0, 4.5];
        let b = [2.0, 4.0, 6.0];
        let r = welch_ttest(&a, &b).unwrap();
        for s in [1e-150, 1e150] {
            let sa: Vec<f64> = a.iter().map(|v| v * s).collect();
            let sb: Vec<f64> = b.iter().map(|v| v * s).collect();
            let q = welch_ttest(&sa, &sb).unwrap();
            assert!((q.t - r.t).abs() <= 1e-12 * r.t.abs());
            assert!((q.df - r.df).abs() <= 1e-12 * r.df);
            assert!((q.p - r.p).abs() <= 1e-12 * r.p);
        }
    }

    #[test]
    fn t_p_by_hand_df1() {
        // df = 1 is Cauchy: P(|T| > t) = 1 - 2/pi * atan(t); t = 1 -> 0.5
        assert!((two_sided_t_p(1.0, 1.0).unwrap() - 0.5).abs() < 1e-14);
    }

    #[test]
    fn degenerate_and_small() {
        let r = welch_ttest(&[1.0, 1.0], &[2.0, 2.0]).unwrap();
        assert_eq!(r.t, f64::NEG_INFINITY);
        assert_eq!(r.p, 0.0);
        let r = welch_ttest(&[1.0, 1.0], &[1.0, 1.0]).unwrap();
        assert!(r.p.is_nan());
        assert!(matches!(welch_ttest(&[1.0], &[1.0, 2.0]), Err(Error::InsufficientData(_))));
    }
}
