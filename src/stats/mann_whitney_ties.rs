//! The Mann–Whitney U test as go-moremath's `stats.MannWhitneyUTest` computes it, the
//! test behind benchstat's `p=` (docs/benchstat.md §3):
//!
//! - U₁ = R₁ − n₁(n₁+1)/2 with average ranks for ties;
//! - the exact distribution of U, ties included ([`UDist`]: Mann–Whitney's recurrence
//!   without ties, Cheung–Klotz with them), when both samples have at most 50 values and
//!   none tie, or at most 25 and some do; two-sided p = 2·P(U ≤ min(U₁, U₂)), or 1 when
//!   U₁ = U₂;
//! - otherwise the normal approximation with the tie correction
//!   σ² = n₁n₂((N+1) − Σ(t³−t)/(N(N−1)))/12 and the continuity correction.
//!
//! schedlab's own [`super::mann_whitney_u`] follows scipy instead (no tie-aware exact
//! distribution: with ties it takes the normal approximation); the benchstat view uses
//! this one so that it prints benchstat's p.

use super::udist::UDist;
use crate::error::Result;

/// The largest sample size for which the exact distribution is used without ties.
pub const EXACT_LIMIT: usize = 50;
/// The largest sample size for which the exact distribution is used with ties.
pub const TIES_EXACT_LIMIT: usize = 25;

/// The alternative hypothesis of the test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Alternative {
    /// The first sample tends to be smaller.
    Less,
    /// The locations differ (two-sided).
    Differs,
    /// The first sample tends to be larger.
    Greater,
}

/// Why the test gives no p-value (go-moremath's errors, whose text benchstat prints).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoTest {
    /// A sample is empty.
    SampleSize,
    /// Every value of both samples is the same.
    SamplesEqual,
}

impl NoTest {
    /// go-moremath's message.
    pub fn message(self) -> &'static str {
        match self {
            NoTest::SampleSize => "sample is too small",
            NoTest::SamplesEqual => "all samples are equal",
        }
    }
}

/// The test's result.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UTest {
    /// U of the first sample (a multiple of ½).
    pub u: f64,
    /// The p-value for the alternative asked.
    pub p: f64,
    /// Whether the exact distribution gave it.
    pub exact: bool,
}

/// Σ(t³ − t) over the tie vector.
fn tie_correction(ties: &[usize]) -> f64 {
    ties.iter().map(|&t| t * t * t - t).sum::<usize>() as f64
}

/// The standard normal CDF as go-moremath's `NormalDist.CDF`: erfc(−x/√2)/2.
fn std_normal_cdf(x: f64) -> f64 {
    libm::erfc(-(x - 0.0) / (1.0 * std::f64::consts::SQRT_2)) / 2.0
}

/// go-moremath's `mathx.Sign`.
fn sign(x: f64) -> f64 {
    if x == 0.0 {
        0.0
    } else if x < 0.0 {
        -1.0
    } else {
        1.0
    }
}

/// The test of `x1` against `x2` (NaN-free values) for `alt`. `Ok(Err(_))` when
/// go-moremath refuses to test (an empty sample; every value equal).
pub fn mann_whitney_ties(x1: &[f64], x2: &[f64], alt: Alternative) -> Result<std::result::Result<UTest, NoTest>> {
    let (n1, n2) = (x1.len(), x2.len());
    if n1 == 0 || n2 == 0 {
        return Ok(Err(NoTest::SampleSize));
    }
    // merge the sorted samples, each value labelled with its sample (a tie between
    // the samples puts the second's value first, as go-moremath's merge does)
    let mut a = x1.to_vec();
    let mut b = x2.to_vec();
    a.sort_by(f64::total_cmp);
    b.sort_by(f64::total_cmp);
    let mut merged: Vec<(f64, bool)> = Vec::with_capacity(n1 + n2);
    let (mut i, mut j) = (0, 0);
    while let (Some(&va), Some(&vb)) = (a.get(i), b.get(j)) {
        if va < vb {
            merged.push((va, true));
            i += 1;
        } else {
            merged.push((vb, false));
            j += 1;
        }
    }
    merged.extend(a.iter().skip(i).map(|&v| (v, true)));
    merged.extend(b.iter().skip(j).map(|&v| (v, false)));

    let mut r1 = 0.0;
    let mut ties: Vec<usize> = Vec::new();
    let mut has_ties = false;
    let mut i = 0;
    while let Some(&(v1, _)) = merged.get(i) {
        let rank1 = i + 1;
        let mut nx1 = 0usize;
        while let Some(&(v, first)) = merged.get(i) {
            if v != v1 {
                break;
            }
            if first {
                nx1 += 1;
            }
            i += 1;
        }
        if nx1 != 0 {
            let rank = (i + rank1) as f64 / 2.0;
            r1 += rank * nx1 as f64;
        }
        ties.push(i - rank1 + 1);
        if i > rank1 {
            has_ties = true;
        }
    }
    let u1 = r1 - (n1 * (n1 + 1)) as f64 / 2.0;
    let u2 = (n1 * n2) as f64 - u1;
    let u_small = u1.min(u2);

    let exact = (!has_ties && n1 <= EXACT_LIMIT && n2 <= EXACT_LIMIT)
        || (has_ties && n1 <= TIES_EXACT_LIMIT && n2 <= TIES_EXACT_LIMIT);
    let p = if exact {
        if ties.len() == 1 {
            return Ok(Err(NoTest::SamplesEqual));
        }
        let dist = UDist { n1, n2, ties: if has_ties { ties } else { Vec::new() } };
        match alt {
            Alternative::Differs => {
                if u1 == u2 {
                    1.0
                } else {
                    dist.cdf(u_small)? * 2.0
                }
            }
            Alternative::Less => dist.cdf(u1)?,
            Alternative::Greater => 1.0 - dist.cdf(u1 - 1.0)?,
        }
    } else {
        let t = tie_correction(&ties);
        let n = (n1 + n2) as f64;
        let mu = (n1 * n2) as f64 / 2.0;
        let sigma = ((n1 * n2) as f64 * ((n + 1.0) - t / (n * (n - 1.0))) / 12.0).sqrt();
        if sigma == 0.0 {
            return Ok(Err(NoTest::SamplesEqual));
        }
        let mut numer = u1 - mu;
        match alt {
            Alternative::Differs => numer -= sign(numer) * 0.5,
            Alternative::Less => numer += 0.5,
            Alternative::Greater => numer -= 0.5,
        }
        let z = numer / sigma;
        match alt {
            Alternative::Differs => 2.0 * std_normal_cdf(z).min(1.0 - std_normal_cdf(z)),
            Alternative::Less => std_normal_cdf(z),
            Alternative::Greater => 1.0 - std_normal_cdf(z),
        }
    };
    Ok(Ok(UTest { u: u1, p, exact }))
}

#[cfg(test)]
mod tests {
    //! go-moremath's own expectations (stats/utest_test.go), to its `aeq` (8
    //! significant digits); the large samples are R's `wilcox.test` there.
    use super::*;

    fn aeq(want: f64, got: f64) -> bool {
        let f = 1.0 - 1e-7;
        let (w, g) = if want < 0.0 && got < 0.0 { (-want, -got) } else { (want, got) };
        w * f <= g && g * f <= w
    }

    fn check3(x1: &[f64], x2: &[f64], u: f64, less: f64, differs: f64, greater: f64) {
        for (alt, want) in [(Alternative::Less, less), (Alternative::Differs, differs), (Alternative::Greater, greater)]
        {
            let r = mann_whitney_ties(x1, x2, alt).unwrap().unwrap();
            assert!(aeq(u, r.u), "U {} != {u}", r.u);
            assert!(aeq(want, r.p), "{alt:?}: p {} != {want}", r.p);
        }
    }

    #[test]
    fn go_moremath_small_samples() {
        let s1 = [2.0, 1.0, 3.0, 5.0];
        let s2 = [12.0, 11.0, 13.0, 15.0];
        let s3 = [0.0, 4.0, 6.0, 7.0];
        let s4 = [2.0, 2.0, 2.0, 2.0];
        let s5 = [1.0, 1.0, 1.0, 1.0, 1.0];
        check3(&s1, &s2, 0.0, 0.014285714285714289, 0.028571428571428577, 1.0);
        check3(&s2, &s1, 16.0, 1.0, 0.028571428571428577, 0.014285714285714289);
        check3(&s1, &s3, 5.0, 0.24285714285714288, 0.48571428571428577, 0.8285714285714285);
        // with ties
        check3(&s1, &s1, 8.0, 0.6285714285714286, 1.0, 0.6285714285714286);
        check3(&s1, &s4, 10.0, 0.8571428571428571, 0.7142857142857143, 0.3571428571428571);
        // go-moremath expects p = 0 two-sided here (its aeq takes 0 only as 0)
        let r = mann_whitney_ties(&s1, &s5, Alternative::Differs).unwrap().unwrap();
        assert_eq!((r.u, r.p), (17.5, 0.0));
        let r = mann_whitney_ties(&s1, &s5, Alternative::Less).unwrap().unwrap();
        assert!(aeq(1.0, r.p));
        let r = mann_whitney_ties(&s1, &s5, Alternative::Greater).unwrap().unwrap();
        assert!(aeq(0.04761904761904767, r.p));
        assert_eq!(mann_whitney_ties(&s4, &s4, Alternative::Differs).unwrap(), Err(NoTest::SamplesEqual));
    }

    #[test]
    fn go_moremath_large_samples_as_r() {
        let l1: Vec<f64> = (0..500).map(|i| (i * 2) as f64).collect();
        let l2: Vec<f64> = (0..600).map(|i| (i * 2 - 41) as f64).collect();
        let mut l3 = l2.clone();
        l3[..30].copy_from_slice(&l1[..30]);
        check3(&l1, &l2, 135250.0, 0.0024667680407086112, 0.0049335360814172224, 0.9975346930458906);
        check3(&l1, &l1, 125000.0, 0.5000436801680628, 1.0, 0.5000436801680628);
        check3(&l1, &l3, 134845.0, 0.0019351907119808942, 0.0038703814239617884, 0.9980659818257166);
    }
}
