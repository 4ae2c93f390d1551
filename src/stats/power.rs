//! Power of the two-sided Welch t-test and the number of runs it needs to detect a
//! given difference of means (docs/verdicts.md).
//!
//! Under a true difference δ the t statistic follows a noncentral t with
//! noncentrality δ/se, se = √(σ_a²/n_a + σ_b²/n_b), and (approximately, for Welch's
//! test) the Welch–Satterthwaite df of σ_a²/n_a and σ_b²/n_b. The power at level α
//! is P(T > c) + P(T < −c) with c the two-sided α critical value of the central t.
//! For equal variances and equal n this is exactly statsmodels'
//! `TTestIndPower().power(effect_size=δ/σ, nobs1=n, alpha=α, ratio=1)` (df = 2n − 2,
//! noncentrality (δ/σ)·√(n/2)), the reference of the tests.

use super::noncentral_t;
use super::student_t::two_sided_quantile;
use super::welch::welch_df;
use crate::error::{Error, Result};
use statrs::distribution::{ContinuousCDF, Normal};

/// Runs per side beyond which [`runs_needed`] gives up.
pub const MAX_RUNS: u64 = 1 << 20;

fn check_alpha(alpha: f64) -> Result<()> {
    if !(alpha > 0.0 && alpha < 1.0) {
        return Err(Error::domain(format!("alpha must be within (0, 1), got {alpha}")));
    }
    Ok(())
}

fn check_sd(sd: f64, what: &str) -> Result<()> {
    if !(sd.is_finite() && sd >= 0.0) {
        return Err(Error::domain(format!("{what} must be a finite standard deviation >= 0, got {sd}")));
    }
    Ok(())
}

/// Power of the two-sided Welch t-test at level `alpha` to detect a true difference
/// of means `delta`, with standard deviations `sd_a`, `sd_b` and `n_a`, `n_b` ≥ 2
/// runs. Zero variance on both sides: 1 for a non-zero `delta`, else 0.
pub fn welch_power(delta: f64, sd_a: f64, sd_b: f64, n_a: f64, n_b: f64, alpha: f64) -> Result<f64> {
    check_alpha(alpha)?;
    check_sd(sd_a, "sd_a")?;
    check_sd(sd_b, "sd_b")?;
    if !delta.is_finite() {
        return Err(Error::domain(format!("the difference must be finite, got {delta}")));
    }
    if !(n_a >= 2.0 && n_b >= 2.0 && n_a.is_finite() && n_b.is_finite()) {
        return Err(Error::insufficient(format!(
            "the power of a t-test needs at least 2 runs a side, got {n_a} and {n_b}"
        )));
    }
    let (va, vb) = (sd_a * sd_a / n_a, sd_b * sd_b / n_b);
    let se2 = va + vb;
    if se2 == 0.0 {
        return Ok(if delta == 0.0 { 0.0 } else { 1.0 });
    }
    let df = welch_df(va, vb, n_a, n_b);
    let c = two_sided_quantile(alpha, df)?;
    let nc = delta / se2.sqrt();
    // Far beyond the critical value the power is 1 to double precision: T ≤ c needs
    // Z ≤ −|nc|/2 or √(χ²_df/df) ≥ |nc|/(2c), each below 1e-80 here (and the series
    // would take O(√λ) terms).
    if nc.abs() >= 40.0 * c.max(2.0) {
        return Ok(1.0);
    }
    Ok(noncentral_t::sf(c, df, nc)? + noncentral_t::cdf(-c, df, nc)?)
}

/// The smallest number of runs n ≥ 2, the same on both sides, at which the
/// two-sided Welch t-test at level `alpha` detects a true difference `delta` with
/// probability at least `power` (see [`welch_power`]).
pub fn runs_needed(delta: f64, sd_a: f64, sd_b: f64, alpha: f64, power: f64) -> Result<u64> {
    check_alpha(alpha)?;
    if !(power > alpha && power < 1.0) {
        return Err(Error::domain(format!("power must be within (alpha, 1) = ({alpha}, 1), got {power}")));
    }
    if !delta.is_finite() || delta == 0.0 {
        return Err(Error::domain(format!(
            "runs needed to detect a difference needs a non-zero difference, got {delta}"
        )));
    }
    let at = |n: u64| welch_power(delta, sd_a, sd_b, n as f64, n as f64, alpha);
    // The normal approximation n0 = (z_{1-α/2} + z_power)²·(σ_a² + σ_b²)/δ² is a lower
    // bound of the t-test's n up to rounding (its critical value and noncentral
    // spread are larger): start the search just below it, so that a few power
    // evaluations suffice, and give up at once when even n0 is beyond MAX_RUNS.
    let z = |p: f64| Normal::standard().inverse_cdf(p);
    let n0 = ((z(1.0 - alpha / 2.0) + z(power)).powi(2) * (sd_a * sd_a + sd_b * sd_b) / (delta * delta)).ceil();
    let too_many = || {
        Error::domain(format!(
            "detecting a difference of {delta} with standard deviations {sd_a} and {sd_b} at power {power} \
             needs more than {MAX_RUNS} runs a side"
        ))
    };
    if n0.is_nan() || n0 > MAX_RUNS as f64 {
        return Err(too_many());
    }
    let start = (n0 as u64).saturating_sub(1).max(2);
    // bracket: lo fails, hi passes (the power grows with n)
    let (mut lo, mut hi) = if at(start)? >= power { (1, start) } else { (start, start + 1) };
    let mut step = 1;
    while lo != 1 && at(hi)? < power {
        if hi >= MAX_RUNS {
            return Err(too_many());
        }
        lo = hi;
        step *= 2;
        hi = (hi + step).min(MAX_RUNS);
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if mid >= 2 && at(mid)? >= power {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Ok(hi.max(2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn power_grows_with_runs_and_difference() {
        let p5 = welch_power(1.0, 1.0, 1.0, 5.0, 5.0, 0.05).unwrap();
        let p10 = welch_power(1.0, 1.0, 1.0, 10.0, 10.0, 0.05).unwrap();
        let p10b = welch_power(2.0, 1.0, 1.0, 10.0, 10.0, 0.05).unwrap();
        assert!(0.05 < p5 && p5 < p10 && p10 < p10b && p10b < 1.0, "{p5} {p10} {p10b}");
        // no difference: the power is the level of the test
        assert!((welch_power(0.0, 1.0, 1.0, 7.0, 7.0, 0.05).unwrap() - 0.05).abs() < 1e-12);
        // the sign of the difference does not matter
        assert_eq!(
            welch_power(-1.0, 1.0, 2.0, 6.0, 6.0, 0.05).unwrap(),
            welch_power(1.0, 2.0, 1.0, 6.0, 6.0, 0.05).unwrap()
        );
    }

    #[test]
    fn runs_needed_is_the_first_n_reaching_the_power() {
        let n = runs_needed(1.0, 1.0, 1.0, 0.05, 0.8).unwrap();
        assert!(welch_power(1.0, 1.0, 1.0, n as f64, n as f64, 0.05).unwrap() >= 0.8);
        let before = (n - 1) as f64;
        assert!(welch_power(1.0, 1.0, 1.0, before, before, 0.05).unwrap() < 0.8);
        assert_eq!(runs_needed(1.0, 0.0, 0.0, 0.05, 0.8).unwrap(), 2);
        assert!(runs_needed(0.0, 1.0, 1.0, 0.05, 0.8).is_err());
        assert!(runs_needed(1.0, 1.0, 1.0, 0.05, 0.01).is_err());
        assert!(runs_needed(1e-9, 1.0, 1.0, 0.05, 0.8).is_err());
    }
}
