//! Bindings of [`schedlab::series`]: change points of many metrics over one history.

use super::arrays::F64;
use super::errors::run;
use numpy::{IntoPyArray, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use schedlab::archive::Limits;
use schedlab::series::{analyze_named, read_trees, Options};
use std::path::{Path, PathBuf};

/// Change points of `values` (metrics × `commits`, row-major, NaN = missing), as
/// columns: metric (row), index (commit), the segment figures, change, p, verdict.
#[pyfunction]
#[pyo3(signature = (values, commits, directions, *, window=None, max_p=None, min_magnitude=None, permutations=None, seed=0, threads=None))]
#[allow(clippy::too_many_arguments)]
fn change_points<'py>(
    py: Python<'py>,
    values: PyReadonlyArray1<'_, f64>,
    commits: usize,
    directions: Vec<String>,
    window: Option<usize>,
    max_p: Option<f64>,
    min_magnitude: Option<f64>,
    permutations: Option<usize>,
    seed: u64,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let v = F64::new(values);
    let vs = v.slice();
    let opts = Options::given(window, max_p, min_magnitude, permutations, seed);
    let rows = run(py, || analyze_named(&vs, commits, &directions, &opts, threads))?;
    let d = PyDict::new(py);
    d.set_item("metric", rows.iter().map(|(r, _)| r.metric as u64).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("index", rows.iter().map(|(r, _)| r.point.index as u64).collect::<Vec<_>>().into_pyarray(py))?;
    macro_rules! cols { ($($f:ident),*) => {$(
        d.set_item(stringify!($f), rows.iter().map(|(r, _)| r.point.stats.$f).collect::<Vec<_>>().into_pyarray(py))?;
    )*} }
    cols!(mean_before, mean_after, std_before, std_after, p);
    d.set_item("change", rows.iter().map(|(r, _)| r.change).collect::<Vec<_>>().into_pyarray(py))?;
    let verdicts: Vec<&str> = rows.iter().map(|(_, v)| *v).collect();
    d.set_item("verdict", verdicts)?;
    Ok(d)
}

/// The history of the result trees (directories, archives) at `paths`, in `order`
/// or the rule of [`read_trees`]: runs, metrics, directions, values (metrics × runs,
/// row-major, NaN = no result), the scanners' warnings and what ordered the runs.
#[pyfunction]
#[pyo3(signature = (paths, order=None))]
fn series_trees<'py>(py: Python<'py>, paths: Vec<PathBuf>, order: Option<Vec<String>>) -> PyResult<Bound<'py, PyDict>> {
    let h = run(py, || {
        let p: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
        read_trees(&p, order.as_deref(), &Limits::default())
    })?;
    let d = PyDict::new(py);
    d.set_item("runs", h.runs)?;
    d.set_item("metrics", h.metrics)?;
    d.set_item("directions", h.directions.iter().map(|d| d.name()).collect::<Vec<_>>())?;
    d.set_item("values", h.values.into_pyarray(py))?;
    d.set_item("warnings", h.warnings)?;
    d.set_item("order", h.order)?;
    Ok(d)
}

/// Otava's defaults: (window, max_p, min_magnitude).
#[pyfunction]
fn series_defaults() -> (usize, f64, f64) {
    let d = Options::default();
    (d.window, d.max_p, d.min_magnitude)
}

/// Add the change point functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(change_points, m)?)?;
    m.add_function(wrap_pyfunction!(series_defaults, m)?)?;
    m.add_function(wrap_pyfunction!(series_trees, m)?)?;
    Ok(())
}
