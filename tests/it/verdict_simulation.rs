//! The verdict rule checked by simulation (seeded, normal samples around 100):
//! - no change: the rate of false `worse` verdicts is at most alpha, for one metric
//!   and for a family of metrics after Benjamini–Hochberg (any `worse` in the family);
//! - a true change equal to the margin: the rate of `worse` matches the power that
//!   `welch_power` states, within Monte-Carlo error (4 standard errors);
//! - the runs `runs_needed` asks for do reach the stated power when simulated, and one
//!   run fewer does not.

use schedlab::stats::rng::Rng;
use schedlab::stats::{fdr_bh, pct_change, runs_needed, welch_power};
use schedlab::table::{decide, evidence, Test, Verdict, VerdictRule};

/// A standard normal deviate (Box–Muller on two uniform draws in (0, 1]).
fn normal(r: &mut Rng) -> f64 {
    let u = |r: &mut Rng| ((r.next_u64() >> 11) as f64 + 1.0) / (1u64 << 53) as f64;
    let (u1, u2) = (u(r), u(r));
    (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
}

fn sample(r: &mut Rng, n: usize, mean: f64, sd: f64) -> Vec<f64> {
    (0..n).map(|_| mean + sd * normal(r)).collect()
}

/// The verdict on one simulated metric (higher is better), deciding on `p` when given.
fn verdict(base: &[f64], new: &[f64], rule: &VerdictRule, p: Option<f64>) -> Verdict {
    let e = evidence(base, new, Test::Welch, rule);
    let mean = |x: &[f64]| x.iter().sum::<f64>() / x.len() as f64;
    let change = pct_change(mean(base), mean(new), true).unwrap();
    decide(change, p.or(e.p), &e, true, rule)
}

/// Rate of `worse` among `reps` simulated comparisons of n runs a side.
fn worse_rate(seed: u64, reps: usize, n: usize, shift: f64, sd: f64, rule: &VerdictRule) -> f64 {
    let mut r = Rng::new(seed, 0);
    let worse = (0..reps)
        .filter(|_| {
            let base = sample(&mut r, n, 100.0, sd);
            let new = sample(&mut r, n, 100.0 + shift, sd);
            verdict(&base, &new, rule, None) == Verdict::Worse
        })
        .count();
    worse as f64 / reps as f64
}

/// Four binomial standard errors of a rate `p` estimated from `reps` draws.
fn four_se(p: f64, reps: usize) -> f64 {
    4.0 * (p * (1.0 - p) / reps as f64).sqrt()
}

#[test]
fn no_change_gives_at_most_alpha_false_regressions() {
    let rule = VerdictRule::default();
    let reps = 4000;
    for (n, sd) in [(5, 1.0), (10, 3.0)] {
        let rate = worse_rate(1, reps, n, 0.0, sd, &rule);
        // a two-sided test at alpha calls "worse" at most alpha/2 of the time
        assert!(rate <= rule.alpha / 2.0 + four_se(rule.alpha / 2.0, reps), "n={n} sd={sd}: {rate}");
    }
}

#[test]
fn no_change_in_a_family_after_fdr_rarely_gives_a_regression() {
    let rule = VerdictRule::default();
    let (families, metrics, n) = (600, 10, 5);
    let mut r = Rng::new(2, 0);
    let mut with_worse = 0;
    for _ in 0..families {
        let pairs: Vec<(Vec<f64>, Vec<f64>)> =
            (0..metrics).map(|_| (sample(&mut r, n, 100.0, 1.0), sample(&mut r, n, 100.0, 1.0))).collect();
        let ps: Vec<f64> = pairs.iter().map(|(b, x)| evidence(b, x, Test::Welch, &rule).p.unwrap()).collect();
        let qs = fdr_bh(&ps).unwrap();
        if pairs.iter().zip(&qs).any(|((b, x), q)| verdict(b, x, &rule, Some(*q)) == Verdict::Worse) {
            with_worse += 1;
        }
    }
    // under the complete null BH bounds the chance of any discovery by alpha
    let rate = with_worse as f64 / families as f64;
    assert!(rate <= rule.alpha + four_se(rule.alpha, families), "{rate}");
}

#[test]
fn a_change_of_the_margin_is_found_at_the_stated_power() {
    let rule = VerdictRule::default();
    let reps = 3000;
    // margin 2% of 100 = 2; sd 2 (a 2% coefficient of variation), 8 runs a side
    let (n, sd) = (8, 2.0);
    let stated = welch_power(2.0, sd, sd, n as f64, n as f64, rule.alpha).unwrap();
    assert!(0.3 < stated && stated < 0.6, "{stated}");
    let rate = worse_rate(3, reps, n, -2.0, sd, &rule);
    assert!((rate - stated).abs() <= four_se(stated, reps), "simulated {rate}, stated {stated}");
}

#[test]
fn the_runs_needed_reach_the_power() {
    let rule = VerdictRule::default();
    let reps = 3000;
    let sd = 2.5;
    let n = runs_needed(2.0, sd, sd, rule.alpha, rule.power).unwrap() as usize;
    assert!((15..40).contains(&n), "{n}");
    let at_n = worse_rate(4, reps, n, -2.0, sd, &rule);
    assert!(at_n >= rule.power - four_se(rule.power, reps), "{n} runs: {at_n}");
    let stated_fewer = welch_power(2.0, sd, sd, (n - 1) as f64, (n - 1) as f64, rule.alpha).unwrap();
    assert!(stated_fewer < rule.power);
    let fewer = worse_rate(5, reps, n - 1, -2.0, sd, &rule);
    assert!((fewer - stated_fewer).abs() <= four_se(stated_fewer, reps), "{fewer} against {stated_fewer}");
}
