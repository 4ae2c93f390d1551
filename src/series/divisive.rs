//! The divisive search of E-divisive means, as Apache Otava's `ChangePointDetector`:
//! take the best Q̂ candidate over the current segments, test it, keep it and go on
//! while the test says it is significant, stop at the first that is not
//! (docs/change-points.md §1).

use super::qhat::Calculator;
use super::segment::{around, intervals, SegmentStats};
use crate::error::Result;
use crate::stats::rng::Rng;

/// A change point found in a series.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChangePoint {
    /// Index of the first value after the change.
    pub index: usize,
    /// The segments on either side and the p-value of the test that found it.
    pub stats: SegmentStats,
}

/// How a candidate's significance is decided.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Significance {
    /// Otava's default: Student's t-test between the two segments either side.
    TTest,
    /// Matteson and James' permutation test (Otava's `--orig-edivisive`): the share
    /// of `permutations` shuffles, within each current segment, whose best Q̂ reaches
    /// the candidate's, p = count / (permutations + 1); shuffles from `seed`.
    Permutation {
        /// Shuffles per candidate.
        permutations: usize,
        /// Seed of the shuffles.
        seed: u64,
    },
}

/// The change points of `x` whose p-value is at most `max_p`, sorted by index.
pub fn detect(x: &[f64], significance: Significance, max_p: f64) -> Result<Vec<ChangePoint>> {
    let calc = Calculator::new(x);
    let mut rng = match significance {
        Significance::Permutation { seed, .. } => Some(Rng::new(seed, 0)),
        Significance::TTest => None,
    };
    let mut cps: Vec<ChangePoint> = Vec::new();
    loop {
        crate::cancel::check()?;
        let idx: Vec<usize> = cps.iter().map(|c| c.index).collect();
        let iv = intervals(&idx, x.len());
        let Some(cand) = calc.next_candidate(&iv) else { break };
        let ((ls, le), (rs, re)) = around(cand.index, &iv)?;
        let (left, right) = (x.get(ls..le).unwrap_or_default(), x.get(rs..re).unwrap_or_default());
        let stats = match (significance, rng.as_mut()) {
            (Significance::Permutation { permutations, .. }, Some(rng)) => {
                let mut s = SegmentStats::describe(left, right);
                s.p = permutation_p(x, &iv, cand.qhat, permutations, rng)?;
                s
            }
            _ => SegmentStats::t_test(left, right)?,
        };
        if stats.p <= max_p {
            let at = cps.partition_point(|c| c.index < cand.index);
            cps.insert(at, ChangePoint { index: cand.index, stats });
        } else {
            break;
        }
    }
    Ok(cps)
}

/// The permutation p-value of a candidate with `qhat` over segments `iv` of `x`.
fn permutation_p(x: &[f64], iv: &[(usize, usize)], qhat: f64, permutations: usize, rng: &mut Rng) -> Result<f64> {
    let mut shuffled = x.to_vec();
    let mut extreme = 0usize;
    for _ in 0..permutations {
        crate::cancel::check()?;
        shuffled.copy_from_slice(x);
        for &(s, e) in iv {
            if let Some(seg) = shuffled.get_mut(s..e) {
                for i in (1..seg.len()).rev() {
                    let j = rng.below(i as u64 + 1) as usize;
                    seg.swap(i, j);
                }
            }
        }
        if Calculator::new(&shuffled).next_candidate(iv).is_some_and(|c| c.qhat >= qhat) {
            extreme += 1;
        }
    }
    Ok(extreme as f64 / (permutations + 1) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Otava's tests/change_point_divisive_test.py SEQUENCE and CHANGE_POINTS_INDS.
    const SEQUENCE: [f64; 14] = [0.3, 2.4, 1.5, -0.9, -0.5, 99.7, 98.3, 99.1, 149.0, 149.7, 149.5, 149.1, 148.8, 150.0];

    #[test]
    fn otava_ttest_and_permutation_find_5_and_8() {
        let idx = |v: Vec<ChangePoint>| v.iter().map(|c| c.index).collect::<Vec<_>>();
        assert_eq!(idx(detect(&SEQUENCE, Significance::TTest, 0.01).unwrap()), vec![5, 8]);
        let perm = Significance::Permutation { permutations: 100, seed: 1 };
        assert_eq!(idx(detect(&SEQUENCE, perm, 0.01).unwrap()), vec![5, 8]);
    }
}
