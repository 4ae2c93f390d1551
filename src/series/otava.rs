//! Apache Otava's change point detection (Fleming et al., "Hunter: Using Change
//! Point Detection to Hunt for Performance Regressions", ICPE 2023): E-divisive
//! means in sliding windows at a relaxed p-value (the "weak" change points), then
//! the weakest removed one at a time until every one left passes the p-value and
//! the magnitude thresholds (docs/change-points.md §2).

use super::divisive::{detect, ChangePoint, Significance};
use super::segment::{around, intervals, SegmentStats};
use crate::error::{Error, Result};

/// The parameters of a detection, with Otava's defaults.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Options {
    /// Values per sliding window (Otava's `window_len`, default 50; at least 2).
    pub window: usize,
    /// Largest p-value of a change point kept (default 0.001).
    pub max_p: f64,
    /// Smallest relative change kept when the p-value passes (default 0: any).
    pub min_magnitude: f64,
    /// `TTest` for Otava's windowed split and merge; `Permutation` for Matteson and
    /// James' original E-divisive over the whole series (Otava's `orig_edivisive`).
    pub significance: Significance,
}

impl Default for Options {
    fn default() -> Self {
        Options { window: 50, max_p: 0.001, min_magnitude: 0.0, significance: Significance::TTest }
    }
}

impl Options {
    /// The options with each value that is given instead of Otava's default; a number
    /// of `permutations` selects Matteson and James' permutation test (seeded by
    /// `seed`) instead of Otava's t-test.
    pub fn given(
        window: Option<usize>,
        max_p: Option<f64>,
        min_magnitude: Option<f64>,
        permutations: Option<usize>,
        seed: u64,
    ) -> Options {
        let d = Options::default();
        Options {
            window: window.unwrap_or(d.window),
            max_p: max_p.unwrap_or(d.max_p),
            min_magnitude: min_magnitude.unwrap_or(d.min_magnitude),
            significance: permutations
                .map_or(Significance::TTest, |permutations| Significance::Permutation { permutations, seed }),
        }
    }

    /// An error unless the window is at least 2 and the p-value in (0, 1].
    pub fn check(&self) -> Result<()> {
        if self.window < 2 {
            return Err(Error::domain(format!("the window must hold at least 2 values, got {}", self.window)));
        }
        if !(self.max_p > 0.0 && self.max_p <= 1.0) {
            return Err(Error::domain(format!("the p-value threshold must be in (0, 1], got {}", self.max_p)));
        }
        if !(self.min_magnitude >= 0.0 && self.min_magnitude.is_finite()) {
            return Err(Error::domain(format!(
                "the magnitude must be a finite number >= 0, got {}",
                self.min_magnitude
            )));
        }
        Ok(())
    }
}

/// The change points of `x` (finite values), sorted by index.
pub fn change_points(x: &[f64], opts: &Options) -> Result<Vec<ChangePoint>> {
    opts.check()?;
    if let Significance::Permutation { .. } = opts.significance {
        return detect(x, opts.significance, opts.max_p);
    }
    let first_pass = if opts.max_p < 0.05 {
        opts.max_p * 10.0
    } else if opts.max_p < 0.5 {
        opts.max_p * 2.0
    } else {
        opts.max_p
    };
    let weak = split(x, opts.window, first_pass)?;
    merge(weak, x, opts.max_p, opts.min_magnitude)
}

/// The weak change points: E-divisive with the t-test in windows of `window`
/// values that advance by half a window, or to the last change point found when
/// that is further; their statistics recomputed between neighbours over all of `x`.
fn split(x: &[f64], window: usize, max_p: f64) -> Result<Vec<ChangePoint>> {
    let step = window / 2;
    let mut found: Vec<usize> = Vec::new();
    let mut start = 0;
    while start < x.len() {
        let end = (start + window).min(x.len());
        let part = x.get(start..end).unwrap_or_default();
        let new = detect(part, Significance::TTest, max_p)?;
        let last = new.last().map_or(0, |c| c.index + start);
        for c in new {
            if !found.contains(&(c.index + start)) {
                found.push(c.index + start);
            }
        }
        start = last.max(start + step);
    }
    found.sort_unstable();
    let iv = intervals(&found, x.len());
    found.iter().map(|&i| stats_at(x, i, &iv).map(|stats| ChangePoint { index: i, stats })).collect()
}

/// The t-test between the segments either side of change point `index`.
fn stats_at(x: &[f64], index: usize, iv: &[(usize, usize)]) -> Result<SegmentStats> {
    let ((ls, le), (rs, re)) = around(index, iv)?;
    SegmentStats::t_test(x.get(ls..le).unwrap_or_default(), x.get(rs..re).unwrap_or_default())
}

/// Otava's merge: while some change point has p ≥ `max_p` remove the one with the
/// largest p; once all pass, remove the smallest magnitude while it is at most
/// `min_magnitude`. After a removal Otava recomputes the change point that took the
/// removed one's place and the one after it (the one before keeps its figures until
/// it is itself recomputed); so does this, to find the same change points.
fn merge(mut cps: Vec<ChangePoint>, x: &[f64], max_p: f64, min_magnitude: f64) -> Result<Vec<ChangePoint>> {
    while let Some(first) = cps.first() {
        crate::cancel::check()?;
        // Python's max/min by key: the first of equals wins, a NaN first stays
        let mut weakest = 0;
        let mut p = first.stats.p;
        for (k, c) in cps.iter().enumerate().skip(1) {
            if c.stats.p > p {
                (weakest, p) = (k, c.stats.p);
            }
        }
        if p < max_p {
            let mut mag = first.stats.magnitude();
            weakest = 0;
            for (k, c) in cps.iter().enumerate().skip(1) {
                if c.stats.magnitude() < mag {
                    (weakest, mag) = (k, c.stats.magnitude());
                }
            }
            if mag > min_magnitude {
                return Ok(cps);
            }
        }
        cps.remove(weakest);
        let idx: Vec<usize> = cps.iter().map(|c| c.index).collect();
        let iv = intervals(&idx, x.len());
        for k in [weakest, weakest + 1] {
            if let Some(c) = cps.get_mut(k) {
                c.stats = stats_at(x, c.index, &iv)?;
            }
        }
    }
    Ok(cps)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn idx(x: &[f64], window: usize, max_p: f64, min_magnitude: f64) -> Vec<usize> {
        let opts = Options { window, max_p, min_magnitude, significance: Significance::TTest };
        change_points(x, &opts).unwrap().iter().map(|c| c.index).collect()
    }

    #[test]
    fn otava_series_tests() {
        // Otava's tests/analysis_test.py test_single_series
        let s = [
            1.02, 0.95, 0.99, 1.00, 1.12, 1.00, 1.01, 0.98, 1.01, 0.96, 0.50, 0.51, 0.48, 0.48, 0.55, 0.50, 0.49, 0.51,
            0.50, 0.49,
        ];
        assert_eq!(idx(&s, 10, 0.0001, 0.0), vec![10]);
        // tests/series_test.py test_change_point_detection and _min_magnitude (Otava's defaults)
        let s1 = [1.02, 0.95, 0.99, 1.00, 1.12, 0.90, 0.50, 0.51, 0.48, 0.48, 0.55];
        let s2 = [2.02, 2.03, 2.01, 2.04, 1.82, 1.85, 1.79, 1.81, 1.80, 1.76, 1.78];
        assert_eq!(idx(&s1, 50, 0.001, 0.0), vec![6]);
        assert_eq!(idx(&s2, 50, 0.001, 0.0), vec![4]);
        assert_eq!(idx(&s2, 50, 0.001, 0.2), Vec::<usize>::new());
        // test_div_by_zero: two change points, the first at 3
        let s = [0.0, 0.0, 0.0, 1.00, 1.12, 0.90, 0.50, 0.51, 0.48, 0.48, 0.55];
        assert_eq!(idx(&s, 50, 0.001, 0.0).len(), 2);
        assert_eq!(idx(&s, 50, 0.001, 0.0)[0], 3);
        assert!(idx(&[], 50, 0.001, 0.0).is_empty());
        assert!(change_points(&s, &Options { window: 1, ..Options::default() }).is_err());
    }

    #[test]
    fn options_given() {
        let d = Options::default();
        assert_eq!(Options::given(None, None, None, None, 7), d);
        let o = Options::given(Some(10), Some(0.05), Some(0.1), Some(100), 7);
        let want = Options {
            window: 10,
            max_p: 0.05,
            min_magnitude: 0.1,
            significance: Significance::Permutation { permutations: 100, seed: 7 },
        };
        assert_eq!(o, want);
    }
}
