//! The decision at one step of a bisection (docs/bisect.md §2.3): after each run at
//! the commit under test, the posterior probability that it is bad (given every run of
//! every tested commit, `bisect::posterior`) is compared with the step's error rate
//! a = alpha/steps: "bad" at P(bad) ≥ 1 − a, "good" at P(bad) ≤ a, which is Wald's
//! sequential probability ratio test with boundaries ln((1 − a)/a) on the Bayes
//! factor of "bad" against "good"; more runs in between, and "skip" once the step has
//! taken its maximum of runs (`bisect::budget`: the user's, or four times the runs
//! the endpoints say a step is expected to take), saying why — except a commit whose
//! runs then differ from both endpoints' at a level between theirs (more than one
//! change): it is changed from the good level, and answered bad (docs/bisect.md §2.5).

use super::options::Options;
use super::posterior::{Posterior, Tested};
use crate::error::Result;
use crate::stats::moments::Moments;
use crate::stats::sequential::Look;

/// What a step answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// Like the good endpoint (exit code 0 of `git bisect run`).
    Good,
    /// Like the bad endpoint (exit code 1).
    Bad,
    /// Not decided yet: take another run.
    More,
    /// Not decidable within the maximum of runs (exit code 125).
    Skip,
}

impl Decision {
    /// "good", "bad", "more" or "skip".
    pub fn name(self) -> &'static str {
        match self {
            Decision::Good => "good",
            Decision::Bad => "bad",
            Decision::More => "more",
            Decision::Skip => "skip",
        }
    }

    /// `git bisect run`'s exit code for the answer: 0 good, 1 bad, 125 skip (the commit
    /// cannot be tested); None while another run is needed.
    pub fn exit_code(self) -> Option<i32> {
        match self {
            Decision::Good => Some(0),
            Decision::Bad => Some(1),
            Decision::Skip => Some(125),
            Decision::More => None,
        }
    }
}

/// The exit code that makes `git bisect run` stop the whole bisection (any from 128 on):
/// a usage error or a command that cannot run at all.
pub const ABORT_EXIT: i32 = 128;

/// The evidence and decision of a step.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// Position of the commit in the range.
    pub position: usize,
    /// Runs of the commit.
    pub runs: u64,
    /// Their mean.
    pub mean: f64,
    /// Where the mean lies between the endpoints' means: 0 at the good one, 1 at the bad one.
    pub fraction: f64,
    /// P(the commit is bad) given every run.
    pub p_bad: f64,
    /// The step's error rate a (alpha/steps): bad at P(bad) ≥ 1 − a, good at ≤ a.
    pub alpha: f64,
    /// The runs after which the step answers skip (`bisect::budget::max_runs`).
    pub max_runs: u64,
    /// The decision.
    pub decision: Decision,
    /// Why a step answers skip.
    pub reason: Option<String>,
}

/// The step at `position` of a range whose last position is `last`, searched in
/// `steps` steps, given the runs of every tested commit (`tested`, the endpoints and
/// the commit among them; a commit without runs is left out).
pub fn decide(last: usize, steps: u32, tested: &[Tested<'_>], position: usize, opts: &Options) -> Result<Step> {
    let here: &[f64] = tested.iter().find(|t| t.position == position).map_or(&[], |t| t.values);
    let runs = here.len() as u64;
    let moments = |p: usize| Moments::of(tested.iter().find(|t| t.position == p).map_or(&[], |t| t.values));
    let (good, bad, this) = (moments(0), moments(last), Moments::of(here));
    let fraction = (this.mean - good.mean) / (bad.mean - good.mean);
    let alpha = opts.step_alpha(steps);
    let max_runs = super::budget::max_runs(opts, &good, &bad, alpha);
    let mut step = Step {
        position,
        runs,
        mean: if runs > 0 { this.mean } else { f64::NAN },
        fraction: if runs > 0 { fraction } else { f64::NAN },
        p_bad: f64::NAN,
        alpha,
        max_runs,
        decision: Decision::More,
        reason: None,
    };
    if runs == 0 {
        return Ok(step);
    }
    let posterior = Posterior::of(last, tested)?;
    step.p_bad = posterior.p_bad(position);
    if runs < opts.min_runs {
        return Ok(step);
    }
    step.decision = if step.p_bad >= 1.0 - alpha {
        Decision::Bad
    } else if step.p_bad <= alpha {
        Decision::Good
    } else if runs >= max_runs && between(&good, &bad, &this, alpha) {
        step.reason = Some(format!(
            "undecided after {runs} runs, its mean {:.0}% of the way from the good endpoint's to the bad one's and \
             its runs differ from both endpoints' (confidence sequences at {alpha:.4} exclude both levels): a level \
             between theirs, so more than one change in the range; changed from the good level, it is answered bad \
             and the search goes on to the first change",
            100.0 * step.fraction
        ));
        Decision::Bad
    } else if runs >= max_runs {
        step.reason = Some(skip_reason(&step, &good, &bad, &this, opts));
        Decision::Skip
    } else {
        Decision::More
    };
    Ok(step)
}

/// Whether the runs `this` of a commit lie between the endpoints' levels and differ
/// from both (their confidence sequences at `alpha` exclude both differences from 0).
fn between(good: &Moments, bad: &Moments, this: &Moments, alpha: f64) -> bool {
    let differs = |other: &Moments| {
        if this.n < 2.0 || other.n < 2.0 {
            return false;
        }
        let l = Look::of(other, this, alpha);
        (l.diff - l.half_width > 0.0) || (l.diff + l.half_width < 0.0)
    };
    let fraction = (this.mean - good.mean) / (bad.mean - good.mean);
    fraction > 0.0 && fraction < 1.0 && differs(good) && differs(bad)
}

/// Why a step that took its maximum of runs is undecided: where its mean lies, and
/// whether it differs from both endpoints (a level between theirs: a second change).
fn skip_reason(step: &Step, good: &Moments, bad: &Moments, this: &Moments, opts: &Options) -> String {
    let mut why = format!(
        "undecided after {} runs: P(bad) = {:.3}, between {:.3} and {:.3}; its mean lies {:.0}% of the way from the \
         good endpoint's to the bad one's",
        step.runs,
        step.p_bad,
        step.alpha,
        1.0 - step.alpha,
        100.0 * step.fraction
    );
    let differs = |other: &Moments| {
        if this.n < 2.0 || other.n < 2.0 {
            return false;
        }
        let l = Look::of(other, this, opts.alpha);
        (l.diff - l.half_width > 0.0) || (l.diff + l.half_width < 0.0)
    };
    if differs(good) && differs(bad) {
        why.push_str(
            "; it differs from both endpoints (confidence sequences exclude both levels): a level between theirs, so \
             more than one change in the range",
        );
    } else {
        why.push_str(if opts.max_runs.is_some() {
            "; the noise is too large for the change at this many runs (raise --max-runs)"
        } else {
            "; the noise is too large for the change at this many runs (four times the runs a step is expected to \
             take at the endpoints' change and noise; --max-runs sets another maximum)"
        });
    }
    why
}

impl Step {
    /// One line of evidence: runs, estimate, test and decision.
    pub fn line(&self, commit: &str) -> String {
        let verdict = match self.decision {
            Decision::More => "more runs".to_string(),
            d => d.name().to_string(),
        };
        let mut s = format!(
            "{}: {} run{}, mean {:.6} ({:.0}% of the way from good to bad); P(bad) = {:.4} (good at <= {:.4}, bad at \
             >= {:.4}, skip after {} runs): {}",
            super::order::short(commit),
            self.runs,
            if self.runs == 1 { "" } else { "s" },
            self.mean,
            100.0 * self.fraction,
            self.p_bad,
            self.alpha,
            1.0 - self.alpha,
            self.max_runs,
            verdict
        );
        if let Some(r) = &self.reason {
            s.push_str(" (");
            s.push_str(r);
            s.push(')');
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const G: [f64; 6] = [10.0, 10.1, 9.9, 10.05, 9.95, 10.02];
    const B: [f64; 6] = [11.0, 11.1, 10.9, 11.05, 10.95, 11.02];

    fn t<'a>(p: usize, v: &'a [f64]) -> Tested<'a> {
        Tested { position: p, values: v }
    }

    #[test]
    fn good_bad_more_and_skip() {
        let o = Options { min_runs: 2, max_runs: Some(4), ..Default::default() };
        let s = decide(8, 3, &[t(0, &G), t(4, &[11.01, 10.98]), t(8, &B)], 4, &o).unwrap();
        assert_eq!(s.decision, Decision::Bad, "{}", s.line("c"));
        let s = decide(8, 3, &[t(0, &G), t(4, &[10.01, 9.98]), t(8, &B)], 4, &o).unwrap();
        assert_eq!(s.decision, Decision::Good, "{}", s.line("c"));
        let s = decide(8, 3, &[t(0, &G), t(4, &[10.51]), t(8, &B)], 4, &o).unwrap();
        assert_eq!(s.decision, Decision::More);
        // a level between the endpoints' after the maximum of runs: changed from the good level, bad
        let s = decide(8, 3, &[t(0, &G), t(4, &[10.49, 10.51, 10.5, 10.52]), t(8, &B)], 4, &o).unwrap();
        assert_eq!(s.decision, Decision::Bad, "{}", s.line("c"));
        assert!(s.reason.as_ref().unwrap().contains("more than one change"), "{}", s.line("c"));
        // undecided and not shown between: skip
        let s = decide(8, 3, &[t(0, &G), t(4, &[10.0, 11.0, 10.5, 10.4]), t(8, &B)], 4, &o).unwrap();
        assert_eq!(s.decision, Decision::Skip, "{}", s.line("c"));
        assert!(s.reason.as_ref().unwrap().contains("noise is too large"), "{}", s.line("c"));
    }
}
