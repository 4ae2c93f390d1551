//! Bindings of [`crate::table`]: comparisons cross the boundary as their JSON form
//! (schema v1), which the Python `schedlab.table.Comparison` reads and writes.

use super::errors::run;
use crate::table::{amd, Comparison};
use crate::tool_text;
use pyo3::prelude::*;

/// The table's own tool layout (None: that tool has none), as [`tool_text::render`].
#[pyfunction]
fn render_tool_text(py: Python<'_>, comparison_json: &str) -> PyResult<Option<String>> {
    run(py, || tool_text::render(&Comparison::from_json(comparison_json)?))
}

/// Every table pasted in `text`, told apart by look; one JSON comparison each.
#[pyfunction]
#[pyo3(signature = (text, source="<text>"))]
fn parse_tables(py: Python<'_>, text: &str, source: &str) -> PyResult<Vec<String>> {
    run(py, || tool_text::parse(text, source)?.iter().map(Comparison::to_json).collect())
}

/// Parse AMD normalised tables; one JSON comparison per table block.
#[pyfunction]
fn parse_amd(py: Python<'_>, text: &str) -> PyResult<Vec<String>> {
    run(py, || amd::parse(text)?.iter().map(Comparison::to_json).collect())
}

/// Render a comparison (JSON) in AMD's layout, normalising raw values first if asked.
#[pyfunction]
fn render_amd(py: Python<'_>, comparison_json: &str, normalise: bool, spread_is_stddev: bool) -> PyResult<String> {
    run(py, || {
        let c = Comparison::from_json(comparison_json)?;
        if normalise {
            amd::render(&amd::normalise(&c, spread_is_stddev)?)
        } else {
            amd::render(&c)
        }
    })
}

/// Add the table functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(render_tool_text, m)?)?;
    m.add_function(wrap_pyfunction!(parse_tables, m)?)?;
    m.add_function(wrap_pyfunction!(parse_amd, m)?)?;
    m.add_function(wrap_pyfunction!(render_amd, m)?)?;
    Ok(())
}
