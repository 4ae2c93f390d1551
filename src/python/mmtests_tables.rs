//! Bindings of [`schedlab::mmtests::tables`]: what the report shows of each benchmark
//! of one MMTests tree, the tree read once, and the overview cell of a Gmean ratio.

use super::comparison::PyComparison;
use super::errors::{run, to_pyerr};
use pyo3::prelude::*;
use pyo3::types::PyList;
use schedlab::mmtests::tables::{self, OverviewCell};
use schedlab::mmtests::verdicts::VerdictTest;
use std::path::PathBuf;

/// An overview cell as Python sees it: (label, "better"/"worse" or None, ratio).
fn cell(c: &OverviewCell) -> (String, Option<&'static str>, f64) {
    (c.label.clone(), c.verdict.map(|v| v.name()), c.ratio)
}

/// Per `(benchmark, run names)` of the tree at `directory` (read once, benchmarks in
/// parallel on `threads`): `(table, ratio table, cells, changed)` where `table`'s
/// verdicts are decided by `test` at `alpha`, `cells` is one `(label, verdict, ratio)`
/// per kernel after the baseline (or the message saying why there is no Gmean ratio)
/// and `changed` the (row, kernel) indices of the cells whose verdict is a change; or
/// the `SchedlabError` that stopped that benchmark.
#[pyfunction]
#[pyo3(signature = (directory, benchmarks, *, test=crate::defaults::test().to_string(), alpha=crate::defaults::alpha(), threads=None))]
fn mmtests_report_tables<'py>(
    py: Python<'py>,
    directory: PathBuf,
    benchmarks: Vec<(String, Vec<String>)>,
    test: String,
    alpha: f64,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyList>> {
    let each = run(py, || tables::tables_at(&directory, &benchmarks, VerdictTest::parse(&test)?, alpha, threads))?;
    let out = PyList::empty(py);
    for t in each {
        match t {
            Ok(t) => {
                let cells = match &t.cells {
                    Ok(cs) => cs.iter().map(cell).collect::<Vec<_>>().into_pyobject(py)?.into_any(),
                    Err(msg) => msg.into_pyobject(py)?.into_any(),
                };
                let table = Bound::new(py, PyComparison::from_core(t.table.comparison))?;
                let ratio = Bound::new(py, PyComparison::from_core(t.ratio.comparison))?;
                out.append((table, ratio, cells, t.changed))?;
            }
            Err(e @ schedlab::Error::Interrupted) => return Err(to_pyerr(py, e)),
            Err(e) => out.append(to_pyerr(py, e).into_value(py))?,
        }
    }
    Ok(out)
}

/// The overview cell of a direction-aligned Gmean ratio: (label, "better"/"worse" or
/// None, ratio); "n/a" for None or a ratio that is not finite.
#[pyfunction]
fn mmtests_overview_cell(ratio: Option<f64>) -> (String, Option<&'static str>, f64) {
    cell(&OverviewCell::of(ratio.unwrap_or(f64::NAN)))
}

/// Add the functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(mmtests_report_tables, m)?)?;
    m.add_function(wrap_pyfunction!(mmtests_overview_cell, m)?)?;
    Ok(())
}
