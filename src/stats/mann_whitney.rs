//! Mann–Whitney U test, two-sided, as scipy.stats.mannwhitneyu (1.17).
//!
//! - U is the statistic of the first sample: R₁ − n₁(n₁+1)/2 with average ranks for ties.
//! - `Asymptotic`: z = (max(U₁,U₂) − n₁n₂/2 − ½)/σ with the tie-corrected
//!   σ² = n₁n₂/12·((n+1) − Σ(t³−t)/(n(n−1))); p = 2·Φ(−z), capped at 1.
//! - `Exact`: p = 2·P(U ≥ ⌊max(U₁,U₂)⌋) under the null distribution of U (no tie
//!   correction; with ties the statistic is truncated to an integer as scipy does).
//!   The distribution is computed exactly in integers (Gaussian binomial
//!   coefficients) while it fits in 128 bits, otherwise by the positive
//!   probability recurrence in f64.
//! - `Auto`: asymptotic when both samples are larger than 8 or there are ties,
//!   exact otherwise (scipy's rule).

use super::sample::{check, check_len};
use crate::error::{Error, Result};
use libm::erfc;

/// How the p-value is computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MwuMethod {
    /// Exact when both n ≤ 8 or either n ≤ 8 with no ties (scipy's `auto`).
    Auto,
    /// Exact null distribution of U.
    Exact,
    /// Normal approximation with tie and continuity correction.
    Asymptotic,
}

impl MwuMethod {
    /// Parse "auto", "exact" or "asymptotic".
    pub fn parse(s: &str) -> Result<Self> {
        match s {
            "auto" => Ok(MwuMethod::Auto),
            "exact" => Ok(MwuMethod::Exact),
            "asymptotic" => Ok(MwuMethod::Asymptotic),
            _ => Err(Error::domain(format!("method must be 'auto', 'exact' or 'asymptotic', got '{s}'"))),
        }
    }

    /// The name used by [`MwuMethod::parse`].
    pub fn name(self) -> &'static str {
        match self {
            MwuMethod::Auto => "auto",
            MwuMethod::Exact => "exact",
            MwuMethod::Asymptotic => "asymptotic",
        }
    }
}

/// Result of [`mann_whitney_u`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MwuResult {
    /// U statistic of the first sample.
    pub u: f64,
    /// Two-sided p-value.
    pub p: f64,
    /// The method actually used (never `Auto`).
    pub method: MwuMethod,
}

/// Two-sided Mann–Whitney U test of `a` against `b`; each side needs two samples.
pub fn mann_whitney_u(a: &[f64], b: &[f64], method: MwuMethod) -> Result<MwuResult> {
    check(a, "a")?;
    check(b, "b")?;
    check_len(a, 2, "a", "the Mann-Whitney U test")?;
    check_len(b, 2, "b", "the Mann-Whitney U test")?;
    let (n1, n2) = (a.len(), b.len());
    if method == MwuMethod::Exact {
        // refused before the pooled sample is ranked (n1 + n2 pairs allocated and sorted)
        check_exact_size(n1, n2)?;
    }
    let (r1, tie_term) = rank_sum_first(a, b);
    let u1 = r1 - (n1 * (n1 + 1)) as f64 / 2.0;
    let u2 = (n1 * n2) as f64 - u1;
    let u = u1.max(u2);
    let method = match method {
        MwuMethod::Auto if (n1 > 8 && n2 > 8) || tie_term > 0.0 => MwuMethod::Asymptotic,
        MwuMethod::Auto => MwuMethod::Exact,
        m => m,
    };
    let p = match method {
        MwuMethod::Exact => 2.0 * exact_sf(n1, n2, u as u64)?,
        _ => {
            let n = (n1 + n2) as f64;
            let (f1, f2) = (n1 as f64, n2 as f64);
            let mu = f1 * f2 / 2.0;
            let s = (f1 * f2 / 12.0 * ((n + 1.0) - tie_term / (n * (n - 1.0)))).sqrt();
            let z = (u - mu - 0.5) / s;
            // 2·Φ(−z) = erfc(z/√2)
            erfc(z / std::f64::consts::SQRT_2)
        }
    };
    Ok(MwuResult { u: u1, p: p.clamp(0.0, 1.0), method })
}

/// Sum of the average ranks of `a` in the pooled sample, and Σ(t³ − t) over tie groups.
fn rank_sum_first(a: &[f64], b: &[f64]) -> (f64, f64) {
    let mut pooled: Vec<(f64, bool)> = a.iter().map(|&v| (v, true)).chain(b.iter().map(|&v| (v, false))).collect();
    pooled.sort_unstable_by(|x, y| x.0.total_cmp(&y.0));
    let (mut r1, mut tie_term) = (0.0, 0.0);
    let mut i = 0;
    while i < pooled.len() {
        let mut j = i + 1;
        while j < pooled.len() && pooled[j].0 == pooled[i].0 {
            j += 1;
        }
        // ranks i+1 ..= j share their average
        let avg = (i + 1 + j) as f64 / 2.0;
        let in_a = pooled[i..j].iter().filter(|e| e.1).count();
        r1 += avg * in_a as f64;
        let t = (j - i) as f64;
        tie_term += t * t * t - t;
        i = j;
    }
    (r1, tie_term)
}

/// The most terms (m·n + 1) of an exact null distribution computed: 2^24, 256 MiB of
/// counts. Beyond, the exact p-value is refused (the asymptotic one is then accurate).
pub const MAX_EXACT_TERMS: u64 = 1 << 24;

/// Refuse an exact null distribution for sample sizes n1, n2 beyond [`MAX_EXACT_TERMS`].
fn check_exact_size(n1: usize, n2: usize) -> Result<()> {
    let top = (n1 as u64).saturating_mul(n2 as u64);
    if top >= MAX_EXACT_TERMS {
        return Err(Error::domain(format!(
            "the exact Mann-Whitney distribution for n = {n1} and {n2} has {top} terms, more than the {MAX_EXACT_TERMS} schedlab computes; use method='asymptotic'"
        )));
    }
    Ok(())
}

/// P(U ≥ k) under the null hypothesis for sample sizes n1, n2.
pub(crate) fn exact_sf(n1: usize, n2: usize, k: u64) -> Result<f64> {
    check_exact_size(n1, n2)?;
    let (m, n) = (n1.min(n2), n1.max(n2));
    let top = m as u64 * n as u64;
    if k > top {
        return Ok(0.0);
    }
    let tail = upper_tail(m, n)?;
    Ok(tail.get(k as usize).copied().unwrap_or(0.0))
}

/// Upper-tail tables by (m, n).
type TailCache = std::cell::RefCell<std::collections::HashMap<(usize, usize), std::rc::Rc<Vec<f64>>>>;

thread_local! {
    /// Batches test many pairs of the same sizes: each thread keeps their tails.
    static TAILS: TailCache = std::cell::RefCell::new(std::collections::HashMap::new());
}

/// `tail[k]` = P(U ≥ k), k = 0..=m·n, for m ≤ n (cached per thread for small sizes).
fn upper_tail(m: usize, n: usize) -> Result<std::rc::Rc<Vec<f64>>> {
    let cacheable = m * n <= 20_000;
    if cacheable {
        if let Some(t) = TAILS.with(|c| c.borrow().get(&(m, n)).cloned()) {
            return Ok(t);
        }
    }
    let tail = std::rc::Rc::new(compute_upper_tail(m, n)?);
    if cacheable {
        TAILS.with(|c| {
            let mut c = c.borrow_mut();
            if c.len() >= 4096 {
                c.clear();
            }
            c.insert((m, n), std::rc::Rc::clone(&tail));
        });
    }
    Ok(tail)
}

fn compute_upper_tail(m: usize, n: usize) -> Result<Vec<f64>> {
    if let Some(counts) = gaussian_binomial_counts(m, n) {
        // exact integer suffix sums, one rounding each
        let total: i128 = counts.iter().sum();
        let mut acc: i128 = 0;
        let mut tail = vec![0.0; counts.len()];
        for (t, c) in tail.iter_mut().zip(&counts).rev() {
            acc += c;
            *t = acc as f64 / total as f64;
        }
        return Ok(tail);
    }
    let work = (m as f64) * (m as f64) * (n as f64) * (n as f64);
    if work > 4e9 {
        return Err(Error::domain(format!(
            "the exact Mann-Whitney distribution for n = {m} and {n} is too expensive; use method='asymptotic'"
        )));
    }
    // sum from the top (smallest terms first)
    let probs = null_distribution_f64(m, n);
    let mut acc = 0.0;
    let mut tail = vec![0.0; probs.len()];
    for (t, p) in tail.iter_mut().zip(&probs).rev() {
        acc += p;
        *t = acc;
    }
    Ok(tail)
}

/// Number of arrangements with U = u, u = 0..=m·n: the coefficients of the
/// Gaussian binomial [m+n choose m]_q. None if they do not fit in 128 bits.
fn gaussian_binomial_counts(m: usize, n: usize) -> Option<Vec<i128>> {
    // binom(m+n, m) must stay well inside i128 (intermediates are bounded by it)
    let mut total: u128 = 1;
    for i in 1..=m as u128 {
        total = total.checked_mul(n as u128 + i)? / i;
        if total > (1u128 << 120) {
            return None;
        }
    }
    let mut c = vec![0i128; m * n + 1];
    c[0] = 1;
    for k in 1..=m {
        let up = n + k;
        let deg = n * k; // degree after this step
                         // multiply by (1 - q^(n+k)) in place, high to low
        for j in (up..=deg).rev() {
            c[j] -= c[j - up];
        }
        // divide by (1 - q^k): c[j] += c[j-k], low to high
        for j in k..=deg {
            c[j] += c[j - k];
        }
    }
    Some(c)
}

/// Null distribution of U by P(m,n,u) = m/(m+n)·P(m−1,n,u−n) + n/(m+n)·P(m,n−1,u).
fn null_distribution_f64(m: usize, n: usize) -> Vec<f64> {
    // prev[j] = distribution for sizes (i-1, j); cur[j] for (i, j)
    let mut prev: Vec<Vec<f64>> = (0..=n).map(|_| vec![1.0]).collect();
    for i in 1..=m {
        let mut cur: Vec<Vec<f64>> = Vec::with_capacity(n + 1);
        cur.push(vec![1.0]);
        for j in 1..=n {
            let mut d = vec![0.0; i * j + 1];
            let w_a = i as f64 / (i + j) as f64;
            let w_b = j as f64 / (i + j) as f64;
            for (u, p) in prev[j].iter().enumerate() {
                d[u + j] += w_a * p;
            }
            for (u, p) in cur[j - 1].iter().enumerate() {
                d[u] += w_b * p;
            }
            cur.push(d);
        }
        prev = cur;
    }
    prev.pop().unwrap_or_else(|| vec![1.0])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scipy_docstring_example() {
        // scipy's mannwhitneyu docstring: males vs females, exact U1 = 17, p = 1/9
        let males = [19.0, 22.0, 16.0, 29.0, 24.0];
        let females = [20.0, 11.0, 17.0, 12.0];
        let r = mann_whitney_u(&males, &females, MwuMethod::Exact).unwrap();
        assert_eq!(r.u, 17.0);
        assert!((r.p - 1.0 / 9.0).abs() < 1e-15);
        // asymptotic: z = (17 - 10 - 0.5)/sqrt(20*10/12) -> p = 0.11134688653314041
        let r = mann_whitney_u(&males, &females, MwuMethod::Asymptotic).unwrap();
        assert!((r.p - 0.11134688653314041).abs() < 1e-15, "{}", r.p);
    }

    #[test]
    fn exact_counts_by_hand() {
        // m = n = 2: arrangements of aabb have U = 0,1,2,2,3,4 -> counts 1,1,2,1,1
        assert_eq!(gaussian_binomial_counts(2, 2).unwrap(), vec![1, 1, 2, 1, 1]);
        let f = null_distribution_f64(2, 2);
        let expect = [1.0, 1.0, 2.0, 1.0, 1.0].map(|c| c / 6.0);
        for (a, b) in f.iter().zip(expect) {
            assert!((a - b).abs() < 1e-15);
        }
        // P(U >= 4) = 1/6
        assert!((exact_sf(2, 2, 4).unwrap() - 1.0 / 6.0).abs() < 1e-16);
    }

    #[test]
    fn integer_and_float_paths_agree() {
        let c = gaussian_binomial_counts(7, 11).unwrap();
        let total: i128 = c.iter().sum();
        let f = null_distribution_f64(7, 11);
        for (ci, fi) in c.iter().zip(&f) {
            let e = *ci as f64 / total as f64;
            assert!((e - fi).abs() <= 1e-14 * e.max(1e-300), "{e} {fi}");
        }
    }

    #[test]
    fn auto_follows_scipy_rule_and_small_samples_fail() {
        let a: Vec<f64> = (0..9).map(f64::from).collect();
        let b: Vec<f64> = (10..19).map(f64::from).collect();
        assert_eq!(mann_whitney_u(&a, &b, MwuMethod::Auto).unwrap().method, MwuMethod::Asymptotic);
        assert_eq!(mann_whitney_u(&a[..8], &b, MwuMethod::Auto).unwrap().method, MwuMethod::Exact);
        let tied = [1.0, 1.0, 2.0];
        // a tie anywhere in the pooled sample selects the normal approximation
        assert_eq!(mann_whitney_u(&tied, &b, MwuMethod::Auto).unwrap().method, MwuMethod::Asymptotic);
        assert_eq!(mann_whitney_u(&[1.0, 2.0], &[1.0, 5.0], MwuMethod::Auto).unwrap().method, MwuMethod::Asymptotic);
        assert!(matches!(mann_whitney_u(&[1.0], &b, MwuMethod::Auto), Err(Error::InsufficientData(_))));
    }
}
