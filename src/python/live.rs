//! Bindings of [`crate::live`]: the live check of a recording directory as a dict of
//! [`LiveCheck`]'s shape, and that dict rendered as text or HTML.

use super::errors::{run, to_py, to_pyerr};
use crate::import_notes::ImportOptions;
use crate::live::check::check_dir;
use crate::live::summary::LiveCheck;
use crate::live::{html, text};
use pyo3::prelude::*;
use std::path::PathBuf;

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
        to_pyerr(py, crate::Error::parse(Some("<live check>"), None, format!("not a live check result: {e}")))
    })
}

/// The text `schedlab live` prints of a check's dict.
#[pyfunction]
fn live_check_text(py: Python<'_>, check: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(text::text(&from_dict(py, check)?))
}

/// The HTML table of a check's dict.
#[pyfunction]
fn live_check_html(py: Python<'_>, check: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(html::html(&from_dict(py, check)?))
}

/// Adds the live-check functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(live_check, m)?)?;
    m.add_function(wrap_pyfunction!(live_check_text, m)?)?;
    m.add_function(wrap_pyfunction!(live_check_html, m)?)?;
    Ok(())
}
