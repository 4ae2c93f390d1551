//! Durations counted by value in bounded memory, for exact percentiles of a trace's
//! latencies and idle periods (docs/trace-compare.md §4).
//!
//! Every distinct value (integer ns) is its own bucket, so the percentiles are exact,
//! until more than [`MAX_BUCKETS`] distinct values are held; then values of `2^bits` ns
//! and more are kept to their `bits` leading binary digits (the lower ones zeroed) and
//! `bits` goes down one at a time until the buckets fit again. Values below `2^bits` ns
//! stay exact; above, a bucket is at most `2^(1-bits)` of its value wide, and
//! [`Hist::resolution_bits`] says so. Count, sum, minimum and maximum are always exact.
//!
//! Percentiles are numpy's default (`linear`): for `n` values sorted `x[0..n]`, the `q`
//! quantile is `x[k] + f·(x[k+1] − x[k])` with `k + f = (n − 1)·q`.

use crate::int_map::IntMap;
use serde::{Deserialize, Serialize};

/// Distinct buckets held before they are made coarser: about 1.5 MiB a histogram.
pub const MAX_BUCKETS: usize = 1 << 16;

/// Durations (ns) counted by value; see the module docs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(from = "HistForm", into = "HistForm")]
pub struct Hist {
    counts: IntMap<u64, u64>,
    bits: u32,
    n: u64,
    sum: u128,
    min: u64,
    max: u64,
}

impl Default for Hist {
    fn default() -> Self {
        Hist { counts: IntMap::default(), bits: 64, n: 0, sum: 0, min: u64::MAX, max: 0 }
    }
}

/// The key of `v` with `bits` leading binary digits kept.
#[inline]
fn bucket(v: u64, bits: u32) -> u64 {
    let width = 64 - v.leading_zeros();
    if width <= bits {
        v
    } else {
        let shift = width - bits;
        v >> shift << shift
    }
}

impl Hist {
    /// Count one value.
    #[inline]
    pub fn add(&mut self, v: u64) {
        self.n += 1;
        self.sum += u128::from(v);
        self.min = self.min.min(v);
        self.max = self.max.max(v);
        *self.counts.entry(bucket(v, self.bits)).or_default() += 1;
        if self.counts.len() > MAX_BUCKETS {
            self.coarsen();
        }
    }

    fn coarsen(&mut self) {
        while self.counts.len() > MAX_BUCKETS && self.bits > 1 {
            self.bits = self.bits.min(64 - self.max.leading_zeros()).saturating_sub(1).max(1);
            let mut next: IntMap<u64, u64> = IntMap::default();
            for (&k, &c) in &self.counts {
                *next.entry(bucket(k, self.bits)).or_default() += c;
            }
            self.counts = next;
        }
    }

    /// Add every value of `other`.
    pub fn merge(&mut self, other: &Hist) {
        if other.n == 0 {
            return;
        }
        self.n += other.n;
        self.sum += other.sum;
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
        if other.bits < self.bits {
            self.bits = other.bits;
            let old = std::mem::take(&mut self.counts);
            for (k, c) in old {
                *self.counts.entry(bucket(k, self.bits)).or_default() += c;
            }
        }
        for (&k, &c) in &other.counts {
            *self.counts.entry(bucket(k, self.bits)).or_default() += c;
        }
        self.coarsen();
    }

    /// Values counted.
    pub fn count(&self) -> u64 {
        self.n
    }

    /// Their sum, ns.
    pub fn sum(&self) -> u128 {
        self.sum
    }

    /// The smallest (None when empty).
    pub fn min(&self) -> Option<u64> {
        (self.n > 0).then_some(self.min)
    }

    /// The largest (None when empty).
    pub fn max(&self) -> Option<u64> {
        (self.n > 0).then_some(self.max)
    }

    /// The arithmetic mean (None when empty).
    pub fn mean(&self) -> Option<f64> {
        (self.n > 0).then(|| self.sum as f64 / self.n as f64)
    }

    /// `None` while every value is exact, else the binary digits kept of values of
    /// `2^bits` ns and more.
    pub fn resolution_bits(&self) -> Option<u32> {
        (self.bits < 64).then_some(self.bits)
    }

    /// The buckets in value order: (value, count).
    pub fn sorted(&self) -> Vec<(u64, u64)> {
        let mut v: Vec<(u64, u64)> = self.counts.iter().map(|(&k, &c)| (k, c)).collect();
        v.sort_unstable();
        v
    }

    /// The `q` quantiles (each in [0, 1]) by numpy's `linear` rule (module docs), in
    /// the order given; None when empty. The maximum and minimum are the exact ones.
    pub fn quantiles(&self, qs: &[f64]) -> Vec<Option<f64>> {
        if self.n == 0 {
            return vec![None; qs.len()];
        }
        let sorted = self.sorted();
        // the value at rank r (0-based), from the cumulative counts
        let at = |r: u64| -> f64 {
            if r == 0 {
                return self.min as f64;
            }
            if r + 1 == self.n {
                return self.max as f64;
            }
            let mut seen = 0u64;
            for &(v, c) in &sorted {
                seen += c;
                if r < seen {
                    return v as f64;
                }
            }
            self.max as f64
        };
        qs.iter()
            .map(|&q| {
                let h = (self.n - 1) as f64 * q.clamp(0.0, 1.0);
                let k = h.floor();
                let f = h - k;
                let lo = at(k as u64);
                Some(if f > 0.0 { lo + f * (at(k as u64 + 1) - lo) } else { lo })
            })
            .collect()
    }
}

/// The serialised form: buckets sorted by value.
#[derive(Serialize, Deserialize)]
struct HistForm {
    bits: u32,
    n: u64,
    sum: u128,
    min: u64,
    max: u64,
    buckets: Vec<(u64, u64)>,
}

impl From<Hist> for HistForm {
    fn from(h: Hist) -> Self {
        HistForm { bits: h.bits, n: h.n, sum: h.sum, min: h.min, max: h.max, buckets: h.sorted() }
    }
}

impl From<HistForm> for Hist {
    fn from(f: HistForm) -> Self {
        Hist { counts: f.buckets.into_iter().collect(), bits: f.bits, n: f.n, sum: f.sum, min: f.min, max: f.max }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_as_numpy_linear() {
        // numpy.percentile([1, 2, 3, 4, 10], [50, 90, 99]) = [3.0, 7.6, 9.76]
        let mut h = Hist::default();
        for v in [4, 1, 10, 3, 2] {
            h.add(v);
        }
        let q = h.quantiles(&[0.5, 0.9, 0.99]);
        assert_eq!(q[0], Some(3.0));
        assert!((q[1].unwrap() - 7.6).abs() < 1e-12 && (q[2].unwrap() - 9.76).abs() < 1e-12);
        assert_eq!((h.min(), h.max(), h.mean()), (Some(1), Some(10), Some(4.0)));
        assert_eq!(Hist::default().quantiles(&[0.5]), vec![None]);
        // repeated values: numpy.percentile([5, 5, 5, 7], 50) = 5.0, 90 -> 6.4
        let mut r = Hist::default();
        for v in [5, 7, 5, 5] {
            r.add(v);
        }
        let q = r.quantiles(&[0.5, 0.9]);
        assert_eq!(q[0], Some(5.0));
        assert!((q[1].unwrap() - 6.4).abs() < 1e-12);
    }

    #[test]
    fn bounded_and_says_its_resolution() {
        let mut h = Hist::default();
        for v in 0..(MAX_BUCKETS as u64 * 3) {
            h.add(v * 7);
        }
        assert!(h.counts.len() <= MAX_BUCKETS);
        let bits = h.resolution_bits().unwrap();
        // values below 2^bits are still exact: the minimum's bucket is 0
        assert_eq!(h.sorted()[0].0, 0);
        // by hand: the multiples of 7 below 3·2^16·7 ≈ 2^20.4; with 15 binary digits the
        // octaves 2^17..2^20 fill 2^14 buckets each, 2^16 holds 9362 values and below
        // 2^15 they are exact (4682 + 4681): 84 k buckets, too many; with 14 digits the
        // seven octaves 2^14..2^20 hold at most 2^13 buckets each and 2341 values are
        // exact below 2^14: under 2^16 buckets
        assert_eq!(bits, 14);
        assert_eq!(h.count(), MAX_BUCKETS as u64 * 3);
        assert_eq!(h.max(), Some((MAX_BUCKETS as u64 * 3 - 1) * 7));
        // a bucket is at most 2^(1-bits) of its value wide
        let q = h.quantiles(&[0.5])[0].unwrap();
        let exact = (MAX_BUCKETS as f64 * 3.0 - 1.0) / 2.0 * 7.0;
        assert!((q - exact).abs() / exact <= 2f64.powi(1 - bits as i32), "{q} {exact}");
        // the serialised form reads back equal
        let j = serde_json::to_string(&h).unwrap();
        assert_eq!(serde_json::from_str::<Hist>(&j).unwrap(), h);
    }

    #[test]
    fn merge_adds() {
        let (mut a, mut b) = (Hist::default(), Hist::default());
        a.add(1);
        b.add(3);
        b.add(5);
        a.merge(&b);
        assert_eq!((a.count(), a.sum(), a.quantiles(&[0.5])[0]), (3, 9, Some(3.0)));
    }
}
