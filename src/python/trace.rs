//! Bindings of [`schedlab::trace`]: a trace's metrics ([`PyTraceMetrics`], the core's
//! summary held as a frozen class), the options of a pass ([`PyTraceOptions`]: the state
//! table loaded once), and the compare of groups of traces (a [`PyComparison`]).

use super::comparison::PyComparison;
use super::errors::{run, text_arg, to_py, to_pyerr};
use numpy::IntoPyArray;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple, PyType};
use schedlab::archive::Limits;
use schedlab::batch::FailOn;
use schedlab::choice::Choice;
use schedlab::stats::Test;
use schedlab::table::VerdictRule;
use schedlab::trace::compare::{self, CompareOptions, Group};
use schedlab::trace::inputs::{expand, TraceInput};
use schedlab::trace::machine::SliceRow;
use schedlab::trace::metrics::metrics;
use schedlab::trace::pass::{summarize_all, summarize_with_rows, Options};
use schedlab::trace::{compare_paths, GroupPaths, TraceSummary};
use std::path::PathBuf;
use std::sync::Arc;

/// The options of a metrics pass (`trace::Options`), as given.
#[pyclass(frozen, name = "TraceOptions", module = "schedlab._core")]
pub struct PyTraceOptions {
    inner: Arc<Options>,
    states: Option<String>,
    comm: Vec<String>,
    pid: Vec<String>,
    governors: Vec<String>,
    hz: u32,
    strict: bool,
    util_task: Vec<String>,
}

#[pymethods]
impl PyTraceOptions {
    /// Options of a pass: the idle-state table (a path, a sysfs directory, a dump, a CSV
    /// or a preset name), task groups by name (`*` patterns) and by pid list
    /// (`"12,13"`), governors to replay (`menu`, `teo@6.12`), CONFIG_HZ, whether a
    /// malformed line is an error, and the tasks (names or pids) whose util_avg and
    /// util_est are replayed (docs/trace-compare.md §3.4).
    #[new]
    #[pyo3(signature = (*, states=None, comm=Vec::new(), pid=Vec::new(), governors=Vec::new(), hz=None, strict=false, util_task=Vec::new()))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        states: Option<String>,
        comm: Vec<String>,
        pid: Vec<String>,
        governors: Vec<String>,
        hz: Option<u32>,
        strict: bool,
        util_task: Vec<String>,
    ) -> PyResult<Self> {
        let hz = hz.unwrap_or(schedlab::live::kernel_config::DEFAULT_HZ);
        let (s, c, p, g, u) = (states.clone(), comm.clone(), pid.clone(), governors.clone(), util_task.clone());
        let inner = run(py, move || Options::from_named(s.as_deref(), &c, &p, &g, hz, strict)?.with_util_tasks(&u))?;
        Ok(PyTraceOptions { inner: Arc::new(inner), states, comm, pid, governors, hz, strict, util_task })
    }

    /// The state table as given (None: none).
    #[getter]
    fn states(&self) -> Option<String> {
        self.states.clone()
    }
    /// The task-name groups.
    #[getter]
    fn comm(&self) -> Vec<String> {
        self.comm.clone()
    }
    /// The pid-list groups.
    #[getter]
    fn pid(&self) -> Vec<String> {
        self.pid.clone()
    }
    /// The governors replayed for every trace.
    #[getter]
    fn governors(&self) -> Vec<String> {
        self.governors.clone()
    }
    /// CONFIG_HZ.
    #[getter]
    fn hz(&self) -> u32 {
        self.hz
    }
    /// A malformed line is an error.
    #[getter]
    fn strict(&self) -> bool {
        self.strict
    }
    /// The tasks whose utilization is replayed.
    #[getter]
    fn util_task(&self) -> Vec<String> {
        self.util_task.clone()
    }

    fn __getnewargs_ex__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let kw = PyDict::new(py);
        kw.set_item("states", self.states.clone())?;
        kw.set_item("comm", self.comm.clone())?;
        kw.set_item("pid", self.pid.clone())?;
        kw.set_item("governors", self.governors.clone())?;
        kw.set_item("hz", self.hz)?;
        kw.set_item("strict", self.strict)?;
        kw.set_item("util_task", self.util_task.clone())?;
        PyTuple::new(py, [PyTuple::empty(py).into_any(), kw.into_any()])
    }

    fn __repr__(&self) -> String {
        format!(
            "TraceOptions(states={:?}, comm={:?}, pid={:?}, governors={:?}, hz={}, strict={}, util_task={:?})",
            self.states, self.comm, self.pid, self.governors, self.hz, self.strict, self.util_task
        )
    }
}

/// What one trace measured (`trace::TraceSummary`).
#[pyclass(frozen, name = "TraceMetrics", module = "schedlab._core")]
pub struct PyTraceMetrics {
    inner: Arc<TraceSummary>,
}

#[pymethods]
impl PyTraceMetrics {
    /// Read the JSON form (`to_json`).
    #[classmethod]
    fn from_json(cls: &Bound<'_, PyType>, text: &Bound<'_, PyString>) -> PyResult<Self> {
        let text = text_arg(text, "<trace metrics json>")?;
        let s = run(cls.py(), move || {
            serde_json::from_str::<TraceSummary>(&text).map_err(|e| {
                schedlab::Error::parse(Some("<trace metrics json>"), None, format!("not trace metrics: {e}"))
            })
        })?;
        Ok(PyTraceMetrics { inner: Arc::new(s) })
    }

    /// The JSON form (indented by `indent` spaces when given).
    #[pyo3(signature = (indent=None))]
    fn to_json(&self, py: Python<'_>, indent: Option<usize>) -> PyResult<String> {
        let s = Arc::clone(&self.inner);
        run(py, move || schedlab::json_text::to_string(&*s, indent))
    }

    /// The trace's path.
    #[getter]
    fn path(&self) -> String {
        self.inner.path.clone()
    }
    /// How it was read.
    #[getter]
    fn format(&self) -> String {
        self.inner.format.clone()
    }
    /// Its first event's time, ns.
    #[getter]
    fn start_ns(&self) -> u64 {
        self.inner.start_ns
    }
    /// Its last event's time, ns.
    #[getter]
    fn end_ns(&self) -> u64 {
        self.inner.end_ns
    }
    /// What the pass skipped, assumed and could not see.
    #[getter]
    fn notes(&self) -> Vec<String> {
        self.inner.notes.clone()
    }
    /// Events lost in all (where the buffers counted them).
    #[getter]
    fn lost_events(&self) -> u64 {
        self.inner.lost_events
    }
    /// Every counter of the summary as a dict (a new one each time).
    #[getter]
    fn summary<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &*self.inner)
    }

    /// The metrics as columns: scope, name, unit, direction, value.
    fn columns<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let rows = metrics(&self.inner, 0);
        let d = PyDict::new(py);
        d.set_item("scope", rows.iter().map(|m| m.scope.clone()).collect::<Vec<_>>())?;
        d.set_item("name", rows.iter().map(|m| m.name.clone()).collect::<Vec<_>>())?;
        d.set_item("unit", rows.iter().map(|m| m.unit).collect::<Vec<_>>())?;
        d.set_item("direction", rows.iter().map(|m| m.direction.name()).collect::<Vec<_>>())?;
        d.set_item("value", rows.iter().map(|m| m.value).collect::<Vec<_>>().into_pyarray(py))?;
        Ok(d)
    }

    /// The metrics as a pandas DataFrame (the columns of `columns()`).
    fn to_pandas<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let pd = py.import("pandas")?;
        pd.getattr("DataFrame")?.call1((self.columns(py)?,))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyTraceMetrics>().is_ok_and(|o| *o.get().inner == *self.inner)
    }

    fn __repr__(&self) -> String {
        let s = &self.inner;
        format!(
            "<TraceMetrics {}: {}, {:.3} s, {} events, {} CPUs>",
            s.path,
            s.format,
            s.end_ns.saturating_sub(s.start_ns) as f64 / 1e9,
            s.events,
            s.cpus.len()
        )
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let from_json = slf.get_type().getattr("from_json")?;
        let text = slf.get().to_json(py, None)?;
        PyTuple::new(py, [from_json, PyTuple::new(py, [text])?.into_any()])
    }
}

impl PyTraceMetrics {
    fn of(s: TraceSummary) -> Self {
        PyTraceMetrics { inner: Arc::new(s) }
    }
}

/// The metrics of every trace at `path` (a trace, or a directory or archive of them),
/// on at most `threads` threads.
#[pyfunction]
#[pyo3(signature = (path, options, *, threads=None))]
fn trace_metrics(
    py: Python<'_>,
    path: PathBuf,
    options: &Bound<'_, PyTraceOptions>,
    threads: Option<usize>,
) -> PyResult<Vec<PyTraceMetrics>> {
    let opts = Arc::clone(&options.get().inner);
    let all = run(py, move || summarize_all(&expand(&path, &Limits::default())?, &opts, threads))?;
    Ok(all.into_iter().map(PyTraceMetrics::of).collect())
}

/// Every `sched_switch` of the trace at `path` as perf sched timehist computes it:
/// columns `ts_ns`, `cpu`, `pid`, `comm`, `wait_ns`, `delay_ns`, `run_ns`, `runnable`.
#[pyfunction]
#[pyo3(signature = (path, options))]
fn trace_timehist<'py>(
    py: Python<'py>,
    path: PathBuf,
    options: &Bound<'_, PyTraceOptions>,
) -> PyResult<Bound<'py, PyDict>> {
    let opts = Arc::clone(&options.get().inner);
    let rows = run(py, move || {
        let mut rows: Vec<SliceRow> = Vec::new();
        let mut push = |r: SliceRow| rows.push(r);
        summarize_with_rows(&TraceInput::File(path), &opts, Some(&mut push))?;
        Ok(rows)
    })?;
    let d = PyDict::new(py);
    d.set_item("ts_ns", rows.iter().map(|r| r.ts).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("cpu", rows.iter().map(|r| r.cpu).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("pid", rows.iter().map(|r| r.pid).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("comm", rows.iter().map(|r| r.comm.to_text()).collect::<Vec<_>>())?;
    d.set_item("wait_ns", rows.iter().map(|r| r.wait_ns).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("delay_ns", rows.iter().map(|r| r.delay_ns).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("run_ns", rows.iter().map(|r| r.run_ns).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("runnable", rows.iter().map(|r| r.prev_state.runnable).collect::<Vec<_>>().into_pyarray(py))?;
    Ok(d)
}

/// perf sched latency's per-task table of the trace at `path`, as perf 6.1 computes it:
/// columns `pid`, `comm`, `runtime_ns`, `switches`, `total_delay_ns`, `max_delay_ns`,
/// `max_start_ns`, `max_end_ns`.
#[pyfunction]
#[pyo3(signature = (path, *, strict=false))]
fn trace_perf_latency<'py>(py: Python<'py>, path: PathBuf, strict: bool) -> PyResult<Bound<'py, PyDict>> {
    let opts = schedlab::import_notes::ImportOptions { strict, sort: false };
    let (rows, _) = run(py, move || schedlab::trace::perf_latency::table(&TraceInput::File(path), opts))?;
    let d = PyDict::new(py);
    d.set_item("pid", rows.iter().map(|r| r.pid).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("comm", rows.iter().map(|r| r.comm.to_text()).collect::<Vec<_>>())?;
    d.set_item("runtime_ns", rows.iter().map(|r| r.runtime_ns).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("switches", rows.iter().map(|r| r.switches).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("total_delay_ns", rows.iter().map(|r| r.total_delay_ns).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("max_delay_ns", rows.iter().map(|r| r.max_delay_ns).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("max_start_ns", rows.iter().map(|r| r.max_start_ns).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("max_end_ns", rows.iter().map(|r| r.max_end_ns).collect::<Vec<_>>().into_pyarray(py))?;
    Ok(d)
}

/// The time in each task state of the trace at `path`, as LISA counts it: columns
/// `pid`, `comm`, `state`, `time_ns` (NaN where no update of it had a length), `count`.
#[pyfunction]
#[pyo3(signature = (path, *, wakeup_new=true, strict=false))]
fn trace_task_states<'py>(
    py: Python<'py>,
    path: PathBuf,
    wakeup_new: bool,
    strict: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let opts = schedlab::import_notes::ImportOptions { strict, sort: false };
    let (rows, _) = run(py, move || schedlab::trace::task_states::table(&TraceInput::File(path), wakeup_new, opts))?;
    let d = PyDict::new(py);
    d.set_item("pid", rows.iter().map(|r| r.pid).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("comm", rows.iter().map(|r| r.comm.clone()).collect::<Vec<_>>())?;
    d.set_item("state", rows.iter().map(|r| r.state).collect::<Vec<_>>().into_pyarray(py))?;
    let t: Vec<f64> = rows.iter().map(|r| r.time_ns.map_or(f64::NAN, |t| t as f64)).collect();
    d.set_item("time_ns", t.into_pyarray(py))?;
    d.set_item("count", rows.iter().map(|r| r.count).collect::<Vec<_>>().into_pyarray(py))?;
    Ok(d)
}

/// The verdict options of a compare, the defaults for those not given.
fn compare_options(
    test: &str,
    alpha: Option<f64>,
    margin: Option<f64>,
    power: Option<f64>,
    threads: Option<usize>,
) -> schedlab::Result<CompareOptions> {
    let d = VerdictRule::default();
    let rule = VerdictRule {
        alpha: alpha.unwrap_or(d.alpha),
        margin: margin.unwrap_or(d.margin),
        power: power.unwrap_or(d.power),
        ..d
    };
    rule.validate()?;
    Ok(CompareOptions { test: Test::parse(test)?, rule, threads })
}

/// Groups of traces compared (`trace::compare_paths`): `groups` as (name, paths,
/// governor or None), the first the baseline.
#[pyfunction]
#[pyo3(signature = (groups, options, *, test=crate::defaults::test(), alpha=None, margin=None, power=None, threads=None))]
#[allow(clippy::too_many_arguments)]
fn trace_compare(
    py: Python<'_>,
    groups: Vec<(String, Vec<PathBuf>, Option<String>)>,
    options: &Bound<'_, PyTraceOptions>,
    test: &str,
    alpha: Option<f64>,
    margin: Option<f64>,
    power: Option<f64>,
    threads: Option<usize>,
) -> PyResult<PyComparison> {
    let opts = Arc::clone(&options.get().inner);
    let test = test.to_owned();
    let c = run(py, move || {
        let copts = compare_options(&test, alpha, margin, power, threads)?;
        let groups: Vec<GroupPaths> =
            groups.into_iter().map(|(name, paths, governor)| GroupPaths { name, paths, governor }).collect();
        compare_paths(&groups, &opts, &copts, &Limits::default())
    })?;
    Ok(PyComparison::from_core(c))
}

/// Groups of traces compared from their metrics (the reduce half of a distributed
/// compare): `groups` as (name, metrics, governor label or spec, or None).
#[pyfunction]
#[pyo3(signature = (groups, *, test=crate::defaults::test(), alpha=None, margin=None, power=None, threads=None))]
fn trace_compare_metrics(
    py: Python<'_>,
    groups: Vec<(String, Vec<PyRef<'_, PyTraceMetrics>>, Option<String>)>,
    test: &str,
    alpha: Option<f64>,
    margin: Option<f64>,
    power: Option<f64>,
    threads: Option<usize>,
) -> PyResult<PyComparison> {
    let groups: Vec<(String, Vec<TraceSummary>, Option<String>)> =
        groups.into_iter().map(|(n, ms, g)| (n, ms.iter().map(|m| (*m.inner).clone()).collect(), g)).collect();
    let test = test.to_owned();
    let c = run(py, move || {
        let copts = compare_options(&test, alpha, margin, power, threads)?;
        let groups = groups
            .into_iter()
            .map(|(name, traces, g)| {
                let governor = g.as_deref().map(schedlab::trace::whatif::Governors::label_of).transpose()?;
                Ok(Group { name, traces, governor })
            })
            .collect::<schedlab::Result<Vec<_>>>()?;
        compare::compare(&groups, &copts)
    })?;
    Ok(PyComparison::from_core(c))
}

/// The exit code of a trace comparison under `fail_on` (`BATCH_FAIL_ON`), as batch gives it.
#[pyfunction]
fn trace_exit_code(py: Python<'_>, comparison: &Bound<'_, PyComparison>, fail_on: &str) -> PyResult<i32> {
    let fail_on = FailOn::parse(fail_on).map_err(|e| to_pyerr(py, e))?;
    Ok(compare::exit_code(comparison.get().core(), fail_on))
}

/// Add the trace functions and classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyTraceOptions>()?;
    m.add_class::<PyTraceMetrics>()?;
    m.add_function(wrap_pyfunction!(trace_metrics, m)?)?;
    m.add_function(wrap_pyfunction!(trace_timehist, m)?)?;
    m.add_function(wrap_pyfunction!(trace_compare, m)?)?;
    m.add_function(wrap_pyfunction!(trace_compare_metrics, m)?)?;
    m.add_function(wrap_pyfunction!(trace_exit_code, m)?)?;
    m.add_function(wrap_pyfunction!(trace_perf_latency, m)?)?;
    m.add_function(wrap_pyfunction!(trace_task_states, m)?)?;
    Ok(())
}
