//! Distribution-free confidence interval of the median from order statistics, as
//! benchstat (golang.org/x/perf, go-moremath's `QuantileCI`) computes it: the
//! interval [x₍ₗ₎, x₍ᵣ₎] whose coverage follows from Binomial(n, ½) alone
//! (docs/tables.md §4).
//!
//! - n ≤ 30: start from the mode of Binomial(n, ½) and add whole probability masses,
//!   the larger of the two neighbours first (the left one on a tie), until the
//!   coverage reaches the level asked for.
//! - n > 30: the normal approximation N(n/2, n/4), rounded outwards to orders, with
//!   the interval one order shorter on the right kept when that still covers.
//!
//! An interval that would need an order below 1 or above n is unbounded on that side
//! (−∞ or +∞): too few samples for the level.

use super::descriptive::median_sorted;
use super::sample::{check, sorted};
use crate::error::{Error, Result};
use statrs::distribution::{ContinuousCDF, Normal};

/// Largest n for which the orders come from the exact binomial masses.
const EXACT_LIMIT: usize = 30;

/// The orders (1-based) bounding the interval and its actual coverage.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MedianOrders {
    /// Order of the lower bound; 0 means unbounded below.
    pub lo: usize,
    /// Order of the upper bound; n + 1 means unbounded above.
    pub hi: usize,
    /// Probability that [x₍lo₎, x₍hi₎] covers the true median.
    pub confidence: f64,
}

/// The median of a sample with its interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MedianCi {
    /// The sample median.
    pub median: f64,
    /// Lower bound (−∞ when the sample is too small for the level).
    pub lo: f64,
    /// Upper bound (+∞ when the sample is too small for the level).
    pub hi: f64,
    /// The interval's actual coverage (at least the level asked for, when bounded).
    pub confidence: f64,
}

/// C(n, k)·2⁻ⁿ, the Binomial(n, ½) mass at k (0 outside 0..=n); the binomial
/// coefficient exactly in integers up to n = 20, through log-gamma above, as
/// go-moremath's `Choose`, so that ties between the two sides fall as benchstat's do.
fn half_binomial_pmf(n: usize, k: i64) -> f64 {
    let Ok(ku) = usize::try_from(k) else { return 0.0 };
    if ku > n {
        return 0.0;
    }
    let choose = if ku == 0 || ku == n {
        1.0
    } else if n <= 20 {
        let mut c: u64 = 1;
        for (i, m) in ((n - ku + 1)..=n).enumerate() {
            c = c * m as u64 / (i as u64 + 1);
        }
        c as f64
    } else {
        (libm::lgamma(n as f64 + 1.0) - libm::lgamma(ku as f64 + 1.0) - libm::lgamma((n - ku) as f64 + 1.0)).exp()
    };
    choose * 0.5f64.powi(ku as i32) * 0.5f64.powi((n - ku) as i32)
}

/// The orders of the median's interval for `n` samples at `level` (0 < level < 1;
/// level ≥ 1 gives the unbounded interval).
pub fn median_orders(n: usize, level: f64) -> Result<MedianOrders> {
    if level.is_nan() || level <= 0.0 {
        return Err(Error::domain(format!("confidence level must be in (0, 1), got {level}")));
    }
    if level >= 1.0 {
        return Ok(MedianOrders { lo: 0, hi: n + 1, confidence: 1.0 });
    }
    let ni = n as i64;
    let (l, r, confidence) = if n <= EXACT_LIMIT {
        // the mass at x = ⌈(n+1)/2⌉ − 1 first, then grow [l, r) one order at a time
        let x = ((n as f64 + 1.0) * 0.5).ceil() as i64 - 1;
        let mut accum = half_binomial_pmf(n, x);
        let (mut l, mut r) = (x, x + 1);
        let (mut lp, mut rp) = (half_binomial_pmf(n, l - 1), half_binomial_pmf(n, r));
        while accum < level && (lp > 0.0 || rp > 0.0) {
            if lp >= rp {
                accum += lp;
                l -= 1;
                lp = half_binomial_pmf(n, l - 1);
            } else {
                accum += rp;
                r += 1;
                rp = half_binomial_pmf(n, r);
            }
        }
        (l, r, accum)
    } else {
        let mu = n as f64 / 2.0;
        let norm = Normal::new(mu, (n as f64 / 4.0).sqrt()).map_err(|e| Error::domain(e.to_string()))?;
        let l1 = norm.inverse_cdf((1.0 - level) / 2.0);
        let r1 = 2.0 * mu - l1;
        let l = ((l1 - 0.5).floor() + 0.5).floor() as i64 + 1;
        let mut r = ((r1 - 0.5).ceil() + 0.5).floor() as i64 + 1;
        let cover = |l: i64, r: i64| norm.cdf(r as f64 - 0.5) - norm.cdf(l as f64 - 0.5);
        let mut confidence = cover(l, r);
        let biased = cover(l, r - 1);
        if biased >= level && biased < confidence {
            confidence = biased;
            r -= 1;
        }
        if l <= 0 && r > ni {
            confidence = 1.0;
        }
        (l, r, confidence)
    };
    Ok(MedianOrders { lo: l.max(0) as usize, hi: r.min(ni + 1) as usize, confidence })
}

/// The median of `x` and its distribution-free interval at `level` (benchstat's
/// default level is 0.95).
pub fn median_ci(x: &[f64], level: f64) -> Result<MedianCi> {
    check(x, "x")?;
    let s = sorted(x);
    let o = median_orders(s.len(), level)?;
    let lo = if o.lo == 0 { f64::NEG_INFINITY } else { s.get(o.lo - 1).copied().unwrap_or(f64::NEG_INFINITY) };
    let hi = o.hi.checked_sub(1).and_then(|i| s.get(i)).copied().unwrap_or(f64::INFINITY);
    Ok(MedianCi { median: median_sorted(&s), lo, hi, confidence: o.confidence })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// P(lo ≤ K < hi) for K ~ Binomial(n, ½), written out from the binomial coefficients.
    fn coverage(n: u64, lo: u64, hi: u64) -> f64 {
        let choose = |k: u64| (0..k).fold(1u128, |c, i| c * u128::from(n - i) / u128::from(i + 1));
        (lo..hi).map(|k| choose(k) as f64).sum::<f64>() / 2f64.powi(n as i32)
    }

    #[test]
    fn six_samples_are_the_fewest_bounded_at_95() {
        // n = 5: the widest interval [x(1), x(5)] covers 1 − 2/32 = 0.9375 < 0.95
        let o = median_orders(5, 0.95).unwrap();
        assert!(o.lo == 0 || o.hi == 6, "{o:?}");
        // n = 6: [x(1), x(6)] covers 1 − 2/64 = 0.96875
        let o = median_orders(6, 0.95).unwrap();
        assert_eq!((o.lo, o.hi), (1, 6));
        assert!((o.confidence - (1.0 - 2.0 / 64.0)).abs() < 1e-15);
    }

    #[test]
    fn ten_samples_use_orders_two_and_nine() {
        // P(2 ≤ K ≤ 8) for K ~ Bin(10, ½) = (1024 − 2·(1 + 10)) / 1024 = 0.978515625;
        // [x(3), x(8)] would cover P(3 ≤ K ≤ 7) = 0.890625 < 0.95
        let o = median_orders(10, 0.95).unwrap();
        assert_eq!((o.lo, o.hi), (2, 9));
        assert!((o.confidence - coverage(10, 2, 9)).abs() < 1e-15);
        let ci = median_ci(&[10.0, 1.0, 9.0, 2.0, 8.0, 3.0, 7.0, 4.0, 6.0, 5.0], 0.95).unwrap();
        assert_eq!((ci.median, ci.lo, ci.hi), (5.5, 2.0, 9.0));
    }

    #[test]
    fn large_samples_cover_the_level() {
        for n in [31usize, 40, 60, 100] {
            let o = median_orders(n, 0.95).unwrap();
            // the exact coverage of the orders chosen by the normal approximation
            let exact = coverage(n as u64, o.lo as u64, o.hi as u64);
            assert!(exact > 0.94 && o.lo >= 1 && o.hi <= n, "n={n} {o:?} exact {exact}");
        }
    }

    #[test]
    fn bad_level_and_empty_sample_are_errors() {
        assert!(median_orders(5, 0.0).is_err());
        assert!(median_orders(5, f64::NAN).is_err());
        assert!(median_ci(&[], 0.95).is_err());
        let ci = median_ci(&[1.0, 2.0], 0.95).unwrap();
        assert!(ci.lo.is_infinite() && ci.hi.is_infinite());
    }
}
