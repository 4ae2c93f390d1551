//! How many runs a step is expected to take, and after how many it gives up
//! (docs/bisect.md §2.5), from what the endpoints measured.
//!
//! A commit at one endpoint's level gains, per run, on average d²/(2s²) nats of
//! evidence against the other level (d the endpoints' change, s the noise's
//! deviation: the Kullback–Leibler divergence of two normals), so Wald's sequential
//! probability ratio test with boundaries ln((1 − a)/a) needs K = 2s²·ln((1 − a)/a)/d²
//! runs on average when the levels are known. They are not: they are estimated from
//! the endpoints' n runs (at least; later steps add runs to both groups), and a step's
//! evidence after m runs is that of comparing two means, d²/(2s²) · m·n/(m + n),
//! which grows no further than n·d²/(2s²). The expected runs of a step are where
//! that reaches the boundary, m = K·n/(n − K), finite only when n > K.
//!
//! The budget, when the user sets none, is [`SAFETY`] times that (at least
//! [`MIN_BUDGET`]): the number of runs of an SPRT is spread around its mean (for a
//! normal random walk, an inverse Gaussian with shape/mean = ln((1 − a)/a)/2), and at
//! four times its mean it is undecided with probability 0.003 at the error rates of
//! a 100-commit search (0.05/7) — where a fixed budget of 50 skipped every step of a
//! 1 % change at 6 % noise.

use super::options::Options;
use crate::stats::moments::Moments;

/// How many times its expected runs a step may take before it answers skip.
pub const SAFETY: f64 = 4.0;

/// The fewest runs a step may take before it answers skip, however few it is
/// expected to take: with few runs the noise's scale is estimated from few, which
/// the expected-runs formula (known scale) does not count.
pub const MIN_BUDGET: u64 = 50;

/// How many standard errors above its estimate the endpoints' change is taken when
/// judging whether their maximum of runs could make a step decidable
/// ([`beyond_reach`]): a change one standard error larger than measured is still
/// plausible (one-sided, 16 %), so the endpoints stop early only when even that would
/// not do. Measured (docs/bisect.md §3): at 0 the stop also cut ranges that would have
/// been bisected right; at 1.5 and 2 it saved half and a quarter of the runs it saves at 1.
pub const FUTILITY_Z: f64 = 1.0;

/// Whether the endpoints, taken on to `max_runs` runs each, would still leave a step
/// undecidable at a change [`FUTILITY_Z`] standard errors larger than estimated:
/// bisecting needs n ≥ 2K (`bisect::endpoints`), K = 2s²·ln((1 − a)/a)/d² at the
/// pooled deviation s of their runs and d = |d̂| + z·se(d̂). False while either has
/// fewer than 2 runs or no spread.
pub fn beyond_reach(good: &Moments, bad: &Moments, step_alpha: f64, max_runs: u64) -> bool {
    let df = good.n + bad.n - 2.0;
    if good.n < 2.0 || bad.n < 2.0 || df <= 0.0 {
        return false;
    }
    let var = (good.m2 + bad.m2) / df;
    let se = (var * (1.0 / good.n + 1.0 / bad.n)).sqrt();
    let d = (bad.mean - good.mean).abs() + FUTILITY_Z * se;
    if !(var > 0.0 && d > 0.0) {
        return false;
    }
    let k = 2.0 * var * ((1.0 - step_alpha) / step_alpha).ln() / (d * d);
    (max_runs as f64) < 2.0 * k
}

/// The evidence, in nats, that one run at one endpoint's level gives on average
/// against the other level: d²/(2s²), d the endpoints' difference of means and s
/// their pooled standard deviation (0 when either has fewer than 2 runs).
pub fn per_run(good: &Moments, bad: &Moments) -> f64 {
    let df = good.n + bad.n - 2.0;
    if good.n < 2.0 || bad.n < 2.0 || df <= 0.0 {
        return 0.0;
    }
    let var = (good.m2 + bad.m2) / df;
    let d = bad.mean - good.mean;
    if var > 0.0 {
        d * d / (2.0 * var)
    } else if d != 0.0 {
        f64::INFINITY
    } else {
        0.0
    }
}

/// The runs a step at one endpoint's level is expected to take at the step error
/// rate `step_alpha`, given the endpoints' runs: K·n/(n − K) with K the runs at
/// known levels and n the fewer of the endpoints' runs (infinite when n ≤ K: the
/// endpoints are too rough for any number of runs at the step).
pub fn expected_runs(good: &Moments, bad: &Moments, step_alpha: f64) -> f64 {
    let kl = per_run(good, bad);
    let k = ((1.0 - step_alpha) / step_alpha).ln() / kl;
    let n = good.n.min(bad.n);
    if k.is_finite() && n > k {
        k * n / (n - k)
    } else {
        f64::INFINITY
    }
}

/// The runs after which an undecided step answers skip: `max_runs` when the user
/// set it, else [`SAFETY`] × the expected runs, at least [`MIN_BUDGET`] (and at
/// least `min_runs`). The endpoints are ready only when the expected runs are at
/// most n (`bisect::endpoints`), so the budget is at most [`SAFETY`] × the
/// endpoints' runs.
pub fn max_runs(opts: &Options, good: &Moments, bad: &Moments, step_alpha: f64) -> u64 {
    if let Some(m) = opts.max_runs {
        return m;
    }
    let auto = SAFETY * expected_runs(good, bad, step_alpha);
    let auto = if auto.is_finite() { auto.ceil() as u64 } else { MIN_BUDGET.max(opts.max_endpoint_runs) };
    auto.max(MIN_BUDGET).max(opts.min_runs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(n: f64, mean: f64, sd: f64) -> Moments {
        Moments { n, mean, m2: sd * sd * (n - 1.0) }
    }

    #[test]
    fn expected_runs_by_hand() {
        // d = 1, s = 4: d²/(2s²) = 1/32; a = 0.01: ln(99) = 4.59512; K = 147.04;
        // n = 300: K·n/(n − K) = 147.044·300/152.956 = 288.40
        let (g, b) = (m(300.0, 10.0, 4.0), m(300.0, 11.0, 4.0));
        assert!((per_run(&g, &b) - 1.0 / 32.0).abs() < 1e-12);
        let k = 32.0 * 99f64.ln();
        assert!((expected_runs(&g, &b, 0.01) - k * 300.0 / (300.0 - k)).abs() < 1e-9);
        assert!((expected_runs(&g, &b, 0.01) - 288.40).abs() < 0.01);
        // the endpoints rougher than K: no number of runs at the step decides
        let (g, b) = (m(100.0, 10.0, 4.0), m(100.0, 11.0, 4.0));
        assert!(expected_runs(&g, &b, 0.01).is_infinite());
    }

    #[test]
    fn the_budget_is_the_users_or_four_expected_runs() {
        let (g, b) = (m(300.0, 10.0, 4.0), m(300.0, 11.0, 4.0));
        let o = Options::default();
        assert_eq!(max_runs(&o, &g, &b, 0.01), (4.0 * expected_runs(&g, &b, 0.01)).ceil() as u64);
        assert_eq!(max_runs(&o, &g, &b, 0.01), 1154); // 4 × 288.40 = 1153.6
        assert_eq!(max_runs(&Options { max_runs: Some(40), ..o }, &g, &b, 0.01), 40);
        // a large change: the floor
        let (g, b) = (m(10.0, 10.0, 0.1), m(10.0, 11.0, 0.1));
        assert_eq!(max_runs(&o, &g, &b, 0.01), MIN_BUDGET);
    }

    #[test]
    fn beyond_reach_by_hand() {
        // n = 20 each, sd 14 (var 196), d̂ = 3: se = sqrt(196·(2/20)) = 4.4272;
        // d = 7.4272; a = 0.05/7: ln((1 − a)/a) = 4.93447; K = 2·196·4.93447/55.163 =
        // 35.065: 2K = 70.13 > 50 runs, < 100 runs
        let (g, b) = (m(20.0, 100.0, 14.0), m(20.0, 103.0, 14.0));
        let a = 0.05 / 7.0;
        assert!(beyond_reach(&g, &b, a, 50));
        assert!(!beyond_reach(&g, &b, a, 100));
        assert!(!beyond_reach(&m(1.0, 100.0, 0.0), &b, a, 50)); // too few runs to judge
    }
}
