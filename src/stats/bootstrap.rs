//! Percentile bootstrap interval of the ratio statistic(new)/statistic(base).
//!
//! Each resample draws n_base values from `base` and n_new values from `new`
//! with replacement (independently), and records the ratio of the chosen
//! statistic. The interval is the (1−level)/2 and (1+level)/2 percentiles of those
//! ratios (numpy's linear percentile), as scipy.stats.bootstrap(method='percentile').
//! Resamples run in chunks on the rayon pool; chunk c uses random stream c of the
//! seed, so the result depends on the seed alone, not on the thread count.

use super::descriptive::{amean, hmean, median, median_sorted, percentile_sorted};
use super::rng::Rng;
use super::sample::{check, check_len, check_positive, finite};
use crate::error::{Error, Result};
use crate::{cancel, parallel};
use rayon::prelude::*;

/// Statistic whose ratio is bootstrapped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BootstrapStatistic {
    /// Arithmetic mean.
    Amean,
    /// Harmonic mean.
    Hmean,
    /// Median.
    Median,
}

impl BootstrapStatistic {
    /// Parse "amean", "hmean" or "median".
    pub fn parse(s: &str) -> Result<Self> {
        match s {
            "amean" => Ok(Self::Amean),
            "hmean" => Ok(Self::Hmean),
            "median" => Ok(Self::Median),
            _ => Err(Error::domain(format!("statistic must be 'amean', 'hmean' or 'median', got '{s}'"))),
        }
    }

    fn of(self, x: &[f64]) -> Result<f64> {
        match self {
            Self::Amean => amean(x),
            Self::Hmean => hmean(x),
            Self::Median => median(x),
        }
    }

    /// Statistic of a resample held in `buf` (may reorder it).
    fn of_resample(self, buf: &mut [f64]) -> f64 {
        let n = buf.len() as f64;
        match self {
            Self::Amean => buf.iter().sum::<f64>() / n,
            Self::Hmean => n / buf.iter().map(|v| 1.0 / v).sum::<f64>(),
            Self::Median => {
                buf.sort_unstable_by(f64::total_cmp);
                median_sorted(buf)
            }
        }
    }
}

/// A bootstrap interval of a ratio.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BootstrapCi {
    /// statistic(new)/statistic(base) on the full samples.
    pub estimate: f64,
    /// Lower bound.
    pub low: f64,
    /// Upper bound.
    pub high: f64,
    /// Confidence level in (0, 1).
    pub level: f64,
    /// Number of resamples.
    pub n_resamples: usize,
    /// The seed the resamples were drawn with.
    pub seed: u64,
}

const CHUNK: usize = 256;

/// Percentile bootstrap interval of statistic(new)/statistic(base); all values must
/// be positive and each side needs two samples.
pub fn bootstrap_ratio_ci(
    base: &[f64],
    new: &[f64],
    statistic: BootstrapStatistic,
    level: f64,
    n_resamples: usize,
    seed: u64,
    threads: Option<usize>,
) -> Result<BootstrapCi> {
    check(base, "base")?;
    check(new, "new")?;
    check_len(base, 2, "base", "a bootstrap interval")?;
    check_len(new, 2, "new", "a bootstrap interval")?;
    check_positive(base, "base", "a ratio of statistics")?;
    check_positive(new, "new", "a ratio of statistics")?;
    if !(level > 0.0 && level < 1.0) {
        return Err(Error::domain(format!("level must be within (0, 1), got {level}")));
    }
    if !(10..=100_000_000).contains(&n_resamples) {
        return Err(Error::domain(format!("n_resamples must be within 10..=100000000, got {n_resamples}")));
    }
    let estimate = finite(statistic.of(new)? / statistic.of(base)?, "the ratio")?;
    let chunks = n_resamples.div_ceil(CHUNK);
    // a stop request ends the resampling at the next chunk of 256 draws: the chunks
    // left draw nothing, and the check after the loop returns the interruption
    let mut ratios: Vec<f64> = parallel::install(threads, || {
        (0..chunks)
            .into_par_iter()
            .flat_map_iter(|c| {
                let len = if cancel::check().is_err() { 0 } else { CHUNK.min(n_resamples - c * CHUNK) };
                let mut rng = Rng::new(seed, c as u64);
                let mut bb = vec![0.0; base.len()];
                let mut bn = vec![0.0; new.len()];
                (0..len)
                    .map(|_| {
                        for v in bb.iter_mut() {
                            *v = base[rng.below(base.len() as u64) as usize];
                        }
                        for v in bn.iter_mut() {
                            *v = new[rng.below(new.len() as u64) as usize];
                        }
                        statistic.of_resample(&mut bn) / statistic.of_resample(&mut bb)
                    })
                    .collect::<Vec<f64>>()
            })
            .collect()
    })?;
    cancel::check()?;
    ratios.sort_unstable_by(f64::total_cmp);
    let alpha = (1.0 - level) / 2.0;
    let low = percentile_sorted(&ratios, 100.0 * alpha);
    let high = percentile_sorted(&ratios, 100.0 * (1.0 - alpha));
    Ok(BootstrapCi { estimate, low, high, level, n_resamples, seed })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_for_a_seed_whatever_the_threads() {
        let a = [10.0, 11.0, 9.5, 10.2, 10.8, 9.9];
        let b = [11.0, 12.1, 10.4, 11.3, 11.9, 10.7];
        let one = bootstrap_ratio_ci(&a, &b, BootstrapStatistic::Amean, 0.95, 2000, 7, Some(1)).unwrap();
        let two = bootstrap_ratio_ci(&a, &b, BootstrapStatistic::Amean, 0.95, 2000, 7, Some(2)).unwrap();
        assert_eq!(one, two);
        assert!(one.low < one.estimate && one.estimate < one.high);
        let other = bootstrap_ratio_ci(&a, &b, BootstrapStatistic::Amean, 0.95, 2000, 8, Some(2)).unwrap();
        assert_ne!(one.low, other.low);
    }

    #[test]
    fn constant_samples_give_a_point_interval() {
        // every resample of constant data has the same ratio 3/2
        let r = bootstrap_ratio_ci(&[2.0; 5], &[3.0; 4], BootstrapStatistic::Median, 0.9, 100, 1, None).unwrap();
        assert_eq!((r.estimate, r.low, r.high), (1.5, 1.5, 1.5));
    }

    #[test]
    fn bad_input() {
        assert!(bootstrap_ratio_ci(&[1.0], &[1.0, 2.0], BootstrapStatistic::Amean, 0.95, 100, 0, None).is_err());
        assert!(bootstrap_ratio_ci(&[1.0, 0.0], &[1.0, 2.0], BootstrapStatistic::Amean, 0.95, 100, 0, None).is_err());
        assert!(bootstrap_ratio_ci(&[1.0, 2.0], &[1.0, 2.0], BootstrapStatistic::Amean, 0.95, 5, 0, None).is_err());
    }
}
