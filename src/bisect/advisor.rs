//! Where a bisection stands and what to do next (docs/bisect.md §6), from the runs of
//! the tested commits, whoever took them (`schedlab bisect run`'s state, or result
//! trees named by commit): which commits are good or bad and how surely, the likely
//! culprit with its probability, the commit to test next (the posterior median:
//! probabilistic bisection, which re-tests a commit whose answer became doubtful
//! rather than following it) and how many runs it needs, and what stands in the way
//! (failed builds or boots, undecidable commits, more than one change).

use super::changes::level_changes;
use super::endpoints::{endpoints, EndpointDecision, Endpoints};
use super::options::Options;
use super::order::{short, Range};
use super::posterior::{Posterior, Tested};
use crate::error::Result;
use crate::stats::moments::Moments;
use crate::stats::sequential::Look;
use crate::table::Direction;
use serde::Serialize;

/// The runs of one commit, or why it has none.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CommitRuns {
    /// The commit's position in the range.
    pub position: usize,
    /// Its runs, in the order taken.
    pub values: Vec<f64>,
    /// Why runs failed (a build or boot failure, a benchmark that crashed).
    pub failures: Vec<String>,
}

/// Where the bisection stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// The endpoints need more runs.
    Endpoints,
    /// The endpoints are equivalent within the margin: nothing to bisect.
    NoChange,
    /// The endpoints took their maximum of runs without telling them apart.
    Undecided,
    /// Steps are under way.
    Bisecting,
    /// The culprit is singled out (with probability ≥ 1 − alpha), or the commits it can
    /// be were all tested or failed.
    Found,
}

/// What one tested commit shows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CommitStatus {
    /// The commit.
    pub commit: String,
    /// Its position (0 = good endpoint).
    pub position: usize,
    /// Runs taken.
    pub runs: u64,
    /// Their mean (NaN without runs).
    pub mean: f64,
    /// P(the commit is bad) given every run; None until the endpoints show a change the
    /// steps can decide (before that there is no posterior to give it).
    pub p_bad: Option<f64>,
    /// `good` (P(bad) ≤ a), `bad` (≥ 1 − a), `undecided`, `not yet` (no posterior yet:
    /// the endpoints are still being run), or `failed` (no runs, only failures).
    pub verdict: &'static str,
    /// Why its runs failed, if they did.
    pub failures: Vec<String>,
}

/// The likely culprit.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Culprit {
    /// The commits it can be (one when singled out), in history order.
    pub commits: Vec<String>,
    /// Their positions.
    pub positions: Vec<usize>,
    /// P(the culprit is one of them).
    pub probability: f64,
}

/// The next thing to run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Next {
    /// The commit to run (for the endpoints' phase: both endpoints).
    pub commits: Vec<String>,
    /// Runs to add to each.
    pub runs: u64,
    /// Why this commit.
    pub why: String,
}

/// Where the bisection stands and what to do next.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Status {
    /// The phase.
    pub phase: Phase,
    /// The endpoints' evidence.
    #[serde(skip)]
    pub endpoints: Endpoints,
    /// One line on the endpoints.
    pub endpoints_line: String,
    /// The tested commits (and failed ones), in history order.
    pub commits: Vec<CommitStatus>,
    /// The likely culprit (once the endpoints are ready).
    pub culprit: Option<Culprit>,
    /// What to run next (None when found, no change or undecided).
    pub next: Option<Next>,
    /// Steps of the search and the error rate each is allowed.
    pub steps: u32,
    /// The step error rate a = alpha/steps.
    pub step_alpha: f64,
    /// Failures, undecidable commits, more than one change, doubtful answers.
    pub notes: Vec<String>,
}

/// The status of a bisection over `range` of a metric going `direction`, given the
/// runs of its commits (`runs`: one entry per commit with runs or failures, any
/// order) and, for `git bisect run`, the answers already given (`answered`: position
/// and `good`/`bad`).
pub fn status(
    range: &Range,
    runs: &[CommitRuns],
    direction: Direction,
    opts: &Options,
    answered: &[(usize, &str)],
) -> Result<Status> {
    opts.check()?;
    let last = range.last();
    let steps = range.steps();
    let step_alpha = opts.step_alpha(steps);
    let values_at = |p: usize| runs.iter().find(|r| r.position == p).map_or(&[][..], |r| r.values.as_slice());
    let e = endpoints(values_at(0), values_at(last), direction, steps, opts)?;
    let name = |p: usize| range.commit(p).unwrap_or("").to_string();
    let mut notes = Vec::new();
    let mut ordered: Vec<&CommitRuns> = runs.iter().collect();
    ordered.sort_by_key(|r| r.position);
    for r in ordered.iter().filter(|r| !r.failures.is_empty()) {
        notes.push(format!(
            "{}: {} failed run{} ({}){}",
            short(&name(r.position)),
            r.failures.len(),
            if r.failures.len() == 1 { "" } else { "s" },
            r.failures.last().map_or("", String::as_str),
            if r.values.is_empty() { ": a commit that cannot be tested counts as skipped" } else { "" }
        ));
    }
    let tested: Vec<Tested<'_>> = ordered
        .iter()
        .filter(|r| !r.values.is_empty())
        .map(|r| Tested { position: r.position, values: &r.values })
        .collect();
    let ready = e.decision == EndpointDecision::Ready;
    let posterior = if ready { Some(Posterior::of(last, &tested)?) } else { None };
    let p_bad = |p: usize| posterior.as_ref().map(|post| post.p_bad(p));
    let commits: Vec<CommitStatus> = ordered
        .iter()
        .map(|r| {
            let p = p_bad(r.position);
            CommitStatus {
                commit: name(r.position),
                position: r.position,
                runs: r.values.len() as u64,
                mean: if r.values.is_empty() { f64::NAN } else { Moments::of(&r.values).mean },
                p_bad: p,
                verdict: match p {
                    _ if r.values.is_empty() => "failed",
                    None => "not yet",
                    Some(p) if p >= 1.0 - step_alpha => "bad",
                    Some(p) if p <= step_alpha => "good",
                    Some(_) => "undecided",
                },
                failures: r.failures.clone(),
            }
        })
        .collect();
    let mut st = Status {
        phase: match e.decision {
            EndpointDecision::More => Phase::Endpoints,
            EndpointDecision::NoChange => Phase::NoChange,
            EndpointDecision::Undecided => Phase::Undecided,
            EndpointDecision::Ready => Phase::Bisecting,
        },
        endpoints_line: e.line(),
        endpoints: e,
        commits,
        culprit: None,
        next: None,
        steps,
        step_alpha,
        notes,
    };
    if st.phase == Phase::Endpoints {
        st.next = Some(Next {
            commits: vec![name(0), name(last)],
            runs: opts.endpoint_runs,
            why: "the endpoints do not yet show a change the steps can decide".into(),
        });
    }
    let Some(post) = posterior else {
        return Ok(st);
    };
    let (good, bad) = (Moments::of(values_at(0)), Moments::of(values_at(last)));
    let max_runs = super::budget::max_runs(opts, &good, &bad, step_alpha);
    for c in st.commits.iter().filter(|c| c.verdict == "undecided" && c.runs >= max_runs) {
        st.notes.push(format!(
            "{}: undecided after {} runs (P(bad) = {:.3})",
            short(&c.commit),
            c.runs,
            c.p_bad.unwrap_or(f64::NAN)
        ));
    }
    for &(p, said) in answered {
        let now = post.p_bad(p);
        let doubt = match said {
            "good" => now > 0.5,
            "bad" => now < 0.5,
            _ => false,
        };
        if doubt {
            st.notes.push(format!(
                "{}: answered {said}, but every run now gives P(bad) = {:.3}: that answer is doubtful, and git bisect \
                 followed it",
                short(&name(p)),
                now
            ));
        }
    }
    st.notes.extend(super::named::notes(&post, &tested, last, answered, opts, &name));
    in_between(&mut st, &tested, last, opts, &name);
    let changes = level_changes(&tested)?;
    if changes.len() >= 2 {
        let at: Vec<String> = changes.iter().map(|&p| short(&name(p)).to_string()).collect();
        st.notes.push(format!(
            "more than one change: schedlab series finds levels changing at {} over the tested commits; the search \
             follows one of them",
            at.join(" and ")
        ));
    }
    let failed = |p: usize| runs.iter().any(|r| r.position == p && r.values.is_empty() && !r.failures.is_empty());
    if let Some(g) = post.likeliest() {
        let positions: Vec<usize> = (g.after + 1..=g.upto).collect();
        st.culprit = Some(Culprit {
            commits: positions.iter().map(|&p| name(p)).collect(),
            positions: positions.clone(),
            probability: g.mass,
        });
        let inside_failed = (g.after + 1..g.upto).all(failed);
        if g.mass >= 1.0 - opts.alpha && (g.width() == 1 || inside_failed) {
            st.phase = Phase::Found;
            return Ok(st);
        }
    }
    let cost = StepCost { expected: super::budget::expected_runs(&good, &bad, step_alpha), max_runs };
    st.next = next(&post, &tested, last, runs, opts, step_alpha, cost, &name);
    Ok(st)
}

/// Notes on tested commits whose runs differ from both endpoints' (a level between
/// theirs).
fn in_between(st: &mut Status, tested: &[Tested<'_>], last: usize, opts: &Options, name: &dyn Fn(usize) -> String) {
    let m = |p: usize| Moments::of(tested.iter().find(|t| t.position == p).map_or(&[], |t| t.values));
    let (g, b) = (m(0), m(last));
    for t in tested.iter().filter(|t| t.position != 0 && t.position != last && t.values.len() >= 2) {
        let c = Moments::of(t.values);
        let differs = |o: &Moments| {
            let l = Look::of(o, &c, opts.alpha);
            l.diff - l.half_width > 0.0 || l.diff + l.half_width < 0.0
        };
        if differs(&g) && differs(&b) {
            st.notes.push(format!(
                "{}: its runs differ from both endpoints' (mean {:.6} between {:.6} and {:.6}): a level between \
                 theirs, so more than one change in the range",
                short(&name(t.position)),
                c.mean,
                g.mean,
                b.mean
            ));
        }
    }
}

/// What a step is expected to take (`bisect::budget`) and the runs after which it
/// answers skip.
#[derive(Debug, Clone, Copy)]
struct StepCost {
    expected: f64,
    max_runs: u64,
}

/// The commit to test next: the posterior median moved to the nearest commit that
/// can be tested, and the runs a step there is expected to take.
#[allow(clippy::too_many_arguments)]
fn next(
    post: &Posterior,
    tested: &[Tested<'_>],
    last: usize,
    runs: &[CommitRuns],
    opts: &Options,
    step_alpha: f64,
    cost: StepCost,
    name: &dyn Fn(usize) -> String,
) -> Option<Next> {
    let failed = |p: usize| runs.iter().any(|r| r.position == p && r.values.is_empty() && !r.failures.is_empty());
    let runs_at = |p: usize| tested.iter().find(|t| t.position == p).map_or(0, |t| t.values.len() as u64);
    // a commit that took its maximum of runs undecided is not run again
    let exhausted = |p: usize| {
        let pb = post.p_bad(p);
        runs_at(p) >= cost.max_runs && pb > step_alpha && pb < 1.0 - step_alpha
    };
    let median = post.split().min(last);
    // the median (inside its gap), else the nearest testable commit of the range
    let candidates = (0..=last).flat_map(|d| [median.checked_sub(d), median.checked_add(d)]).flatten();
    let at = candidates.filter(|&p| p <= last).find(|&p| !failed(p) && !exhausted(p))?;
    let have = runs_at(at);
    let expected = cost.expected.ceil();
    let total = if expected.is_finite() { (expected as u64).max(opts.min_runs) } else { opts.min_runs };
    let more = total.saturating_sub(have).max(1);
    let why = if have > 0 {
        format!(
            "P(bad) = {:.3} at the posterior median: its answer is not sure yet, so it is run again",
            post.p_bad(at)
        )
    } else {
        format!(
            "the posterior median (P(culprit at or before it) = {:.3}); about {total} runs decide a step at these \
             endpoints (Wald's average sample number)",
            post.p_bad(at)
        )
    };
    Some(Next { commits: vec![name(at)], runs: more, why })
}

impl Status {
    /// The report `schedlab bisect status` prints.
    pub fn text(&self) -> String {
        let mut out = String::new();
        out.push_str(&self.endpoints_line);
        out.push('\n');
        out.push_str(&format!(
            "steps: {} (each decided at an error rate of {:.4}: bad at P(bad) >= {:.4}, good at <= {:.4})\n",
            self.steps,
            self.step_alpha,
            1.0 - self.step_alpha,
            self.step_alpha
        ));
        for c in &self.commits {
            if c.runs == 0 {
                out.push_str(&format!("  {:<12}  failed: {}\n", short(&c.commit), c.failures.join("; ")));
            } else {
                let p_bad = c.p_bad.map_or_else(|| "-".to_string(), |p| format!("{p:.4}"));
                out.push_str(&format!(
                    "  {:<12}  {:>4} runs  mean {:<12.6}  P(bad) {:<6}  {}\n",
                    short(&c.commit),
                    c.runs,
                    c.mean,
                    p_bad,
                    c.verdict
                ));
            }
        }
        match &self.culprit {
            Some(c) if c.commits.len() == 1 => out.push_str(&format!(
                "culprit: {} with probability {:.4}\n",
                c.commits.first().map_or("", String::as_str),
                c.probability
            )),
            Some(c) => out.push_str(&format!(
                "culprit: one of {} commits, {}..{}, with probability {:.4}\n",
                c.commits.len(),
                short(c.commits.first().map_or("", String::as_str)),
                short(c.commits.last().map_or("", String::as_str)),
                c.probability
            )),
            None => {}
        }
        let phase = match self.phase {
            Phase::Endpoints => "measuring the endpoints",
            Phase::NoChange => "no change in the range: nothing to bisect",
            Phase::Undecided => "the endpoints cannot be told apart: nothing to bisect",
            Phase::Bisecting => "bisecting",
            Phase::Found => "found",
        };
        out.push_str(&format!("state: {phase}\n"));
        if let Some(n) = &self.next {
            out.push_str(&format!(
                "next: {} ({} more run{} each): {}\n",
                n.commits.iter().map(|c| short(c)).collect::<Vec<_>>().join(" and "),
                n.runs,
                if n.runs == 1 { "" } else { "s" },
                n.why
            ));
        }
        for n in &self.notes {
            out.push_str("note: ");
            out.push_str(n);
            out.push('\n');
        }
        out
    }
}
