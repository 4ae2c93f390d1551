//! The idle replay's two inputs as frozen classes holding the core's values, loaded once
//! and handed back to every replay as they are (DEVELOPING.md, "Data flow"):
//!
//! - `IdleStateTable` holds a validated [`StateTable`] (from a path, a preset, CSV or
//!   sysfs text, or a front end's columns: `idle::state_source`);
//! - `IdleTrace` holds a trace's seven columns as read-only int64 numpy arrays — the
//!   core's own `Vec`s when the core read or made the trace (numpy takes them without a
//!   copy), a copy of the caller's arrays when given them (the trace owns what it checked) — and
//!   what an ftrace import adds (CPU, entry times, the kernel's states, counts, notes).
//!
//! Views for people (`to_pandas()`, the column properties) are built from them; a replay
//! borrows the columns as slices and releases the GIL.

use super::errors::{run, to_pyerr};
use numpy::{Element, IntoPyArray, PyArray1, PyArrayMethods, PyReadonlyArray1, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};
use schedlab::error::Error;
use schedlab::idle::ftrace::{CpuColumns, FtraceStats};
use schedlab::idle::state_source::NamedColumns;
use schedlab::idle::states::StateTable;
use schedlab::idle::trace::{TraceColumns, TraceTable, OPTIONAL_COLUMNS, REQUIRED_COLUMNS};
use std::path::PathBuf;
use std::sync::Arc;

/// The trace columns in their golden-file order (the required ones, then the optional).
fn trace_column_names() -> [&'static str; 7] {
    let [a, b, c, d, e] = REQUIRED_COLUMNS;
    let [f, g] = OPTIONAL_COLUMNS;
    [a, b, c, d, e, f, g]
}

/// An idle-state table as the core validated it (`idle::states::StateTable`):
/// `schedlab.idle.StateTable`. Loaded once, from a path (CSV, sysfs `cpuidle` directory
/// or `grep .` dump), a preset name, or columns (a DataFrame or mapping with `name`,
/// `exit_latency_us`, `target_residency_us` and `flags` or `polling`/`disabled`), and
/// handed to every replay as it is. It cannot be changed: `to_pandas()` gives a
/// DataFrame to edit, and `StateTable(df)` a table of the edited one.
#[pyclass(frozen, eq, name = "IdleStateTable", module = "schedlab._core")]
pub struct PyStateTable {
    pub(crate) table: Arc<StateTable>,
}

impl PartialEq for PyStateTable {
    fn eq(&self, other: &Self) -> bool {
        *self.table == *other.table
    }
}

impl PyStateTable {
    pub(crate) fn of(table: StateTable) -> Self {
        PyStateTable { table: Arc::new(table) }
    }
}

#[pymethods]
impl PyStateTable {
    /// The table of `source`: a path or preset name (read by the core,
    /// `StateTable::load`), another table (shared), or columns (a DataFrame or a mapping
    /// of lists: `StateTable::from_named_columns`; a `notes` entry adds sentences to
    /// what was assumed, as a pickle carries them).
    #[new]
    fn new(py: Python<'_>, source: &Bound<'_, PyAny>) -> PyResult<Self> {
        if let Ok(t) = source.cast::<PyStateTable>() {
            return Ok(PyStateTable { table: Arc::clone(&t.get().table) });
        }
        if source.is_instance_of::<PyString>() || source.hasattr("__fspath__")? {
            let path: PathBuf = source.extract()?;
            return run(py, || StateTable::load(&path)).map(Self::of);
        }
        let table = named_table(py, source)?;
        let notes: Vec<String> = match source.contains("notes") {
            Ok(true) => source.get_item("notes")?.extract()?,
            _ => Vec::new(),
        };
        Ok(Self::of(table.with_assumptions(notes)))
    }

    /// A table from CSV text (`path` names it in errors).
    #[staticmethod]
    #[pyo3(signature = (data, path=None))]
    fn parse_csv(py: Python<'_>, data: &[u8], path: Option<String>) -> PyResult<Self> {
        run(py, || StateTable::parse_csv(data, path.as_deref())).map(Self::of)
    }

    /// A table from the text of `grep . .../cpuidle/state*/*` (`path` names it in errors).
    #[staticmethod]
    #[pyo3(signature = (data, path=None))]
    fn parse_sysfs(py: Python<'_>, data: &[u8], path: Option<String>) -> PyResult<Self> {
        run(py, || StateTable::parse_sysfs_dump(data, path.as_deref())).map(Self::of)
    }

    /// The named preset (`idle::states::PRESETS`).
    #[staticmethod]
    fn preset(py: Python<'_>, name: &str) -> PyResult<Self> {
        let name = name.to_owned();
        run(py, || StateTable::preset(&name)).map(Self::of)
    }

    /// State names, shallowest first.
    #[getter]
    fn name(&self) -> Vec<String> {
        self.table.states().iter().map(|s| s.name.clone()).collect()
    }
    /// Exit latencies, µs.
    #[getter]
    fn exit_latency_us(&self) -> Vec<u32> {
        self.table.states().iter().map(|s| s.exit_latency_us).collect()
    }
    /// Target residencies, µs.
    #[getter]
    fn target_residency_us(&self) -> Vec<u32> {
        self.table.states().iter().map(|s| s.target_residency_us).collect()
    }
    /// Whether each state is the poll loop (`CPUIDLE_FLAG_POLLING`).
    #[getter]
    fn polling(&self) -> Vec<bool> {
        self.table.states().iter().map(|s| s.polling).collect()
    }
    /// Whether each state is disabled.
    #[getter]
    fn disabled(&self) -> Vec<bool> {
        self.table.states().iter().map(|s| s.disabled).collect()
    }
    /// Power per state, mW (None where not given).
    #[getter]
    fn power_mw(&self) -> Vec<Option<f64>> {
        self.table.states().iter().map(|s| s.power_mw).collect()
    }
    /// What the reader had to assume, one sentence each.
    #[getter]
    fn notes(&self) -> Vec<String> {
        self.table.assumptions().to_vec()
    }

    /// The table as a DataFrame: `name`, `exit_latency_us`, `target_residency_us`
    /// (int64), `polling`, `disabled` (bool), `power_mw` (float64, NaN where not given);
    /// `attrs["notes"]` the notes.
    fn to_pandas<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let s = self.table.states();
        let d = PyDict::new(py);
        d.set_item("name", self.name())?;
        d.set_item(
            "exit_latency_us",
            s.iter().map(|x| i64::from(x.exit_latency_us)).collect::<Vec<_>>().into_pyarray(py),
        )?;
        d.set_item(
            "target_residency_us",
            s.iter().map(|x| i64::from(x.target_residency_us)).collect::<Vec<_>>().into_pyarray(py),
        )?;
        d.set_item("polling", s.iter().map(|x| x.polling).collect::<Vec<_>>().into_pyarray(py))?;
        d.set_item("disabled", s.iter().map(|x| x.disabled).collect::<Vec<_>>().into_pyarray(py))?;
        d.set_item("power_mw", s.iter().map(|x| x.power_mw.unwrap_or(f64::NAN)).collect::<Vec<_>>().into_pyarray(py))?;
        let df = py.import("pandas")?.getattr("DataFrame")?.call1((d,))?;
        df.getattr("attrs")?.set_item("notes", self.notes())?;
        Ok(df)
    }

    fn __len__(&self) -> usize {
        self.table.len()
    }

    fn __repr__(&self) -> String {
        let states: Vec<String> = self
            .table
            .states()
            .iter()
            .map(|s| {
                let flags = match (s.polling, s.disabled) {
                    (true, true) => " polling, disabled",
                    (true, false) => " polling",
                    (false, true) => " disabled",
                    (false, false) => "",
                };
                format!("{} {}/{} µs{flags}", s.name, s.exit_latency_us, s.target_residency_us)
            })
            .collect();
        format!("StateTable({})", states.join("; "))
    }

    /// Pickled as its columns and notes (what the constructor takes).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let t = slf.get();
        let d = PyDict::new(py);
        d.set_item("name", t.name())?;
        d.set_item("exit_latency_us", t.exit_latency_us())?;
        d.set_item("target_residency_us", t.target_residency_us())?;
        d.set_item("polling", t.polling())?;
        d.set_item("disabled", t.disabled())?;
        d.set_item("power_mw", t.power_mw())?;
        d.set_item("notes", t.notes())?;
        PyTuple::new(py, [slf.get_type().into_any(), PyTuple::new(py, [d])?.into_any()])
    }
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

/// What an ftrace import adds to one CPU's trace (`idle::ftrace::CpuColumns`).
struct FtraceCpu {
    cpu: u32,
    timestamp_ns: Py<PyArray1<i64>>,
    actual_state: Py<PyArray1<u32>>,
    stats: FtraceStats,
    notes: Vec<String>,
}

/// The stats as `(timer_wakeups, tick_wakeups, sleep_length_unknown, next_tick_unknown,
/// unterminated, lost_periods)`, the order a pickle carries them in.
type StatsTuple = (u64, u64, u64, u64, u64, u64);

fn stats_tuple(s: &FtraceStats) -> StatsTuple {
    (s.timer_wakeups, s.tick_wakeups, s.sleep_length_unknown, s.next_tick_unknown, s.unterminated, s.lost_periods)
}

/// An idle trace, one row per idle period of one CPU (`idle::trace`, docs/idle-governors.md
/// §2.2): `schedlab.idle.Trace`. Its columns are read-only int64 arrays — the core's own
/// when the core read or made it, a copy of the given ones when built from arrays (so
/// nobody can write to what was checked) — checked once when it is made and handed to
/// every replay as they are.
/// An ftrace import's trace also has `cpu`, `timestamp_ns` (idle entry), `actual_state`
/// (the kernel's choice), `stats` and `notes`.
#[pyclass(frozen, name = "IdleTrace", module = "schedlab._core")]
pub struct PyIdleTrace {
    cols: [Py<PyArray1<i64>>; 7],
    n: usize,
    ftrace: Option<FtraceCpu>,
}

/// `a` made read-only (the caller's own array is viewed, not changed).
fn read_only<'py, T: Element>(a: Bound<'py, PyArray1<T>>, view: bool) -> PyResult<Py<PyArray1<T>>> {
    let a = if view { a.call_method0("view")?.cast_into::<PyArray1<T>>()? } else { a };
    a.getattr("flags")?.setattr("writeable", false)?;
    Ok(a.unbind())
}

/// The columns borrowed for a replay (read-only borrows, released when dropped).
pub(crate) type Borrowed<'py> = [PyReadonlyArray1<'py, i64>; 7];

impl PyIdleTrace {
    /// The trace of the core's columns, taken by numpy without a copy.
    pub(crate) fn of_table(py: Python<'_>, t: TraceTable) -> PyResult<Self> {
        let n = t.sleep_length_ns.len();
        let TraceTable { sleep_length_ns, next_tick_ns, wake_ns, tick_stopped, latency_req_ns, nr_iowait, cpu_load } =
            t;
        let [a, b, c, d, e, f, g] =
            [sleep_length_ns, next_tick_ns, wake_ns, tick_stopped, latency_req_ns, nr_iowait, cpu_load]
                .map(|v| read_only(v.into_pyarray(py), false));
        Ok(PyIdleTrace { cols: [a?, b?, c?, d?, e?, f?, g?], n, ftrace: None })
    }

    /// One CPU's trace of an ftrace import (its columns taken as they are), with the
    /// import's notes.
    pub(crate) fn of_cpu(py: Python<'_>, c: CpuColumns, notes: Vec<String>) -> PyResult<Self> {
        let mut t = Self::of_table(py, c.table)?;
        t.ftrace = Some(FtraceCpu {
            cpu: c.cpu,
            timestamp_ns: read_only(c.timestamp_ns.into_pyarray(py), false)?,
            actual_state: read_only(c.actual_state.into_pyarray(py), false)?,
            stats: c.stats,
            notes,
        });
        Ok(t)
    }

    /// The columns borrowed read-only for a replay.
    pub(crate) fn borrow<'py>(&self, py: Python<'py>) -> PyResult<Borrowed<'py>> {
        let [a, b, c, d, e, f, g] = self.cols.each_ref().map(|x| x.bind(py).try_readonly());
        Ok([a?, b?, c?, d?, e?, f?, g?])
    }
}

/// The core's view of borrowed columns (contiguous: every column is made so).
pub(crate) fn columns_of<'a>(b: &'a Borrowed<'_>) -> PyResult<TraceColumns<'a>> {
    let [sleep_length_ns, next_tick_ns, wake_ns, tick_stopped, latency_req_ns, nr_iowait, cpu_load] =
        b.each_ref().map(|x| x.as_slice());
    let e = |_| pyo3::exceptions::PyValueError::new_err("a trace column is not contiguous");
    Ok(TraceColumns {
        sleep_length_ns: sleep_length_ns.map_err(e)?,
        next_tick_ns: next_tick_ns.map_err(e)?,
        wake_ns: wake_ns.map_err(e)?,
        tick_stopped: tick_stopped.map_err(e)?,
        latency_req_ns: latency_req_ns.map_err(e)?,
        nr_iowait: nr_iowait.map_err(e)?,
        cpu_load: cpu_load.map_err(e)?,
    })
}

#[pymethods]
impl PyIdleTrace {
    /// A trace of int64 arrays (copied once, so that the trace owns what was checked),
    /// checked by the core (`TraceColumns::validate`): an error names the column
    /// and the 0-based row. `nr_iowait` and `cpu_load` default to 0.
    #[new]
    #[pyo3(signature = (*, sleep_length_ns, next_tick_ns, wake_ns, tick_stopped, latency_req_ns, nr_iowait=None, cpu_load=None))]
    #[allow(clippy::too_many_arguments)]
    fn new<'py>(
        py: Python<'py>,
        sleep_length_ns: Bound<'py, PyArray1<i64>>,
        next_tick_ns: Bound<'py, PyArray1<i64>>,
        wake_ns: Bound<'py, PyArray1<i64>>,
        tick_stopped: Bound<'py, PyArray1<i64>>,
        latency_req_ns: Bound<'py, PyArray1<i64>>,
        nr_iowait: Option<Bound<'py, PyArray1<i64>>>,
        cpu_load: Option<Bound<'py, PyArray1<i64>>>,
    ) -> PyResult<Self> {
        let empty = || PyArray1::<i64>::zeros(py, 0, false);
        let given = [
            sleep_length_ns,
            next_tick_ns,
            wake_ns,
            tick_stopped,
            latency_req_ns,
            nr_iowait.unwrap_or_else(empty),
            cpu_load.unwrap_or_else(empty),
        ];
        // copied once: the trace is checked once, here, so it must own what was checked
        // (a view of the caller's writeable array would change with the caller's writes)
        let kept = given.map(|a| {
            let copy: Vec<i64> = a.try_readonly()?.as_array().iter().copied().collect();
            read_only(copy.into_pyarray(py), false)
        });
        let [a, b, c, d, e, f, g] = kept;
        let t = PyIdleTrace { cols: [a?, b?, c?, d?, e?, f?, g?], n: 0, ftrace: None };
        let n = {
            let borrowed = t.borrow(py)?;
            let cols = columns_of(&borrowed)?;
            run(py, || cols.validate())?
        };
        Ok(PyIdleTrace { n, ..t })
    }

    /// A trace from CSV text (header with at least the five required columns; `path`
    /// names it in errors).
    #[staticmethod]
    #[pyo3(signature = (data, path=None))]
    fn parse_csv(py: Python<'_>, data: &[u8], path: Option<String>) -> PyResult<Self> {
        let t: TraceTable = run(py, || schedlab::idle::trace::parse_csv(data, path.as_deref()))?;
        Self::of_table(py, t)
    }

    /// A trace from a CSV file.
    #[staticmethod]
    fn read_csv(py: Python<'_>, path: PathBuf) -> PyResult<Self> {
        let t: TraceTable = run(py, || schedlab::idle::trace::read_csv(&path))?;
        Self::of_table(py, t)
    }

    /// Time till the next timer with the tick stopped, ns.
    #[getter]
    fn sleep_length_ns<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        self.column(py, 0)
    }
    /// Time till the next tick, ns.
    #[getter]
    fn next_tick_ns<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        self.column(py, 1)
    }
    /// Time till a non-timer wakeup, ns (-1: none).
    #[getter]
    fn wake_ns<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        self.column(py, 2)
    }
    /// The tick was stopped on entry (0/1).
    #[getter]
    fn tick_stopped<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        self.column(py, 3)
    }
    /// PM QoS latency limit, ns (-1: none).
    #[getter]
    fn latency_req_ns<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        self.column(py, 4)
    }
    /// Tasks in iowait.
    #[getter]
    fn nr_iowait<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        self.column(py, 5)
    }
    /// `rq->load.weight` at idle entry.
    #[getter]
    fn cpu_load<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        self.column(py, 6)
    }
    /// The CPU of an ftrace import's trace (None otherwise).
    #[getter]
    fn cpu(&self) -> Option<u32> {
        self.ftrace.as_ref().map(|f| f.cpu)
    }
    /// Trace timestamp of each idle entry, ns (ftrace imports; None otherwise).
    #[getter]
    fn timestamp_ns<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<i64>>> {
        self.ftrace.as_ref().map(|f| f.timestamp_ns.bind(py).clone())
    }
    /// The state the traced kernel's governor chose (ftrace imports; None otherwise).
    #[getter]
    fn actual_state<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<u32>>> {
        self.ftrace.as_ref().map(|f| f.actual_state.bind(py).clone())
    }
    /// How the import's values were obtained (`idle::ftrace::FtraceStats`; empty
    /// otherwise).
    #[getter]
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        if let Some(f) = &self.ftrace {
            let s = &f.stats;
            d.set_item("timer_wakeups", s.timer_wakeups)?;
            d.set_item("tick_wakeups", s.tick_wakeups)?;
            d.set_item("sleep_length_unknown", s.sleep_length_unknown)?;
            d.set_item("next_tick_unknown", s.next_tick_unknown)?;
            d.set_item("unterminated", s.unterminated)?;
            d.set_item("lost_periods", s.lost_periods)?;
        }
        Ok(d)
    }
    /// What the import skipped and assumed, one line each (empty otherwise).
    #[getter]
    fn notes(&self) -> Vec<String> {
        self.ftrace.as_ref().map_or_else(Vec::new, |f| f.notes.clone())
    }

    /// The trace as a DataFrame (the columns as they are, no copy): the seven trace
    /// columns, and for an ftrace import `timestamp_ns` and `actual_state`, with
    /// `attrs["stats"]`, `attrs["notes"]` and `attrs["cpu"]`.
    fn to_pandas<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let d = PyDict::new(py);
        for (i, name) in trace_column_names().iter().enumerate() {
            d.set_item(name, self.column(py, i))?;
        }
        if let Some(f) = &self.ftrace {
            d.set_item("timestamp_ns", f.timestamp_ns.bind(py))?;
            d.set_item("actual_state", f.actual_state.bind(py))?;
        }
        let kw = PyDict::new(py);
        kw.set_item("copy", false)?;
        let df = py.import("pandas")?.getattr("DataFrame")?.call((d,), Some(&kw))?;
        if let Some(f) = &self.ftrace {
            let attrs = df.getattr("attrs")?;
            attrs.set_item("stats", self.stats(py)?)?;
            attrs.set_item("notes", f.notes.clone())?;
            attrs.set_item("cpu", f.cpu)?;
        }
        Ok(df)
    }

    fn __len__(&self) -> usize {
        self.n
    }

    fn __repr__(&self) -> String {
        match &self.ftrace {
            Some(f) => format!("Trace(cpu={}, periods={})", f.cpu, self.n),
            None => format!("Trace(periods={})", self.n),
        }
    }

    /// Equal columns (an absent optional column equals zeros) and, for ftrace imports,
    /// the same CPU, entry times and kernel states.
    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        let Ok(o) = other.cast::<PyIdleTrace>() else { return Ok(false) };
        let o = o.get();
        if o.n != self.n {
            return Ok(false);
        }
        let np = py.import("numpy")?;
        let same = |x: &Bound<'_, PyAny>, y: &Bound<'_, PyAny>| -> PyResult<bool> {
            np.call_method1("array_equal", (x, y))?.extract()
        };
        for i in 0..7 {
            if !same(self.column(py, i).as_any(), o.column(py, i).as_any())? {
                return Ok(false);
            }
        }
        Ok(match (&self.ftrace, &o.ftrace) {
            (None, None) => true,
            (Some(a), Some(b)) => {
                a.cpu == b.cpu
                    && same(a.timestamp_ns.bind(py).as_any(), b.timestamp_ns.bind(py).as_any())?
                    && same(a.actual_state.bind(py).as_any(), b.actual_state.bind(py).as_any())?
            }
            _ => false,
        })
    }

    /// Pickled as its columns (and an import's CPU, entry times, states, counts and notes).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let t = slf.get();
        let cols = PyTuple::new(py, (0..7).map(|i| t.column(py, i)))?;
        let ftrace = match &t.ftrace {
            Some(f) => {
                (f.cpu, f.timestamp_ns.bind(py), f.actual_state.bind(py), stats_tuple(&f.stats), f.notes.clone())
                    .into_pyobject(py)?
                    .into_any()
            }
            None => py.None().into_bound(py),
        };
        let unpickle = slf.get_type().getattr("_unpickle")?;
        PyTuple::new(py, [unpickle, PyTuple::new(py, [cols.into_any(), ftrace])?.into_any()])
    }

    /// The trace of a pickle ([`Self::__reduce__`]): the columns as pickled, checked again.
    #[staticmethod]
    #[allow(clippy::type_complexity)]
    fn _unpickle<'py>(
        py: Python<'py>,
        columns: [Bound<'py, PyArray1<i64>>; 7],
        ftrace: Option<(u32, Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<u32>>, StatsTuple, Vec<String>)>,
    ) -> PyResult<Self> {
        let [a, b, c, d, e, f, g] = columns;
        let mut t = Self::new(py, a, b, c, d, e, Some(f), Some(g))?;
        if let Some((cpu, ts, state, s, notes)) = ftrace {
            if ts.len() != t.n || state.len() != t.n {
                return Err(to_pyerr(
                    py,
                    Error::domain("an idle trace's pickle has entry times or states of another length"),
                ));
            }
            let stats = FtraceStats {
                timer_wakeups: s.0,
                tick_wakeups: s.1,
                sleep_length_unknown: s.2,
                next_tick_unknown: s.3,
                unterminated: s.4,
                lost_periods: s.5,
            };
            t.ftrace = Some(FtraceCpu {
                cpu,
                timestamp_ns: read_only(ts, true)?,
                actual_state: read_only(state, true)?,
                stats,
                notes,
            });
        }
        Ok(t)
    }
}

impl PyIdleTrace {
    /// Column `i` (an absent optional column as zeros).
    fn column<'py>(&self, py: Python<'py>, i: usize) -> Bound<'py, PyArray1<i64>> {
        let a = self.cols.get(i).map(|c| c.bind(py).clone());
        match a {
            Some(a) if a.len() == self.n => a,
            _ => PyArray1::<i64>::zeros(py, self.n, false),
        }
    }
}
