//! Binding of [`schedlab::table::benchtab`]: benchstat's tables of Go benchmark files,
//! split by benchstat's projections, as text or CSV (docs/benchstat.md §7).

use super::errors::run;
use pyo3::prelude::*;
use schedlab::choice::Choice;
use schedlab::table::benchtab::{build, read_inputs, Options, OutputFormat};

/// benchstat's output for the Go benchmark files `inputs` (`PATH` or `LABEL=PATH`):
/// `(stdout, warnings)`; `format` is "text" (warnings empty: they are footnotes) or
/// "csv" (warnings apart, each naming its cell). None takes benchstat's default.
#[pyfunction]
#[pyo3(signature = (inputs, *, table=None, row=None, col=None, ignore=None, filter=None, alpha=None, confidence=None, format=None))]
#[allow(clippy::too_many_arguments)]
fn benchstat_tables(
    py: Python<'_>,
    inputs: Vec<String>,
    table: Option<String>,
    row: Option<String>,
    col: Option<String>,
    ignore: Option<String>,
    filter: Option<String>,
    alpha: Option<f64>,
    confidence: Option<f64>,
    format: Option<String>,
) -> PyResult<(String, String)> {
    let d = Options::default();
    let o = Options {
        table: table.unwrap_or(d.table),
        row: row.unwrap_or(d.row),
        col: col.unwrap_or(d.col),
        ignore: ignore.unwrap_or(d.ignore),
        filter: filter.unwrap_or(d.filter),
        alpha: alpha.unwrap_or(d.alpha),
        confidence: confidence.unwrap_or(d.confidence),
    };
    run(py, || {
        let format = format.as_deref().map_or(Ok(OutputFormat::Text), OutputFormat::parse)?;
        Ok(build(&read_inputs(&inputs)?, &o)?.render(format))
    })
}

/// Add the binding to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("BENCHSTAT_FORMATS", OutputFormat::names())?;
    let d = Options::default();
    let defaults = pyo3::types::PyDict::new(m.py());
    for (k, v) in [("table", d.table), ("row", d.row), ("col", d.col), ("ignore", d.ignore), ("filter", d.filter)] {
        defaults.set_item(k, v)?;
    }
    defaults.set_item("alpha", d.alpha)?;
    defaults.set_item("confidence", d.confidence)?;
    defaults.set_item("format", OutputFormat::Text.name())?;
    m.add("BENCHSTAT_DEFAULTS", defaults)?;
    m.add_function(wrap_pyfunction!(benchstat_tables, m)?)?;
    Ok(())
}
