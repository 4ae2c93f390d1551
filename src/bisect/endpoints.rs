//! Whether the endpoints' runs are enough to bisect (docs/bisect.md §3): the
//! sequential comparison of the bad endpoint with the good one (`stats::sequential`,
//! valid however often it is looked at) must show a change, not an equivalence within
//! the margin; and the smallest change its interval allows must be one the steps can
//! tell from the endpoints' runs alone, and a step must be expected to take no more
//! runs than an endpoint took (`bisect::budget`), so that a step is never left
//! undecidable by imprecise endpoints.

use super::options::Options;
use crate::error::Result;
use crate::stats::moments::Moments;
use crate::stats::sequential::{sequential, Sequential};
use crate::table::verdict::{Verdict, VerdictRule};
use crate::table::Direction;

/// What to do after the endpoints' runs so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndpointDecision {
    /// A change is shown and measured well enough: bisect.
    Ready,
    /// The endpoints are shown equivalent within the margin: nothing to bisect.
    NoChange,
    /// More runs at both endpoints.
    More,
    /// The endpoints took their maximum of runs without deciding.
    Undecided,
}

impl EndpointDecision {
    /// "ready", "no-change", "more" or "undecided".
    pub fn name(self) -> &'static str {
        match self {
            EndpointDecision::Ready => "ready",
            EndpointDecision::NoChange => "no-change",
            EndpointDecision::More => "more",
            EndpointDecision::Undecided => "undecided",
        }
    }
}

/// The evidence of the endpoints' runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Endpoints {
    /// Runs of the good endpoint.
    pub runs_good: u64,
    /// Runs of the bad endpoint.
    pub runs_bad: u64,
    /// Mean of the good endpoint.
    pub mean_good: f64,
    /// Mean of the bad endpoint.
    pub mean_bad: f64,
    /// The sequential comparison, bad against good.
    pub sequential: Sequential,
    /// The change of the bad endpoint against the good one in percent, positive =
    /// better (as every schedlab change: an increase when the direction is unknown).
    pub change_pct: f64,
    /// The smallest |mean(bad) − mean(good)| the confidence sequence allows (0 while it
    /// allows none).
    pub gap_low: f64,
    /// The evidence (natural log of the odds) the endpoints' runs alone could give a
    /// step at that smallest gap: n·gap²/(2s²) with n the runs of the smaller side.
    pub evidence: f64,
    /// The evidence a step needs: ln((1 − a)/a), a = the step's alpha.
    pub needed: f64,
    /// The runs a step is expected to take at the endpoints' change and noise
    /// (`bisect::budget::expected_runs`; infinite while the endpoints are too rough).
    pub step_runs: f64,
    /// Whether the endpoints stopped before their maximum of runs because it could
    /// not help (`bisect::budget::beyond_reach`, and no equivalence within reach).
    pub beyond_reach: bool,
    /// What to do.
    pub decision: EndpointDecision,
}

/// Decide on the endpoints' runs `good` and `bad` (in the order taken) of a metric
/// going `direction`, for a search of `steps` steps under `opts`.
pub fn endpoints(good: &[f64], bad: &[f64], direction: Direction, steps: u32, opts: &Options) -> Result<Endpoints> {
    let rule = VerdictRule { alpha: opts.alpha, margin: opts.margin, ..Default::default() };
    let seq = sequential(good, bad, direction, &rule)?;
    let mean = |x: &[f64]| if x.is_empty() { f64::NAN } else { x.iter().sum::<f64>() / x.len() as f64 };
    let (mean_good, mean_bad) = (mean(good), mean(bad));
    let change_pct =
        crate::stats::change::pct_change(mean_good, mean_bad, direction != Direction::Lower).unwrap_or(f64::NAN);
    let a = opts.step_alpha(steps);
    let needed = ((1.0 - a) / a).ln();
    let gap_low = if seq.low > 0.0 {
        seq.low
    } else if seq.high < 0.0 {
        -seq.high
    } else {
        0.0
    };
    let evidence = match &seq.last {
        Some(l) => {
            let n_eff = l.n_base as f64 * l.n_new as f64 / (l.n_base + l.n_new) as f64;
            let sd = l.se * n_eff.sqrt();
            let n = l.n_base.min(l.n_new) as f64;
            if sd > 0.0 {
                n * gap_low * gap_low / (2.0 * sd * sd)
            } else if gap_low > 0.0 {
                f64::INFINITY
            } else {
                0.0
            }
        }
        None => 0.0,
    };
    let (runs_good, runs_bad) = (good.len() as u64, bad.len() as u64);
    let at_max = runs_good >= opts.max_endpoint_runs && runs_bad >= opts.max_endpoint_runs;
    let step_runs = super::budget::expected_runs(&Moments::of(good), &Moments::of(bad), a);
    // a step expected to take at most as many runs as an endpoint took: n ≥ 2K; at
    // their maximum of runs the endpoints may give half the evidence a step needs at
    // the smallest change allowed (each decided step's runs then join a level), not
    // less: an estimated change much larger than the smallest allowed is often one
    // the noise inflated, and its steps would not decide (docs/bisect.md §3)
    let steps_decide = step_runs <= runs_good.min(runs_bad) as f64;
    // stop before the maximum when it could not help: even at a change a standard
    // error larger than estimated, the endpoints at their maximum would leave a step
    // undecidable, and their confidence sequence could not then fit within the margin
    // either (docs/bisect.md §3)
    let beyond_reach = !at_max
        && super::budget::beyond_reach(&Moments::of(good), &Moments::of(bad), a, opts.max_endpoint_runs)
        && !equivalence_reachable(&seq, opts, mean_good);
    let decision = match seq.verdict {
        Verdict::Equivalent => EndpointDecision::NoChange,
        Verdict::Better | Verdict::Worse | Verdict::Changed
            if steps_decide && (evidence >= needed || (at_max && evidence >= needed / 2.0)) =>
        {
            EndpointDecision::Ready
        }
        _ if at_max || beyond_reach => EndpointDecision::Undecided,
        _ => EndpointDecision::More,
    };
    Ok(Endpoints {
        runs_good,
        runs_bad,
        mean_good,
        mean_bad,
        sequential: seq,
        change_pct,
        gap_low,
        evidence,
        needed,
        step_runs,
        beyond_reach,
        decision,
    })
}

/// Whether the confidence sequence could still fit within ± the margin once the
/// endpoints took their maximum of runs: its half-width shrunk to the maximum as
/// 1/√n (an underestimate: the sequence's width shrinks more slowly, so this errs
/// towards going on), around a difference `budget::FUTILITY_Z` standard errors
/// smaller than estimated. True while no look has a finite width yet.
fn equivalence_reachable(seq: &Sequential, opts: &Options, mean_good: f64) -> bool {
    let Some(l) = &seq.last else { return true };
    if !l.half_width.is_finite() {
        return true;
    }
    let n = l.n_base.min(l.n_new) as f64;
    let h_max = l.half_width * (n / opts.max_endpoint_runs as f64).sqrt();
    let margin = opts.margin / 100.0 * mean_good.abs();
    l.diff.abs() - super::budget::FUTILITY_Z * l.se + h_max <= margin
}

/// What a step would take: "a step would take about N runs", or that no number decides.
fn runs_text(runs: f64) -> String {
    if runs.is_finite() {
        format!("a step would take about {:.0} runs", runs.ceil())
    } else {
        "no number of runs at a step would decide it".to_string()
    }
}

impl Endpoints {
    /// Whether the sequential comparison shows a change (better, worse or changed).
    fn changed(&self) -> bool {
        matches!(self.sequential.verdict, Verdict::Better | Verdict::Worse | Verdict::Changed)
    }

    /// One line saying what the endpoints show and what comes next.
    pub fn line(&self) -> String {
        let pct = |d: f64| 100.0 * d / self.mean_good.abs();
        let interval = if self.sequential.low.is_finite() && self.sequential.high.is_finite() {
            format!("[{:+.2}%, {:+.2}%]", pct(self.sequential.low), pct(self.sequential.high))
        } else {
            "unbounded yet".to_string()
        };
        let what = match self.decision {
            EndpointDecision::Ready => "ready to bisect".to_string(),
            EndpointDecision::NoChange => "no change within the margin: nothing to bisect".to_string(),
            EndpointDecision::Undecided if self.beyond_reach => format!(
                "any change is too small for the noise: even at a change a standard error larger than this one, \
                 --max-endpoint-runs runs at each endpoint would leave a step undecidable ({} now), and no \
                 equivalence within the margin could be shown either: stopped before that maximum (docs/bisect.md §3)",
                runs_text(self.step_runs)
            ),
            EndpointDecision::Undecided if self.changed() => format!(
                "a change is shown, but too small for the noise: at these endpoints {}, more than an endpoint took \
                 (raise --max-endpoint-runs)",
                runs_text(self.step_runs)
            ),
            EndpointDecision::Undecided => "cannot tell the endpoints apart at their maximum of runs".to_string(),
            EndpointDecision::More if self.sequential.verdict == Verdict::Inconclusive
                || self.sequential.verdict == Verdict::NotEnoughData =>
            {
                "more runs at both endpoints (no change shown yet)".to_string()
            }
            EndpointDecision::More if self.evidence >= self.needed => format!(
                "more runs at both endpoints (at these endpoints {}, more than an endpoint took)",
                runs_text(self.step_runs)
            ),
            EndpointDecision::More => format!(
                "more runs at both endpoints (the smallest change allowed, {:.2}%, gives a step {:.1} of the {:.1} nats \
                 it needs)",
                pct(self.gap_low),
                self.evidence,
                self.needed
            ),
        };
        format!(
            "endpoints: good {:.6} ({} runs), bad {:.6} ({} runs): {:+.2}% ({}); confidence sequence of bad − good {}: {}",
            self.mean_good,
            self.runs_good,
            self.mean_bad,
            self.runs_bad,
            self.change_pct,
            self.sequential.verdict.name(),
            interval,
            what
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn noisy(level: f64, n: usize) -> Vec<f64> {
        // a fixed ±1% pattern
        (0..n).map(|i| level * (1.0 + 0.01 * [0.3, -0.8, 1.1, -0.2, -0.5, 0.9, -1.2, 0.4][i % 8])).collect()
    }

    #[test]
    fn a_clear_change_is_ready_and_none_is_no_change() {
        let o = Options::default();
        let e = endpoints(&noisy(100.0, 10), &noisy(110.0, 10), Direction::Lower, 7, &o).unwrap();
        assert_eq!(e.decision, EndpointDecision::Ready, "{}", e.line());
        assert!(e.change_pct < -9.0 && e.line().contains("ready"), "{}", e.line());
        let e = endpoints(&noisy(100.0, 10), &noisy(100.0, 10), Direction::Lower, 7, &o).unwrap();
        assert_eq!(e.decision, EndpointDecision::NoChange, "{}", e.line());
        let e = endpoints(&noisy(100.0, 2), &noisy(100.5, 2), Direction::Lower, 7, &o).unwrap();
        assert_eq!(e.decision, EndpointDecision::More, "{}", e.line());
    }

    #[test]
    fn a_change_beyond_reach_stops_before_the_maximum() {
        // ±12 % noise, a 1 % change, 20 runs each: a step would need far more runs than
        // 100 endpoint runs allow, and the margin of 0.5 % is far inside the noise
        let wide = |level: f64| -> Vec<f64> {
            (0..20).map(|i| level * (1.0 + 0.15 * [0.3, -0.8, 1.1, -0.2, -0.5, 0.9, -1.2, 0.4][i % 8])).collect()
        };
        let o = Options { margin: 0.5, max_endpoint_runs: 100, ..Options::default() };
        let e = endpoints(&wide(100.0), &wide(101.0), Direction::Lower, 7, &o).unwrap();
        assert_eq!(e.decision, EndpointDecision::Undecided, "{}", e.line());
        assert!(e.beyond_reach && e.line().contains("stopped before that maximum"), "{}", e.line());
        // with room for ten times the runs, it goes on
        let o = Options { max_endpoint_runs: 1000, ..o };
        let e = endpoints(&wide(100.0), &wide(101.0), Direction::Lower, 7, &o).unwrap();
        assert_eq!(e.decision, EndpointDecision::More, "{}", e.line());
    }
}
