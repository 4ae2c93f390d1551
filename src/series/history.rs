//! Change points of many metrics over one commit history, each metric on its own
//! rayon worker: gaps filled as Otava fills them, every change reported with its
//! segment means, percent change by the metric's direction and p-value
//! (docs/change-points.md §4).

use super::divisive::ChangePoint;
use super::otava::{change_points, Options};
use crate::error::{Error, Result};
use crate::parallel;
use crate::stats::pct_change;
use crate::table::Direction;
use rayon::prelude::*;

/// One change of one metric.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MetricChange {
    /// Position of the metric in the input.
    pub metric: usize,
    /// The change point: the first commit after the change, and its segments.
    pub point: ChangePoint,
    /// Percent change of the mean, positive = better (positive = an increase when
    /// the direction is unknown); NaN when the mean before is not positive.
    pub change: f64,
}

impl MetricChange {
    /// "better", "worse", or "changed" when the metric's direction is unknown.
    pub fn verdict(&self, direction: Direction) -> &'static str {
        match direction {
            Direction::Unknown => "changed",
            _ if self.point.stats.mean_after == self.point.stats.mean_before => "changed",
            Direction::Higher if self.point.stats.mean_after > self.point.stats.mean_before => "better",
            Direction::Lower if self.point.stats.mean_after < self.point.stats.mean_before => "better",
            _ => "worse",
        }
    }
}

/// Otava's `fill_missing`: a NaN takes the value before it, leading NaNs the first
/// value after them. `false` when every value is NaN (nothing to fill from).
pub fn fill_missing(x: &mut [f64]) -> bool {
    let Some(first) = x.iter().copied().find(|v| !v.is_nan()) else { return x.is_empty() };
    let mut prev = first;
    for v in x.iter_mut() {
        if v.is_nan() {
            *v = prev;
        }
        prev = *v;
    }
    true
}

/// The change points of every row of `values` (metrics × commits, row-major, NaN
/// = no result at that commit) with `directions[metric]`, in metric order then
/// commit order. A metric without any value has no change point; an infinite value is an error.
pub fn analyze(
    values: &[f64],
    commits: usize,
    directions: &[Direction],
    opts: &Options,
    threads: Option<usize>,
) -> Result<Vec<MetricChange>> {
    opts.check()?;
    if commits == 0 || values.len() != commits * directions.len() {
        return Err(Error::domain(format!(
            "{} values are not {} metrics of {commits} commits",
            values.len(),
            directions.len()
        )));
    }
    if let Some(i) = values.iter().position(|v| v.is_infinite()) {
        return Err(Error::domain(format!(
            "metric {} has an infinite value at commit {}; values must be finite (NaN for a missing one)",
            i / commits,
            i % commits
        )));
    }
    let per_metric = parallel::install(threads, || {
        values
            .par_chunks(commits)
            .zip(directions.par_iter())
            .enumerate()
            .map(|(metric, (row, &dir))| {
                let mut x = row.to_vec();
                if !fill_missing(&mut x) {
                    return Ok(Vec::new());
                }
                let cps = change_points(&x, opts)?;
                Ok(cps
                    .into_iter()
                    .map(|point| {
                        let (b, a) = (point.stats.mean_before, point.stats.mean_after);
                        let change = pct_change(b, a, dir != Direction::Lower).unwrap_or(f64::NAN);
                        MetricChange { metric, point, change }
                    })
                    .collect())
            })
            .collect::<Result<Vec<Vec<MetricChange>>>>()
    })??;
    Ok(per_metric.into_iter().flatten().collect())
}

/// [`analyze`] of metrics whose directions are given by name ([`Direction::parse`];
/// an unknown name is an error), each change with its verdict ([`MetricChange::verdict`]
/// by its metric's direction).
pub fn analyze_named(
    values: &[f64],
    commits: usize,
    directions: &[String],
    opts: &Options,
    threads: Option<usize>,
) -> Result<Vec<(MetricChange, &'static str)>> {
    let dirs = directions.iter().map(|s| Direction::parse(s)).collect::<Result<Vec<_>>>()?;
    let rows = analyze(values, commits, &dirs, opts, threads)?;
    Ok(rows.into_iter().map(|r| (r, r.verdict(dirs.get(r.metric).copied().unwrap_or_default()))).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_as_otava() {
        // Otava's tests/analysis_test.py test_fill_missing
        let n = f64::NAN;
        for (mut x, want) in [
            (vec![n, n, 1.0, 1.2, 0.5], vec![1.0, 1.0, 1.0, 1.2, 0.5]),
            (vec![1.0, 1.2, n, n, 4.3], vec![1.0, 1.2, 1.2, 1.2, 4.3]),
            (vec![1.0, 1.2, 0.5, n, n], vec![1.0, 1.2, 0.5, 0.5, 0.5]),
        ] {
            assert!(fill_missing(&mut x));
            assert_eq!(x, want);
        }
        assert!(!fill_missing(&mut [n, n]));
    }

    #[test]
    fn many_metrics_with_directions() {
        // Otava's series_test.py pair: series1 drops at 6, series2 at 4
        let s1 = [1.02, 0.95, 0.99, 1.00, 1.12, 0.90, 0.50, 0.51, 0.48, 0.48, 0.55];
        let s2 = [2.02, 2.03, 2.01, 2.04, 1.82, 1.85, 1.79, 1.81, 1.80, 1.76, 1.78];
        let mut v = s1.to_vec();
        v.extend(s2);
        v.extend([f64::NAN; 11]);
        let dirs = [Direction::Higher, Direction::Lower, Direction::Unknown];
        let r = analyze(&v, 11, &dirs, &Options::default(), Some(2)).unwrap();
        assert_eq!(r.iter().map(|c| (c.metric, c.point.index)).collect::<Vec<_>>(), vec![(0, 6), (1, 4)]);
        assert_eq!(r[0].verdict(dirs[0]), "worse");
        assert_eq!(r[1].verdict(dirs[1]), "better");
        assert_eq!(r[1].verdict(Direction::Unknown), "changed");
        // lower is better: a drop of the mean is a positive change
        let (b, a) = (r[1].point.stats.mean_before, r[1].point.stats.mean_after);
        assert_eq!(r[1].change, 100.0 - a * 100.0 / b);
        assert!(analyze(&v, 10, &dirs, &Options::default(), None).is_err());
        v[3] = f64::INFINITY;
        let e = analyze(&v, 11, &dirs, &Options::default(), None).unwrap_err().to_string();
        assert!(e.contains("metric 0 has an infinite value at commit 3"), "{e}");
    }

    #[test]
    fn analyze_named_gives_verdicts_by_direction() {
        // one step up in each of two metrics: better where higher is better, worse where lower is
        let mut values = vec![1.0; 10];
        values.extend([5.0; 10]);
        let both: Vec<f64> = values.iter().chain(&values).copied().collect();
        let names = ["higher".to_string(), "lower".to_string()];
        let opts = Options { window: 20, ..Options::default() };
        let rows = analyze_named(&both, 20, &names, &opts, Some(1)).unwrap();
        let got: Vec<(usize, usize, &str)> = rows.iter().map(|(r, v)| (r.metric, r.point.index, *v)).collect();
        assert_eq!(got, [(0, 10, "better"), (1, 10, "worse")]);
        assert!(analyze_named(&both, 20, &["up".to_string(), "lower".to_string()], &opts, Some(1)).is_err());
    }
}
