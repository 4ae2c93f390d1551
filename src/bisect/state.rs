//! A bisection's state, kept between the steps of `git bisect run` as JSON under the
//! repository's git directory (docs/bisect.md §7): the settings, the metric, the range,
//! every run of every commit (the endpoints' taken once) and the answers given.

#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

use super::advisor::{status, CommitRuns, Status};
use super::endpoints::{endpoints, Endpoints};
use super::options::Options;
use super::order::Range;
use super::posterior::Tested;
use super::step::{decide, Decision, Step};
use crate::error::{Error, Result};
use crate::table::Direction;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The `schema` field of a state document.
pub const STATE_SCHEMA: &str = "schedlab-bisect";
/// Its version; a removed or redefined field bumps it.
pub const STATE_VERSION: u32 = 1;

/// The runs of one commit as the document holds them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Runs {
    /// The commit.
    pub commit: String,
    /// The values of its runs, in the order taken.
    pub values: Vec<f64>,
    /// Why runs failed.
    #[serde(default)]
    pub failures: Vec<String>,
}

/// An answer given to `git bisect run`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Answer {
    /// The commit.
    pub commit: String,
    /// `good`, `bad` or `skip`.
    pub answer: String,
    /// Runs it had then.
    pub runs: u64,
    /// P(bad) then.
    pub p_bad: f64,
}

/// A bisection's state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct State {
    /// [`STATE_SCHEMA`].
    pub schema: String,
    /// [`STATE_VERSION`].
    pub version: u32,
    /// The schedlab that wrote it.
    pub schedlab_version: String,
    /// The settings.
    pub options: Options,
    /// The metric bisected (None: the number the command prints).
    pub metric: Option<String>,
    /// Which way the metric is better.
    pub direction: Direction,
    /// What identifies the `git bisect` session the state belongs to (the start of its
    /// log), if any.
    pub session: Option<String>,
    /// The commits, good endpoint first (shared by the copies of a state).
    pub range: Arc<Range>,
    /// The runs of each commit run so far, in the order first run.
    pub runs: Vec<Runs>,
    /// The answers given, in order.
    pub answers: Vec<Answer>,
}

impl State {
    /// A new state with no runs.
    pub fn new(
        range: Range,
        options: Options,
        metric: Option<String>,
        direction: Direction,
        session: Option<String>,
    ) -> Result<State> {
        options.check()?;
        Ok(State {
            schema: STATE_SCHEMA.into(),
            version: STATE_VERSION,
            schedlab_version: env!("CARGO_PKG_VERSION").into(),
            options,
            metric,
            direction,
            session,
            range: Arc::new(range),
            runs: Vec::new(),
            answers: Vec::new(),
        })
    }

    /// The commit of the range `name` names (its full name).
    pub fn commit(&self, name: &str) -> Result<String> {
        let p = self.range.position(name)?;
        Ok(self.range.commit(p).unwrap_or(name).to_string())
    }

    fn entry(&mut self, name: &str) -> Result<&mut Runs> {
        let commit = self.commit(name)?;
        let i = match self.runs.iter().position(|r| r.commit == commit) {
            Some(i) => i,
            None => {
                self.runs.push(Runs { commit, values: Vec::new(), failures: Vec::new() });
                self.runs.len() - 1
            }
        };
        self.runs.get_mut(i).ok_or_else(|| Error::Internal("bisect state: runs entry".into()))
    }

    /// Name the metric and say which way it is better.
    pub fn set_metric(&mut self, metric: Option<String>, direction: Direction) {
        self.metric = metric;
        self.direction = direction;
    }

    /// Add the values of runs of commit `name` (each finite).
    pub fn add_runs(&mut self, name: &str, values: &[f64]) -> Result<()> {
        if let Some((i, v)) = values.iter().enumerate().find(|(_, v)| !v.is_finite()) {
            return Err(Error::domain(format!("run value {} of {name} is not a finite number: {v}", i + 1)));
        }
        self.entry(name)?.values.extend_from_slice(values);
        Ok(())
    }

    /// Record that a run of commit `name` failed, and why.
    pub fn add_failure(&mut self, name: &str, reason: &str) -> Result<()> {
        self.entry(name)?.failures.push(reason.to_string());
        Ok(())
    }

    /// The values of commit `name` so far.
    pub fn values(&self, name: &str) -> Result<&[f64]> {
        let commit = self.commit(name)?;
        Ok(self.runs.iter().find(|r| r.commit == commit).map_or(&[][..], |r| r.values.as_slice()))
    }

    fn positions(&self) -> Result<Vec<(usize, &Runs)>> {
        self.runs.iter().map(|r| Ok((self.range.position(&r.commit)?, r))).collect()
    }

    /// The endpoints' evidence.
    pub fn endpoints(&self) -> Result<Endpoints> {
        let last = self.range.last();
        let at = |p: usize| self.range.commit(p).map_or(Ok(&[][..]), |c| self.values(c));
        endpoints(at(0)?, at(last)?, self.direction, self.range.steps(), &self.options)
    }

    /// The step at commit `name` with the runs so far.
    pub fn step(&self, name: &str) -> Result<Step> {
        let position = self.range.position(name)?;
        let positions = self.positions()?;
        let tested: Vec<Tested<'_>> =
            positions.iter().map(|(p, r)| Tested { position: *p, values: r.values.as_slice() }).collect();
        decide(self.range.last(), self.range.steps(), &tested, position, &self.options)
    }

    /// Record the answer `step` gave at commit `name`.
    pub fn answer(&mut self, name: &str, step: &Step) -> Result<()> {
        let commit = self.commit(name)?;
        let answer = match step.decision {
            Decision::More => return Err(Error::Internal("bisect state: 'more runs' is not an answer".into())),
            d => d.name().to_string(),
        };
        self.answers.push(Answer { commit, answer, runs: step.runs, p_bad: step.p_bad });
        Ok(())
    }

    /// Where the bisection stands.
    pub fn status(&self) -> Result<Status> {
        let runs: Vec<CommitRuns> = self
            .positions()?
            .into_iter()
            .map(|(position, r)| CommitRuns { position, values: r.values.clone(), failures: r.failures.clone() })
            .collect();
        let answered: Vec<(usize, &str)> = self
            .answers
            .iter()
            .map(|a| Ok((self.range.position(&a.commit)?, a.answer.as_str())))
            .collect::<Result<_>>()?;
        status(&self.range, &runs, self.direction, &self.options, &answered)
    }

    /// The JSON document (indented).
    pub fn to_json(&self) -> Result<String> {
        serde_json::to_string_pretty(self).map_err(|e| Error::Internal(format!("bisect state to JSON: {e}")))
    }

    /// Read a state document; `path` names it in errors.
    pub fn from_json(text: &str, path: &str) -> Result<State> {
        let value: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| Error::parse(Some(path), Some(e.line()), format!("not JSON: {e}")))?;
        let schema = value.get("schema").and_then(|v| v.as_str());
        let version = value.get("version").and_then(|v| v.as_u64());
        if schema != Some(STATE_SCHEMA) {
            return Err(Error::parse(
                Some(path),
                None,
                format!("not a {STATE_SCHEMA} state (its schema is {schema:?})"),
            ));
        }
        if version != Some(u64::from(STATE_VERSION)) {
            return Err(Error::parse(
                Some(path),
                None,
                format!("{STATE_SCHEMA} version {version:?}: this schedlab reads version {STATE_VERSION}"),
            ));
        }
        let state: State =
            serde_json::from_value(value).map_err(|e| Error::parse(Some(path), None, format!("bad state: {e}")))?;
        state.options.check().map_err(|e| Error::parse(Some(path), None, format!("options: {e}")))?;
        for r in &state.runs {
            state.range.position(&r.commit).map_err(|e| Error::parse(Some(path), None, format!("runs: {e}")))?;
            if let Some(v) = r.values.iter().find(|v| !v.is_finite()) {
                return Err(Error::parse(
                    Some(path),
                    None,
                    format!("runs of {}: {v} is not a finite number", r.commit),
                ));
            }
        }
        Ok(state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state() -> State {
        let range = Range::new((0..9).map(|i| format!("c{i}aaaaaaaa")).collect()).unwrap();
        State::new(range, Options::default(), None, Direction::Lower, None).unwrap()
    }

    #[test]
    fn runs_steps_and_json_round_trip() {
        let mut s = state();
        s.add_runs("c0aaaaaaaa", &[10.0, 10.1, 9.9, 10.05, 9.95, 10.0, 10.02, 9.98]).unwrap();
        s.add_runs("c8aaaaaaaa", &[11.0, 11.1, 10.9, 11.05, 10.95, 11.0, 11.02, 10.98]).unwrap();
        assert_eq!(s.endpoints().unwrap().decision, super::super::endpoints::EndpointDecision::Ready);
        s.add_runs("c4aaaaa", &[11.01, 10.98, 11.03]).unwrap();
        let step = s.step("c4aaaaaaaa").unwrap();
        assert_eq!(step.decision, Decision::Bad, "{}", step.line("c4"));
        s.answer("c4aaaaaaaa", &step).unwrap();
        s.add_failure("c2aaaaaaaa", "exit code 125").unwrap();
        let back = State::from_json(&s.to_json().unwrap(), "state.json").unwrap();
        assert_eq!(back, s);
        let st = back.status().unwrap();
        assert!(st.text().contains("c4aaaaaaaa"), "{}", st.text());
        assert!(s.add_runs("c4aaaaaaaa", &[f64::NAN]).is_err());
        assert!(s.add_runs("zzzzzzzz", &[1.0]).is_err());
    }

    #[test]
    fn documents_of_another_kind_are_refused_naming_the_file() {
        let e = State::from_json("{\"schema\": \"x\", \"version\": 1}", "s.json").unwrap_err();
        assert!(e.to_string().starts_with("s.json: not a schedlab-bisect state"), "{e}");
        let e = State::from_json("{\"schema\": \"schedlab-bisect\", \"version\": 9}", "s.json").unwrap_err();
        assert!(e.to_string().contains("version Some(9)"), "{e}");
        let e = State::from_json("{", "s.json").unwrap_err();
        assert!(e.to_string().starts_with("s.json:1: not JSON"), "{e}");
    }
}
