//! Bindings of [`schedlab::bisect`] and of the sequential comparisons
//! ([`schedlab::stats::sequential`]): a bisection's state, its steps, endpoints and status
//! as frozen classes holding the core's values; JSON only as the state's file format.

use super::arrays::F64;
use super::errors::{run, text_arg, to_py};
use numpy::{IntoPyArray, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyType};
use schedlab::archive::Limits;
use schedlab::bisect::results::{read, values_at};
use schedlab::bisect::{Decision, EndpointDecision, Endpoints, Options, Range, State, Status, Step};
use schedlab::stats::sequential::{sequential, sequential_many, Sequential};
use schedlab::table::{Direction, VerdictRule};
use std::path::{Path, PathBuf};

/// A bisection's state (`bisect::State`): the settings, the range, every run and the
/// answers given. Immutable: `with_runs` and the other `with_*` return a new state.
#[pyclass(frozen, name = "BisectState", module = "schedlab._core")]
#[derive(Clone)]
pub struct PyBisectState {
    inner: State,
}

#[pymethods]
impl PyBisectState {
    /// A new state over `commits` (good endpoint first, bad last) with no runs.
    #[new]
    #[pyo3(signature = (*, commits, metric=None, direction="unknown", session=None, alpha=None, margin=None, min_runs=None, max_runs=None, endpoint_runs=None, max_endpoint_runs=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        commits: Vec<String>,
        metric: Option<String>,
        direction: &str,
        session: Option<String>,
        alpha: Option<f64>,
        margin: Option<f64>,
        min_runs: Option<u64>,
        max_runs: Option<u64>,
        endpoint_runs: Option<u64>,
        max_endpoint_runs: Option<u64>,
    ) -> PyResult<Self> {
        let direction = direction.to_owned();
        let inner = run(py, || {
            let o = Options::given(alpha, margin, min_runs, max_runs, endpoint_runs, max_endpoint_runs)?;
            State::new(Range::new(commits)?, o, metric, Direction::parse(&direction)?, session)
        })?;
        Ok(PyBisectState { inner })
    }

    /// Read a state document (`path` names it in errors).
    #[classmethod]
    #[pyo3(signature = (text, path="<bisect state>"))]
    fn from_json(cls: &Bound<'_, PyType>, text: &Bound<'_, PyString>, path: &str) -> PyResult<Self> {
        let text = text_arg(text, path)?;
        let path = path.to_owned();
        run(cls.py(), || State::from_json(&text, &path)).map(|inner| PyBisectState { inner })
    }

    /// The state document (indented JSON).
    fn to_json(&self, py: Python<'_>) -> PyResult<String> {
        run(py, || self.inner.to_json())
    }

    /// A copy naming the metric and which way it is better.
    #[pyo3(signature = (*, metric, direction))]
    fn with_metric(&self, py: Python<'_>, metric: Option<String>, direction: &str) -> PyResult<Self> {
        let mut s = self.inner.clone();
        let d = run(py, || Direction::parse(direction))?;
        s.set_metric(metric, d);
        Ok(PyBisectState { inner: s })
    }

    /// A copy with the values of runs of `commit` added.
    #[pyo3(signature = (*, commit, values))]
    fn with_runs(&self, py: Python<'_>, commit: &str, values: Vec<f64>) -> PyResult<Self> {
        let mut s = self.inner.clone();
        run(py, || s.add_runs(commit, &values))?;
        Ok(PyBisectState { inner: s })
    }

    /// A copy recording that a run of `commit` failed, and why.
    #[pyo3(signature = (*, commit, reason))]
    fn with_failure(&self, py: Python<'_>, commit: &str, reason: &str) -> PyResult<Self> {
        let mut s = self.inner.clone();
        run(py, || s.add_failure(commit, reason))?;
        Ok(PyBisectState { inner: s })
    }

    /// A copy recording the answer `step` gave at `commit`.
    #[pyo3(signature = (*, commit, step))]
    fn with_answer(&self, py: Python<'_>, commit: &str, step: &PyBisectStep) -> PyResult<Self> {
        let mut s = self.inner.clone();
        run(py, || s.answer(commit, &step.inner))?;
        Ok(PyBisectState { inner: s })
    }

    /// The full name of the commit of the range `name` names (a unique prefix works).
    fn commit(&self, py: Python<'_>, name: &str) -> PyResult<String> {
        run(py, || self.inner.commit(name))
    }

    /// The runs of `commit` so far.
    fn values<'py>(&self, py: Python<'py>, commit: &str) -> PyResult<Bound<'py, numpy::PyArray1<f64>>> {
        let v = run(py, || self.inner.values(commit).map(<[f64]>::to_vec))?;
        Ok(v.into_pyarray(py))
    }

    /// The endpoints' evidence.
    fn endpoints(&self, py: Python<'_>) -> PyResult<PyBisectEndpoints> {
        run(py, || self.inner.endpoints()).map(|inner| PyBisectEndpoints { inner })
    }

    /// The step at `commit` with the runs so far.
    #[pyo3(signature = (*, commit))]
    fn step(&self, py: Python<'_>, commit: &str) -> PyResult<PyBisectStep> {
        let c = run(py, || self.inner.commit(commit))?;
        run(py, || self.inner.step(&c)).map(|inner| PyBisectStep { inner, commit: c })
    }

    /// Where the bisection stands and what to run next.
    fn status(&self, py: Python<'_>) -> PyResult<PyBisectStatus> {
        run(py, || self.inner.status()).map(|inner| PyBisectStatus { inner })
    }

    /// The commits of the range, good endpoint first.
    #[getter]
    fn commits(&self) -> Vec<String> {
        self.inner.range.commits().to_vec()
    }
    /// The settings (a dict).
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner.options)
    }
    /// The metric bisected (None: the number the command prints).
    #[getter]
    fn metric(&self) -> Option<String> {
        self.inner.metric.clone()
    }
    /// Which way the metric is better.
    #[getter]
    fn direction(&self) -> &'static str {
        self.inner.direction.name()
    }
    /// The `git bisect` session the state belongs to.
    #[getter]
    fn session(&self) -> Option<String> {
        self.inner.session.clone()
    }
    /// Every commit run so far: `{"commit", "values", "failures"}` dicts.
    #[getter]
    fn runs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner.runs)
    }
    /// The answers given: `{"commit", "answer", "runs", "p_bad"}` dicts.
    #[getter]
    fn answers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner.answers)
    }

    fn __repr__(&self) -> String {
        let n: usize = self.inner.runs.iter().map(|r| r.values.len()).sum();
        format!(
            "BisectState({} commits, {} runs of {} commits, {} answers)",
            self.inner.range.len(),
            n,
            self.inner.runs.len(),
            self.inner.answers.len()
        )
    }
}

/// The evidence and decision of a bisection step (`bisect::Step`).
#[pyclass(frozen, name = "BisectStep", module = "schedlab._core")]
pub struct PyBisectStep {
    inner: Step,
    commit: String,
}

#[pymethods]
impl PyBisectStep {
    /// The commit.
    #[getter]
    fn commit(&self) -> String {
        self.commit.clone()
    }
    /// Its position in the range (0 = the good endpoint).
    #[getter]
    fn position(&self) -> usize {
        self.inner.position
    }
    /// Runs taken.
    #[getter]
    fn runs(&self) -> u64 {
        self.inner.runs
    }
    /// Their mean.
    #[getter]
    fn mean(&self) -> f64 {
        self.inner.mean
    }
    /// Where the mean lies from the good endpoint's (0) to the bad one's (1).
    #[getter]
    fn fraction(&self) -> f64 {
        self.inner.fraction
    }
    /// P(the commit is bad) given every run.
    #[getter]
    fn p_bad(&self) -> f64 {
        self.inner.p_bad
    }
    /// The step's error rate a: bad at P(bad) >= 1 - a, good at <= a.
    #[getter]
    fn alpha(&self) -> f64 {
        self.inner.alpha
    }
    /// The runs after which the step answers skip (`--max-runs`, else from the endpoints).
    #[getter]
    fn max_runs(&self) -> u64 {
        self.inner.max_runs
    }
    /// `good`, `bad`, `more` (another run) or `skip`.
    #[getter]
    fn decision(&self) -> &'static str {
        self.inner.decision.name()
    }
    /// Why the step answers skip.
    #[getter]
    fn reason(&self) -> Option<String> {
        self.inner.reason.clone()
    }
    /// `git bisect run`'s exit code for the decision: 0 good, 1 bad, 125 skip; None for `more`.
    #[getter]
    fn exit_code(&self) -> Option<i32> {
        self.inner.decision.exit_code()
    }
    /// One line of evidence: runs, estimate, test, decision.
    fn line(&self) -> String {
        self.inner.line(&self.commit)
    }
    fn __repr__(&self) -> String {
        format!("BisectStep({})", self.line())
    }
}

/// What the endpoints' runs show (`bisect::Endpoints`).
#[pyclass(frozen, name = "BisectEndpoints", module = "schedlab._core")]
pub struct PyBisectEndpoints {
    inner: Endpoints,
}

#[pymethods]
impl PyBisectEndpoints {
    /// `ready`, `no-change`, `more` (runs at both endpoints) or `undecided`.
    #[getter]
    fn decision(&self) -> &'static str {
        self.inner.decision.name()
    }
    /// Whether the bisection can start.
    #[getter]
    fn ready(&self) -> bool {
        self.inner.decision == EndpointDecision::Ready
    }
    /// Runs of the good endpoint.
    #[getter]
    fn runs_good(&self) -> u64 {
        self.inner.runs_good
    }
    /// Runs of the bad endpoint.
    #[getter]
    fn runs_bad(&self) -> u64 {
        self.inner.runs_bad
    }
    /// Mean of the good endpoint.
    #[getter]
    fn mean_good(&self) -> f64 {
        self.inner.mean_good
    }
    /// Mean of the bad endpoint.
    #[getter]
    fn mean_bad(&self) -> f64 {
        self.inner.mean_bad
    }
    /// Change of the bad endpoint against the good one, percent, positive = better.
    #[getter]
    fn change(&self) -> f64 {
        self.inner.change_pct
    }
    /// The sequential verdict of bad against good (`worse`, `equivalent`, ...).
    #[getter]
    fn verdict(&self) -> &'static str {
        self.inner.sequential.verdict.name()
    }
    /// The confidence sequence of mean(bad) − mean(good): (low, high).
    #[getter]
    fn interval(&self) -> (f64, f64) {
        (self.inner.sequential.low, self.inner.sequential.high)
    }
    /// One line saying what the endpoints show and what comes next.
    fn line(&self) -> String {
        self.inner.line()
    }
    fn __repr__(&self) -> String {
        format!("BisectEndpoints({})", self.line())
    }
}

/// Where a bisection stands (`bisect::Status`).
#[pyclass(frozen, name = "BisectStatus", module = "schedlab._core")]
pub struct PyBisectStatus {
    inner: Status,
}

#[pymethods]
impl PyBisectStatus {
    /// `endpoints`, `no-change`, `undecided`, `bisecting` or `found`.
    #[getter]
    fn phase<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner.phase)
    }
    /// The tested (and failed) commits in history order: dicts with `commit`,
    /// `position`, `runs`, `mean`, `p_bad`, `verdict`, `failures`.
    #[getter]
    fn commits<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner.commits)
    }
    /// The likely culprit: `{"commits", "positions", "probability"}`, or None.
    #[getter]
    fn culprit<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner.culprit)
    }
    /// What to run next: `{"commits", "runs", "why"}`, or None.
    #[getter]
    fn next<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner.next)
    }
    /// The endpoints' evidence.
    #[getter]
    fn endpoints(&self) -> PyBisectEndpoints {
        PyBisectEndpoints { inner: self.inner.endpoints.clone() }
    }
    /// Failures, undecidable commits, more than one change, doubtful answers.
    #[getter]
    fn notes(&self) -> Vec<String> {
        self.inner.notes.clone()
    }
    /// Steps of the search.
    #[getter]
    fn steps(&self) -> u32 {
        self.inner.steps
    }
    /// The error rate each step is decided at.
    #[getter]
    fn step_alpha(&self) -> f64 {
        self.inner.step_alpha
    }
    /// The whole status as a dict (what `schedlab bisect status --format json` prints).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner)
    }
    /// The report `schedlab bisect status` prints.
    fn text(&self) -> String {
        self.inner.text()
    }
    fn __repr__(&self) -> String {
        format!("BisectStatus({})", self.inner.text().lines().rev().find(|l| l.starts_with("state:")).unwrap_or(""))
    }
}

/// The runs of one metric by commit from result trees and files at `paths`: a state
/// over `commits` holding them, and the warnings of the scans.
#[pyfunction]
#[pyo3(signature = (paths, *, commits, metric=None, direction=None, alpha=None, margin=None, min_runs=None, max_runs=None, endpoint_runs=None, max_endpoint_runs=None))]
#[allow(clippy::too_many_arguments)]
fn bisect_read_results(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    commits: Vec<String>,
    metric: Option<String>,
    direction: Option<String>,
    alpha: Option<f64>,
    margin: Option<f64>,
    min_runs: Option<u64>,
    max_runs: Option<u64>,
    endpoint_runs: Option<u64>,
    max_endpoint_runs: Option<u64>,
) -> PyResult<(PyBisectState, Vec<String>)> {
    let (state, warnings) = run(py, || {
        let o = Options::given(alpha, margin, min_runs, max_runs, endpoint_runs, max_endpoint_runs)?;
        let range = Range::new(commits)?;
        let p: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
        let r = read(&p, &range, metric.as_deref(), &Limits::default())?;
        let d = match &direction {
            Some(d) => Direction::parse(d)?,
            None => r.direction,
        };
        let mut s = State::new(range, o, Some(r.metric.clone()), d, None)?;
        for c in &r.runs {
            let name = s.range.commit(c.position).unwrap_or("").to_string();
            s.add_runs(&name, &c.values)?;
            for f in &c.failures {
                s.add_failure(&name, f)?;
            }
        }
        Ok((s, r.warnings))
    })?;
    Ok((PyBisectState { inner: state }, warnings))
}

/// The values one benchmark run left at `path` (a result file, an MMTests tree, an lkp
/// root, an archive): (values, metric, direction).
#[pyfunction]
#[pyo3(signature = (path, *, metric=None))]
fn bisect_values_at(
    py: Python<'_>,
    path: PathBuf,
    metric: Option<String>,
) -> PyResult<(Vec<f64>, String, &'static str)> {
    let (v, m, d) = run(py, || values_at(&path, metric.as_deref(), &Limits::default()))?;
    Ok((v, m, d.name()))
}

/// The default settings of a bisection (a dict).
#[pyfunction]
fn bisect_defaults(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    to_py(py, &Options::default())
}

/// The sequential comparison of two samples in the order their runs were taken
/// (`stats::sequential`).
#[pyclass(frozen, name = "Sequential", module = "schedlab._core")]
pub struct PySequential {
    inner: Sequential,
}

#[pymethods]
impl PySequential {
    /// The verdict at the last look: better, worse, changed, equivalent, inconclusive
    /// or not_enough_data.
    #[getter]
    fn verdict(&self) -> &'static str {
        self.inner.verdict.name()
    }
    /// Whether a look decided (a verdict other than inconclusive / not_enough_data).
    #[getter]
    fn decided(&self) -> bool {
        self.inner.decided_at.is_some()
    }
    /// Runs a side at the first look that decided.
    #[getter]
    fn decided_at(&self) -> Option<u64> {
        self.inner.decided_at
    }
    /// Looks taken (one per added run, from 2 runs a side).
    #[getter]
    fn looks(&self) -> u64 {
        self.inner.looks
    }
    /// The confidence sequence of mean(new) − mean(base) (running intersection): (low, high).
    #[getter]
    fn interval(&self) -> (f64, f64) {
        (self.inner.low, self.inner.high)
    }
    /// mean(new) − mean(base) at the last look.
    #[getter]
    fn diff(&self) -> f64 {
        self.inner.last.map_or(f64::NAN, |l| l.diff)
    }
    /// The e-value against no difference, stopped where it first reached 1/alpha.
    #[getter]
    fn e_value(&self) -> f64 {
        self.inner.e_value
    }
    /// Runs to add to each side before it would decide, at the last look's estimates.
    #[getter]
    fn more_runs(&self) -> Option<u64> {
        self.inner.more_runs
    }
    fn __repr__(&self) -> String {
        format!(
            "Sequential(verdict='{}', decided_at={:?}, interval=({}, {}), looks={})",
            self.inner.verdict.name(),
            self.inner.decided_at,
            self.inner.low,
            self.inner.high,
            self.inner.looks
        )
    }
}

fn rule(alpha: Option<f64>, margin: Option<f64>, min_change: f64) -> VerdictRule {
    let d = VerdictRule::default();
    VerdictRule { alpha: alpha.unwrap_or(d.alpha), margin: margin.unwrap_or(d.margin), min_change, ..d }
}

/// The sequential comparison of `new` against `base` (runs in the order taken).
#[pyfunction]
#[pyo3(signature = (base, new, *, direction="unknown", alpha=None, margin=None, min_change=0.0))]
fn sequential_compare(
    py: Python<'_>,
    base: PyReadonlyArray1<'_, f64>,
    new: PyReadonlyArray1<'_, f64>,
    direction: &str,
    alpha: Option<f64>,
    margin: Option<f64>,
    min_change: f64,
) -> PyResult<PySequential> {
    let (b, n) = (F64::new(base), F64::new(new));
    let (bs, ns) = (b.slice(), n.slice());
    let direction = direction.to_owned();
    let r = rule(alpha, margin, min_change);
    run(py, || sequential(&bs, &ns, Direction::parse(&direction)?, &r)).map(|inner| PySequential { inner })
}

/// One look at all the runs of `base` and `new`: the mixture e-value against a
/// difference `delta0` of mean(new) − mean(base), and that look's interval at `alpha`
/// (low, high): the closed forms of docs/sequential.md §1.
#[pyfunction]
#[pyo3(signature = (base, new, *, alpha=crate::defaults::alpha(), delta0=0.0))]
fn sequential_look(
    py: Python<'_>,
    base: PyReadonlyArray1<'_, f64>,
    new: PyReadonlyArray1<'_, f64>,
    alpha: f64,
    delta0: f64,
) -> PyResult<(f64, f64, f64)> {
    let (b, n) = (F64::new(base), F64::new(new));
    let (bs, ns) = (b.slice(), n.slice());
    run(py, || {
        if !(alpha > 0.0 && alpha < 1.0) {
            return Err(schedlab::Error::domain(format!("alpha must be within (0, 1), got {alpha}")));
        }
        let e = schedlab::stats::sequential::e_value(&bs, &ns, delta0)?;
        let l = schedlab::stats::sequential::Look::of(
            &schedlab::stats::moments::Moments::of(&bs),
            &schedlab::stats::moments::Moments::of(&ns),
            alpha,
        );
        Ok((e, l.diff - l.half_width, l.diff + l.half_width))
    })
}

/// Sequential verdicts of base/new series packed as values + lengths, one direction
/// each, e-BH across all of them: a dict of columns.
#[pyfunction]
#[pyo3(signature = (base_values, base_lengths, new_values, new_lengths, directions, *, alpha=None, margin=None, min_change=0.0, threads=None))]
#[allow(clippy::too_many_arguments)]
fn sequential_assess<'py>(
    py: Python<'py>,
    base_values: PyReadonlyArray1<'_, f64>,
    base_lengths: PyReadonlyArray1<'_, u64>,
    new_values: PyReadonlyArray1<'_, f64>,
    new_lengths: PyReadonlyArray1<'_, u64>,
    directions: Vec<String>,
    alpha: Option<f64>,
    margin: Option<f64>,
    min_change: f64,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let (bv, nv) = (F64::new(base_values), F64::new(new_values));
    let (bvs, nvs) = (bv.slice(), nv.slice());
    let (bl, nl) = (super::arrays::lengths(&base_lengths), super::arrays::lengths(&new_lengths));
    let r = rule(alpha, margin, min_change);
    let rows = run(py, || {
        let dirs = directions.iter().map(|s| Direction::parse(s)).collect::<schedlab::Result<Vec<_>>>()?;
        let (bases, news) =
            (schedlab::stats::batch::split_ragged(&bvs, &bl)?, schedlab::stats::batch::split_ragged(&nvs, &nl)?);
        if bases.len() != news.len() {
            return Err(schedlab::Error::domain(format!("{} base series but {} new series", bases.len(), news.len())));
        }
        let pairs: Vec<(&[f64], &[f64])> = bases.into_iter().zip(news).collect();
        sequential_many(&pairs, &dirs, &r, threads)
    })?;
    let d = PyDict::new(py);
    d.set_item("verdict", rows.iter().map(|s| s.verdict.name()).collect::<Vec<_>>())?;
    d.set_item("decided_at", rows.iter().map(|s| s.decided_at).collect::<Vec<_>>())?;
    d.set_item("looks", rows.iter().map(|s| s.looks).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("low", rows.iter().map(|s| s.low).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("high", rows.iter().map(|s| s.high).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("e_value", rows.iter().map(|s| s.e_value).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("more_runs", rows.iter().map(|s| s.more_runs).collect::<Vec<_>>())?;
    d.set_item("alpha", r.alpha)?;
    d.set_item("margin", r.margin)?;
    Ok(d)
}

/// Add the bisection and sequential classes and functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyBisectState>()?;
    let code = |d: Decision| d.exit_code().unwrap_or(schedlab::bisect::step::ABORT_EXIT);
    m.add(
        "BISECT_EXIT_CODES",
        (code(Decision::Good), code(Decision::Bad), code(Decision::Skip), schedlab::bisect::step::ABORT_EXIT),
    )?;
    m.add_class::<PyBisectStep>()?;
    m.add_class::<PyBisectEndpoints>()?;
    m.add_class::<PyBisectStatus>()?;
    m.add_class::<PySequential>()?;
    m.add_function(wrap_pyfunction!(bisect_read_results, m)?)?;
    m.add_function(wrap_pyfunction!(bisect_values_at, m)?)?;
    m.add_function(wrap_pyfunction!(bisect_defaults, m)?)?;
    m.add_function(wrap_pyfunction!(sequential_compare, m)?)?;
    m.add_function(wrap_pyfunction!(sequential_assess, m)?)?;
    m.add_function(wrap_pyfunction!(sequential_look, m)?)?;
    Ok(())
}
