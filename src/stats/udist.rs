//! The null distribution of the Mann–Whitney U statistic for samples of sizes n₁ and
//! n₂, with or without ties, computed as go-moremath's `stats.UDist` computes it (the
//! distribution behind benchstat's p-values; docs/benchstat.md §3):
//!
//! - without ties, Mann and Whitney's (1947) recurrence
//!   p₍ₙ,ₘ₎(U) = (n·p₍ₙ₋₁,ₘ₎(U − m) + m·p₍ₙ,ₘ₋₁₎(U)) / (n + m) in floating point, the
//!   CDF summed over the smaller tail;
//! - with ties (a tie vector `t`: how many pooled values share each distinct rank),
//!   Cheung and Klotz's (1997) memoised count of the arrangements with 2U at most a
//!   value, divided by C(n₁ + n₂, n₁).
//!
//! The operations are those of the Go code, in its order, so that the p-values round
//! as benchstat's do; C(n, k) is exact below n = 21 and exp(lnΓ) above, as go-moremath's
//! `mathx.Choose`.

use crate::error::{Error, Result};
use std::collections::HashMap;

/// The U distribution of samples of `n1` and `n2` values whose pooled ranks have the
/// tie vector `ties` (empty: no ties; else it sums to n1 + n2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UDist {
    /// Size of the first sample.
    pub n1: usize,
    /// Size of the second sample.
    pub n2: usize,
    /// How many values share each rank, in rank order; empty when none tie.
    pub ties: Vec<usize>,
}

/// The binomial coefficient C(n, k) as go-moremath's `mathx.Choose`: exact in
/// integers for n ≤ 20, exp(lnΓ(n+1) − lnΓ(k+1) − lnΓ(n−k+1)) above.
pub fn choose(n: i64, k: i64) -> f64 {
    if k == 0 || k == n {
        return 1.0;
    }
    if k < 0 || n < k {
        return 0.0;
    }
    if n <= 20 {
        let mut numer: i64 = 1;
        for n1 in (n - (k - 1))..=n {
            numer *= n1;
        }
        let denom: i64 = (1..=k).product();
        return (numer / denom) as f64;
    }
    let a = libm::lgamma((n + 1) as f64);
    let b = libm::lgamma((k + 1) as f64);
    let c = libm::lgamma((n - k + 1) as f64);
    libm::exp(a - b - c)
}

impl UDist {
    /// Whether any two pooled values tie.
    fn has_ties(&self) -> bool {
        self.ties.iter().any(|&t| t > 1)
    }

    /// The sizes' check: the tie vector, when given, counts every pooled value.
    fn check(&self) -> Result<()> {
        let total: usize = self.ties.iter().sum();
        if !self.ties.is_empty() && total != self.n1 + self.n2 {
            return Err(Error::domain(format!(
                "the tie vector counts {total} values, the samples have {} and {}",
                self.n1, self.n2
            )));
        }
        if self.has_ties() && self.ties.len() < 2 {
            return Err(Error::domain("every pooled value ties: the U distribution is a single point"));
        }
        Ok(())
    }

    /// P(U = u) for each u = 0..=`u` without ties (Mann and Whitney's recurrence,
    /// one plane of (n, m) kept, p₍ₙ,ₘ₎ = p₍ₘ,ₙ₎ used for n > m).
    fn p(&self, u: usize) -> Vec<f64> {
        let (nn, mm) = if self.n1 > self.n2 { (self.n2, self.n1) } else { (self.n1, self.n2) };
        let mut memo = vec![vec![0.0f64; u + 1]; nn + 1];
        for m in 0..=mm {
            if let Some(x) = memo.first_mut().and_then(|r| r.first_mut()) {
                *x = 1.0;
            }
            let nlim = nn.min(m);
            for n in 1..=nlim {
                // p_{n-1,m} is row n-1; p_{n,m-1} is row n (updated in place) when
                // n <= m-1, else row m-1 = n-1 (n == m, by symmetry)
                let (left, right) = memo.split_at_mut(n);
                let (Some(lp), Some(out)) = (left.last(), right.first_mut()) else { continue };
                let same_row = n + 1 > m; // rp is lp
                let ulim = (n * m).min(u);
                let nplusm = (n + m) as f64;
                for u1 in (0..=ulim).rev() {
                    let l = if u1 >= m { n as f64 * lp.get(u1 - m).copied().unwrap_or(0.0) } else { 0.0 };
                    let rp = if same_row { lp.get(u1) } else { out.get(u1) };
                    let r = m as f64 * rp.copied().unwrap_or(0.0);
                    if let Some(o) = out.get_mut(u1) {
                        *o = (l + r) / nplusm;
                    }
                }
            }
        }
        memo.pop().unwrap_or_default()
    }

    /// P(U = `u`) (`u` a multiple of ½ with ties, else an integer).
    pub fn pmf(&self, u: f64) -> Result<f64> {
        self.check()?;
        if u < 0.0 || u >= 0.5 + (self.n1 * self.n2) as f64 {
            return Ok(0.0);
        }
        if self.has_ties() {
            let below = self.counts_at_most((2.0 * u) as i64 - 1)?;
            let at = self.counts_at_most((2.0 * u) as i64)?;
            return Ok((at - below) / choose((self.n1 + self.n2) as i64, self.n1 as i64));
        }
        let ui = u.floor() as usize;
        Ok(self.p(ui).get(ui).copied().unwrap_or(0.0))
    }

    /// P(U ≤ `u`).
    pub fn cdf(&self, u: f64) -> Result<f64> {
        self.check()?;
        if u < 0.0 {
            return Ok(0.0);
        } else if u >= (self.n1 * self.n2) as f64 {
            return Ok(1.0);
        }
        if self.has_ties() {
            let count = self.counts_at_most((2.0 * u) as i64)?;
            return Ok(count / choose((self.n1 + self.n2) as i64, self.n1 as i64));
        }
        let mut ui = u.floor() as usize;
        // symmetric about n1·n2/2: sum the smaller tail
        let nm = self.n1 * self.n2;
        let flip = ui >= nm.div_ceil(2);
        if flip {
            ui = nm - ui - 1;
        }
        let pdfs = self.p(ui);
        let mut p = 0.0;
        for pdf in pdfs.iter().take(ui + 1) {
            p += pdf;
        }
        if flip {
            p = 1.0 - p;
        }
        Ok(p)
    }

    /// The number of arrangements of the first sample among the tied ranks whose 2U
    /// is at most `two_u` (Cheung and Klotz's linked lists, as go-moremath's
    /// `makeUmemo`: a memo per number of ranks k of (n₁ within them, 2U) → count).
    fn counts_at_most(&self, two_u: i64) -> Result<f64> {
        let t: Vec<i64> = self.ties.iter().map(|&x| x as i64).collect();
        let n1 = self.n1 as i64;
        let kk = t.len();
        let at = |i: usize| t.get(i).copied().unwrap_or(0);
        // a[k] = a[k-1] + t[k-2] + t[k-1], a[1] = t[0] (a[0] unused)
        let mut a = vec![0i64; kk + 1];
        if let Some(x) = a.get_mut(1) {
            *x = at(0);
        }
        for k in 2..=kk {
            let v = a.get(k - 1).copied().unwrap_or(0) + at(k - 2) + at(k - 1);
            if let Some(x) = a.get_mut(k) {
                *x = v;
            }
        }
        let a_at = |i: usize| a.get(i).copied().unwrap_or(0);
        let mut memo: Vec<HashMap<(i64, i64), f64>> = vec![HashMap::new(); kk + 1];
        if let Some(m) = memo.get_mut(kk) {
            m.insert((n1, two_u), 0.0);
        }
        // the (n1, 2U) pairs each level needs, from the top level down
        let mut tsum: i64 = t.iter().sum();
        for k in (2..kk).rev() {
            tsum -= at(k);
            let above: Vec<(i64, i64)> = memo.get(k + 1).map(|m| m.keys().copied().collect()).unwrap_or_default();
            let prefix = t.get(..k).unwrap_or_default();
            let mut level = HashMap::new();
            for (kn1, ktwo_u) in above {
                let lo = 0.max(kn1 - tsum);
                let hi = kn1.min(at(k));
                for rk in lo..=hi {
                    let two_u_k = ktwo_u - rk * (a_at(k + 1) - 2 * kn1 + rk);
                    let n1_k = kn1 - rk;
                    if two_u_min(n1_k, prefix, &a) <= two_u_k && two_u_k <= two_u_max(n1_k, prefix, &a) {
                        level.insert((n1_k, two_u_k), 0.0);
                    }
                }
            }
            if let Some(m) = memo.get_mut(k) {
                *m = level;
            }
        }
        if kk < 2 {
            return Err(Error::domain("the tie vector needs at least two ranks"));
        }
        // the base case k = 2
        let n_2 = at(0) + at(1);
        if let Some(m2) = memo.get_mut(2) {
            for (key, value) in m2.iter_mut() {
                let (kn1, ktwo_u) = *key;
                let mut sum = 0.0;
                let lo = 0.max(kn1 - at(0));
                let hi = (ktwo_u - kn1 * (at(0) - kn1)) / n_2;
                for r2 in lo..=hi {
                    sum += choose(at(0), kn1 - r2) * choose(at(1), r2);
                }
                *value = sum;
            }
        }
        // each level from the one below
        let mut tsum = at(0);
        for k in 3..=kk {
            tsum += at(k - 2);
            let (below, rest) = memo.split_at_mut(k);
            let (Some(below), Some(here)) = (below.last(), rest.first_mut()) else { continue };
            let prefix = t.get(..k - 1).unwrap_or_default();
            for (key, value) in here.iter_mut() {
                let (kn1, ktwo_u) = *key;
                let mut sum = 0.0;
                let lo = 0.max(kn1 - tsum);
                let hi = kn1.min(at(k - 1));
                for rk in lo..=hi {
                    let two_u_prev = ktwo_u - rk * (a_at(k) - 2 * kn1 + rk);
                    let n1_prev = kn1 - rk;
                    let x = match below.get(&(n1_prev, two_u_prev)) {
                        Some(&x) => x,
                        None if two_u_max(n1_prev, prefix, &a) < two_u_prev => choose(tsum, n1_prev),
                        None => 0.0,
                    };
                    sum += x * choose(at(k - 1), rk);
                }
                *value = sum;
            }
        }
        memo.get(kk)
            .and_then(|m| m.get(&(n1, two_u)).copied())
            .ok_or_else(|| Error::Internal("the U memo lacks its own top entry".into()))
    }
}

/// The least 2U of `n1` first-sample values among the ranks of tie vector `t`.
fn two_u_min(n1: i64, t: &[i64], a: &[i64]) -> i64 {
    let mut two_u = -n1 * n1;
    let mut left = n1;
    for (k, &tk) in t.iter().enumerate() {
        let take = left.min(tk);
        two_u += take * a.get(k + 1).copied().unwrap_or(0);
        left -= take;
    }
    two_u
}

/// The greatest 2U of `n1` first-sample values among the ranks of tie vector `t`.
fn two_u_max(n1: i64, t: &[i64], a: &[i64]) -> i64 {
    let mut two_u = -n1 * n1;
    let mut left = n1;
    for (k, &tk) in t.iter().enumerate().rev() {
        let take = left.min(tk);
        two_u += take * a.get(k + 1).copied().unwrap_or(0);
        left -= take;
    }
    two_u
}

#[cfg(test)]
mod tests {
    //! go-moremath's own expectations (stats/udist_test.go): Mann and Whitney's 1947
    //! tables, Klotz's 1966 tables with ties, and its brute-force reference for the
    //! other tie vectors (written out here as Klotz's enumeration).
    use super::*;

    /// go-moremath's `aeqTable`: equal to "%f" precision.
    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 0.000001
    }

    #[test]
    fn mann_whitney_1947_tables() {
        let udist3 = [
            [0.250000, 0.100000, 0.050000],
            [0.500000, 0.200000, 0.100000],
            [0.750000, 0.400000, 0.200000],
            [1.000000, 0.600000, 0.350000],
            [1.000000, 0.800000, 0.500000],
            [1.000000, 0.900000, 0.650000],
        ];
        let udist5 = [
            [0.166667, 0.047619, 0.017857, 0.007937, 0.003968],
            [0.333333, 0.095238, 0.035714, 0.015873, 0.007937],
            [0.500000, 0.190476, 0.071429, 0.031746, 0.015873],
            [0.666667, 0.285714, 0.125000, 0.055556, 0.027778],
            [0.833333, 0.428571, 0.196429, 0.095238, 0.047619],
            [1.000000, 0.571429, 0.285714, 0.142857, 0.075397],
        ];
        for (u, row) in udist3.iter().enumerate() {
            for (m, want) in row.iter().enumerate() {
                let got = UDist { n1: m + 1, n2: 3, ties: vec![] }.cdf(u as f64).unwrap();
                assert!(close(got, *want), "n=3 m={} U={u}: {got} != {want}", m + 1);
            }
        }
        for (u, row) in udist5.iter().enumerate() {
            for (m, want) in row.iter().enumerate() {
                let got = UDist { n1: m + 1, n2: 5, ties: vec![] }.cdf(u as f64).unwrap();
                assert!(close(got, *want), "n=5 m={} U={u}: {got} != {want}", m + 1);
            }
        }
    }

    /// go-moremath's `makeTable`: (x, CDF) where the CDF changes, x = U + m²/2 (Klotz's uQt').
    fn klotz_table(m: usize, n: usize, t: &[usize], minx: f64, maxx: f64) -> Vec<(f64, f64)> {
        let d = UDist { n1: m, n2: n - m, ties: t.to_vec() };
        let mut out: Vec<(f64, f64)> = Vec::new();
        let mut x = minx;
        while x <= maxx {
            let p = d.cdf(x - (m * m) as f64 / 2.0).unwrap();
            // go-moremath's aeq (relative, 8 digits) decides "changed"
            let same = out.last().is_some_and(|&(_, q)| q * (1.0 - 1e-7) <= p && p * (1.0 - 1e-7) <= q);
            if !same {
                out.push((x, p));
            }
            x += 0.5;
        }
        out
    }

    fn check_table(got: &[(f64, f64)], want: &[(f64, f64)]) {
        assert_eq!(got.len(), want.len(), "{got:?}");
        for (g, w) in got.iter().zip(want) {
            assert!(close(g.0, w.0) && close(g.1, w.1), "{g:?} != {w:?}");
        }
    }

    #[test]
    fn klotz_1966_table_1() {
        check_table(
            &klotz_table(5, 10, &[1, 1, 2, 1, 1, 2, 1, 1], 12.5, 19.5),
            &[
                (12.5, 0.003968),
                (13.5, 0.007937),
                (15.0, 0.023810),
                (16.5, 0.047619),
                (17.5, 0.071429),
                (18.0, 0.087302),
                (19.0, 0.134921),
                (19.5, 0.138889),
            ],
        );
    }

    #[test]
    fn klotz_1966_tables_2_and_3() {
        let want2 = [
            (52.0, 0.000014),
            (56.5, 0.000128),
            (57.5, 0.000145),
            (60.0, 0.000230),
            (61.0, 0.000400),
            (62.0, 0.000740),
            (62.5, 0.000797),
            (64.0, 0.000825),
            (64.5, 0.001165),
            (65.5, 0.001477),
            (66.5, 0.002498),
            (67.0, 0.002725),
            (67.5, 0.002895),
            (68.0, 0.003150),
            (68.5, 0.003263),
            (69.0, 0.003518),
            (69.5, 0.003603),
            (70.0, 0.005648),
            (70.5, 0.005818),
            (71.0, 0.006626),
            (71.5, 0.006796),
            (72.0, 0.008157),
            (72.5, 0.009688),
            (73.0, 0.009801),
            (73.5, 0.010430),
            (74.0, 0.011111),
            (74.5, 0.014230),
            (75.0, 0.014612),
            (75.5, 0.017249),
            (76.0, 0.018307),
            (76.5, 0.020178),
            (77.0, 0.022270),
            (77.5, 0.023189),
            (78.0, 0.026931),
            (78.5, 0.028207),
            (79.0, 0.029979),
            (79.5, 0.030931),
            (80.0, 0.038969),
            (80.5, 0.043063),
            (81.0, 0.044262),
            (81.5, 0.046389),
            (82.0, 0.049581),
            (82.5, 0.056300),
            (83.0, 0.058027),
            (83.5, 0.063669),
            (84.0, 0.067454),
            (84.5, 0.074122),
            (85.0, 0.077425),
            (85.5, 0.083498),
            (86.0, 0.094079),
            (86.5, 0.096693),
            (87.0, 0.101132),
        ];
        check_table(&klotz_table(10, 21, &[6, 5, 4, 3, 2, 1], 52.0, 87.0), &want2);
        let want3 = [
            (32.0, 0.000078),
            (34.0, 0.000389),
            (36.0, 0.001088),
            (38.0, 0.002642),
            (40.0, 0.005905),
            (42.0, 0.011500),
            (44.0, 0.021057),
            (46.0, 0.035664),
            (48.0, 0.057187),
            (50.0, 0.086713),
            (52.0, 0.126263),
            (54.0, 0.175369),
        ];
        check_table(&klotz_table(8, 16, &[2, 2, 2, 2, 2, 2, 2, 2], 32.0, 54.0), &want3);
    }

    /// Klotz's (1966) direct enumeration, as go-moremath's `udistRef`: every vector
    /// u with 0 ≤ uᵢ ≤ tᵢ and Σu = n1, its 2U and its Π C(tᵢ, uᵢ) arrangements; the
    /// PMF and CDF indexed by 2U.
    fn enumeration(n1: usize, t: &[usize]) -> (Vec<f64>, Vec<f64>) {
        let n: usize = t.iter().sum();
        let mut counts = vec![0u64; 1 + 2 * n1 * (n - n1)];
        let mut u = vec![0usize; t.len()];
        loop {
            if u.iter().sum::<usize>() == n1 {
                let (mut two_u, mut vsum) = (0usize, 0usize);
                for (ui, ti) in u.iter().zip(t) {
                    let vi = ti - ui;
                    two_u += 2 * vsum * ui + ui * vi;
                    vsum += vi;
                }
                let prod: u64 = u.iter().zip(t).map(|(ui, ti)| choose(*ti as i64, *ui as i64) as u64).product();
                counts[two_u] += prod;
            }
            // next u, as an odometer
            let mut i = 0;
            loop {
                if i == u.len() {
                    let total = choose(n as i64, n1 as i64);
                    let pmf: Vec<f64> = counts.iter().map(|&c| c as f64 / total).collect();
                    let cdf = pmf
                        .iter()
                        .scan(0.0, |s, p| {
                            *s += p;
                            Some(*s)
                        })
                        .collect();
                    return (pmf, cdf);
                }
                u[i] += 1;
                if u[i] <= t[i] {
                    break;
                }
                u[i] = 0;
                i += 1;
            }
        }
    }

    #[test]
    fn klotz_tie_vectors_against_enumeration() {
        for (n1, t) in [
            (5, vec![1, 1, 2, 1, 1, 2, 1, 1]),
            (5, vec![1, 1, 2, 1, 1, 1, 2, 1]),
            (5, vec![1, 3, 1, 2, 1, 1, 1]),
            (8, vec![1, 2, 1, 1, 1, 1, 2, 2, 1, 2]),
            (12, vec![3, 3, 4, 3, 4, 5]),
            (10, vec![1, 2, 3, 4, 5, 6]),
        ] {
            let (pmf, cdf) = enumeration(n1, &t);
            let n: usize = t.iter().sum();
            let d = UDist { n1, n2: n - n1, ties: t.clone() };
            for two_u in 0..=2 * n1 * (n - n1) {
                let u = two_u as f64 / 2.0;
                assert!(close(d.pmf(u).unwrap(), pmf[two_u]), "pmf n1={n1} t={t:?} U={u}");
                assert!(close(d.cdf(u).unwrap(), cdf[two_u]), "cdf n1={n1} t={t:?} U={u}");
            }
        }
    }
}
