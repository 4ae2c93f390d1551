//! Change between a baseline and a new value, in MMTests' sign convention:
//! **positive means better**, whatever the metric's direction.
//!
//! MMTests' `pdiff`/`pndiff` (Compare.pm): higher is better → new·100/base − 100;
//! lower is better → 100 − new·100/base. The tool-specific quirks of those helpers
//! (0 % when the new value is 0, 100 % against a zero base) belong to the MMTests
//! renderer; here an undefined change is an error.

use super::descriptive::gmean;
use super::sample::{check, finite};
use crate::error::{Error, Result};

fn check_scalar(v: f64, what: &str) -> Result<()> {
    if v.is_finite() {
        Ok(())
    } else {
        Err(Error::domain(format!("{what} must be a finite number, got {v}")))
    }
}

/// Percent change from `base` to `new`, positive = better (MMTests' convention).
/// `base` must be positive.
pub fn pct_change(base: f64, new: f64, higher_is_better: bool) -> Result<f64> {
    check_scalar(base, "base")?;
    check_scalar(new, "new")?;
    if base <= 0.0 {
        return Err(Error::domain(format!("percent change needs a positive baseline, got base = {base}")));
    }
    if new == base {
        return Ok(0.0); // as MMTests' pdiff/pndiff: x·100/x need not round to 100
    }
    let scaled = new * 100.0 / base;
    let pct = if higher_is_better { scaled - 100.0 } else { 100.0 - scaled };
    finite(pct, "pct_change")
}

/// Ratio new/base (no direction). `base` must be non-zero.
pub fn ratio(base: f64, new: f64) -> Result<f64> {
    check_scalar(base, "base")?;
    check_scalar(new, "new")?;
    if base == 0.0 {
        return Err(Error::domain("a ratio against a zero baseline is undefined"));
    }
    finite(new / base, "ratio")
}

/// Direction-aligned geometric mean of per-operation ratios: each ratio is
/// new/base when higher is better and base/new when lower is better, so the
/// result is > 1 when the new kernel is better overall (the summary benchstat,
/// pyperf and MMTests' `--print-ratio` Gmean give; MMTests does not invert Lower).
/// Every value must be positive; `bases` and `news` pair up by position.
pub fn gmean_ratio(bases: &[f64], news: &[f64], higher_is_better: bool) -> Result<f64> {
    check(bases, "bases")?;
    check(news, "news")?;
    if bases.len() != news.len() {
        return Err(Error::domain(format!("bases and news must pair up: {} bases, {} news", bases.len(), news.len())));
    }
    let mut ratios = Vec::with_capacity(bases.len());
    for (i, (&b, &n)) in bases.iter().zip(news).enumerate() {
        if b <= 0.0 || n <= 0.0 {
            return Err(Error::domain(format!(
                "a geometric mean of ratios needs positive values: pair {i} is base = {b}, new = {n}"
            )));
        }
        ratios.push(if higher_is_better { n / b } else { b / n });
    }
    gmean(&ratios)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mmtests_sign_convention() {
        // netperf-style throughput 100 -> 110: 10% better
        assert_eq!(pct_change(100.0, 110.0, true).unwrap(), 110.0 * 100.0 / 100.0 - 100.0);
        // latency 100 -> 110: 10% worse
        assert_eq!(pct_change(100.0, 110.0, false).unwrap(), -10.0);
        // seed mmtests-netperf-udp send-1024: 6160.61 -> 5878.01 prints -4.59%
        let p = pct_change(6160.61, 5878.01, true).unwrap();
        assert_eq!(format!("{p:.2}"), "-4.59");
    }

    #[test]
    fn gmean_ratio_is_direction_aligned() {
        // ratios 1.1 and 1/1.1 cancel
        let g = gmean_ratio(&[100.0, 110.0], &[110.0, 100.0], true).unwrap();
        assert!((g - 1.0).abs() < 1e-15);
        // lower is better, times halve: 2x better
        let g = gmean_ratio(&[10.0, 20.0], &[5.0, 10.0], false).unwrap();
        assert!((g - 2.0).abs() < 1e-15);
    }

    #[test]
    fn undefined_changes_are_errors() {
        assert!(pct_change(0.0, 1.0, true).is_err());
        assert!(pct_change(-1.0, 1.0, true).is_err());
        assert!(pct_change(1.0, f64::NAN, true).is_err());
        assert!(ratio(0.0, 1.0).is_err());
        assert!(gmean_ratio(&[1.0], &[1.0, 2.0], true).is_err());
        assert!(gmean_ratio(&[1.0], &[0.0], true).is_err());
    }
}
