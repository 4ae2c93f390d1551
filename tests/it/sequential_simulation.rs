//! The sequential comparison (`stats::sequential`, docs/sequential.md §4) checked by
//! simulation (seeded, normal runs around 100, a look after every added run up to 50
//! runs a side):
//! - no change: the chance that the confidence sequence ever calls `worse` is at most
//!   alpha/2 (and a change of either sign at most alpha), within Monte-Carlo error,
//!   where Welch's fixed-sample test looked at after every run crosses far more often;
//! - a true change of exactly the margin: `equivalent` at most alpha/2 of the time;
//! - a family of null metrics after e-BH: any `worse` at most alpha;
//! - `decided_at` is the first look that decides: shorter prefixes do not decide.

use schedlab::stats::rng::Rng;
use schedlab::stats::sequential::{sequential, sequential_many};
use schedlab::stats::welch_ttest;
use schedlab::table::{Direction, Verdict, VerdictRule};

/// A standard normal deviate (Box–Muller on two uniform draws in (0, 1]).
fn normal(r: &mut Rng) -> f64 {
    let u = |r: &mut Rng| ((r.next_u64() >> 11) as f64 + 1.0) / (1u64 << 53) as f64;
    let (u1, u2) = (u(r), u(r));
    (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
}

fn sample(r: &mut Rng, n: usize, mean: f64, sd: f64) -> Vec<f64> {
    (0..n).map(|_| mean + sd * normal(r)).collect()
}

/// Three binomial standard errors of a rate `p` estimated from `reps` draws.
fn three_se(p: f64, reps: usize) -> f64 {
    3.0 * (p * (1.0 - p) / reps as f64).sqrt()
}

const RUNS: usize = 50;

#[test]
fn no_change_is_rarely_called_a_change_however_often_one_looks() {
    let rule = VerdictRule::default();
    let reps = 3000;
    let mut r = Rng::new(11, 0);
    let (mut worse, mut any, mut welch_worse) = (0, 0, 0);
    for _ in 0..reps {
        let base = sample(&mut r, RUNS, 100.0, 1.0);
        let new = sample(&mut r, RUNS, 100.0, 1.0);
        let s = sequential(&base, &new, Direction::Higher, &rule).unwrap();
        // the running intersection excludes 0 from the day it first did
        worse += usize::from(s.high < 0.0);
        any += usize::from(s.high < 0.0 || s.low > 0.0);
        // Welch's test at every look: "worse" at the first look with p < alpha and new below base
        welch_worse += usize::from((2..=RUNS).any(|k| {
            let w = welch_ttest(&base[..k], &new[..k]).unwrap();
            w.p < rule.alpha && w.t > 0.0
        }));
    }
    let (worse, any, welch) = (worse as f64 / reps as f64, any as f64 / reps as f64, welch_worse as f64 / reps as f64);
    eprintln!("no change, {RUNS} looks: sequential worse {worse:.4}, any change {any:.4}; Welch at every look worse {welch:.4}");
    assert!(worse - three_se(worse, reps) <= rule.alpha / 2.0, "{worse}");
    assert!(any - three_se(any, reps) <= rule.alpha, "{any}");
    // the repeated fixed-sample test is the error the sequential test avoids
    assert!(welch > 2.0 * rule.alpha, "{welch}");
}

#[test]
fn a_change_of_the_margin_is_rarely_called_equivalent() {
    let rule = VerdictRule::default(); // margin 2 % of 100
    let reps = 3000;
    let mut r = Rng::new(12, 0);
    let mut equivalent = 0;
    let mut decided = 0;
    for _ in 0..reps {
        let base = sample(&mut r, RUNS, 100.0, 2.0);
        let new = sample(&mut r, RUNS, 102.0, 2.0);
        let s = sequential(&base, &new, Direction::Higher, &rule).unwrap();
        equivalent += usize::from(s.verdict == Verdict::Equivalent);
        decided += usize::from(s.decided_at.is_some());
    }
    let eq = equivalent as f64 / reps as f64;
    eprintln!("a change of the margin, {RUNS} looks: equivalent {eq:.4}, decided {:.3}", decided as f64 / reps as f64);
    assert!(eq - three_se(eq, reps) <= rule.alpha / 2.0, "{eq}");
    assert!(decided > reps / 4, "a change of the margin at sd 2 is decided (better) in most runs: {decided}");
}

#[test]
fn a_family_of_null_metrics_after_e_bh_rarely_has_a_regression() {
    let rule = VerdictRule::default();
    let (families, metrics) = (500, 10);
    let mut r = Rng::new(13, 0);
    let mut with_worse = 0;
    for _ in 0..families {
        let data: Vec<(Vec<f64>, Vec<f64>)> =
            (0..metrics).map(|_| (sample(&mut r, 20, 100.0, 1.0), sample(&mut r, 20, 100.0, 1.0))).collect();
        let pairs: Vec<(&[f64], &[f64])> = data.iter().map(|(b, n)| (b.as_slice(), n.as_slice())).collect();
        let out = sequential_many(&pairs, &[Direction::Higher; 10], &rule, Some(1)).unwrap();
        with_worse += usize::from(out.iter().any(|s| s.verdict == Verdict::Worse));
    }
    let rate = with_worse as f64 / families as f64;
    eprintln!("10 null metrics after e-BH: any worse {rate:.4}");
    assert!(rate - three_se(rate, families) <= rule.alpha, "{rate}");
}

#[test]
fn decided_at_is_the_first_look_that_decides() {
    let rule = VerdictRule::default();
    let mut r = Rng::new(14, 0);
    let mut seen = 0;
    for _ in 0..40 {
        let base = sample(&mut r, 30, 100.0, 2.0);
        let new = sample(&mut r, 30, 103.0, 2.0);
        let s = sequential(&base, &new, Direction::Lower, &rule).unwrap();
        let Some(k) = s.decided_at else { continue };
        seen += 1;
        let k = k as usize;
        let at = sequential(&base[..k], &new[..k], Direction::Lower, &rule).unwrap();
        assert_eq!(at.decided_at, Some(k as u64));
        assert_ne!(at.verdict, Verdict::Inconclusive);
        let before = sequential(&base[..k - 1], &new[..k - 1], Direction::Lower, &rule).unwrap();
        assert_eq!(before.decided_at, None, "k = {k}");
        assert!(before.more_runs.is_some());
    }
    assert!(seen > 20, "{seen}");
}

#[test]
fn clear_changes_in_a_family_survive_e_bh() {
    // Two comparisons, each 10 runs a side 10 deviations apart, and one of no change:
    // e-BH over m = 3 keeps a row at rank k when its e-value reaches m/(alpha k) = 60/k;
    // each clear row's e-value grows without bound with t (its stop is m/alpha = 60),
    // so both clear rows are kept and the unchanged one is not a change.
    let rule = VerdictRule::default();
    let mut r = Rng::new(15, 0);
    let base = sample(&mut r, 10, 100.0, 1.0);
    let slow = sample(&mut r, 10, 110.0, 1.0);
    let same = sample(&mut r, 10, 100.0, 1.0);
    let fast = sample(&mut r, 10, 90.0, 1.0);
    let pairs: Vec<(&[f64], &[f64])> = vec![(&base, &slow), (&base, &same), (&base, &fast)];
    let out = sequential_many(&pairs, &[Direction::Lower; 3], &rule, Some(1)).unwrap();
    assert_eq!(out[0].verdict, Verdict::Worse);
    assert_eq!(out[2].verdict, Verdict::Better);
    assert!(out[0].e_value >= 60.0 && out[2].e_value >= 60.0, "{} {}", out[0].e_value, out[2].e_value);
    assert!(!matches!(out[1].verdict, Verdict::Worse | Verdict::Better));
}
