//! Confidence interval of the mean from Student's t distribution
//! (as scipy.stats.t.interval(level, n-1, loc=mean, scale=sem)).

use super::descriptive::{amean, stddev};
use super::sample::{check, check_len};
use crate::error::{Error, Result};

/// A two-sided confidence interval of the mean.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeanCi {
    /// The sample mean.
    pub mean: f64,
    /// Lower bound.
    pub low: f64,
    /// Upper bound.
    pub high: f64,
    /// Confidence level in (0, 1).
    pub level: f64,
}

/// t-based interval mean ± t₍₁₊level₎/₂,ₙ₋₁ · s/√n; needs two samples.
pub fn ci_mean(x: &[f64], level: f64) -> Result<MeanCi> {
    check(x, "x")?;
    check_len(x, 2, "x", "a confidence interval of the mean")?;
    if !(level > 0.0 && level < 1.0) {
        return Err(Error::domain(format!("level must be within (0, 1), got {level}")));
    }
    let n = x.len() as f64;
    let mean = amean(x)?;
    let sem = stddev(x, 1)? / n.sqrt();
    let q = super::student_t::two_sided_quantile(1.0 - level, n - 1.0)?;
    let half = q * sem;
    Ok(MeanCi { mean, low: mean - half, high: mean + half, level })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interval_by_hand() {
        // n = 2, df = 1: t_{0.975,1} = tan(pi * 0.475) = 12.706204736174698
        let ci = ci_mean(&[1.0, 3.0], 0.95).unwrap();
        let sem = 2f64.sqrt() / 2f64.sqrt(); // s = sqrt(2), n = 2
        let q = (std::f64::consts::PI * 0.475).tan();
        assert!((ci.high - (2.0 + q * sem)).abs() < 1e-9);
        assert!((ci.low - (2.0 - q * sem)).abs() < 1e-9);
        assert!(ci_mean(&[1.0], 0.95).is_err());
        assert!(ci_mean(&[1.0, 2.0], 1.0).is_err());
    }
}
