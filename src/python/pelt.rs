//! Bindings of [`schedlab::pelt`]: traces in (numpy columns, files, bytes), simulation rows
//! out as numpy columns or golden-identical CSV bytes, and the low-level functions for
//! notebooks. Every call goes through [`run`] (GIL released, panics caught).

use super::arrays::lock;
use super::errors::{run, to_pyerr};
use super::py_write::PyWrite;
use numpy::{IntoPyArray, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use schedlab::choice::Choice;
use schedlab::import_notes::ImportOptions;
use schedlab::pelt::columns::{self, Column, Select};
use schedlab::pelt::cpu_capacity::Sources;
use schedlab::pelt::cpu_util::{cpu_util_of, CpuSignals, Dst, TaskSignals};
use schedlab::pelt::directives::Directives;
use schedlab::pelt::driver::{self, Config, CsvOutput, Init, StartSnapshot, StartState};
use schedlab::pelt::ftrace;
use schedlab::pelt::kernel::{config_for, Options};
use schedlab::pelt::schedutil;
use schedlab::pelt::schedutil::Version;
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

/// The start of a replay as one object: a name (`kernel`, `zero`), or a known state
/// (the averages of a traced PELT event, or the exact state of a `/proc/PID/sched`
/// reading: docs/pelt.md §10, §12). Built in the core from what Python gives, and
/// handed back to the core as is (`ftrace_task(...).attrs["init"]` to `simulate`).
#[pyclass(frozen, name = "PeltInit", module = "schedlab._core")]
#[derive(Clone)]
pub struct PyPeltInit {
    init: Init,
}

/// A start from Python: a name, a [`PyPeltInit`], or a mapping of the averages.
fn init_of(obj: &Bound<'_, PyAny>) -> PyResult<Init> {
    if let Ok(i) = obj.cast::<PyPeltInit>() {
        return Ok(i.get().init);
    }
    let py = obj.py();
    if let Ok(name) = obj.extract::<String>() {
        return <Init as Choice>::parse(&name).map_err(|e| to_pyerr(py, e));
    }
    let Ok(map) = obj.cast::<pyo3::types::PyMapping>() else {
        return Err(to_pyerr(
            py,
            schedlab::Error::domain(format!(
                "init must be one of {}, a start state mapping or a PeltInit, got {}",
                <Init as Choice>::names().join(", "),
                obj.repr()?
            )),
        ));
    };
    let get = |k: &str| -> PyResult<Option<Bound<'_, PyAny>>> {
        match map.get_item(k) {
            Ok(v) if !v.is_none() => Ok(Some(v)),
            _ => Ok(None),
        }
    };
    let flag = |k: &str| -> PyResult<bool> { get(k)?.map_or(Ok(false), |v| v.is_truthy()) };
    if flag("kernel")? {
        return Ok(Init::Kernel);
    }
    if flag("zero")? {
        return Ok(Init::Zero);
    }
    let num = |k: &str| -> PyResult<Option<u64>> { get(k)?.map(|v| v.extract::<u64>()).transpose() };
    if flag("snapshot")? {
        let need = |k: &str| -> PyResult<u64> {
            num(k)?.ok_or_else(|| to_pyerr(py, schedlab::Error::domain(format!("a snapshot start needs '{k}'"))))
        };
        return Ok(Init::Snapshot(StartSnapshot {
            last_update_time: need("last_update_time")?,
            load_sum: need("load_sum")?,
            runnable_sum: need("runnable_sum")?,
            util_sum: u32::try_from(need("util_sum")?)
                .map_err(|_| to_pyerr(py, schedlab::Error::domain("util_sum does not fit 32 bits")))?,
            load_avg: need("load_avg")?,
            runnable_avg: need("runnable_avg")?,
            util_avg: need("util_avg")?,
            util_est: u32::try_from(need("util_est")?)
                .map_err(|_| to_pyerr(py, schedlab::Error::domain("util_est does not fit 32 bits")))?,
        }));
    }
    let Some(util_avg) = num("util_avg")? else {
        return Err(to_pyerr(
            py,
            schedlab::Error::domain("a start state needs 'util_avg' (and may give load_avg, runnable_avg, util_est)"),
        ));
    };
    let util_est = get("util_est")?.map(|v| v.extract::<(u32, u32)>()).transpose()?;
    Ok(Init::Given(StartState { util_avg, load_avg: num("load_avg")?, runnable_avg: num("runnable_avg")?, util_est }))
}

#[pymethods]
impl PyPeltInit {
    #[new]
    fn new(state: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyPeltInit { init: init_of(state)? })
    }

    /// `kernel`, `zero`, `given` or `snapshot`.
    #[getter]
    fn kind(&self) -> &'static str {
        self.init.name()
    }

    /// The start as a dict: `{"kernel": True}`, `{"zero": True}`, the averages
    /// (`util_avg`, `load_avg`, `runnable_avg`, `util_est` = (ewma, enqueued)), or a
    /// snapshot's `se.avg` values with `"snapshot": True`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        match self.init {
            Init::Kernel => d.set_item("kernel", true)?,
            Init::Zero => d.set_item("zero", true)?,
            Init::Given(s) => {
                d.set_item("util_avg", s.util_avg)?;
                d.set_item("load_avg", s.load_avg)?;
                d.set_item("runnable_avg", s.runnable_avg)?;
                d.set_item("util_est", s.util_est)?;
            }
            Init::Snapshot(s) => {
                d.set_item("snapshot", true)?;
                d.set_item("last_update_time", s.last_update_time)?;
                d.set_item("load_sum", s.load_sum)?;
                d.set_item("runnable_sum", s.runnable_sum)?;
                d.set_item("util_sum", s.util_sum)?;
                d.set_item("load_avg", s.load_avg)?;
                d.set_item("runnable_avg", s.runnable_avg)?;
                d.set_item("util_avg", s.util_avg)?;
                d.set_item("util_est", s.util_est)?;
            }
        }
        Ok(d)
    }

    fn __getitem__<'py>(&self, py: Python<'py>, key: &str) -> PyResult<Bound<'py, PyAny>> {
        self.to_dict(py)?.as_any().get_item(key)
    }

    fn keys<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(self.to_dict(py)?.keys().into_any())
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        if let Ok(o) = other.cast::<PyPeltInit>() {
            return Ok(o.get().init == self.init);
        }
        if other.cast::<PyDict>().is_ok() {
            return self.to_dict(py)?.as_any().eq(other);
        }
        Ok(false)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("PeltInit({})", self.to_dict(py)?.repr()?))
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyDict>,))> {
        let py = slf.py();
        Ok((slf.get_type().into_any(), (slf.get().to_dict(py)?,)))
    }
}

/// A replay's options as one object (docs/pelt.md §9): the kernel, the start, util_est
/// on or off, the util_est rule and execl fix, HZ and the start time. Unset values are
/// taken from the trace's directives (docs/pelt.md §8.1), else the core's defaults;
/// every value is checked here, once.
#[pyclass(frozen, name = "PeltOptions", module = "schedlab._core")]
#[derive(Clone)]
pub struct PyPeltOptions {
    kernel: Option<String>,
    init: Option<Init>,
    util_est: bool,
    rule: Option<String>,
    execl_fix: Option<bool>,
    hz: Option<u64>,
    start_ns: Option<u64>,
}

impl PyPeltOptions {
    /// The replay's configuration for a trace with these directives.
    fn config(&self, trace: &Directives) -> schedlab::Result<Config> {
        let tick_ns = Config::tick_ns_for_hz(self.hz.unwrap_or(schedlab::jiffies::DEFAULT_HZ))?;
        let o = Options {
            kernel: self.kernel.as_deref(),
            init: None,
            util_est: self.util_est,
            rule: self.rule.as_deref(),
            execl_fix: self.execl_fix,
            tick_ns,
            start_ns: self.start_ns,
            given: None,
        };
        let mut cfg = config_for(&o, trace)?;
        if let Some(init) = self.init {
            cfg.init = init;
        }
        cfg.check()?;
        Ok(cfg)
    }
}

#[pymethods]
impl PyPeltOptions {
    #[new]
    #[pyo3(signature = (*, init=None, util_est=true, rule=None, execl_fix=None, hz=None, start_ns=None, kernel=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        init: Option<&Bound<'_, PyAny>>,
        util_est: bool,
        rule: Option<String>,
        execl_fix: Option<bool>,
        hz: Option<u64>,
        start_ns: Option<u64>,
        kernel: Option<String>,
    ) -> PyResult<Self> {
        let init = init.map(init_of).transpose()?;
        let o = PyPeltOptions { kernel, init, util_est, rule, execl_fix, hz, start_ns };
        // every value checked now, whatever trace it replays
        run(py, || o.config(&Directives::default()).map(|_| ()))?;
        Ok(o)
    }

    #[getter]
    fn kernel(&self) -> Option<&str> {
        self.kernel.as_deref()
    }
    #[getter]
    fn init(&self) -> Option<PyPeltInit> {
        self.init.map(|init| PyPeltInit { init })
    }
    #[getter]
    fn util_est(&self) -> bool {
        self.util_est
    }
    #[getter]
    fn rule(&self) -> Option<&str> {
        self.rule.as_deref()
    }
    #[getter]
    fn execl_fix(&self) -> Option<bool> {
        self.execl_fix
    }
    #[getter]
    fn hz(&self) -> Option<u64> {
        self.hz
    }
    #[getter]
    fn start_ns(&self) -> Option<u64> {
        self.start_ns
    }

    fn __repr__(&self) -> String {
        format!(
            "PeltOptions(kernel={:?}, init={}, util_est={}, rule={:?}, execl_fix={:?}, hz={:?}, start_ns={:?})",
            self.kernel,
            self.init.map_or("None", |i| i.name()),
            self.util_est,
            self.rule,
            self.execl_fix,
            self.hz,
            self.start_ns
        )
    }
}

/// Simulate a trace given as columns; returns a dict of numpy columns. A `tick` column
/// (0/1) gives the trace's own ticks (docs/pelt.md §5.3).
#[pyfunction]
#[pyo3(signature = (dur_ns, state, cpu_cap, freq_cap, /, *, options, tick=None, columns=None, events=None))]
#[allow(clippy::too_many_arguments)]
fn pelt_simulate_arrays<'py>(
    py: Python<'py>,
    dur_ns: PyReadonlyArray1<'_, i64>,
    state: PyReadonlyArray1<'_, u8>,
    cpu_cap: PyReadonlyArray1<'_, i64>,
    freq_cap: PyReadonlyArray1<'_, i64>,
    options: PyRef<'_, PyPeltOptions>,
    tick: Option<PyReadonlyArray1<'_, u8>>,
    columns: Option<Vec<String>>,
    events: Option<Vec<String>>,
) -> PyResult<Bound<'py, PyDict>> {
    // the arrays are read in place without the GIL: read-only until the call returns
    let _locked = [lock(&dur_ns), lock(&state), lock(&cpu_cap), lock(&freq_cap), tick.as_ref().and_then(lock)];
    let (d, s, c, f) = (slice(&dur_ns), slice(&state), slice(&cpu_cap), slice(&freq_cap));
    let t = tick.as_ref().map(slice);
    let sel = Select { columns, events };
    let opts = options.clone();
    let cols = run(py, || {
        let cfg = opts.config(&Directives::default())?;
        match t.as_deref().filter(|t| t.iter().any(|&x| x != 0)) {
            Some(ticks) => {
                let segs = columns::segments_with_ticks(&d, &s, &c, &f, ticks)?;
                columns::replay_segments(&segs, &cfg, &sel)
            }
            None => columns::replay_trace_columns(&d, &s, &c, &f, &cfg, &sel),
        }
    })?;
    columns_dict(py, cols)
}

/// Simulate a trace CSV file (its directives fill in the options not set); returns a
/// dict of numpy columns.
#[pyfunction]
#[pyo3(signature = (path, /, *, options, columns=None, events=None))]
fn pelt_simulate_file<'py>(
    py: Python<'py>,
    path: PathBuf,
    options: PyRef<'_, PyPeltOptions>,
    columns: Option<Vec<String>>,
    events: Option<Vec<String>>,
) -> PyResult<Bound<'py, PyDict>> {
    let sel = Select { columns, events };
    let opts = options.clone();
    let cols = run(py, || {
        let (segs, directives) = trace::read_trace_file(&path)?;
        let cfg = opts.config(&directives)?;
        columns::replay_segments(&segs, &cfg, &sel)
    })?;
    columns_dict(py, cols)
}

/// A trace given as bytes, a path, or a binary file object (read a chunk at a time).
#[derive(FromPyObject)]
enum Source {
    /// The bytes themselves.
    #[pyo3(transparent)]
    Bytes(Vec<u8>),
    /// A file.
    #[pyo3(transparent)]
    Path(PathBuf),
    /// An object with `read(n)` returning bytes (standard input's buffer).
    #[pyo3(transparent)]
    Reader(Py<PyAny>),
}

/// A Python binary file object as an `io::Read`: each chunk read with the GIL taken
/// back briefly; a Python exception is kept to be re-raised as is.
struct PyRead {
    file: Py<PyAny>,
    err: Option<PyErr>,
}

impl std::io::Read for PyRead {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let r = Python::attach(|py| -> PyResult<usize> {
            let chunk = self.file.call_method1(py, "read", (buf.len(),))?;
            let bytes = chunk.bind(py).cast::<PyBytes>().map_err(PyErr::from)?.as_bytes();
            let n = bytes.len().min(buf.len());
            buf[..n].copy_from_slice(&bytes[..n]);
            Ok(n)
        });
        r.map_err(|e| {
            self.err = Some(e);
            std::io::Error::other("the Python read() failed")
        })
    }
}

/// Simulate the trace CSV `source` (bytes, named `name` in errors, or a path) and render
/// the rows as CSV, read and written a chunk at a time: to the file `out`, or to the
/// callable `write` (both return None), else returned as bytes.
#[pyfunction]
#[pyo3(signature = (source, /, *, options, name=None, out=None, write=None))]
fn pelt_simulate_csv<'py>(
    py: Python<'py>,
    source: Source,
    options: PyRef<'_, PyPeltOptions>,
    name: Option<String>,
    out: Option<PathBuf>,
    write: Option<Py<PyAny>>,
) -> PyResult<Option<Bound<'py, PyBytes>>> {
    let opts = options.clone();
    let mut sink = write.map(|w| PyWrite { write: w, err: None });
    let mut input = match &source {
        Source::Reader(f) => Some(PyRead { file: f.clone_ref(py), err: None }),
        _ => None,
    };
    let result = run(py, || {
        let to = match (&out, sink.as_mut()) {
            (Some(p), _) => CsvOutput::File(p),
            (None, Some(w)) => CsvOutput::Write(w),
            (None, None) => CsvOutput::Memory,
        };
        if let Some(r) = input.as_mut() {
            let label = name.as_deref().unwrap_or("<stdin>");
            let capped = schedlab::line_cap::LineCap::new(r, trace::MAX_LINE_BYTES);
            let mut reader = trace::TraceReader::open(capped, Some(label))?;
            let cfg = opts.config(&reader.directives)?;
            return driver::simulate_csv_stream(&mut reader, &cfg, to);
        }
        match &source {
            Source::Bytes(b) => {
                let label = name.as_deref().unwrap_or("<bytes>");
                let mut reader = trace::TraceReader::open(b.as_slice(), Some(label))?;
                let cfg = opts.config(&reader.directives)?;
                driver::simulate_csv_stream(&mut reader, &cfg, to)
            }
            Source::Path(p) => {
                let label = p.display().to_string();
                let input = trace::open_stream(p)?;
                let mut reader = trace::TraceReader::open(input, Some(&label))?;
                let cfg = opts.config(&reader.directives)?;
                driver::simulate_csv_stream(&mut reader, &cfg, to)
            }
            Source::Reader(_) => Err(schedlab::Error::Internal("a reader without its adapter".into())),
        }
    });
    if let Some(err) = sink.and_then(|s| s.err).or(input.and_then(|r| r.err)) {
        return Err(err);
    }
    Ok(result?.map(|b| PyBytes::new(py, &b)))
}

fn trace_dict<'py>(py: Python<'py>, segs: &[Segment]) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("dur_ns", segs.iter().map(|s| s.dur_ns as i64).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("state", segs.iter().map(|s| s.state.letter() as u8).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("cpu_cap", segs.iter().map(|s| i64::from(s.cpu_cap)).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("freq_cap", segs.iter().map(|s| i64::from(s.freq_cap)).collect::<Vec<_>>().into_pyarray(py))?;
    if segs.iter().any(|s| s.tick) {
        d.set_item("tick", segs.iter().map(|s| u8::from(s.tick)).collect::<Vec<_>>().into_pyarray(py))?;
    }
    Ok(d)
}

/// Parse trace CSV text; returns its columns (state as ASCII codes).
#[pyfunction]
#[pyo3(signature = (data, /, *, path=None))]
fn pelt_parse_trace<'py>(py: Python<'py>, data: &[u8], path: Option<String>) -> PyResult<Bound<'py, PyDict>> {
    let segs = run(py, || trace::parse_trace_csv(data, path.as_deref()))?;
    trace_dict(py, &segs)
}

/// Read a trace CSV file; returns its columns (state as ASCII codes).
#[pyfunction]
fn pelt_read_trace(py: Python<'_>, path: PathBuf) -> PyResult<Bound<'_, PyDict>> {
    let segs = run(py, || trace::read_trace_csv(&path))?;
    trace_dict(py, &segs)
}

/// Where a task's CPUs get their capacities, as Python gives them.
#[derive(FromPyObject)]
struct PySources {
    cpu_cap: Option<u32>,
    freq_cap: Option<u32>,
    cpu_capacity: Option<String>,
    max_freq: Option<String>,
    plat_info: Option<PathBuf>,
    sysfs: Option<PathBuf>,
}

impl PySources {
    fn sources(&self) -> Sources<'_> {
        Sources {
            capacities: self.cpu_capacity.as_deref(),
            max_freqs: self.max_freq.as_deref(),
            cpu_cap: self.cpu_cap,
            freq_cap: self.freq_cap,
            plat_info: self.plat_info.as_deref(),
            sysfs: self.sysfs.as_deref(),
        }
    }
}

/// A task imported from a trace (docs/pelt.md §5.5): its segments, where they start,
/// the start state the trace gives, the kernel its header names and the notes; the
/// core's value itself (`pelt::ftrace::FtraceTask`).
#[pyclass(frozen, name = "PeltImport", module = "schedlab._core")]
pub struct PyPeltImport {
    segments: Vec<Segment>,
    start_ns: u64,
    init: Option<Init>,
    events: u64,
    notes: Vec<String>,
    kernel: Option<&'static str>,
    pid: u32,
}

#[pymethods]
impl PyPeltImport {
    /// The segments as numpy columns: `dur_ns`, `state` (ASCII codes), `cpu_cap`,
    /// `freq_cap`, and `tick` when the trace gives its ticks.
    fn columns<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        trace_dict(py, &self.segments)
    }
    /// Where the first segment starts (ns).
    #[getter]
    fn start_ns(&self) -> u64 {
        self.start_ns
    }
    /// The start state the trace gives, for `simulate`'s `init` (None: the caller's).
    #[getter]
    fn init(&self) -> Option<PyPeltInit> {
        self.init.map(|init| PyPeltInit { init })
    }
    /// The task's own events used.
    #[getter]
    fn events(&self) -> u64 {
        self.events
    }
    /// The malformed lines skipped and what was assumed, one line each.
    #[getter]
    fn notes(&self) -> Vec<String> {
        self.notes.clone()
    }
    /// The kernel version whose rules the trace's kernel follows (its header's).
    #[getter]
    fn kernel(&self) -> Option<&'static str> {
        self.kernel
    }
    /// The task.
    #[getter]
    fn pid(&self) -> u32 {
        self.pid
    }
    fn __len__(&self) -> usize {
        self.segments.len()
    }
    fn __repr__(&self) -> String {
        format!(
            "PeltImport(pid={}, segments={}, start_ns={}, init={}, kernel={:?})",
            self.pid,
            self.segments.len(),
            self.start_ns,
            self.init.map_or("None", |i| i.name()),
            self.kernel
        )
    }
}

/// A pid's task trace from ftrace text or a trace.dat (`source`: the bytes or a path),
/// the CPUs' capacities from the given values, a plat-info YAML or a sysfs directory
/// (`pelt::cpu_capacity::Platform::from_sources`); `strict` makes a malformed line an
/// error, `sort` sorts events out of time order; `traced_start`: the segments from a
/// traced PELT state.
#[pyfunction]
#[pyo3(signature = (source, /, *, pid, cpu_cap=None, freq_cap=None, strict=false, sort=false, cpu_capacity=None, max_freq=None, plat_info=None, sysfs=None, traced_start=false))]
#[allow(clippy::too_many_arguments)]
fn pelt_ftrace(
    py: Python<'_>,
    source: Source,
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
) -> PyResult<PyPeltImport> {
    let opts = ImportOptions { strict, sort };
    let src = PySources { cpu_cap, freq_cap, cpu_capacity, max_freq, plat_info, sysfs };
    let t = run(py, || match &source {
        Source::Bytes(b) => ftrace::task_trace(Some(b), None, pid, &src.sources(), opts),
        Source::Path(p) => ftrace::task_trace(None, Some(p), pid, &src.sources(), opts),
        Source::Reader(_) => Err(schedlab::Error::domain("give the trace as bytes or a path")),
    })?;
    let (notes, events, kernel) = (t.notes.messages(), t.events, t.kernel);
    let (segments, start_ns, init) = t.into_start(traced_start);
    Ok(PyPeltImport { segments, start_ns, init, events, notes, kernel, pid })
}

/// What writing a task's trace CSV found (`pelt::ftrace::Written`).
#[pyclass(frozen, name = "PeltTraceWritten", module = "schedlab._core")]
pub struct PyPeltWritten {
    inner: ftrace::Written,
}

#[pymethods]
impl PyPeltWritten {
    /// Segments written.
    #[getter]
    fn segments(&self) -> u64 {
        self.inner.segments
    }
    /// The task's own events used.
    #[getter]
    fn events(&self) -> u64 {
        self.inner.events
    }
    /// Where the first segment starts (trace ns; the PELT clock when placed on it).
    #[getter]
    fn start_ns(&self) -> u64 {
        self.inner.start_ns
    }
    /// The kernel its directives name.
    #[getter]
    fn kernel(&self) -> Option<String> {
        self.inner.directives.kernel.clone()
    }
    /// The start state its directives give.
    #[getter]
    fn init(&self) -> Option<PyPeltInit> {
        self.inner.directives.init.map(|init| PyPeltInit { init })
    }
    /// The malformed lines skipped and what was assumed, one line each.
    #[getter]
    fn notes(&self) -> Vec<String> {
        self.inner.notes.messages()
    }
}

/// Write the trace CSV of `pid` in `source` (a path, or the bytes) with its directives
/// (docs/pelt.md §8.1): to the file `out`, or in chunks to the callable `write`; the
/// segments are written as the trace is read.
#[pyfunction]
#[pyo3(signature = (source, /, *, pid, out=None, write=None, cpu_cap=None, freq_cap=None, strict=false, sort=false, cpu_capacity=None, max_freq=None, plat_info=None, sysfs=None))]
#[allow(clippy::too_many_arguments)]
fn pelt_ftrace_csv(
    py: Python<'_>,
    source: Source,
    pid: u32,
    out: Option<PathBuf>,
    write: Option<Py<PyAny>>,
    cpu_cap: Option<u32>,
    freq_cap: Option<u32>,
    strict: bool,
    sort: bool,
    cpu_capacity: Option<String>,
    max_freq: Option<String>,
    plat_info: Option<PathBuf>,
    sysfs: Option<PathBuf>,
) -> PyResult<PyPeltWritten> {
    let opts = ImportOptions { strict, sort };
    let src = PySources { cpu_cap, freq_cap, cpu_capacity, max_freq, plat_info, sysfs };
    let mut sink = write.map(|w| PyWrite { write: w, err: None });
    let result = run(py, || {
        let target: Box<dyn std::io::Write + Send + '_> = match (&out, sink.as_mut()) {
            (Some(p), _) => Box::new(std::fs::File::create(p).map_err(|e| schedlab::Error::io(p, &e))?),
            (None, Some(w)) => Box::new(w),
            (None, None) => return Err(schedlab::Error::domain("give out= or write=")),
        };
        let name = out.as_ref().map_or_else(|| "<stdout>".to_string(), |p| p.display().to_string());
        ftrace::write_task_csv_from(&source_of(&source), pid, &src.sources(), opts, target, &name)
    });
    if let Some(err) = sink.and_then(|s| s.err) {
        return Err(err);
    }
    Ok(PyPeltWritten { inner: result? })
}

/// The core's view of a [`Source`].
fn source_of(s: &Source) -> ftrace::TraceSource<'_> {
    match s {
        Source::Bytes(b) => ftrace::TraceSource::Bytes(b),
        Source::Path(p) => ftrace::TraceSource::Path(p),
        Source::Reader(_) => ftrace::TraceSource::Bytes(&[]),
    }
}

/// `decay_load(val, n)` element-wise.
#[pyfunction]
fn pelt_decay_load<'py>(
    py: Python<'py>,
    val: PyReadonlyArray1<'_, u64>,
    n: PyReadonlyArray1<'_, u64>,
) -> PyResult<Bound<'py, numpy::PyArray1<u64>>> {
    let _locked = [lock(&val), lock(&n)];
    let (v, n) = (slice(&val), slice(&n));
    let out = run(py, || signal::decay_load_each(&v, &n))?;
    Ok(out.into_pyarray(py))
}

/// Step one `sched_avg` through `___update_load_sum`/`___update_load_avg`; a dict of
/// the golden `pelt_accumulate.csv` columns.
#[pyfunction]
#[pyo3(signature = (delta_ns, load, runnable, running, /, *, start_ns, weight))]
fn pelt_accumulate<'py>(
    py: Python<'py>,
    delta_ns: PyReadonlyArray1<'_, u64>,
    load: PyReadonlyArray1<'_, u64>,
    runnable: PyReadonlyArray1<'_, u64>,
    running: PyReadonlyArray1<'_, u64>,
    start_ns: u64,
    weight: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let _locked = [lock(&delta_ns), lock(&load), lock(&runnable), lock(&running)];
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
#[pyo3(signature = (*, rule, ewma, unchanged, enqueued, util_avg, runnable_avg, cpu_cap, task_sleep))]
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
    let _locked = [lock(&ewma), lock(&unchanged), lock(&enqueued), lock(&util_avg), lock(&runnable_avg)];
    let _locked_too = [lock(&cpu_cap), lock(&task_sleep)];
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

/// `cpu_util(cpu, p, dst_cpu, boost)` for one CPU and optionally one task
/// `(util_avg, util_est, fix_amount, queued_or_current, on_this_cpu, is_new)`.
#[pyfunction]
#[pyo3(signature = (*, util_avg, runnable_avg, util_est, capacity, util_est_enabled, task, dst, boost, execl_fix))]
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
#[pyo3(signature = (*, util, capacity, ref_freq, opps, policy_min, policy_max, min_perf, version))]
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
    version: &str,
) -> PyResult<(u64, u64)> {
    let version = version.to_owned();
    run(py, || {
        let legacy = Version::parse(&version)? == Version::Legacy;
        let r = schedutil::Request { util, capacity, ref_freq, opps: &opps, policy_min, policy_max, min_perf, legacy };
        schedutil::perf_and_freq(&r)
    })
}

/// Add the PELT functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(pelt_simulate_arrays, m)?)?;
    m.add_function(wrap_pyfunction!(pelt_simulate_file, m)?)?;
    m.add_function(wrap_pyfunction!(pelt_simulate_csv, m)?)?;
    m.add_function(wrap_pyfunction!(pelt_parse_trace, m)?)?;
    m.add_function(wrap_pyfunction!(pelt_read_trace, m)?)?;
    m.add_function(wrap_pyfunction!(pelt_ftrace, m)?)?;
    m.add_function(wrap_pyfunction!(pelt_ftrace_csv, m)?)?;
    m.add_class::<PyPeltInit>()?;
    m.add_class::<PyPeltOptions>()?;
    m.add_class::<PyPeltImport>()?;
    m.add_class::<PyPeltWritten>()?;
    m.add_function(wrap_pyfunction!(pelt_decay_load, m)?)?;
    m.add_function(wrap_pyfunction!(pelt_accumulate, m)?)?;
    m.add_function(wrap_pyfunction!(pelt_util_est_update, m)?)?;
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
    m.add("PELT_RULES", schedlab::pelt::util_est::RULE_NAMES.to_vec())?;
    m.add("PELT_DEFAULT_RULE", schedlab::pelt::util_est::DEFAULT_RULE)?;
    m.add("PELT_KERNELS", schedlab::pelt::kernel::kernel_names())?;
    m.add("PELT_UTIL_COLUMNS", UTIL_COLUMNS.to_vec())?;
    m.add("PELT_DEFAULT_START_NS", driver::DEFAULT_START_NS)?;
    m.add("PELT_DEFAULT_HZ", schedlab::jiffies::DEFAULT_HZ)?;
    m.add("PELT_CAPACITY_SCALE", schedlab::pelt::consts::SCHED_CAPACITY_SCALE)?;
    m.add("PELT_SCHEDUTIL_VERSIONS", Version::names())?;
    m.add("PELT_NICE_0_WEIGHT", schedlab::pelt::consts::NICE_0_WEIGHT)?;
    Ok(())
}
