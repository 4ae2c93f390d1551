//! Bindings of [`schedlab::readers`]: a result file's samples as columns.

use super::comparison::PyComparison;
use super::errors::run;
use super::str_column::shared;
use numpy::IntoPyArray;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use schedlab::readers::groups::{read_groups, Input};
use schedlab::readers::{read_file_columns, Format, Samples, FORMAT_NAMES};
use schedlab::stats::Test;
use schedlab::table::Direction;

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
    columns(py, &rows)
}

/// `rows` as columns metric, value, unit, direction, group.
fn columns<'py>(py: Python<'py>, rows: &Samples) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("metric", shared(py, rows.iter().map(|r| r.metric))?)?;
    d.set_item("value", rows.values().to_vec().into_pyarray(py))?;
    d.set_item("unit", shared(py, rows.iter().map(|r| r.unit))?)?;
    d.set_item("direction", shared(py, rows.iter().map(|r| r.direction.name()))?)?;
    d.set_item("group", shared(py, rows.iter().map(|r| r.group))?)?;
    Ok(d)
}

fn inputs(paths: Vec<std::path::PathBuf>) -> Vec<Input> {
    paths.into_iter().map(|path| Input { path, label: None }).collect()
}

/// Every path read as a group ([`read_groups`]: a file, or a directory whose files
/// are its runs), one unit per metric, as the columns of [`read_results`] with the
/// group filled in.
#[pyfunction]
#[pyo3(signature = (paths, format=None))]
fn read_result_groups<'py>(
    py: Python<'py>,
    paths: Vec<std::path::PathBuf>,
    format: Option<String>,
) -> PyResult<Bound<'py, PyDict>> {
    let g = run(py, || {
        let f = format.as_deref().map(Format::parse).transpose()?;
        read_groups(&inputs(paths), f)
    })?;
    columns(py, &g.samples)
}

/// The comparison of every metric of the groups `paths` with the first group's
/// ([`schedlab::readers::groups::Groups::compare`]), carrying the shared configuration
/// for the benchstat view; `direction` ("higher"/"lower") overrides every metric's.
#[pyfunction]
#[pyo3(signature = (paths, format=None, *, direction=None, test=crate::defaults::test(), alpha=None, margin=None, power=None, threads=None))]
#[allow(clippy::too_many_arguments)]
fn compare_result_groups(
    py: Python<'_>,
    paths: Vec<std::path::PathBuf>,
    format: Option<String>,
    direction: Option<String>,
    test: &str,
    alpha: Option<f64>,
    margin: Option<f64>,
    power: Option<f64>,
    threads: Option<usize>,
) -> PyResult<PyComparison> {
    let test = test.to_owned();
    let c = run(py, || {
        let f = format.as_deref().map(Format::parse).transpose()?;
        let given = direction.as_deref().map(Direction::parse).transpose()?;
        let rule = super::table::rule_of(alpha, margin, power, 0.0);
        rule.validate()?;
        read_groups(&inputs(paths), f)?.compare(given, Test::parse(&test)?, &rule, threads)
    })?;
    Ok(PyComparison::from_core(c))
}

/// Add the readers to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("RESULT_FORMATS", FORMAT_NAMES.to_vec())?;
    m.add_function(wrap_pyfunction!(read_results, m)?)?;
    m.add_function(wrap_pyfunction!(read_result_groups, m)?)?;
    m.add_function(wrap_pyfunction!(compare_result_groups, m)?)?;
    Ok(())
}
