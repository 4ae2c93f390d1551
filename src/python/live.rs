//! Bindings of [`schedlab::live`]: a recording (and the probe that picks its CPU) with the
//! GIL released, and the live check of a recording directory as one frozen class holding
//! the core's [`LiveCheck`], rendered by the core as text or HTML.

use super::errors::{on_main_thread, run, to_py, to_pyerr};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use schedlab::import_notes::ImportOptions;
use schedlab::live::check::check_dir;
use schedlab::live::probe::{default_cpu, probe_idle_tracing, Probe};
use schedlab::live::record::{record, Options};
use schedlab::live::record_defaults::{RecordDefaults, RECORD_DEFAULTS as D};
use schedlab::live::record_set::{record_sets, SetOptions};
use schedlab::live::setting::{Group, SettingKind};
use schedlab::live::summary::LiveCheck;
use schedlab::live::{events, html, text};
use std::path::PathBuf;
use std::sync::Arc;

/// Record a task into `out` (docs/live.md §1): the metadata written to meta.json as a
/// dict, and the notes for the caller to show. SIGTERM stops the recording as Ctrl-C
/// does when called from Python's main thread (which owns the signal handlers).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (out, python, *, command=None, pid=None, seconds=D.seconds, busy_ms=D.busy_ms,
    sleep_ms=D.sleep_ms, cpu=None, governor=Some(D.governor.to_string()), buffer_kb=D.buffer_kb,
    sample_us=D.sample_us))]
fn live_record<'py>(
    py: Python<'py>,
    out: PathBuf,
    python: PathBuf,
    command: Option<Vec<String>>,
    pid: Option<u32>,
    seconds: f64,
    busy_ms: f64,
    sleep_ms: f64,
    cpu: Option<usize>,
    governor: Option<String>,
    buffer_kb: u64,
    sample_us: f64,
) -> PyResult<(Bound<'py, PyAny>, Vec<String>)> {
    let opts = Options {
        command,
        pid,
        seconds,
        busy_ms,
        sleep_ms,
        cpu,
        governor,
        buffer_kb,
        sample_us,
        python,
        catch_sigterm: on_main_thread(py),
    };
    let r = run(py, || record(&out, &opts))?;
    Ok((to_py(py, &r.meta)?, r.notes))
}

/// A group as Python gives it: a command-line spec (`NAME:KIND=VALUE,...`) or a name
/// with its (kind, value) pairs.
#[derive(FromPyObject)]
enum GroupArg {
    Spec(String),
    Named(String, Vec<(String, String)>),
}

/// Record sets of recordings into `out` (docs/live.md §8): the metadata written to
/// sets.json as a dict, and the notes for the caller to show.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (out, python, groups, *, runs=D.runs, command=None, seconds=D.seconds, busy_ms=D.busy_ms,
    sleep_ms=D.sleep_ms, buffer_kb=D.buffer_kb))]
fn live_record_sets<'py>(
    py: Python<'py>,
    out: PathBuf,
    python: PathBuf,
    groups: Vec<GroupArg>,
    runs: usize,
    command: Option<Vec<String>>,
    seconds: f64,
    busy_ms: f64,
    sleep_ms: f64,
    buffer_kb: u64,
) -> PyResult<(Bound<'py, PyAny>, Vec<String>)> {
    let catch_sigterm = on_main_thread(py);
    let r = run(py, || {
        let groups = groups
            .iter()
            .map(|g| match g {
                GroupArg::Spec(s) => Group::parse(s),
                GroupArg::Named(name, pairs) => Group::new(name, pairs),
            })
            .collect::<schedlab::Result<Vec<_>>>()?;
        let opts = SetOptions { groups, runs, command, seconds, busy_ms, sleep_ms, buffer_kb, python, catch_sigterm };
        record_sets(&out, &opts)
    })?;
    Ok((to_py(py, &r.meta)?, r.notes))
}

/// The defaults of a recording, as the core defines them (src/live/record_defaults.rs).
#[pyclass(name = "LiveRecordDefaults", module = "schedlab._core", frozen)]
struct PyRecordDefaults(RecordDefaults);

#[pymethods]
impl PyRecordDefaults {
    /// The built-in pattern's duration, and how long a pid is followed, s.
    #[getter]
    fn seconds(&self) -> f64 {
        self.0.seconds
    }
    /// The pattern's busy time per period, ms.
    #[getter]
    fn busy_ms(&self) -> f64 {
        self.0.busy_ms
    }
    /// The pattern's sleep per period, ms.
    #[getter]
    fn sleep_ms(&self) -> f64 {
        self.0.sleep_ms
    }
    /// The cpuidle governor used during a single recording.
    #[getter]
    fn governor(&self) -> &'static str {
        self.0.governor
    }
    /// The tracefs instance's buffer per CPU, kB.
    #[getter]
    fn buffer_kb(&self) -> u64 {
        self.0.buffer_kb
    }
    /// The sampler's sleep between two readings, µs.
    #[getter]
    fn sample_us(&self) -> f64 {
        self.0.sample_us
    }
    /// Recordings per group of a set.
    #[getter]
    fn runs(&self) -> usize {
        self.0.runs
    }
    fn __repr__(&self) -> String {
        format!("{:?}", self.0)
    }
}

/// Per CPU, (cpu_idle records, sysfs idle entries) of a `seconds` probe.
#[pyfunction]
fn live_probe_idle_tracing(py: Python<'_>, seconds: f64) -> PyResult<Probe> {
    run(py, || probe_idle_tracing(seconds))
}

/// The CPU a recording uses when none is given, from a probe's counts.
#[pyfunction]
fn live_default_cpu(py: Python<'_>, probe: Probe) -> PyResult<usize> {
    run(py, || default_cpu(&probe))
}

/// A live check (docs/live.md): the recording's metadata, the PELT/util_est and idle
/// figures, the per-reading columns and the notes, the core's [`LiveCheck`] held as it
/// is. It reads as a mapping of those five sections (`check["pelt"]["readings"]`, built
/// when asked for); `repr()`, the text and the HTML are rendered by the core from the
/// value itself. `LiveCheck(check_or_mapping, **sections)` makes a copy with sections
/// replaced (a mapping's `columns` are not read).
#[pyclass(name = "LiveCheck", module = "schedlab._core", frozen, mapping)]
pub struct PyLiveCheck {
    inner: Arc<LiveCheck>,
}

/// The sections of a check, in the order its mapping gives them.
const SECTIONS: [&str; 5] = ["meta", "pelt", "columns", "notes", "idle"];

fn depythonize_as<T: serde::de::DeserializeOwned>(py: Python<'_>, v: &Bound<'_, PyAny>, what: &str) -> PyResult<T> {
    pythonize::depythonize(v).map_err(|e| {
        to_pyerr(py, schedlab::Error::parse(Some("<live check>"), None, format!("not a live check's {what}: {e}")))
    })
}

#[pymethods]
impl PyLiveCheck {
    #[new]
    #[pyo3(signature = (source, **sections))]
    fn new(py: Python<'_>, source: &Bound<'_, PyAny>, sections: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let mut c: LiveCheck = match source.cast::<PyLiveCheck>() {
            Ok(other) => (*other.get().inner).clone(),
            Err(_) => depythonize_as(py, source, "result")?,
        };
        for (k, v) in sections.into_iter().flat_map(|d| d.iter()) {
            match k.extract::<String>()?.as_str() {
                "meta" => c.meta = depythonize_as(py, &v, "meta")?,
                "pelt" => c.pelt = depythonize_as(py, &v, "pelt")?,
                "notes" => c.notes = depythonize_as(py, &v, "notes")?,
                "idle" => c.idle = depythonize_as(py, &v, "idle")?,
                other => {
                    return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                        "LiveCheck has no section {other:?} to replace (meta, pelt, notes, idle)"
                    )))
                }
            }
        }
        Ok(PyLiveCheck { inner: Arc::new(c) })
    }

    fn __getitem__<'py>(&self, py: Python<'py>, key: &str) -> PyResult<Bound<'py, PyAny>> {
        let c = &*self.inner;
        match key {
            "meta" => to_py(py, &c.meta),
            "pelt" => to_py(py, &c.pelt),
            "columns" => to_py(py, &c.columns),
            "notes" => to_py(py, &c.notes),
            "idle" => to_py(py, &c.idle),
            _ => Err(pyo3::exceptions::PyKeyError::new_err(key.to_string())),
        }
    }

    fn __len__(&self) -> usize {
        SECTIONS.len()
    }

    fn __contains__(&self, key: &str) -> bool {
        SECTIONS.contains(&key)
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        SECTIONS.into_pyobject(py)?.try_iter().map(Bound::into_any)
    }

    /// The section names (a mapping's keys).
    fn keys(&self) -> Vec<&'static str> {
        SECTIONS.to_vec()
    }

    /// The whole check as plain dicts and lists (what its JSON would load as).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &*self.inner)
    }

    /// The text `schedlab live` prints.
    fn to_text(&self) -> String {
        text::text(&self.inner)
    }

    fn __repr__(&self) -> String {
        text::repr_line(&self.inner)
    }

    fn _repr_html_(&self) -> String {
        html::html(&self.inner)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyLiveCheck>().is_ok_and(|o| *o.get().inner == *self.inner)
    }
}

/// The live check of the recording in `directory`.
#[pyfunction]
#[pyo3(signature = (directory, *, pid=None, rule=schedlab::pelt::util_est::DEFAULT_RULE, kernel=schedlab::idle::governor::Kernel::DEFAULT.name(), strict=false))]
fn live_check(
    py: Python<'_>,
    directory: PathBuf,
    pid: Option<u32>,
    rule: &str,
    kernel: &str,
    strict: bool,
) -> PyResult<PyLiveCheck> {
    let r = run(py, || check_dir(&directory, pid, rule, kernel, ImportOptions { strict, sort: false }))?;
    Ok(PyLiveCheck { inner: Arc::new(r) })
}

/// Adds the live-check functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(live_record, m)?)?;
    m.add_function(wrap_pyfunction!(live_probe_idle_tracing, m)?)?;
    m.add_function(wrap_pyfunction!(live_default_cpu, m)?)?;
    m.add("LIVE_EVENTS", events::EVENTS.to_vec())?;
    m.add_class::<PyRecordDefaults>()?;
    m.add("LIVE_RECORD_DEFAULTS", PyRecordDefaults(D))?;
    m.add("LIVE_PROBE_SECONDS", schedlab::live::record::PROBE_SECONDS)?;
    m.add_class::<PyLiveCheck>()?;
    m.add_function(wrap_pyfunction!(live_record_sets, m)?)?;
    m.add("LIVE_SETTINGS", <SettingKind as schedlab::choice::Choice>::names())?;
    m.add("LIVE_SET_EVENTS", schedlab::live::record_set::SET_EVENTS.to_vec())?;
    m.add_function(wrap_pyfunction!(live_check, m)?)?;
    Ok(())
}
