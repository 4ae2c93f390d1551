//! Bindings of [`schedlab::idle`]: state tables and traces in, decision arrays out.
//!
//! A state table crosses the boundary as the `IdleStateTable` object and a trace as the
//! `IdleTrace` object (`idle_objects.rs`), each holding the core's value: loaded once,
//! handed back as they are. Results are dicts of numpy arrays that `schedlab/idle.py`
//! turns into DataFrames.

use super::errors::{run, to_pyerr};
use super::idle_objects::{columns_of, PyIdleTrace, PyStateTable};
use super::py_write::run_writing;
use numpy::{IntoPyArray, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};
use schedlab::idle::compare::{compare, compare_summary, compare_summary_source, GovernorArg};
use schedlab::idle::frame_columns::{frame_columns, FrameColumns};
use schedlab::idle::ftrace::{self, CpuColumns};
use schedlab::idle::ftrace_replay::simulate_ftrace_file;
use schedlab::idle::simulate::{replay_columns, replay_many_columns, simulate_csv_file};
use schedlab::idle::states::PRESETS;
use schedlab::idle::synth::{self, Pattern, PatternArgs};
use schedlab::idle::trace::{self, TraceColumns};
use schedlab::idle::{summary, Spec};
use schedlab::import_notes::{ImportNotes, ImportOptions};
use std::borrow::Cow;
use std::path::PathBuf;

type I64s<'py> = PyReadonlyArray1<'py, i64>;

fn slice<'a, T: numpy::Element + Copy>(a: &'a PyReadonlyArray1<'_, T>) -> Cow<'a, [T]> {
    match a.as_slice() {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => Cow::Owned(a.as_array().iter().copied().collect()),
    }
}

fn sim_dict(py: Python<'_>, c: FrameColumns) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    let (n, k) = (c.idx.len(), c.state_columns.len());
    d.set_item("next_tick_ns", c.next_tick_ns.into_pyarray(py))?;
    d.set_item("latency_req_ns", c.latency_req_ns.into_pyarray(py))?;
    d.set_item("idx", c.idx.into_pyarray(py))?;
    d.set_item("stop_tick", c.stop_tick.into_pyarray(py))?;
    d.set_item("residency_ns", c.residency_ns.into_pyarray(py))?;
    d.set_item("got_tick", c.got_tick.into_pyarray(py))?;
    d.set_item("poll_time_limit", c.poll_time_limit.into_pyarray(py))?;
    d.set_item("state", c.state.into_pyarray(py).reshape([n, k])?)?;
    d.set_item("state_columns", c.state_columns)?;
    Ok(d)
}

/// Replay `trace` through `governor` at `kernel` and `hz` over the table `states`.
#[pyfunction]
#[pyo3(signature = (governor, kernel, hz, states, trace, *, record_state=true))]
fn idle_simulate<'py>(
    py: Python<'py>,
    governor: &str,
    kernel: &str,
    hz: u32,
    states: &Bound<'py, PyStateTable>,
    trace: &Bound<'py, PyIdleTrace>,
    record_state: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let borrowed = trace.get().borrow(py)?;
    let cols = columns_of(&borrowed)?;
    let table = &states.get().table;
    let (governor, kernel) = (governor.to_owned(), kernel.to_owned());
    // the DataFrame's columns are built here too, without the GIL and polling Ctrl-C
    let sim =
        run(py, || frame_columns(replay_columns(Spec::new(&governor, &kernel)?, table, &cols, hz, record_state)?))?;
    sim_dict(py, sim)
}

/// Replay one trace per CPU in parallel.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (governor, kernel, hz, states, traces, *, record_state=true, threads=None))]
fn idle_simulate_many<'py>(
    py: Python<'py>,
    governor: &str,
    kernel: &str,
    hz: u32,
    states: &Bound<'py, PyStateTable>,
    traces: Vec<Bound<'py, PyIdleTrace>>,
    record_state: bool,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyList>> {
    let borrowed = traces.iter().map(|t| t.get().borrow(py)).collect::<PyResult<Vec<_>>>()?;
    let cols = borrowed.iter().map(columns_of).collect::<PyResult<Vec<TraceColumns<'_>>>>()?;
    let table = &states.get().table;
    let (governor, kernel) = (governor.to_owned(), kernel.to_owned());
    let sims = run(py, || {
        let sims = replay_many_columns(Spec::new(&governor, &kernel)?, table, &cols, hz, record_state, threads)?;
        sims.into_iter().map(frame_columns).collect::<schedlab::Result<Vec<_>>>()
    })?;
    let out = PyList::empty(py);
    for s in sims {
        out.append(sim_dict(py, s)?)?;
    }
    Ok(out)
}

/// The golden-format CSV of a replay of the trace CSV file `trace` on the state table
/// `states` (a CSV, a sysfs directory or dump, or a preset name), streamed: the trace is
/// read, replayed and written as it goes, in memory that does not grow with it
/// (`schedlab::idle::simulate::simulate_csv_file`). With `write` (a callable taking
/// bytes) the CSV goes to it in chunks and None is returned; otherwise the bytes are.
#[pyfunction]
#[pyo3(signature = (*, governor, kernel, hz, states, trace, write=None))]
fn idle_simulate_csv<'py>(
    py: Python<'py>,
    governor: &str,
    kernel: &str,
    hz: u32,
    states: PathBuf,
    trace: PathBuf,
    write: Option<Py<PyAny>>,
) -> PyResult<Option<Bound<'py, PyBytes>>> {
    let spec = Spec::new(governor, kernel).map_err(|e| to_pyerr(py, e))?;
    let (out, ()) =
        run_writing(py, write, |w| simulate_csv_file(spec, hz, &states, &trace, w, "<output>").map(|_| ()))?;
    Ok(out)
}

/// Each distinct governor's per-state counters over the trace CSV file `trace`, read
/// as it is replayed (memory does not grow with it): `(label, counters)` as
/// [`idle_summarize`] gives them.
#[pyfunction]
#[pyo3(signature = (*, governors, kernel, hz, states, trace, power_mw=None))]
fn idle_compare_summary_file<'py>(
    py: Python<'py>,
    governors: Vec<Bound<'py, PyAny>>,
    kernel: &str,
    hz: u32,
    states: &Bound<'py, PyStateTable>,
    trace: PathBuf,
    power_mw: Option<Vec<f64>>,
) -> PyResult<Vec<(String, Bound<'py, PyDict>)>> {
    let args = governors.iter().map(governor_arg).collect::<PyResult<Vec<_>>>()?;
    let kernel = kernel.to_owned();
    let table = &states.get().table;
    let parts = run(py, || {
        let name = trace.display().to_string();
        let mut periods = trace::open_csv(&trace, &name)?;
        compare_summary_source(&args, &kernel, table, &mut periods, hz, power_mw.as_deref())
    })?;
    parts.into_iter().map(|(label, rows)| Ok((label, summary_dict(py, &rows)?))).collect()
}

/// `(name, description)` of every preset.
#[pyfunction]
fn idle_presets() -> Vec<(&'static str, &'static str)> {
    PRESETS.iter().map(|p| (p.0, p.1)).collect()
}

fn ftrace_list(py: Python<'_>, (cpus, notes): (Vec<CpuColumns>, ImportNotes)) -> PyResult<Vec<PyIdleTrace>> {
    let notes = notes.messages();
    cpus.into_iter().map(|c| PyIdleTrace::of_cpu(py, c, notes.clone())).collect()
}

/// Idle traces (one per CPU, each with the import's notes) from ftrace text.
#[pyfunction]
#[pyo3(signature = (data, hz, path=None, strict=false, sort=false))]
fn idle_parse_ftrace(
    py: Python<'_>,
    data: &[u8],
    hz: u32,
    path: Option<String>,
    strict: bool,
    sort: bool,
) -> PyResult<Vec<PyIdleTrace>> {
    let import = run(py, || ftrace::parse_columns(data, path.as_deref(), hz, ImportOptions { strict, sort }))?;
    ftrace_list(py, import)
}

/// Idle traces (one per CPU, each with the import's notes) from an ftrace text file or
/// trace.dat, read as it is imported: the columns are built as the periods come.
#[pyfunction]
#[pyo3(signature = (path, hz, strict=false, sort=false))]
fn idle_read_ftrace(py: Python<'_>, path: PathBuf, hz: u32, strict: bool, sort: bool) -> PyResult<Vec<PyIdleTrace>> {
    let import = run(py, || ftrace::read_columns(&path, hz, ImportOptions { strict, sort }))?;
    ftrace_list(py, import)
}

/// The golden-format CSV of a replay of one CPU (`cpu`, by default the first) of the
/// ftrace text or trace.dat `trace`, streamed: the trace is imported, replayed and
/// written as it goes (`schedlab::idle::ftrace_replay::simulate_ftrace_file`). With
/// `write` (a callable taking bytes) the CSV goes to it in chunks; returns the CSV bytes
/// (None with `write`) and the import's notes.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (*, governor, kernel, hz, states, trace, cpu=None, strict=false, sort=false, write=None))]
fn idle_simulate_ftrace<'py>(
    py: Python<'py>,
    governor: &str,
    kernel: &str,
    hz: u32,
    states: PathBuf,
    trace: PathBuf,
    cpu: Option<u32>,
    strict: bool,
    sort: bool,
    write: Option<Py<PyAny>>,
) -> PyResult<(Option<Bound<'py, PyBytes>>, Vec<String>)> {
    let spec = Spec::new(governor, kernel).map_err(|e| to_pyerr(py, e))?;
    let opts = ImportOptions { strict, sort };
    let (out, r) = run_writing(py, write, |w| {
        simulate_ftrace_file(spec, hz, &states, &trace, cpu, opts, w, "<output>").map(|(_, r)| r)
    })?;
    Ok((out, r.notes.messages()))
}

/// A synthetic trace: `pattern` is `periodic` (a = period_ns, b = jitter_ns), `poisson`
/// (a = mean_ns, b = timer_ns), `bimodal` (a = short_ns, b = long_ns, c = timer_ns,
/// p = p_short, jitter) or `tick_stopped` (a = mean_sleep_ns, p = p_wake).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (pattern, n, hz, seed, *, a, b=0, c=0, p=0.0, jitter=0.0))]
fn idle_synth(
    py: Python<'_>,
    pattern: &str,
    n: usize,
    hz: u32,
    seed: u64,
    a: i64,
    b: i64,
    c: i64,
    p: f64,
    jitter: f64,
) -> PyResult<PyIdleTrace> {
    let pattern = pattern.to_owned();
    let args = PatternArgs { a, b, c, p, jitter };
    let periods = run(py, || synth::generate(Pattern::named(&pattern, args)?, n, hz, seed))?;
    PyIdleTrace::of_table(py, periods.into_iter().collect())
}

/// Per-state counters of a replay (`idx`, `residency_ns`); `power_mw` per state, optional.
#[pyfunction]
#[pyo3(signature = (states, idx, residency_ns, power_mw=None))]
fn idle_summarize<'py>(
    py: Python<'py>,
    states: &Bound<'py, PyStateTable>,
    idx: PyReadonlyArray1<'_, u8>,
    residency_ns: I64s<'_>,
    power_mw: Option<Vec<f64>>,
) -> PyResult<Bound<'py, PyDict>> {
    let (i, r) = (slice(&idx), slice(&residency_ns));
    let table = &states.get().table;
    let rows = run(py, || summary::summarize(table, &i, &r, power_mw.as_deref()))?;
    summary_dict(py, &rows)
}

/// Per-state counters as a dict of lists (`state`, `usage`, `time_ns`, `above`,
/// `below`, `exit_latency_ns`, `energy_uj`).
fn summary_dict<'py>(py: Python<'py>, rows: &[summary::StateSummary]) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("state", rows.iter().map(|s| s.name.clone()).collect::<Vec<_>>())?;
    d.set_item("usage", rows.iter().map(|s| s.usage).collect::<Vec<_>>())?;
    d.set_item("time_ns", rows.iter().map(|s| s.time_ns).collect::<Vec<_>>())?;
    d.set_item("above", rows.iter().map(|s| s.above).collect::<Vec<_>>())?;
    d.set_item("below", rows.iter().map(|s| s.below).collect::<Vec<_>>())?;
    d.set_item("exit_latency_ns", rows.iter().map(|s| s.exit_latency_ns).collect::<Vec<_>>())?;
    d.set_item("energy_uj", rows.iter().map(|s| s.energy_uj).collect::<Vec<_>>())?;
    Ok(d)
}

/// `(governor, kernel)` of every implemented pair.
#[pyfunction]
fn idle_governors() -> Vec<(&'static str, &'static str)> {
    Spec::ALL.iter().map(|s| (s.family_name(), s.kernel.name())).collect()
}

/// An entry of `idle.compare`'s governor list: a `(governor, kernel)` tuple (as text)
/// or a spec string (split by the core).
fn governor_arg(g: &Bound<'_, PyAny>) -> PyResult<GovernorArg> {
    if let Ok(pair) = g.cast::<PyTuple>() {
        return Ok(GovernorArg::Pair(pair.get_item(0)?.str()?.to_string(), pair.get_item(1)?.str()?.to_string()));
    }
    Ok(GovernorArg::Spec(g.extract()?))
}

/// Each distinct governor of `governors` replayed over the trace: `(label, columns)` with
/// `idx`, `stop_tick`, `residency_ns`, `got_tick`, `above`, `below`.
#[pyfunction]
#[pyo3(signature = (governors, kernel, hz, states, trace))]
fn idle_compare<'py>(
    py: Python<'py>,
    governors: Vec<Bound<'py, PyAny>>,
    kernel: &str,
    hz: u32,
    states: &Bound<'py, PyStateTable>,
    trace: &Bound<'py, PyIdleTrace>,
) -> PyResult<Vec<(String, Bound<'py, PyDict>)>> {
    let args = governors.iter().map(governor_arg).collect::<PyResult<Vec<_>>>()?;
    let borrowed = trace.get().borrow(py)?;
    let cols = columns_of(&borrowed)?;
    let table = &states.get().table;
    let kernel = kernel.to_owned();
    let compared = run(py, || compare(&args, &kernel, table, &cols, hz))?;
    compared
        .into_iter()
        .map(|x| {
            let d = PyDict::new(py);
            d.set_item("idx", x.sim.idx.iter().map(|&k| i64::from(k)).collect::<Vec<_>>().into_pyarray(py))?;
            d.set_item("stop_tick", x.sim.stop_tick.into_pyarray(py))?;
            d.set_item("residency_ns", x.sim.residency_ns.into_pyarray(py))?;
            d.set_item("got_tick", x.sim.got_tick.into_pyarray(py))?;
            d.set_item("above", x.above.into_pyarray(py))?;
            d.set_item("below", x.below.into_pyarray(py))?;
            Ok((x.label, d))
        })
        .collect()
}

/// Each distinct governor's per-state counters over the trace: `(label, counters)` as
/// [`idle_summarize`] gives them.
#[pyfunction]
#[pyo3(signature = (governors, kernel, hz, states, trace, *, power_mw=None))]
fn idle_compare_summary<'py>(
    py: Python<'py>,
    governors: Vec<Bound<'py, PyAny>>,
    kernel: &str,
    hz: u32,
    states: &Bound<'py, PyStateTable>,
    trace: &Bound<'py, PyIdleTrace>,
    power_mw: Option<Vec<f64>>,
) -> PyResult<Vec<(String, Bound<'py, PyDict>)>> {
    let args = governors.iter().map(governor_arg).collect::<PyResult<Vec<_>>>()?;
    let borrowed = trace.get().borrow(py)?;
    let cols = columns_of(&borrowed)?;
    let table = &states.get().table;
    let kernel = kernel.to_owned();
    let parts = run(py, || compare_summary(&args, &kernel, table, &cols, hz, power_mw.as_deref()))?;
    parts.into_iter().map(|(label, rows)| Ok((label, summary_dict(py, &rows)?))).collect()
}

/// Add the idle functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyStateTable>()?;
    m.add_class::<PyIdleTrace>()?;
    m.add_function(wrap_pyfunction!(idle_simulate, m)?)?;
    m.add_function(wrap_pyfunction!(idle_compare, m)?)?;
    m.add_function(wrap_pyfunction!(idle_compare_summary, m)?)?;
    m.add_function(wrap_pyfunction!(idle_simulate_many, m)?)?;
    m.add_function(wrap_pyfunction!(idle_simulate_csv, m)?)?;
    m.add_function(wrap_pyfunction!(idle_compare_summary_file, m)?)?;
    m.add_function(wrap_pyfunction!(idle_presets, m)?)?;
    m.add_function(wrap_pyfunction!(idle_parse_ftrace, m)?)?;
    m.add_function(wrap_pyfunction!(idle_read_ftrace, m)?)?;
    m.add_function(wrap_pyfunction!(idle_simulate_ftrace, m)?)?;
    m.add_function(wrap_pyfunction!(idle_synth, m)?)?;
    m.add_function(wrap_pyfunction!(idle_summarize, m)?)?;
    m.add_function(wrap_pyfunction!(idle_governors, m)?)?;
    let trace = schedlab::idle::trace::REQUIRED_COLUMNS.iter().chain(&schedlab::idle::trace::OPTIONAL_COLUMNS);
    m.add("IDLE_TRACE_COLUMNS", trace.copied().collect::<Vec<&str>>())?;
    m.add("IDLE_GOVERNORS", <schedlab::idle::governor::Family as schedlab::choice::Choice>::names())?;
    m.add("IDLE_KERNELS", schedlab::idle::governor::Kernel::ALL.map(schedlab::idle::governor::Kernel::name).to_vec())?;
    m.add("IDLE_HZ", schedlab::jiffies::CONFIG_HZ.to_vec())?;
    m.add("IDLE_DEFAULT_HZ", schedlab::idle::trace::DEFAULT_HZ)?;
    m.add("IDLE_DEFAULT_KERNEL", schedlab::idle::governor::Kernel::DEFAULT.name())?;
    m.add("IDLE_MAX_NR_IOWAIT", schedlab::idle::trace::MAX_NR_IOWAIT)?;
    Ok(())
}
