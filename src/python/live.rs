//! Bindings of [`schedlab::live`]: a recording (and the probe that picks its CPU) with the
//! GIL released, the live check of a recording directory as a dict of [`LiveCheck`]'s
//! shape, and that dict rendered as text or HTML.

use super::errors::{on_main_thread, run, to_py, to_pyerr};
use schedlab::import_notes::ImportOptions;
use schedlab::live::check::check_dir;
use schedlab::live::probe::{default_cpu, probe_idle_tracing, Probe};
use schedlab::live::record::{record, Options};
use schedlab::live::record_set::{record_sets, SetOptions};
use schedlab::live::setting::{Group, SettingKind};
use schedlab::live::summary::LiveCheck;
use schedlab::live::{events, html, text};
use pyo3::prelude::*;
use std::path::PathBuf;

/// Record a task into `out` (docs/live.md §1): the metadata written to meta.json as a
/// dict, and the notes for the caller to show. SIGTERM stops the recording as Ctrl-C
/// does when called from Python's main thread (which owns the signal handlers).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (out, python, command, pid, seconds, busy_ms, sleep_ms, cpu, governor, buffer_kb, sample_us))]
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
#[pyo3(signature = (out, python, groups, *, runs, command, seconds, busy_ms, sleep_ms, buffer_kb))]
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

/// The live check of the recording in `directory` as a dict (meta, pelt, columns, notes, idle).
#[pyfunction]
#[pyo3(signature = (directory, pid=None, rule="6.12", kernel="6.12", strict=false))]
fn live_check<'py>(
    py: Python<'py>,
    directory: PathBuf,
    pid: Option<u32>,
    rule: &str,
    kernel: &str,
    strict: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let r = run(py, || check_dir(&directory, pid, rule, kernel, ImportOptions { strict, sort: false }))?;
    to_py(py, &r)
}

/// A check's dict read back (its per-reading columns are not read).
fn from_dict(py: Python<'_>, check: &Bound<'_, PyAny>) -> PyResult<LiveCheck> {
    pythonize::depythonize(check).map_err(|e| {
        to_pyerr(py, schedlab::Error::parse(Some("<live check>"), None, format!("not a live check result: {e}")))
    })
}

/// The text `schedlab live` prints of a check's dict.
#[pyfunction]
fn live_check_text(py: Python<'_>, check: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(text::text(&from_dict(py, check)?))
}

/// The one-line `repr()` of a check's dict.
#[pyfunction]
fn live_check_repr(py: Python<'_>, check: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(text::repr_line(&from_dict(py, check)?))
}

/// The HTML table of a check's dict.
#[pyfunction]
fn live_check_html(py: Python<'_>, check: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(html::html(&from_dict(py, check)?))
}

/// Adds the live-check functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(live_record, m)?)?;
    m.add_function(wrap_pyfunction!(live_probe_idle_tracing, m)?)?;
    m.add_function(wrap_pyfunction!(live_default_cpu, m)?)?;
    m.add("LIVE_EVENTS", events::EVENTS.to_vec())?;
    m.add_function(wrap_pyfunction!(live_record_sets, m)?)?;
    m.add("LIVE_SETTINGS", <SettingKind as schedlab::choice::Choice>::names())?;
    m.add("LIVE_SET_EVENTS", schedlab::live::record_set::SET_EVENTS.to_vec())?;
    m.add_function(wrap_pyfunction!(live_check, m)?)?;
    m.add_function(wrap_pyfunction!(live_check_text, m)?)?;
    m.add_function(wrap_pyfunction!(live_check_repr, m)?)?;
    m.add_function(wrap_pyfunction!(live_check_html, m)?)?;
    Ok(())
}
