//! Descriptive statistics of one sample: means, order statistics, spread.
//!
//! Formulas follow numpy/scipy (the parity reference of the test suite):
//! `gmean` = exp(mean(log x)) as scipy.stats.gmean; `percentile` is numpy's default
//! "linear" method; `median` averages the two middle values as numpy.median.
//! `bamean` is MMTests' BAmean-P (Stat.pm, "mean of the best P% of samples").

use super::sample::{check, check_len, check_positive, finite, sorted};
use crate::error::{Error, Result};

/// Arithmetic mean Σx/n.
pub fn amean(x: &[f64]) -> Result<f64> {
    check(x, "x")?;
    amean_checked(x)
}

/// [`amean`] of a sample already checked non-empty and finite.
pub(crate) fn amean_checked(x: &[f64]) -> Result<f64> {
    finite(sum(x) / x.len() as f64, "amean")
}

/// Σx in input order, as a plain loop adds it, unless that loses more than 1e-12 of the
/// sum to cancellation (`[1, 1e308, -1e308]` adds to 0 in order, to 1 exactly); then the
/// compensated (Neumaier) sum, which carries what each addition dropped. Ordinary samples
/// keep the plain sum bit for bit.
pub(crate) fn sum(x: &[f64]) -> f64 {
    let (mut s, mut c) = (0.0_f64, 0.0_f64);
    for &v in x {
        let t = s + v;
        c += if s.abs() >= v.abs() { (s - t) + v } else { (v - t) + s };
        s = t;
    }
    if c.is_finite() && c.abs() > s.abs() * 1e-12 {
        s + c
    } else {
        s
    }
}

/// Harmonic mean n/Σ(1/x) (MMTests' Hmean, scipy.stats.hmean); every value must be > 0.
pub fn hmean(x: &[f64]) -> Result<f64> {
    check(x, "x")?;
    hmean_checked(x)
}

/// [`hmean`] of a sample already checked non-empty and finite.
pub(crate) fn hmean_checked(x: &[f64]) -> Result<f64> {
    check_positive(x, "x", "the harmonic mean")?;
    let s: f64 = x.iter().map(|v| 1.0 / v).sum();
    finite(x.len() as f64 / s, "hmean")
}

/// Geometric mean exp(Σln(x)/n) (scipy.stats.gmean); every value must be > 0.
pub fn gmean(x: &[f64]) -> Result<f64> {
    check(x, "x")?;
    gmean_checked(x)
}

/// [`gmean`] of a sample already checked non-empty and finite.
pub(crate) fn gmean_checked(x: &[f64]) -> Result<f64> {
    check_positive(x, "x", "the geometric mean")?;
    finite((ln_product(x) / x.len() as f64).exp(), "gmean")
}

/// Σ ln(x) as the logarithm of the product of the values' mantissas plus their
/// binary exponents: one `ln` per sample instead of one per value, and no overflow or
/// underflow whatever the magnitudes (values must be positive and finite).
fn ln_product(x: &[f64]) -> f64 {
    let (mut m, mut e) = (1.0f64, 0i64);
    for &v in x {
        let (mv, ev) = frexp(v);
        m *= mv; // mantissas are in [0.5, 1)
        e += ev;
        if m < 1e-280 {
            let (mm, em) = frexp(m);
            m = mm;
            e += em;
        }
    }
    m.ln() + e as f64 * std::f64::consts::LN_2
}

/// `v = m · 2^e` with `m` in [0.5, 1), for positive finite `v` (subnormals included).
fn frexp(v: f64) -> (f64, i64) {
    let bits = v.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i64;
    if exp == 0 {
        let (m, e) = frexp(v * f64::from_bits(0x43f0_0000_0000_0000)); // · 2^64
        return (m, e - 64);
    }
    (f64::from_bits((bits & !(0x7ff << 52)) | (1022 << 52)), exp - 1022)
}

/// Smallest value.
pub fn min(x: &[f64]) -> Result<f64> {
    check(x, "x")?;
    Ok(x.iter().copied().fold(f64::INFINITY, f64::min))
}

/// Largest value.
pub fn max(x: &[f64]) -> Result<f64> {
    check(x, "x")?;
    Ok(x.iter().copied().fold(f64::NEG_INFINITY, f64::max))
}

/// Median: the middle value, or the mean of the two middle values (numpy.median).
pub fn median(x: &[f64]) -> Result<f64> {
    check(x, "x")?;
    Ok(median_sorted(&sorted(x)))
}

/// Median of an ascending, non-empty slice.
pub(crate) fn median_sorted(s: &[f64]) -> f64 {
    let n = s.len();
    if n % 2 == 1 {
        s[n / 2]
    } else {
        (s[n / 2 - 1] + s[n / 2]) / 2.0
    }
}

/// The q-th percentile (0 ≤ q ≤ 100) with linear interpolation between order
/// statistics, numpy.percentile's default method.
pub fn percentile(x: &[f64], q: f64) -> Result<f64> {
    Ok(percentiles(x, &[q])?[0])
}

/// Several percentiles of one sample (sorted once).
pub fn percentiles(x: &[f64], qs: &[f64]) -> Result<Vec<f64>> {
    check(x, "x")?;
    for &q in qs {
        if !(0.0..=100.0).contains(&q) {
            return Err(Error::domain(format!("percentile q must be within [0, 100], got {q}")));
        }
    }
    let s = sorted(x);
    Ok(qs.iter().map(|&q| percentile_sorted(&s, q)).collect())
}

/// numpy's "linear" percentile of an ascending, non-empty slice; q in [0, 100].
pub(crate) fn percentile_sorted(s: &[f64], q: f64) -> f64 {
    let n = s.len();
    let index = (n - 1) as f64 * (q / 100.0);
    let below = index.floor();
    let lo = (below as usize).min(n - 1);
    let hi = (lo + 1).min(n - 1);
    let gamma = index - below;
    let (a, b) = (s[lo], s[hi]);
    let diff = b - a;
    // numpy's _lerp: interpolate from the nearer end for numerical symmetry.
    if gamma >= 0.5 {
        b - diff * (1.0 - gamma)
    } else {
        a + diff * gamma
    }
}

/// Variance with `ddof` delta degrees of freedom: Σ(x-mean)²/(n-ddof), two-pass.
pub fn variance(x: &[f64], ddof: usize) -> Result<f64> {
    check(x, "x")?;
    variance_about(x, amean_checked(x)?, ddof)
}

/// [`variance`] of a checked sample around its already computed mean `m`, by the
/// corrected two-pass formula Σd² − (Σd)²/n with d = x − m (Chan, Golub and LeVeque,
/// "Algorithms for computing the sample variance", 1983): the second term removes the
/// rounding error of `m`, so equal values have variance 0 even where their sum rounds
/// (16 copies of 692861481133923 gave a standard deviation of 0.26 without it).
pub(crate) fn variance_about(x: &[f64], m: f64, ddof: usize) -> Result<f64> {
    check_len(x, ddof + 1, "x", &format!("a variance with ddof={ddof}"))?;
    let (mut ss, mut sd) = (0.0_f64, 0.0_f64);
    for v in x {
        let d = v - m;
        ss += d * d;
        sd += d;
    }
    let ss = (ss - sd * sd / x.len() as f64).max(0.0);
    finite(ss / (x.len() - ddof) as f64, "variance")
}

/// Standard deviation sqrt(variance(x, ddof)); ddof = 1 is the sample
/// standard deviation (MMTests' Stddev, numpy.std(ddof=1)).
pub fn stddev(x: &[f64], ddof: usize) -> Result<f64> {
    Ok(variance(x, ddof)?.sqrt())
}

/// Coefficient of variation in percent: 100·stddev(ddof=1)/amean, as MMTests'
/// CoeffVar. Needs two samples and a non-zero mean.
pub fn coeff_var(x: &[f64]) -> Result<f64> {
    check(x, "x")?;
    let m = amean_checked(x)?;
    coeff_var_about(x, m, variance_about(x, m, 1)?.sqrt())
}

/// [`coeff_var`] from an already computed mean and sample standard deviation.
pub(crate) fn coeff_var_about(x: &[f64], m: f64, sd: f64) -> Result<f64> {
    check_len(x, 2, "x", "a variance with ddof=1")?;
    if m == 0.0 {
        return Err(Error::domain("the coefficient of variation is undefined when the mean is 0"));
    }
    finite(100.0 * sd / m, "coeff_var")
}

/// MMTests' BAmean-P: the arithmetic mean of the best `pct` percent of samples.
///
/// Samples are ordered best first (descending when higher is better, ascending
/// otherwise); k = max(1, ⌊n·pct/100⌋) best samples are averaged, summing in that
/// order as `Stat.pm` does (so n = 5, pct = 95 averages 4 samples).
pub fn bamean(x: &[f64], pct: f64, higher_is_better: bool) -> Result<f64> {
    check(x, "x")?;
    if !(pct > 0.0 && pct <= 100.0) {
        return Err(Error::domain(format!("bamean pct must be within (0, 100], got {pct}")));
    }
    let mut s = sorted(x);
    if higher_is_better {
        s.reverse();
    }
    let k = ((x.len() as f64 * pct / 100.0).floor() as usize).max(1);
    let sum: f64 = s[..k].iter().sum();
    finite(sum / k as f64, "bamean")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_survives_cancellation() {
        // exact: (0·5 + 1 + 1e308 − 1e308)/8 = 1/8 (numpy's pairwise mean says 0.125 too)
        let x = [0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1e308, -1e308];
        assert_eq!(amean(&x).unwrap(), 0.125);
        // an ordinary sample keeps the plain in-order sum bit for bit
        let y = [0.1, 0.2, 0.3];
        assert_eq!(sum(&y), 0.1 + 0.2 + 0.3);
    }

    #[test]
    fn means_by_hand() {
        let x = [1.0, 2.0, 4.0];
        assert_eq!(amean(&x).unwrap(), 7.0 / 3.0);
        // 3 / (1 + 1/2 + 1/4) = 3 / 1.75
        assert_eq!(hmean(&x).unwrap(), 3.0 / 1.75);
        // (1*2*4)^(1/3) = 2
        assert!((gmean(&x).unwrap() - 2.0).abs() < 1e-15);
    }

    #[test]
    fn equal_values_whose_sum_rounds_have_no_spread() {
        // 16 * 692861481133923 exceeds 2^53: the sequential sum rounds, the mean is off
        // by a few units and each deviation is that error; numpy.std gives 0.0 exactly
        let x = [692_861_481_133_923.0; 16];
        assert_eq!(stddev(&x, 1).unwrap(), 0.0);
        assert_eq!(coeff_var(&x).unwrap(), 0.0);
        // and by hand for a small sample: mean 2, squares 1 + 0 + 1 over n - 1 = 2
        assert_eq!(variance(&[1.0, 2.0, 3.0], 1).unwrap(), 1.0);
    }

    #[test]
    fn frexp_and_ln_product_by_hand() {
        assert_eq!(frexp(8.0), (0.5, 4));
        assert_eq!(frexp(0.75), (0.75, 0));
        assert_eq!(frexp(f64::MIN_POSITIVE / 4.0), (0.5, -1023));
        // ln(2 · 4 · 1e300 · 1e300 · 1e-300) = ln 8 + 300 ln 10, no overflow on the way
        let got = ln_product(&[2.0, 4.0, 1e300, 1e300, 1e-300]);
        let want = 8f64.ln() + 300.0 * 10f64.ln();
        assert!((got - want).abs() < 1e-12 * want, "{got} {want}");
        assert!((gmean(&[1e-310, 1e-310]).unwrap() - 1e-310).abs() < 1e-322);
    }

    #[test]
    fn order_statistics_by_hand() {
        let x = [4.0, 1.0, 3.0, 2.0];
        assert_eq!(median(&x).unwrap(), 2.5);
        assert_eq!(min(&x).unwrap(), 1.0);
        assert_eq!(max(&x).unwrap(), 4.0);
        // index = 3 * 0.25 = 0.75 between 1 and 2 -> 1.75
        assert_eq!(percentile(&x, 25.0).unwrap(), 1.75);
        assert_eq!(percentile(&x, 100.0).unwrap(), 4.0);
        assert_eq!(percentile(&x, 0.0).unwrap(), 1.0);
    }

    #[test]
    fn spread_by_hand() {
        let x = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0];
        // mean 5, squared deviations sum 32
        assert_eq!(variance(&x, 0).unwrap(), 4.0);
        assert_eq!(stddev(&x, 0).unwrap(), 2.0);
        assert_eq!(variance(&x, 1).unwrap(), 32.0 / 7.0);
        assert_eq!(coeff_var(&x).unwrap(), 100.0 * (32.0f64 / 7.0).sqrt() / 5.0);
    }

    #[test]
    fn bamean_follows_mmtests_k() {
        let x = [10.0, 50.0, 20.0, 40.0, 30.0];
        // higher is better, pct 50: k = int(2.5) = 2 -> mean(50, 40)
        assert_eq!(bamean(&x, 50.0, true).unwrap(), 45.0);
        // lower is better, pct 95: k = int(4.75) = 4 -> mean(10, 20, 30, 40)
        assert_eq!(bamean(&x, 95.0, false).unwrap(), 25.0);
        // n = 1: k = max(1, 0) = 1
        assert_eq!(bamean(&[7.0], 10.0, true).unwrap(), 7.0);
    }

    #[test]
    fn undefined_cases_are_errors() {
        assert!(matches!(amean(&[]), Err(Error::InsufficientData(_))));
        assert!(matches!(hmean(&[1.0, 0.0]), Err(Error::Domain(_))));
        assert!(matches!(gmean(&[1.0, -2.0]), Err(Error::Domain(_))));
        assert!(matches!(stddev(&[1.0], 1), Err(Error::InsufficientData(_))));
        assert!(matches!(amean(&[1.0, f64::NAN]), Err(Error::Domain(_))));
        assert!(matches!(coeff_var(&[-1.0, 1.0]), Err(Error::Domain(_))));
        assert!(matches!(amean(&[f64::MAX, f64::MAX]), Err(Error::Domain(_))));
        assert!(matches!(percentile(&[1.0], 101.0), Err(Error::Domain(_))));
        let msg = hmean(&[3.0, 0.0]).unwrap_err().to_string();
        assert!(msg.contains("x[1] = 0"), "{msg}");
    }
}
