//! Bindings of [`schedlab::report_inputs`] (what each path given to `schedlab report` is)
//! and [`schedlab::report_page`] (the page rendered from the document Python builds).

use super::comparison::PyComparison;
use super::errors::{run, to_py, to_pyerr};
use pyo3::prelude::*;
use schedlab::report_inputs::detect;
use schedlab::report_page::{self, Page};
use schedlab::report_svg::strip::strip_plot;
use std::path::PathBuf;

/// The paths classified: a dict of [`schedlab::report_inputs::Inputs`]'s shape (paths as str).
#[pyfunction]
fn report_inputs(py: Python<'_>, paths: Vec<PathBuf>) -> PyResult<Bound<'_, PyAny>> {
    let found = run(py, || detect(&paths))?;
    to_py(py, &found)
}

/// A value of the report document read from its dict (`what` names it in errors).
fn from_dict<T: serde::de::DeserializeOwned>(py: Python<'_>, d: &Bound<'_, PyAny>, what: &str) -> PyResult<T> {
    pythonize::depythonize(d).map_err(|e| {
        to_pyerr(py, schedlab::Error::parse(Some(&format!("<{what}>")), None, format!("not a report {what}: {e}")))
    })
}

/// The report page as HTML.
#[pyfunction]
fn report_html(py: Python<'_>, page: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(report_page::html(&from_dict::<Page>(py, page, "page")?))
}

/// The report's plain-text summary.
#[pyfunction]
fn report_text(py: Python<'_>, page: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(report_page::text(&from_dict::<Page>(py, page, "page")?))
}

/// One comparison as the report's HTML table.
#[pyfunction]
fn report_comparison_html(comparison: PyRef<'_, PyComparison>) -> String {
    report_page::comparison_html(comparison.core())
}

/// The report's strip plot of an MMTests comparison as SVG
/// ([`schedlab::report_svg::strip::strip_plot`]): `(svg, labels)`, or None when the
/// table has nothing to draw.
#[pyfunction]
#[pyo3(signature = (comparison, *, y_label))]
fn report_strip_svg(comparison: PyRef<'_, PyComparison>, y_label: &str) -> Option<(String, Vec<String>)> {
    strip_plot(comparison.core(), y_label).map(|f| (f.svg, f.labels))
}

/// Adds the report functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(report_inputs, m)?)?;
    m.add_function(wrap_pyfunction!(report_html, m)?)?;
    m.add_function(wrap_pyfunction!(report_text, m)?)?;
    m.add_function(wrap_pyfunction!(report_comparison_html, m)?)?;
    m.add_function(wrap_pyfunction!(report_strip_svg, m)?)?;
    Ok(())
}
