//! Bindings of [`schedlab::idle`]: state tables and traces in, decision arrays out.
//!
//! A state table crosses the boundary as a tuple of lists
//! `(name, exit_latency_us, target_residency_us, polling, disabled, power_mw)`; a trace
//! as int64 arrays (one per column). Results are dicts of numpy arrays that
//! `schedlab/idle.py` turns into DataFrames.

use super::errors::{run, to_pyerr};
use super::pelt::PyWrite;
use numpy::{IntoPyArray, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};
use schedlab::error::{Error, Result};
use schedlab::idle::compare::{compare, compare_summary, compare_summary_source, GovernorArg};
use schedlab::idle::ftrace::{self, FtraceImport};
use schedlab::idle::simulate::{replay_columns, replay_many_columns, simulate_csv_file, Simulation};
use schedlab::idle::state_source::NamedColumns;
use schedlab::idle::states::{StateTable, PRESETS};
use schedlab::idle::synth::{self, Pattern, PatternArgs};
use schedlab::idle::trace::{self, TraceColumns, TraceTable};
use schedlab::idle::{summary, Spec};
use schedlab::import_notes::ImportOptions;
use std::borrow::Cow;
use std::path::PathBuf;

type I64s<'py> = PyReadonlyArray1<'py, i64>;
type StatesArg = (Vec<String>, Vec<i64>, Vec<i64>, Vec<bool>, Vec<bool>, Vec<Option<f64>>);

fn slice<'a, T: numpy::Element + Copy>(a: &'a PyReadonlyArray1<'_, T>) -> Cow<'a, [T]> {
    match a.as_slice() {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => Cow::Owned(a.as_array().iter().copied().collect()),
    }
}

/// A validated table from the tuple-of-lists form.
fn table_from(arg: StatesArg) -> Result<StateTable> {
    let (names, el, tr, polling, disabled, power) = arg;
    StateTable::from_columns(names, &el, &tr, &polling, &disabled, &power)
}

fn table_dict<'py>(py: Python<'py>, t: &StateTable) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let s = t.states();
    d.set_item("name", s.iter().map(|x| x.name.clone()).collect::<Vec<_>>())?;
    d.set_item("exit_latency_us", s.iter().map(|x| x.exit_latency_us).collect::<Vec<_>>())?;
    d.set_item("target_residency_us", s.iter().map(|x| x.target_residency_us).collect::<Vec<_>>())?;
    d.set_item("polling", s.iter().map(|x| x.polling).collect::<Vec<_>>())?;
    d.set_item("disabled", s.iter().map(|x| x.disabled).collect::<Vec<_>>())?;
    d.set_item("power_mw", s.iter().map(|x| x.power_mw).collect::<Vec<_>>())?;
    d.set_item("notes", t.assumptions().to_vec())?;
    Ok(d)
}

fn trace_dict(py: Python<'_>, t: TraceTable) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("sleep_length_ns", t.sleep_length_ns.into_pyarray(py))?;
    d.set_item("next_tick_ns", t.next_tick_ns.into_pyarray(py))?;
    d.set_item("wake_ns", t.wake_ns.into_pyarray(py))?;
    d.set_item("tick_stopped", t.tick_stopped.into_pyarray(py))?;
    d.set_item("latency_req_ns", t.latency_req_ns.into_pyarray(py))?;
    d.set_item("nr_iowait", t.nr_iowait.into_pyarray(py))?;
    d.set_item("cpu_load", t.cpu_load.into_pyarray(py))?;
    Ok(d)
}

fn sim_dict<'py>(py: Python<'py>, sim: Simulation, shown: (Vec<i64>, Vec<i64>)) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("next_tick_ns", shown.0.into_pyarray(py))?;
    d.set_item("latency_req_ns", shown.1.into_pyarray(py))?;
    let n = sim.len();
    let k = sim.state_columns.len();
    d.set_item("idx", sim.idx.into_pyarray(py))?;
    d.set_item("stop_tick", sim.stop_tick.into_pyarray(py))?;
    d.set_item("residency_ns", sim.residency_ns.into_pyarray(py))?;
    d.set_item("got_tick", sim.got_tick.into_pyarray(py))?;
    d.set_item("poll_time_limit", sim.poll_time_limit.into_pyarray(py))?;
    d.set_item("state", sim.state.into_pyarray(py).reshape([n, k])?)?;
    d.set_item("state_columns", sim.state_columns)?;
    Ok(d)
}

/// The seven trace arrays as slices (borrowed when contiguous), in the bindings' order.
fn trace_slices<'a>(arrays: [&'a I64s<'_>; 7]) -> [Cow<'a, [i64]>; 7] {
    arrays.map(|a| slice(a))
}

/// The trace columns of [`trace_slices`].
fn columns_of<'a>(c: &'a [Cow<'a, [i64]>; 7]) -> TraceColumns<'a> {
    let [sleep_length_ns, next_tick_ns, wake_ns, tick_stopped, latency_req_ns, nr_iowait, cpu_load] =
        c.each_ref().map(|x| &**x);
    TraceColumns { sleep_length_ns, next_tick_ns, wake_ns, tick_stopped, latency_req_ns, nr_iowait, cpu_load }
}

/// Replay a trace (columns as int64 arrays) through `governor` at `kernel` and `hz`.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (governor, kernel, hz, states, *, sleep_length_ns, next_tick_ns, wake_ns, tick_stopped, latency_req_ns, nr_iowait, cpu_load, record_state=true))]
fn idle_simulate<'py>(
    py: Python<'py>,
    governor: &str,
    kernel: &str,
    hz: u32,
    states: StatesArg,
    sleep_length_ns: I64s<'_>,
    next_tick_ns: I64s<'_>,
    wake_ns: I64s<'_>,
    tick_stopped: I64s<'_>,
    latency_req_ns: I64s<'_>,
    nr_iowait: I64s<'_>,
    cpu_load: I64s<'_>,
    record_state: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let trace = trace_slices([
        &sleep_length_ns,
        &next_tick_ns,
        &wake_ns,
        &tick_stopped,
        &latency_req_ns,
        &nr_iowait,
        &cpu_load,
    ]);
    let (governor, kernel) = (governor.to_owned(), kernel.to_owned());
    let sim = run(py, || {
        let spec = Spec::new(&governor, &kernel)?;
        replay_columns(spec, &table_from(states)?, &columns_of(&trace), hz, record_state)
    })?;
    sim_dict(py, sim.0, sim.1)
}

/// Replay one trace per CPU in parallel; `traces` is a list of 7-tuples of int64 arrays.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (governor, kernel, hz, states, traces, *, record_state=true, threads=None))]
fn idle_simulate_many<'py>(
    py: Python<'py>,
    governor: &str,
    kernel: &str,
    hz: u32,
    states: StatesArg,
    traces: Vec<(I64s<'_>, I64s<'_>, I64s<'_>, I64s<'_>, I64s<'_>, I64s<'_>, I64s<'_>)>,
    record_state: bool,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyList>> {
    let slices: Vec<[Cow<'_, [i64]>; 7]> =
        traces.iter().map(|t| trace_slices([&t.0, &t.1, &t.2, &t.3, &t.4, &t.5, &t.6])).collect();
    let (governor, kernel) = (governor.to_owned(), kernel.to_owned());
    let sims = run(py, || {
        let spec = Spec::new(&governor, &kernel)?;
        let table = table_from(states)?;
        let cols: Vec<TraceColumns<'_>> = slices.iter().map(columns_of).collect();
        replay_many_columns(spec, &table, &cols, hz, record_state, threads)
    })?;
    let out = PyList::empty(py);
    for (s, shown) in sims {
        out.append(sim_dict(py, s, shown)?)?;
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
    let Some(write) = write else {
        let (out, _) = run(py, || simulate_csv_file(spec, hz, &states, &trace, Vec::new(), "<memory>"))?;
        return Ok(Some(PyBytes::new(py, &out)));
    };
    let mut sink = PyWrite { write, err: None };
    let result = run(py, || simulate_csv_file(spec, hz, &states, &trace, &mut sink, "<output>").map(|_| ()));
    if let Some(err) = sink.err {
        return Err(err);
    }
    result?;
    Ok(None)
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
    states: StatesArg,
    trace: PathBuf,
    power_mw: Option<Vec<f64>>,
) -> PyResult<Vec<(String, Bound<'py, PyDict>)>> {
    let args = governors.iter().map(governor_arg).collect::<PyResult<Vec<_>>>()?;
    let kernel = kernel.to_owned();
    let parts = run(py, || {
        let name = trace.display().to_string();
        let mut periods = trace::open_csv(&trace, &name)?;
        compare_summary_source(&args, &kernel, &table_from(states)?, &mut periods, hz, power_mw.as_deref())
    })?;
    parts.into_iter().map(|(label, rows)| Ok((label, summary_dict(py, &rows)?))).collect()
}

/// A state table (dict of lists) from a file: CSV, sysfs directory/dump, or preset name.
#[pyfunction]
fn idle_load_states<'py>(py: Python<'py>, path: PathBuf) -> PyResult<Bound<'py, PyDict>> {
    let t = run(py, || StateTable::load(&path))?;
    table_dict(py, &t)
}

/// A state table from CSV text.
#[pyfunction]
#[pyo3(signature = (data, path=None))]
fn idle_parse_states<'py>(py: Python<'py>, data: &[u8], path: Option<String>) -> PyResult<Bound<'py, PyDict>> {
    let t = run(py, || StateTable::parse_csv(data, path.as_deref()))?;
    table_dict(py, &t)
}

/// A state table from the text of `grep . .../cpuidle/state*/*`.
#[pyfunction]
#[pyo3(signature = (data, path=None))]
fn idle_parse_sysfs<'py>(py: Python<'py>, data: &[u8], path: Option<String>) -> PyResult<Bound<'py, PyDict>> {
    let t = run(py, || StateTable::parse_sysfs_dump(data, path.as_deref()))?;
    table_dict(py, &t)
}

/// A named preset table.
#[pyfunction]
fn idle_preset<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyDict>> {
    let name = name.to_owned();
    let t = run(py, || StateTable::preset(&name))?;
    table_dict(py, &t)
}

/// `(name, description)` of every preset.
#[pyfunction]
fn idle_presets() -> Vec<(&'static str, &'static str)> {
    PRESETS.iter().map(|p| (p.0, p.1)).collect()
}

/// One column of a mapping or DataFrame (`tolist()` when it has one) as Python objects,
/// None when absent.
fn column<'py>(d: &Bound<'py, PyAny>, name: &str) -> PyResult<Option<Vec<Bound<'py, PyAny>>>> {
    if !d.contains(name)? {
        return Ok(None);
    }
    let v = d.get_item(name)?;
    let v = if v.hasattr("tolist")? { v.call_method0("tolist")? } else { v };
    v.try_iter()?.collect::<PyResult<Vec<_>>>().map(Some)
}

/// A column converted value by value (`str`, truth, float), a ParseError naming it when
/// a value does not convert.
fn convert<'py, T>(
    d: &Bound<'py, PyAny>,
    name: &str,
    f: impl Fn(&Bound<'py, PyAny>) -> PyResult<T>,
) -> PyResult<Option<Vec<T>>> {
    let Some(values) = column(d, name)? else { return Ok(None) };
    values
        .iter()
        .enumerate()
        .map(|(i, v)| {
            f(v).map_err(|e| {
                let msg = format!("states column '{name}': state {i}: {}", e.value(d.py()));
                to_pyerr(d.py(), Error::parse_col(None, None, name, msg))
            })
        })
        .collect::<PyResult<Vec<T>>>()
        .map(Some)
}

/// The validated table of a mapping or DataFrame's columns (`idle::state_source::NamedColumns`:
/// flags letters or booleans); the binding only converts the values.
fn named_table(py: Python<'_>, d: &Bound<'_, PyAny>) -> PyResult<StateTable> {
    let text = |v: &Bound<'_, PyAny>| Ok(v.str()?.to_string());
    // an empty cell of a CSV read by pandas is NaN: no flags
    let letters = |v: &Bound<'_, PyAny>| match v.extract::<Option<f64>>() {
        Ok(None) => Ok(String::new()),
        Ok(Some(x)) if x.is_nan() => Ok(String::new()),
        _ => Ok(v.str()?.to_string()),
    };
    let truth = |v: &Bound<'_, PyAny>| v.is_truthy();
    let number = |v: &Bound<'_, PyAny>| v.extract::<f64>();
    let gap = |v: &Bound<'_, PyAny>| v.extract::<Option<f64>>();
    let c = NamedColumns {
        name: convert(d, "name", text)?,
        exit_latency_us: convert(d, "exit_latency_us", number)?,
        target_residency_us: convert(d, "target_residency_us", number)?,
        flags: convert(d, "flags", letters)?,
        polling: convert(d, "polling", truth)?,
        disabled: convert(d, "disabled", truth)?,
        disable: convert(d, "disable", truth)?,
        power_mw: convert(d, "power_mw", gap)?,
    };
    run(py, || StateTable::from_named_columns(c))
}

/// A state table's columns from a mapping or DataFrame, validated, in the tuple-of-lists
/// form the simulate functions take.
#[pyfunction]
fn idle_state_columns(py: Python<'_>, d: &Bound<'_, PyAny>) -> PyResult<StatesArg> {
    let t = named_table(py, d)?;
    let s = t.states();
    Ok((
        s.iter().map(|x| x.name.clone()).collect(),
        s.iter().map(|x| i64::from(x.exit_latency_us)).collect(),
        s.iter().map(|x| i64::from(x.target_residency_us)).collect(),
        s.iter().map(|x| x.polling).collect(),
        s.iter().map(|x| x.disabled).collect(),
        s.iter().map(|x| x.power_mw).collect(),
    ))
}

/// Validate a state table given as a mapping or DataFrame; returns it normalised.
#[pyfunction]
fn idle_check_states<'py>(py: Python<'py>, states: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
    let t = named_table(py, states)?;
    table_dict(py, &t)
}

/// A trace (dict of int64 arrays) from CSV text.
#[pyfunction]
#[pyo3(signature = (data, path=None))]
fn idle_parse_trace<'py>(py: Python<'py>, data: &[u8], path: Option<String>) -> PyResult<Bound<'py, PyDict>> {
    let t = run(py, || trace::parse_csv(data, path.as_deref()))?;
    trace_dict(py, t)
}

/// A trace from a CSV file.
#[pyfunction]
fn idle_read_trace<'py>(py: Python<'py>, path: PathBuf) -> PyResult<Bound<'py, PyDict>> {
    let t = run(py, || trace::read_csv(&path))?;
    trace_dict(py, t)
}

fn ftrace_list<'py>(py: Python<'py>, import: FtraceImport) -> PyResult<(Bound<'py, PyList>, Vec<String>)> {
    let out = PyList::empty(py);
    for c in import.cpus {
        let d = trace_dict(py, c.periods.into_iter().collect())?;
        d.set_item("cpu", c.cpu)?;
        d.set_item("timestamp_ns", c.timestamp_ns.into_pyarray(py))?;
        d.set_item("actual_state", c.actual_state.into_pyarray(py))?;
        let s = PyDict::new(py);
        s.set_item("timer_wakeups", c.stats.timer_wakeups)?;
        s.set_item("tick_wakeups", c.stats.tick_wakeups)?;
        s.set_item("sleep_length_unknown", c.stats.sleep_length_unknown)?;
        s.set_item("next_tick_unknown", c.stats.next_tick_unknown)?;
        s.set_item("unterminated", c.stats.unterminated)?;
        d.set_item("stats", s)?;
        out.append(d)?;
    }
    Ok((out, import.notes.messages()))
}

/// Idle traces (one per CPU) from ftrace text, and the import's notes.
#[pyfunction]
#[pyo3(signature = (data, hz, path=None, strict=false, sort=false))]
fn idle_parse_ftrace<'py>(
    py: Python<'py>,
    data: &[u8],
    hz: u32,
    path: Option<String>,
    strict: bool,
    sort: bool,
) -> PyResult<(Bound<'py, PyList>, Vec<String>)> {
    let import = run(py, || ftrace::parse(data, path.as_deref(), hz, ImportOptions { strict, sort }))?;
    ftrace_list(py, import)
}

/// Idle traces (one per CPU) from an ftrace text file, and the import's notes.
#[pyfunction]
#[pyo3(signature = (path, hz, strict=false, sort=false))]
fn idle_read_ftrace<'py>(
    py: Python<'py>,
    path: PathBuf,
    hz: u32,
    strict: bool,
    sort: bool,
) -> PyResult<(Bound<'py, PyList>, Vec<String>)> {
    let import = run(py, || ftrace::read(&path, hz, ImportOptions { strict, sort }))?;
    ftrace_list(py, import)
}

/// A synthetic trace: `pattern` is `periodic` (a = period_ns, b = jitter_ns), `poisson`
/// (a = mean_ns, b = timer_ns), `bimodal` (a = short_ns, b = long_ns, c = timer_ns,
/// p = p_short, jitter) or `tick_stopped` (a = mean_sleep_ns, p = p_wake).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (pattern, n, hz, seed, *, a, b=0, c=0, p=0.0, jitter=0.0))]
fn idle_synth<'py>(
    py: Python<'py>,
    pattern: &str,
    n: usize,
    hz: u32,
    seed: u64,
    a: i64,
    b: i64,
    c: i64,
    p: f64,
    jitter: f64,
) -> PyResult<Bound<'py, PyDict>> {
    let pattern = pattern.to_owned();
    let args = PatternArgs { a, b, c, p, jitter };
    let periods = run(py, || synth::generate(Pattern::named(&pattern, args)?, n, hz, seed))?;
    trace_dict(py, periods.into_iter().collect())
}

/// Per-state counters of a replay (`idx`, `residency_ns`); `power_mw` per state, optional.
#[pyfunction]
#[pyo3(signature = (states, idx, residency_ns, power_mw=None))]
fn idle_summarize<'py>(
    py: Python<'py>,
    states: StatesArg,
    idx: PyReadonlyArray1<'_, u8>,
    residency_ns: I64s<'_>,
    power_mw: Option<Vec<f64>>,
) -> PyResult<Bound<'py, PyDict>> {
    let (i, r) = (slice(&idx), slice(&residency_ns));
    let rows = run(py, || {
        let table = table_from(states)?;
        summary::summarize(&table, &i, &r, power_mw.as_deref())
    })?;
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
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (governors, kernel, hz, states, *, sleep_length_ns, next_tick_ns, wake_ns, tick_stopped, latency_req_ns, nr_iowait, cpu_load))]
fn idle_compare<'py>(
    py: Python<'py>,
    governors: Vec<Bound<'py, PyAny>>,
    kernel: &str,
    hz: u32,
    states: StatesArg,
    sleep_length_ns: I64s<'_>,
    next_tick_ns: I64s<'_>,
    wake_ns: I64s<'_>,
    tick_stopped: I64s<'_>,
    latency_req_ns: I64s<'_>,
    nr_iowait: I64s<'_>,
    cpu_load: I64s<'_>,
) -> PyResult<Vec<(String, Bound<'py, PyDict>)>> {
    let args = governors.iter().map(governor_arg).collect::<PyResult<Vec<_>>>()?;
    let trace = trace_slices([
        &sleep_length_ns,
        &next_tick_ns,
        &wake_ns,
        &tick_stopped,
        &latency_req_ns,
        &nr_iowait,
        &cpu_load,
    ]);
    let kernel = kernel.to_owned();
    let compared = run(py, || compare(&args, &kernel, &table_from(states)?, &columns_of(&trace), hz))?;
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
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (governors, kernel, hz, states, *, sleep_length_ns, next_tick_ns, wake_ns, tick_stopped, latency_req_ns, nr_iowait, cpu_load, power_mw=None))]
fn idle_compare_summary<'py>(
    py: Python<'py>,
    governors: Vec<Bound<'py, PyAny>>,
    kernel: &str,
    hz: u32,
    states: StatesArg,
    sleep_length_ns: I64s<'_>,
    next_tick_ns: I64s<'_>,
    wake_ns: I64s<'_>,
    tick_stopped: I64s<'_>,
    latency_req_ns: I64s<'_>,
    nr_iowait: I64s<'_>,
    cpu_load: I64s<'_>,
    power_mw: Option<Vec<f64>>,
) -> PyResult<Vec<(String, Bound<'py, PyDict>)>> {
    let args = governors.iter().map(governor_arg).collect::<PyResult<Vec<_>>>()?;
    let trace = trace_slices([
        &sleep_length_ns,
        &next_tick_ns,
        &wake_ns,
        &tick_stopped,
        &latency_req_ns,
        &nr_iowait,
        &cpu_load,
    ]);
    let kernel = kernel.to_owned();
    let parts = run(py, || {
        let cols = columns_of(&trace);
        compare_summary(&args, &kernel, &table_from(states)?, &cols, hz, power_mw.as_deref())
    })?;
    parts.into_iter().map(|(label, rows)| Ok((label, summary_dict(py, &rows)?))).collect()
}

/// Add the idle functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(idle_simulate, m)?)?;
    m.add_function(wrap_pyfunction!(idle_compare, m)?)?;
    m.add_function(wrap_pyfunction!(idle_compare_summary, m)?)?;
    m.add_function(wrap_pyfunction!(idle_simulate_many, m)?)?;
    m.add_function(wrap_pyfunction!(idle_simulate_csv, m)?)?;
    m.add_function(wrap_pyfunction!(idle_compare_summary_file, m)?)?;
    m.add_function(wrap_pyfunction!(idle_load_states, m)?)?;
    m.add_function(wrap_pyfunction!(idle_parse_states, m)?)?;
    m.add_function(wrap_pyfunction!(idle_parse_sysfs, m)?)?;
    m.add_function(wrap_pyfunction!(idle_preset, m)?)?;
    m.add_function(wrap_pyfunction!(idle_presets, m)?)?;
    m.add_function(wrap_pyfunction!(idle_check_states, m)?)?;
    m.add_function(wrap_pyfunction!(idle_state_columns, m)?)?;
    m.add_function(wrap_pyfunction!(idle_parse_trace, m)?)?;
    m.add_function(wrap_pyfunction!(idle_read_trace, m)?)?;
    m.add_function(wrap_pyfunction!(idle_parse_ftrace, m)?)?;
    m.add_function(wrap_pyfunction!(idle_read_ftrace, m)?)?;
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
