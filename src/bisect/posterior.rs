//! The posterior over the culprit's position given every run of every tested commit
//! (docs/bisect.md §2): a single change in the range, the runs of the commits before
//! the culprit around one level and those from it on around another, with the same
//! noise. Each position k of the culprit splits the tested commits into the two
//! groups; its likelihood, with both levels and the noise's scale integrated out
//! under their invariant priors (flat levels, 1/σ), is
//!
//! ```text
//! L(k) ∝ (n_A·n_B)^(−1/2) · RSS_k^(−(n − 2)/2)
//! ```
//!
//! where n_A, n_B are the runs in each group, n all runs and RSS_k the sum of squared
//! deviations from each group's level. With a uniform prior over the N positions,
//! every position between two neighbouring tested commits has the same likelihood,
//! so the posterior is a mass per gap. The deviations are Huber's: each is clipped
//! at ±[`HUBER_C`] robust standard deviations around a robust level, so that one
//! outlying run moves a decision as much as a run [`HUBER_C`] deviations out and no
//! more (Huber's censored probability ratio, 1965).

#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

use crate::error::{Error, Result};

/// Where deviations are clipped, in robust standard deviations (docs/bisect.md §2.2).
pub const HUBER_C: f64 = 5.0;

/// The consistency factor of the median absolute deviation for normal noise, 1/Φ⁻¹(3/4).
const MAD_TO_SD: f64 = 1.482_602_218_505_602;

/// Runs a commit needs for its deviations to enter the robust scale: fewer, and the
/// deviations from its own median are mostly zeros.
const SCALE_MIN_RUNS: usize = 5;

/// The runs of one tested commit at its position in the range.
#[derive(Debug, Clone, Copy)]
pub struct Tested<'a> {
    /// Position in the range (0 = the good endpoint, N = the bad one).
    pub position: usize,
    /// Its runs.
    pub values: &'a [f64],
}

/// Where the culprit can be between two neighbouring tested commits, and how likely.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Gap {
    /// Position of the tested commit before the gap (the culprit comes after it).
    pub after: usize,
    /// Position of the tested commit that ends the gap (the culprit is at most it).
    pub upto: usize,
    /// Posterior probability that the culprit lies in (after, upto].
    pub mass: f64,
}

impl Gap {
    /// Commits the culprit can be in this gap.
    pub fn width(&self) -> usize {
        self.upto - self.after
    }
}

/// The posterior over the culprit's position.
#[derive(Debug, Clone, PartialEq)]
pub struct Posterior {
    /// The gaps between neighbouring tested commits, in order, with their masses.
    pub gaps: Vec<Gap>,
    /// The robust standard deviation of the runs the deviations were clipped with
    /// (0 when the runs have no spread).
    pub scale: f64,
}

impl Posterior {
    /// The posterior of a range whose last position is `last` (the bad endpoint), given
    /// the `tested` commits (each with at least one run, the endpoints 0 and `last`
    /// among them; any order, one entry per position).
    pub fn of(last: usize, tested: &[Tested<'_>]) -> Result<Posterior> {
        let mut t: Vec<Tested<'_>> = tested.iter().copied().filter(|x| !x.values.is_empty()).collect();
        t.sort_by_key(|x| x.position);
        if t.windows(2).any(|w| matches!(w, [a, b] if a.position == b.position)) {
            return Err(Error::Internal("posterior: a position is given twice".into()));
        }
        match (t.first(), t.last()) {
            (Some(a), Some(b)) if a.position == 0 && b.position == last && last > 0 => {}
            _ => {
                return Err(Error::insufficient(
                    "the posterior over the culprit needs runs of both endpoints (the good and the bad commit)",
                ))
            }
        }
        if let Some(v) = t.iter().flat_map(|x| x.values).find(|v| !v.is_finite()) {
            return Err(Error::domain(format!("a run's value is not a finite number: {v}")));
        }
        let scale = robust_scale(&t);
        let clip = if scale > 0.0 { HUBER_C * scale } else { f64::INFINITY };
        let n_all: usize = t.iter().map(|x| x.values.len()).sum();
        // ln L per gap (the cut after tested commit i), + ln(width) for the uniform prior
        let mut log_l = Vec::with_capacity(t.len() - 1);
        let mut gaps = Vec::with_capacity(t.len() - 1);
        for cut in 1..t.len() {
            let (a, b) = t.split_at(cut);
            let (na, rss_a) = group_rss(a, clip);
            let (nb, rss_b) = group_rss(b, clip);
            let rss = rss_a + rss_b;
            let (after, upto) = match (a.last(), b.first()) {
                (Some(x), Some(y)) => (x.position, y.position),
                _ => return Err(Error::Internal("posterior: an empty group".into())),
            };
            let width = (upto - after) as f64;
            let l = if rss > 0.0 {
                -0.5 * (na * nb).ln() - (n_all as f64 - 2.0) / 2.0 * rss.ln() + width.ln()
            } else {
                f64::INFINITY // the grouping explains every run exactly
            };
            log_l.push(l);
            gaps.push(Gap { after, upto, mass: 0.0 });
        }
        normalize(&mut gaps, &log_l);
        Ok(Posterior { gaps, scale })
    }

    /// P(the commit at `position` is bad) = P(culprit ≤ position); between two tested
    /// commits, the uniform share of the gap.
    pub fn p_bad(&self, position: usize) -> f64 {
        let mut p = 0.0;
        for g in &self.gaps {
            if g.upto <= position {
                p += g.mass;
            } else if g.after < position {
                p += g.mass * (position - g.after) as f64 / g.width() as f64;
            }
        }
        p.clamp(0.0, 1.0)
    }

    /// The gap holding the most mass: where the culprit most likely is.
    pub fn likeliest(&self) -> Option<&Gap> {
        self.gaps.iter().max_by(|a, b| a.mass.total_cmp(&b.mass))
    }

    /// The posterior median: the first position whose P(bad) reaches 1/2 (1..=last).
    pub fn median(&self) -> usize {
        let mut acc = 0.0;
        for g in &self.gaps {
            if acc + g.mass >= 0.5 && g.mass > 0.0 {
                let share = ((0.5 - acc) / g.mass * g.width() as f64).ceil() as usize;
                return g.after + share.clamp(1, g.width());
            }
            acc += g.mass;
        }
        self.gaps.last().map_or(1, |g| g.upto)
    }

    /// The commit whose test splits the posterior: the median, or — when the median
    /// is the tested commit that closes its gap (the crossing of 1/2 falls in the
    /// gap's last position) and the gap has untested commits — the last of them. A
    /// test at the gap's own upper end splits nothing: the gap's positions share one
    /// likelihood, and only a commit inside it can tell them apart (docs/bisect.md §2.4).
    pub fn split(&self) -> usize {
        let m = self.median();
        match self.gaps.iter().find(|g| g.after < m && m <= g.upto) {
            Some(g) if m == g.upto && g.width() >= 2 => g.upto - 1,
            _ => m,
        }
    }
}

/// Masses ∝ exp(log_l), normalised; infinite log-likelihoods (exact fits) share the
/// mass by width.
fn normalize(gaps: &mut [Gap], log_l: &[f64]) {
    let exact: Vec<bool> = log_l.iter().map(|l| l.is_infinite() && *l > 0.0).collect();
    if exact.iter().any(|&e| e) {
        let w: f64 = gaps.iter().zip(&exact).filter(|(_, &e)| e).map(|(g, _)| g.width() as f64).sum();
        for (g, &e) in gaps.iter_mut().zip(&exact) {
            g.mass = if e { g.width() as f64 / w } else { 0.0 };
        }
        return;
    }
    let max = log_l.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut sum = 0.0;
    for (g, &l) in gaps.iter_mut().zip(log_l) {
        g.mass = (l - max).exp();
        sum += g.mass;
    }
    for g in gaps.iter_mut() {
        g.mass /= sum;
    }
}

/// The runs in `group` and the sum of their squared deviations from the group's
/// level, each deviation clipped at ±`clip` (no clipping when infinite): the level is
/// one Huber step from the median, median + mean(clip(x − median)).
fn group_rss(group: &[Tested<'_>], clip: f64) -> (f64, f64) {
    let n: usize = group.iter().map(|x| x.values.len()).sum();
    if clip.is_infinite() {
        let m = group.iter().fold(crate::stats::moments::Moments::default(), |acc, x| {
            acc.merge(crate::stats::moments::Moments::of(x.values))
        });
        return (n as f64, m.m2);
    }
    let mut all: Vec<f64> = group.iter().flat_map(|x| x.values.iter().copied()).collect();
    let med = median(&mut all);
    let shift = all.iter().map(|v| (v - med).clamp(-clip, clip)).sum::<f64>() / n as f64;
    let level = med + shift;
    let rss = all.iter().map(|v| (v - level).clamp(-clip, clip).powi(2)).sum();
    (n as f64, rss)
}

/// The median of `x` (reordered in place; `x` not empty, no NaN).
fn median(x: &mut [f64]) -> f64 {
    let n = x.len();
    if n == 0 {
        return f64::NAN;
    }
    let (_, hi, _) = x.select_nth_unstable_by(n / 2, f64::total_cmp);
    let hi = *hi;
    if n % 2 == 1 {
        return hi;
    }
    let lo = x.get(..n / 2).map_or(hi, |l| l.iter().copied().fold(f64::NEG_INFINITY, f64::max));
    (lo + hi) / 2.0
}

/// The robust standard deviation of the runs: 1.4826 × the median absolute deviation
/// of each commit's runs from that commit's median (the median run itself left out of
/// an odd count), over the commits with at least
/// [`SCALE_MIN_RUNS`] runs (or, when none has, at least 3). 0 when the runs have no
/// spread there.
fn robust_scale(t: &[Tested<'_>]) -> f64 {
    for min in [SCALE_MIN_RUNS, 3] {
        let mut dev: Vec<f64> = Vec::new();
        for x in t.iter().filter(|x| x.values.len() >= min) {
            let mut v = x.values.to_vec();
            let med = median(&mut v);
            let before = dev.len();
            dev.extend(x.values.iter().map(|y| (y - med).abs()));
            // an odd count's median is one of the runs: its deviation, 0 by construction, is left out
            if x.values.len() % 2 == 1 {
                if let Some(i) = dev.get(before..).and_then(|d| d.iter().position(|&v| v == 0.0)) {
                    dev.swap_remove(before + i);
                }
            }
        }
        if !dev.is_empty() {
            return MAD_TO_SD * median(&mut dev);
        }
    }
    0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn post(last: usize, t: &[(usize, &[f64])]) -> Posterior {
        let t: Vec<Tested<'_>> = t.iter().map(|&(position, values)| Tested { position, values }).collect();
        Posterior::of(last, &t).unwrap()
    }

    #[test]
    fn two_endpoints_spread_the_mass_uniformly() {
        let p = post(10, &[(0, &[1.0, 1.1, 0.9]), (10, &[2.0, 2.1, 1.9])]);
        assert_eq!(p.gaps.len(), 1);
        assert_eq!(p.gaps[0].mass, 1.0);
        assert!((p.p_bad(5) - 0.5).abs() < 1e-15);
        assert_eq!(p.median(), 5);
    }

    #[test]
    fn a_commit_like_bad_moves_the_mass_before_it() {
        let g = [1.0, 1.1, 0.9, 1.05, 0.95];
        let b = [2.0, 2.1, 1.9, 2.05, 1.95];
        let p = post(10, &[(0, &g), (5, &[2.02, 1.97, 2.01]), (10, &b)]);
        assert!(p.p_bad(5) > 0.999, "{p:?}");
        let p = post(10, &[(0, &g), (5, &[1.02, 0.97, 1.01]), (10, &b)]);
        assert!(p.p_bad(5) < 0.001, "{p:?}");
        assert!(p.likeliest().unwrap().after == 5);
    }

    #[test]
    fn the_split_is_inside_the_gap_of_the_median() {
        // the culprit between the tested commits 4 and 6: gap (4, 6] holds 0.99, split
        // evenly over 5 and 6, so P(culprit <= 5) = 0.001 + 0.495 < 1/2 and the median
        // is 6, a tested commit; the split is 5, the one commit that tells them apart
        let gap = |after, upto, mass| Gap { after, upto, mass };
        let p = Posterior { gaps: vec![gap(0, 4, 0.001), gap(4, 6, 0.99), gap(6, 10, 0.009)], scale: 1.0 };
        assert!(p.p_bad(5) < 0.5 && p.p_bad(6) > 0.99, "{p:?}");
        assert_eq!(p.median(), 6);
        assert_eq!(p.split(), 5);
        // a median inside its gap is its own split
        let p = Posterior { gaps: vec![gap(0, 10, 1.0)], scale: 1.0 };
        assert_eq!((p.median(), p.split()), (5, 5));
        // a gap of one commit has nothing inside: its commit is run again
        let p = Posterior { gaps: vec![gap(0, 5, 0.005), gap(5, 6, 0.99), gap(6, 10, 0.005)], scale: 1.0 };
        assert_eq!((p.median(), p.split()), (6, 6));
    }

    #[test]
    fn endpoints_are_required() {
        let t = [Tested { position: 0, values: &[1.0] }];
        assert!(Posterior::of(3, &t).is_err());
    }
}
