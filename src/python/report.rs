//! Bindings of [`crate::report_inputs`]: what each path given to `schedlab report` is.

use super::errors::{run, to_py};
use crate::report_inputs::detect;
use pyo3::prelude::*;
use std::path::PathBuf;

/// The paths classified: a dict of [`crate::report_inputs::Inputs`]'s shape (paths as str).
#[pyfunction]
fn report_inputs(py: Python<'_>, paths: Vec<PathBuf>) -> PyResult<Bound<'_, PyAny>> {
    let found = run(py, || detect(&paths))?;
    to_py(py, &found)
}

/// Adds the report's input detection to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(report_inputs, m)?)?;
    Ok(())
}
