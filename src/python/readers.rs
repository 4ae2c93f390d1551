//! Bindings of [`schedlab::readers`]: a result file's samples as columns.

use super::errors::run;
use super::str_column::shared;
use numpy::IntoPyArray;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use schedlab::readers::{read_file_columns, Format, FORMAT_NAMES};

/// The samples of the result file at `path` in `format` (detected when None), as
/// columns metric, value, unit, direction, group (the run the file names; empty if none).
#[pyfunction]
#[pyo3(signature = (path, format=None))]
fn read_results<'py>(
    py: Python<'py>,
    path: std::path::PathBuf,
    format: Option<String>,
) -> PyResult<Bound<'py, PyDict>> {
    let rows = run(py, || {
        let f = format.as_deref().map(Format::parse).transpose()?;
        read_file_columns(&path, f)
    })?;
    let d = PyDict::new(py);
    d.set_item("metric", shared(py, rows.iter().map(|r| r.metric))?)?;
    d.set_item("value", rows.values().to_vec().into_pyarray(py))?;
    d.set_item("unit", shared(py, rows.iter().map(|r| r.unit))?)?;
    d.set_item("direction", shared(py, rows.iter().map(|r| r.direction.name()))?)?;
    d.set_item("group", shared(py, rows.iter().map(|r| r.group))?)?;
    Ok(d)
}

/// Add the readers to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("RESULT_FORMATS", FORMAT_NAMES.to_vec())?;
    m.add_function(wrap_pyfunction!(read_results, m)?)?;
    Ok(())
}
