//! Many metrics decided at once, each with its own direction: the percent change of
//! the arithmetic mean, the difference test's p, Benjamini–Hochberg q across all of
//! them (one family), then [`super::verdict::evidence`] and [`super::verdict::decide`]
//! on q. The one decision behind `schedlab stats` and `schedlab.compare`.

use super::comparison::Direction;
use super::verdict::{decide, evidence, more_runs, Evidence, Test, Verdict, VerdictRule};
use crate::error::{Error, Result};
use crate::parallel;
use crate::stats::{amean, fdr_bh, pct_change};
use rayon::prelude::*;

/// The decision on one metric.
#[derive(Debug, Clone, PartialEq)]
pub struct Assessment {
    /// Samples of the baseline.
    pub n_base: u64,
    /// Samples of the new side.
    pub n_new: u64,
    /// Arithmetic mean of the baseline (None when empty).
    pub mean_base: Option<f64>,
    /// Arithmetic mean of the new side.
    pub mean_new: Option<f64>,
    /// Percent change of the means, positive = better (for an unknown direction,
    /// positive = an increase); None when the baseline mean is not positive.
    pub change: Option<f64>,
    /// Two-sided p of the difference test.
    pub p: Option<f64>,
    /// Benjamini–Hochberg q of `p` across every metric given.
    pub q: Option<f64>,
    /// TOST p against ± margin.
    pub p_equivalent: Option<f64>,
    /// Power of Welch's t-test against a change of the margin with these runs.
    pub power: Option<f64>,
    /// Runs per side that give the rule's power against the margin.
    pub runs_needed: Option<u64>,
    /// Runs per side to add to reach `runs_needed`.
    pub more_runs: Option<u64>,
    /// The decision.
    pub verdict: Verdict,
    /// What limits this result.
    pub warnings: Vec<String>,
}

/// Decide every (base, new) pair with its direction, BH across all of them, on at
/// most `threads` threads. `directions` has one entry per pair.
pub fn assess_many(
    pairs: &[(&[f64], &[f64])],
    directions: &[Direction],
    test: Test,
    rule: &VerdictRule,
    threads: Option<usize>,
) -> Result<Vec<Assessment>> {
    rule.validate()?;
    if directions.len() != pairs.len() {
        return Err(Error::domain(format!(
            "{} directions were given for {} comparisons",
            directions.len(),
            pairs.len()
        )));
    }
    let mut out: Vec<Assessment> = parallel::install(threads, || {
        pairs.par_iter().zip(directions.par_iter()).map(|((b, n), d)| one(b, n, *d, test, rule)).collect()
    })?;
    let with_p: Vec<(usize, f64)> = out.iter().enumerate().filter_map(|(i, a)| a.p.map(|p| (i, p))).collect();
    let qs = fdr_bh(&with_p.iter().map(|x| x.1).collect::<Vec<_>>())?;
    for ((i, _), q) in with_p.iter().zip(qs) {
        if let Some(a) = out.get_mut(*i) {
            a.q = Some(q);
        }
    }
    for (a, d) in out.iter_mut().zip(directions) {
        let e = Evidence {
            n_base: a.n_base,
            n_new: a.n_new,
            p: a.p,
            p_equivalent: a.p_equivalent,
            power: a.power,
            runs_needed: a.runs_needed,
            warnings: Vec::new(),
        };
        a.verdict = decide(a.change.unwrap_or(f64::NAN), a.q, &e, *d != Direction::Unknown, rule);
    }
    Ok(out)
}

fn one(base: &[f64], new: &[f64], direction: Direction, test: Test, rule: &VerdictRule) -> Assessment {
    let e = evidence(base, new, test, rule);
    let (mean_base, mean_new) = (amean(base).ok(), amean(new).ok());
    let change = match (mean_base, mean_new) {
        (Some(b), Some(n)) => pct_change(b, n, direction != Direction::Lower).ok(),
        _ => None,
    };
    Assessment {
        n_base: e.n_base,
        n_new: e.n_new,
        mean_base,
        mean_new,
        change,
        p: e.p,
        q: None,
        p_equivalent: e.p_equivalent,
        power: e.power,
        runs_needed: e.runs_needed,
        more_runs: more_runs(&e),
        verdict: Verdict::NotEnoughData,
        warnings: e.warnings,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directions_per_metric_and_one_family() {
        // a throughput up 10% and a latency up 10%: better and worse; a constant pair: equivalent
        let tput_b: &[f64] = &[100.0, 101.0, 99.0, 100.5, 99.5];
        let tput_n: &[f64] = &[110.0, 111.1, 108.9, 110.55, 109.45];
        let same: &[f64] = &[5.0, 5.0, 5.0];
        let pairs = [(tput_b, tput_n), (tput_b, tput_n), (same, same)];
        let dirs = [Direction::Higher, Direction::Lower, Direction::Unknown];
        let r = assess_many(&pairs, &dirs, Test::Welch, &VerdictRule::default(), Some(1)).unwrap();
        let v: Vec<Verdict> = r.iter().map(|a| a.verdict).collect();
        assert_eq!(v, [Verdict::Better, Verdict::Worse, Verdict::Equivalent]);
        // 100 -> 110: +10% higher-is-better, -10% lower-is-better (MMTests' convention)
        assert!((r[0].change.unwrap() - 10.0).abs() < 1e-12 && (r[1].change.unwrap() + 10.0).abs() < 1e-12);
        // BH over the three p-values, by hand: the two equal p rank 1-2, p = 1 ranks 3
        let p = r[0].p.unwrap();
        assert_eq!(r[0].q, Some((p * 3.0 / 2.0).min(1.0)));
        assert_eq!(r[2].q, Some(1.0));
        assert!(assess_many(&pairs, &dirs[..1], Test::Welch, &VerdictRule::default(), None).is_err());
    }
}
