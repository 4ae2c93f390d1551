//! Bindings of [`schedlab::pelt`]: traces in (numpy columns, files, bytes), simulation rows
//! out as numpy columns or golden-identical CSV bytes, and the low-level functions for
//! notebooks. Every call goes through [`run`] (GIL released, panics caught).

use super::errors::run;
use numpy::{IntoPyArray, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use schedlab::choice::Choice;
use schedlab::import_notes::ImportOptions;
use schedlab::pelt::columns::{self, Column, Select};
use schedlab::pelt::cpu_capacity::Sources;
use schedlab::pelt::cpu_util::{cpu_util_of, CpuSignals, Dst, TaskSignals};
use schedlab::pelt::driver::{self, Config, CsvOutput, Init, StartState};
use schedlab::pelt::ftrace;
use schedlab::pelt::kernel::{config, Options};
use schedlab::pelt::schedutil;
use schedlab::pelt::signal::{self, AccumulateSteps};
use schedlab::pelt::trace::{self, Segment};
use schedlab::pelt::util_est::{self, UpdateInputs};
use schedlab::pelt::util_model::UTIL_COLUMNS;
use std::borrow::Cow;
use std::path::PathBuf;

fn slice<'a, T: numpy::Element + Copy>(a: &'a PyReadonlyArray1<'_, T>) -> Cow<'a, [T]> {
    match a.as_slice() {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => Cow::Owned(a.as_array().iter().copied().collect()),
    }
}

fn columns_dict<'py>(py: Python<'py>, cols: Vec<(&'static str, Column)>) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (name, c) in cols {
        match c {
            Column::I64(v) => d.set_item(name, v.into_pyarray(py))?,
            Column::I32(v) => d.set_item(name, v.into_pyarray(py))?,
            Column::U8(v) => d.set_item(name, v.into_pyarray(py))?,
            Column::I8(v) => d.set_item(name, v.into_pyarray(py))?,
        }
    }
    Ok(d)
}

/// A known start state from its Python tuple.
fn start_state(given: Option<Given>) -> Option<StartState> {
    given.map(|(util_avg, load_avg, runnable_avg, util_est)| StartState { util_avg, load_avg, runnable_avg, util_est })
}

/// An imported task for Python: segment columns, start, events used, notes, init.
type Imported<'py> = (Bound<'py, PyDict>, u64, u64, Vec<String>, Option<Bound<'py, PyDict>>);

/// A known start state from Python: (util_avg, load_avg, runnable_avg, (ewma, enqueued)).
type Given = (u64, Option<u64>, Option<u64>, Option<(u32, u32)>);

/// Simulate a trace given as columns; returns a dict of numpy columns.
#[pyfunction]
#[pyo3(signature = (dur_ns, state, cpu_cap, freq_cap, init, util_est, rule, execl_fix, tick_ns, start_ns, columns=None, events=None, kernel=None, given=None))]
#[allow(clippy::too_many_arguments)]
fn pelt_simulate_arrays<'py>(
    py: Python<'py>,
    dur_ns: PyReadonlyArray1<'_, i64>,
    state: PyReadonlyArray1<'_, u8>,
    cpu_cap: PyReadonlyArray1<'_, i64>,
    freq_cap: PyReadonlyArray1<'_, i64>,
    init: &str,
    util_est: bool,
    rule: Option<&str>,
    execl_fix: Option<bool>,
    tick_ns: u64,
    start_ns: u64,
    columns: Option<Vec<String>>,
    events: Option<Vec<String>>,
    kernel: Option<&str>,
    given: Option<Given>,
) -> PyResult<Bound<'py, PyDict>> {
    let (d, s, c, f) = (slice(&dur_ns), slice(&state), slice(&cpu_cap), slice(&freq_cap));
    let sel = Select { columns, events };
    let cols = run(py, || {
        let cfg =
            config(&Options { kernel, init, util_est, rule, execl_fix, tick_ns, start_ns, given: start_state(given) })?;
        columns::replay_trace_columns(&d, &s, &c, &f, &cfg, &sel)
    })?;
    columns_dict(py, cols)
}

/// Simulate a trace CSV file; returns a dict of numpy columns.
#[pyfunction]
#[pyo3(signature = (path, init, util_est, rule, execl_fix, tick_ns, start_ns, columns=None, events=None, kernel=None, given=None))]
#[allow(clippy::too_many_arguments)]
fn pelt_simulate_file<'py>(
    py: Python<'py>,
    path: PathBuf,
    init: &str,
    util_est: bool,
    rule: Option<&str>,
    execl_fix: Option<bool>,
    tick_ns: u64,
    start_ns: u64,
    columns: Option<Vec<String>>,
    events: Option<Vec<String>>,
    kernel: Option<&str>,
    given: Option<Given>,
) -> PyResult<Bound<'py, PyDict>> {
    let sel = Select { columns, events };
    let cols = run(py, || {
        let cfg =
            config(&Options { kernel, init, util_est, rule, execl_fix, tick_ns, start_ns, given: start_state(given) })?;
        let segs = trace::read_trace_csv(&path)?;
        columns::replay_segments(&segs, &cfg, &sel)
    })?;
    columns_dict(py, cols)
}

/// A Python `write(bytes)` callable as an `io::Write`: each chunk is handed over with the
/// GIL taken back briefly; a Python exception is kept to be re-raised as is (so that a
/// `BrokenPipeError` stays one).
pub(crate) struct PyWrite {
    pub(crate) write: Py<PyAny>,
    pub(crate) err: Option<PyErr>,
}

impl std::io::Write for PyWrite {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let r = Python::attach(|py| self.write.call1(py, (PyBytes::new(py, buf),)).map(|_| ()));
        match r {
            Ok(()) => Ok(buf.len()),
            Err(e) => {
                self.err = Some(e);
                Err(std::io::Error::other("the Python write() failed"))
            }
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Simulate the trace CSV `data` (or the file at `path` when `data` is None) and render
/// the rows as CSV: to the file `out`, or in chunks to the callable `write`, (both
/// return None), else returned as bytes.
#[pyfunction]
#[pyo3(signature = (data, path, out, init, util_est, rule, execl_fix, tick_ns, start_ns, write=None, kernel=None, given=None))]
#[allow(clippy::too_many_arguments)]
fn pelt_simulate_csv<'py>(
    py: Python<'py>,
    data: Option<Vec<u8>>,
    path: String,
    out: Option<PathBuf>,
    init: &str,
    util_est: bool,
    rule: Option<&str>,
    execl_fix: Option<bool>,
    tick_ns: u64,
    start_ns: u64,
    write: Option<Py<PyAny>>,
    kernel: Option<&str>,
    given: Option<Given>,
) -> PyResult<Option<Bound<'py, PyBytes>>> {
    let cfg =
        config(&Options { kernel, init, util_est, rule, execl_fix, tick_ns, start_ns, given: start_state(given) });
    let mut sink = write.map(|w| PyWrite { write: w, err: None });
    let result = run(py, || {
        let segs = trace::trace_csv(data.as_deref(), &path)?;
        let to = match (&out, sink.as_mut()) {
            (Some(p), _) => CsvOutput::File(p),
            (None, Some(w)) => CsvOutput::Write(w),
            (None, None) => CsvOutput::Memory,
        };
        driver::simulate_csv(&segs, &cfg?, to)
    });
    if let Some(err) = sink.and_then(|s| s.err) {
        return Err(err);
    }
    Ok(result?.map(|b| PyBytes::new(py, &b)))
}

fn trace_dict<'py>(py: Python<'py>, segs: Vec<Segment>) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("dur_ns", segs.iter().map(|s| s.dur_ns as i64).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("state", segs.iter().map(|s| s.state.letter() as u8).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("cpu_cap", segs.iter().map(|s| i64::from(s.cpu_cap)).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("freq_cap", segs.iter().map(|s| i64::from(s.freq_cap)).collect::<Vec<_>>().into_pyarray(py))?;
    Ok(d)
}

/// Parse trace CSV text; returns its columns (state as ASCII codes).
#[pyfunction]
#[pyo3(signature = (data, path=None))]
fn pelt_parse_trace<'py>(py: Python<'py>, data: &[u8], path: Option<String>) -> PyResult<Bound<'py, PyDict>> {
    let segs = run(py, || trace::parse_trace_csv(data, path.as_deref()))?;
    trace_dict(py, segs)
}

/// Read a trace CSV file; returns its columns (state as ASCII codes).
#[pyfunction]
fn pelt_read_trace(py: Python<'_>, path: PathBuf) -> PyResult<Bound<'_, PyDict>> {
    let segs = run(py, || trace::read_trace_csv(&path))?;
    trace_dict(py, segs)
}

/// A pid's task trace from ftrace text (`data`) or the file at `path`:
/// (columns, start_ns, events, notes); the CPUs' capacities from the given values, a
/// plat-info YAML or a sysfs directory (`pelt::cpu_capacity::Platform::from_sources`);
/// `strict` makes a malformed line an error, `sort` sorts events out of time order.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (data, path, pid, cpu_cap=None, freq_cap=None, strict=false, sort=false, cpu_capacity=None, max_freq=None, plat_info=None, sysfs=None, traced_start=false))]
fn pelt_ftrace<'py>(
    py: Python<'py>,
    data: Option<Vec<u8>>,
    path: Option<PathBuf>,
    pid: u32,
    cpu_cap: Option<u32>,
    freq_cap: Option<u32>,
    strict: bool,
    sort: bool,
    cpu_capacity: Option<String>,
    max_freq: Option<String>,
    plat_info: Option<PathBuf>,
    sysfs: Option<PathBuf>,
    traced_start: bool,
) -> PyResult<Imported<'py>> {
    let opts = ImportOptions { strict, sort };
    let sources = Sources {
        capacities: cpu_capacity.as_deref(),
        max_freqs: max_freq.as_deref(),
        cpu_cap,
        freq_cap,
        plat_info: plat_info.as_deref(),
        sysfs: sysfs.as_deref(),
    };
    let t = run(py, || ftrace::task_trace(data.as_deref(), path.as_deref(), pid, &sources, opts))?;
    let (notes, events) = (t.notes.messages(), t.events);
    let (segments, start_ns, init) = t.into_start(traced_start);
    let init = match init {
        Some(Init::Given(state)) => {
            let d = PyDict::new(py);
            d.set_item("util_avg", state.util_avg)?;
            d.set_item("load_avg", state.load_avg)?;
            d.set_item("runnable_avg", state.runnable_avg)?;
            d.set_item("util_est", state.util_est)?;
            Some(d)
        }
        Some(Init::Kernel) => {
            let d = PyDict::new(py);
            d.set_item("kernel", true)?;
            Some(d)
        }
        Some(Init::Zero) | None => None,
    };
    Ok((trace_dict(py, segments)?, start_ns, events, notes, init))
}

/// `decay_load(val, n)` element-wise.
#[pyfunction]
fn pelt_decay_load<'py>(
    py: Python<'py>,
    val: PyReadonlyArray1<'_, u64>,
    n: PyReadonlyArray1<'_, u64>,
) -> PyResult<Bound<'py, numpy::PyArray1<u64>>> {
    let (v, n) = (slice(&val), slice(&n));
    let out = run(py, || signal::decay_load_each(&v, &n))?;
    Ok(out.into_pyarray(py))
}

/// Step one `sched_avg` through `___update_load_sum`/`___update_load_avg`; a dict of
/// the golden `pelt_accumulate.csv` columns.
#[pyfunction]
#[pyo3(signature = (delta_ns, load, runnable, running, start_ns, weight))]
fn pelt_accumulate<'py>(
    py: Python<'py>,
    delta_ns: PyReadonlyArray1<'_, u64>,
    load: PyReadonlyArray1<'_, u64>,
    runnable: PyReadonlyArray1<'_, u64>,
    running: PyReadonlyArray1<'_, u64>,
    start_ns: u64,
    weight: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let (dt, lo, ru, rn) = (slice(&delta_ns), slice(&load), slice(&runnable), slice(&running));
    let steps = AccumulateSteps { delta_ns: &dt, load: &lo, runnable: &ru, running: &rn };
    let cols = run(py, || signal::accumulate(&steps, start_ns, weight))?;
    let d = PyDict::new(py);
    for (name, col) in signal::ACCUMULATE_COLUMNS.into_iter().zip(cols) {
        d.set_item(name, col.into_pyarray(py))?;
    }
    Ok(d)
}

/// One util_est update per element with `rule`; returns (ewma, unchanged, enqueued) columns.
#[pyfunction]
#[pyo3(signature = (rule, ewma, unchanged, enqueued, util_avg, runnable_avg, cpu_cap, task_sleep))]
#[allow(clippy::too_many_arguments)]
fn pelt_util_est_update<'py>(
    py: Python<'py>,
    rule: &str,
    ewma: PyReadonlyArray1<'_, u64>,
    unchanged: PyReadonlyArray1<'_, u64>,
    enqueued: PyReadonlyArray1<'_, u64>,
    util_avg: PyReadonlyArray1<'_, u64>,
    runnable_avg: PyReadonlyArray1<'_, u64>,
    cpu_cap: PyReadonlyArray1<'_, u64>,
    task_sleep: PyReadonlyArray1<'_, u64>,
) -> PyResult<Bound<'py, PyDict>> {
    let (e, u, q) = (slice(&ewma), slice(&unchanged), slice(&enqueued));
    let (ua, ra, cap, sleep) = (slice(&util_avg), slice(&runnable_avg), slice(&cpu_cap), slice(&task_sleep));
    let inputs = UpdateInputs {
        ewma: &e,
        unchanged: &u,
        enqueued: &q,
        util_avg: &ua,
        runnable_avg: &ra,
        cpu_cap: &cap,
        task_sleep: &sleep,
    };
    let rule = rule.to_owned();
    let out = run(py, || util_est::update_each(&rule, &inputs))?;
    let d = PyDict::new(py);
    d.set_item("ewma", out.ewma.into_pyarray(py))?;
    d.set_item("unchanged", out.unchanged.into_pyarray(py))?;
    d.set_item("enqueued", out.enqueued.into_pyarray(py))?;
    Ok(d)
}

/// The names of the util_est rules, newest first.
#[pyfunction]
fn pelt_rules() -> Vec<&'static str> {
    schedlab::pelt::util_est::RULE_NAMES.to_vec()
}

/// The kernel versions `kernel=` accepts, the default first (schedlab::pelt::kernel::KERNELS).
#[pyfunction]
fn pelt_kernels() -> Vec<&'static str> {
    schedlab::pelt::kernel::kernel_names()
}

/// The columns the util-only replay computes (schedlab::pelt::util_model::UTIL_COLUMNS).
#[pyfunction]
fn pelt_util_columns() -> Vec<&'static str> {
    UTIL_COLUMNS.to_vec()
}

/// `cpu_util(cpu, p, dst_cpu, boost)` for one CPU and optionally one task
/// `(util_avg, util_est, fix_amount, queued_or_current, on_this_cpu, is_new)`.
#[pyfunction]
#[pyo3(signature = (util_avg, runnable_avg, util_est, capacity, util_est_enabled, task, dst, boost, execl_fix))]
#[allow(clippy::too_many_arguments)]
fn pelt_cpu_util(
    py: Python<'_>,
    util_avg: u64,
    runnable_avg: u64,
    util_est: u32,
    capacity: u64,
    util_est_enabled: bool,
    task: Option<(u64, u32, u32, bool, bool, bool)>,
    dst: &str,
    boost: bool,
    execl_fix: bool,
) -> PyResult<u64> {
    let dst = dst.to_owned();
    let cpu = CpuSignals { util_avg, runnable_avg, util_est, capacity, util_est_enabled };
    let p = task.map(|(u, e, f, q, on, new)| TaskSignals {
        util_avg: u,
        util_est: e,
        fix_amount: f,
        queued_or_current: q,
        on_this_cpu: on,
        is_new: new,
    });
    run(py, || Ok(cpu_util_of(&cpu, p.as_ref(), Dst::parse(&dst)?, boost, execl_fix)))
}

/// `TICK_NSEC` for `CONFIG_HZ=hz` ([`Config::tick_ns_for_hz`]).
#[pyfunction]
fn pelt_tick_ns_for_hz(py: Python<'_>, hz: u64) -> PyResult<u64> {
    run(py, || Config::tick_ns_for_hz(hz))
}

/// schedutil's `map_util_perf` ([`schedutil::map_util_perf`]).
#[pyfunction]
fn pelt_map_util_perf(util: u64) -> u64 {
    schedutil::map_util_perf(util)
}

/// schedutil: `(perf, freq)` for a utilization (6.12: `sugov_effective_cpu_perf` then
/// `get_next_freq` resolved to `opps`; `legacy`: v4.7–v6.7 `1.25 * max_freq * util / cap`).
#[pyfunction]
#[pyo3(signature = (util, capacity, ref_freq, opps, policy_min, policy_max, min_perf, legacy))]
#[allow(clippy::too_many_arguments)]
fn pelt_schedutil(
    py: Python<'_>,
    util: u64,
    capacity: u64,
    ref_freq: u64,
    opps: Vec<u64>,
    policy_min: u64,
    policy_max: u64,
    min_perf: u64,
    legacy: bool,
) -> PyResult<(u64, u64)> {
    let r = schedutil::Request { util, capacity, ref_freq, opps: &opps, policy_min, policy_max, min_perf, legacy };
    run(py, || schedutil::perf_and_freq(&r))
}

/// Add the PELT functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(pelt_simulate_arrays, m)?)?;
    m.add_function(wrap_pyfunction!(pelt_simulate_file, m)?)?;
    m.add_function(wrap_pyfunction!(pelt_simulate_csv, m)?)?;
    m.add_function(wrap_pyfunction!(pelt_parse_trace, m)?)?;
    m.add_function(wrap_pyfunction!(pelt_read_trace, m)?)?;
    m.add_function(wrap_pyfunction!(pelt_ftrace, m)?)?;
    m.add_function(wrap_pyfunction!(pelt_decay_load, m)?)?;
    m.add_function(wrap_pyfunction!(pelt_accumulate, m)?)?;
    m.add_function(wrap_pyfunction!(pelt_util_est_update, m)?)?;
    m.add_function(wrap_pyfunction!(pelt_rules, m)?)?;
    m.add_function(wrap_pyfunction!(pelt_kernels, m)?)?;
    m.add_function(wrap_pyfunction!(pelt_util_columns, m)?)?;
    m.add_function(wrap_pyfunction!(pelt_cpu_util, m)?)?;
    m.add_function(wrap_pyfunction!(pelt_schedutil, m)?)?;
    m.add_function(wrap_pyfunction!(pelt_tick_ns_for_hz, m)?)?;
    m.add_function(wrap_pyfunction!(pelt_map_util_perf, m)?)?;
    m.add("PELT_COLUMNS", schedlab::pelt::row::COLUMNS.to_vec())?;
    m.add("PELT_INITS", <schedlab::pelt::Init as schedlab::choice::Choice>::names())?;
    m.add("PELT_EVENTS", schedlab::pelt::row::Event::ALL.map(schedlab::pelt::row::Event::name).to_vec())?;
    let states =
        [schedlab::pelt::trace::State::Run, schedlab::pelt::trace::State::Wait, schedlab::pelt::trace::State::Sleep];
    m.add("PELT_STATES", states.map(|s| s.letter().to_string()).to_vec())?;
    Ok(())
}
