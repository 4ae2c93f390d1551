//! Sequential comparisons of two samples that stay valid however often one looks
//! (docs/sequential.md): after each added run, the four-way verdict (better, worse,
//! equivalent, inconclusive) from a confidence sequence for the difference of means.
//!
//! The evidence against "the difference is Δ0" is the Bayes factor of the two-sample
//! t statistic with a normal mixture over the standardized difference δ = (Δ − Δ0)/σ
//! (δ ~ N(0, g)) and the scale-invariant (right-Haar) treatment of σ (Gönen, Johnson,
//! Lu and Westfall 2005; Lindon et al. 2022):
//!
//! ```text
//! E = (1 + n_eff·g)^(−1/2) · [(1 + t²/ν) / (1 + t²/(ν(1 + n_eff·g)))]^((ν+1)/2)
//! ```
//!
//! with n_eff = n_b·n_n/(n_b + n_n), ν = n_b + n_n − 2 and t the pooled-variance t
//! statistic of Δ0. Under Δ0 the sequence of E over the looks is a nonnegative
//! martingale of the invariant data, so by Ville's inequality P(E ever ≥ 1/α) ≤ α:
//! the set {Δ0 : E < 1/α} is a confidence sequence, a closed-form interval
//! Δ̂ ± t*·se covering the true difference at every look at once with probability
//! ≥ 1 − α. Its running intersection decides as [`crate::table::verdict::decide`]
//! does, equivalence first.

use super::moments::Moments;
use crate::error::{Error, Result};
use crate::table::verdict::{Verdict, VerdictRule};
use crate::table::Direction;

/// The prior variance g of the standardized difference in the mixture (docs/sequential.md §1):
/// 1, a change of about one standard deviation, which is where kernel benchmark changes
/// worth a bisection sit between run-to-run noise of 0.5–3 % and changes of 1–10 %.
pub const MIXTURE_G: f64 = 1.0;

/// More runs a side than this are not projected by [`Sequential::more_runs`].
pub const MAX_PROJECTED_RUNS: u64 = 1 << 20;

/// ln E, the mixture e-value of a t statistic `t` with `df` > 0 degrees of freedom and
/// `n_eff` effective runs (module comment). An infinite `t` (two samples without
/// variance and different means) gives the limit (ν/2)·ln(1 + n_eff·g).
pub fn log_e_value(t: f64, df: f64, n_eff: f64, g: f64) -> f64 {
    let ln_big_g = (n_eff * g).ln_1p();
    let u = t * t / df;
    let tail = if u.is_infinite() { ln_big_g } else { u.ln_1p() - (u / (1.0 + n_eff * g)).ln_1p() };
    -0.5 * ln_big_g + (df + 1.0) / 2.0 * tail
}

/// The |t| at which the mixture e-value reaches 1/`alpha`: the half-width of the
/// confidence sequence in standard errors. Infinite when no t reaches it (with few
/// runs the e-value is bounded by (1 + n_eff·g)^(ν/2)).
pub fn t_boundary(df: f64, n_eff: f64, g: f64, alpha: f64) -> f64 {
    // E ≥ 1/α ⇔ (1 + u)/(1 + u/G) ≥ r, r = (√G/α)^(2/(ν+1)), u = t²/ν; the left side
    // rises from 1 towards G, so u* = (r − 1)/(1 − r/G) when r < G.
    let ln_big_g = (n_eff * g).ln_1p();
    let ln_r = (ln_big_g - 2.0 * alpha.ln()) / (df + 1.0);
    if ln_r >= ln_big_g || !ln_r.is_finite() {
        return f64::INFINITY;
    }
    let u = ln_r.exp_m1() / -(ln_r - ln_big_g).exp_m1();
    (df * u).sqrt()
}

/// One look at two samples: the difference of means and its confidence-sequence interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Look {
    /// Runs of the baseline.
    pub n_base: u64,
    /// Runs of the new side.
    pub n_new: u64,
    /// Mean of the baseline.
    pub mean_base: f64,
    /// mean(new) − mean(base).
    pub diff: f64,
    /// Pooled standard error of the difference.
    pub se: f64,
    /// Degrees of freedom n_b + n_n − 2.
    pub df: f64,
    /// Half-width t*·se of the interval (infinite while too few runs can decide anything).
    pub half_width: f64,
    /// ln E against no difference (Δ0 = 0).
    pub log_e0: f64,
}

impl Look {
    /// The look at samples with moments `b` (baseline) and `n` (new), each of at least
    /// two runs, at level `alpha`.
    pub fn of(b: &Moments, n: &Moments, alpha: f64) -> Look {
        let df = b.n + n.n - 2.0;
        let n_eff = b.n * n.n / (b.n + n.n);
        let diff = n.mean - b.mean;
        let se = ((b.m2 + n.m2) / df).sqrt() / n_eff.sqrt();
        let t_star = t_boundary(df, n_eff, MIXTURE_G, alpha);
        let half_width = if t_star.is_infinite() { f64::INFINITY } else { t_star * se };
        let t0 = if se > 0.0 {
            diff / se
        } else if diff == 0.0 {
            0.0
        } else {
            diff.signum() * f64::INFINITY
        };
        Look {
            n_base: b.n as u64,
            n_new: n.n as u64,
            mean_base: b.mean,
            diff,
            se,
            df,
            half_width,
            log_e0: log_e_value(t0, df, n_eff, MIXTURE_G),
        }
    }
}

/// The sequential evidence of two samples whose runs were taken in the order given.
#[derive(Debug, Clone, PartialEq)]
pub struct Sequential {
    /// Looks taken: the k-th holds the first k runs of each side (all of a side that has
    /// fewer), from k = 2 on.
    pub looks: u64,
    /// Runs a side (k) at the first look that decided, if one did.
    pub decided_at: Option<u64>,
    /// The verdict at the last look (equivalence first, as the fixed-sample verdict).
    pub verdict: Verdict,
    /// The last look.
    pub last: Option<Look>,
    /// The running intersection of the intervals of mean(new) − mean(base): the
    /// confidence sequence's answer at the last look.
    pub low: f64,
    /// Upper end of that intersection.
    pub high: f64,
    /// The e-value against no difference, stopped at the first look where it reached
    /// the stop given to [`sequential_stopped`] (1/alpha for [`sequential`]; m/alpha
    /// among m comparisons): an e-value at a stopping time, the input of e-BH across
    /// many metrics (docs/sequential.md §3).
    pub e_value: f64,
    /// Runs to add to each side, at the estimates of the last look, before the
    /// interval would decide (None when decided, or when it never would).
    pub more_runs: Option<u64>,
}

/// The verdict of one look's interval (`low`, `high`) of the difference `diff` of a
/// baseline whose mean is `mean_base`, under `rule` (its alpha, margin and min-change).
pub fn decide_interval(
    low: f64,
    high: f64,
    diff: f64,
    mean_base: f64,
    direction: Direction,
    rule: &VerdictRule,
) -> Verdict {
    let margin = rule.margin / 100.0 * mean_base.abs();
    if margin > 0.0 && -margin < low && high < margin {
        return Verdict::Equivalent;
    }
    let pct = if mean_base != 0.0 { diff / mean_base.abs() * 100.0 } else { f64::INFINITY };
    if !(low > 0.0 || high < 0.0) || pct.abs() < rule.min_change {
        return Verdict::Inconclusive;
    }
    match (direction, diff > 0.0) {
        (Direction::Unknown, _) => Verdict::Changed,
        (Direction::Higher, true) | (Direction::Lower, false) => Verdict::Better,
        _ => Verdict::Worse,
    }
}

/// Replay the runs of `base` and `new` in their order, one look per added run
/// ([`Sequential::looks`]), and decide as the confidence sequence at level
/// `rule.alpha` says (module comment). Fewer than `rule.min_samples` (at least 2)
/// runs on a side: `not_enough_data`.
pub fn sequential(base: &[f64], new: &[f64], direction: Direction, rule: &VerdictRule) -> Result<Sequential> {
    sequential_stopped(base, new, direction, rule, 1.0 / rule.alpha)
}

/// [`sequential`] with the e-value against no difference stopped where it first
/// reaches `stop` (> 1) instead of 1/alpha: among m comparisons whose e-values go to
/// e-BH, m/alpha, the most e-BH can ask of one (docs/sequential.md §3); stopped at
/// 1/alpha, no e-value of a family of two or more could pass e-BH's first threshold.
pub fn sequential_stopped(
    base: &[f64],
    new: &[f64],
    direction: Direction,
    rule: &VerdictRule,
    stop: f64,
) -> Result<Sequential> {
    rule.validate()?;
    if stop.is_nan() || stop <= 1.0 {
        return Err(Error::domain(format!("the e-value's stop must be above 1, got {stop}")));
    }
    let ln_stop = stop.ln();
    super::sample::check_values(base, "base")?;
    super::sample::check_values(new, "new")?;
    let mut out = Sequential {
        looks: 0,
        decided_at: None,
        verdict: Verdict::NotEnoughData,
        last: None,
        low: f64::NEG_INFINITY,
        high: f64::INFINITY,
        e_value: 1.0,
        more_runs: None,
    };
    let min = rule.min_samples.max(2) as usize;
    if base.len() < min || new.len() < min {
        return Ok(out);
    }
    let (mut b, mut n) = (Moments::default(), Moments::default());
    let mut stopped = false;
    for k in 0..base.len().max(new.len()) {
        crate::cancel::check_every(k)?;
        if let Some(&v) = base.get(k) {
            b.push(v);
        }
        if let Some(&v) = new.get(k) {
            n.push(v);
        }
        if b.n < 2.0 || n.n < 2.0 {
            continue;
        }
        let look = Look::of(&b, &n, rule.alpha);
        out.looks += 1;
        out.low = out.low.max(look.diff - look.half_width);
        out.high = out.high.min(look.diff + look.half_width);
        if !stopped {
            out.e_value = look.log_e0.exp();
            stopped = look.log_e0 >= ln_stop;
        }
        out.last = Some(look);
        if (b.n as usize) < min || (n.n as usize) < min {
            continue;
        }
        let v = if out.low > out.high {
            // the intersection is empty: a look the model cannot explain (probability ≤ alpha)
            decide_interval(
                look.diff - look.half_width,
                look.diff + look.half_width,
                look.diff,
                look.mean_base,
                direction,
                rule,
            )
        } else {
            decide_interval(out.low, out.high, look.diff, look.mean_base, direction, rule)
        };
        if v != Verdict::Inconclusive && out.decided_at.is_none() {
            out.decided_at = Some((k + 1) as u64);
        }
        out.verdict = v;
    }
    if out.verdict == Verdict::Inconclusive {
        out.more_runs = out.last.as_ref().and_then(|l| more_runs(l, direction, rule));
    }
    Ok(out)
}

/// Runs to add to each side before the interval of `look` would decide if the
/// means and the pooled deviation stayed as they are (None if it never would).
fn more_runs(look: &Look, direction: Direction, rule: &VerdictRule) -> Option<u64> {
    let sp = look.se * (look.n_base as f64 * look.n_new as f64 / (look.n_base + look.n_new) as f64).sqrt();
    let decides = |k: u64| {
        let (nb, nn) = ((look.n_base + k) as f64, (look.n_new + k) as f64);
        let n_eff = nb * nn / (nb + nn);
        let t = t_boundary(nb + nn - 2.0, n_eff, MIXTURE_G, rule.alpha);
        let h = if t.is_infinite() { f64::INFINITY } else { t * sp / n_eff.sqrt() };
        decide_interval(look.diff - h, look.diff + h, look.diff, look.mean_base, direction, rule)
            != Verdict::Inconclusive
    };
    let mut hi = 1;
    while !decides(hi) {
        if hi >= MAX_PROJECTED_RUNS {
            return None;
        }
        hi *= 2;
    }
    let mut lo = hi / 2; // lo does not decide (or is 0)
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if decides(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

/// [`sequential`] of many (base, new) pairs, each with its direction, on at most
/// `threads` threads, with the false discovery rate of the changes controlled across
/// all of them by e-BH on their stopped e-values (docs/sequential.md §3): a change the
/// interval of one pair shows but e-BH does not keep is `inconclusive`. Equivalences
/// are not adjusted (as the fixed-sample verdicts' TOST).
pub fn sequential_many(
    pairs: &[(&[f64], &[f64])],
    directions: &[Direction],
    rule: &VerdictRule,
    threads: Option<usize>,
) -> Result<Vec<Sequential>> {
    use rayon::prelude::*;
    if directions.len() != pairs.len() {
        return Err(Error::domain(format!(
            "{} directions were given for {} comparisons",
            directions.len(),
            pairs.len()
        )));
    }
    let stop = pairs.len().max(1) as f64 / rule.alpha;
    let mut out: Vec<Sequential> = crate::parallel::install(threads, || {
        pairs
            .par_iter()
            .zip(directions.par_iter())
            .map(|((b, n), d)| sequential_stopped(b, n, *d, rule, stop))
            .collect::<Result<Vec<_>>>()
    })??;
    let kept = super::fdr::e_bh(&out.iter().map(|s| s.e_value).collect::<Vec<_>>(), rule.alpha)?;
    for (s, keep) in out.iter_mut().zip(kept) {
        if !keep && matches!(s.verdict, Verdict::Better | Verdict::Worse | Verdict::Changed) {
            s.verdict = Verdict::Inconclusive;
            s.decided_at = None;
        }
    }
    Ok(out)
}

/// The e-value at Δ0 = `delta0` of samples `base` and `new` (each at least two runs),
/// for the tests and for callers that hold the samples whole.
pub fn e_value(base: &[f64], new: &[f64], delta0: f64) -> Result<f64> {
    super::sample::check(base, "base")?;
    super::sample::check(new, "new")?;
    if base.len() < 2 || new.len() < 2 {
        return Err(Error::insufficient("a sequential t-test needs at least 2 runs a side"));
    }
    let (b, n) = (Moments::of(base), Moments::of(new));
    let shifted = Moments { mean: n.mean - delta0, ..n };
    Ok(Look::of(&b, &shifted, 0.5).log_e0.exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn e_value_by_hand() {
        // t = 2, ν = 8, n_eff = 2.5, g = 1: G = 3.5, u = 0.5;
        // ln E = −½ ln 3.5 + 4.5 (ln 1.5 − ln(1 + 0.5/3.5))
        let e = (-0.5 * 3.5f64.ln() + 4.5 * (1.5f64.ln() - (1.0 + 0.5 / 3.5f64).ln())).exp();
        assert!((log_e_value(2.0, 8.0, 2.5, 1.0).exp() - e).abs() < 1e-14 * e);
        // the limit for an infinite t: (ν/2) ln G
        assert!((log_e_value(f64::INFINITY, 8.0, 2.5, 1.0) - 4.0 * 3.5f64.ln()).abs() < 1e-14);
    }

    #[test]
    fn boundary_is_where_the_e_value_reaches_one_over_alpha() {
        for (df, n_eff) in [(8.0, 2.5), (38.0, 10.0), (398.0, 100.0)] {
            let t = t_boundary(df, n_eff, 1.0, 0.05);
            assert!(t.is_finite(), "{df}");
            assert!((log_e_value(t, df, n_eff, 1.0) - 20f64.ln()).abs() < 1e-10, "{df} {t}");
        }
        // 2 runs a side: E ≤ G^(ν/2) = 2^1 < 20, no t decides
        assert!(t_boundary(2.0, 1.0, 1.0, 0.05).is_infinite());
    }

    #[test]
    fn decides_a_large_change_and_an_equivalence() {
        let rule = VerdictRule::default();
        let base = [100.0, 100.5, 99.5, 100.2, 99.8, 100.1, 99.9, 100.3];
        let worse: Vec<f64> = base.iter().map(|v| v * 1.1).collect(); // lower is better: 10% slower
        let s = sequential(&base, &worse, Direction::Lower, &rule).unwrap();
        assert_eq!(s.verdict, Verdict::Worse);
        assert!(s.decided_at.unwrap() <= 8 && s.low > 0.0, "{s:?}");
        let same: Vec<f64> = base.iter().rev().copied().collect();
        let s = sequential(&base, &same, Direction::Lower, &rule).unwrap();
        assert_eq!(s.verdict, Verdict::Equivalent, "{s:?}");
        let s = sequential(&base[..3], &same[..3], Direction::Lower, &rule).unwrap();
        assert_eq!(s.verdict, Verdict::Inconclusive);
        assert!(s.more_runs.is_some(), "{s:?}");
        assert_eq!(sequential(&base[..1], &same, Direction::Lower, &rule).unwrap().verdict, Verdict::NotEnoughData);
    }
}
