//! Bindings of [`crate::batch`]: the whole run, and its two halves (scan one input,
//! reduce many scans) for Dask. Scans and results cross as JSON text (the batch
//! result schema, `schedlab-batch` version 1), which pickles cheaply.

use super::errors::run;
use crate::archive::Limits;
use crate::batch::progress::Mode;
use crate::batch::{self, FailOn, InputError, Options, Outcome, Scan, Test};
use crate::parallel;
use pyo3::prelude::*;
use std::path::PathBuf;

#[allow(clippy::too_many_arguments)]
fn options(
    baseline: String,
    test: &str,
    alpha: f64,
    min_change: f64,
    fail_on: &str,
    jobs: Option<usize>,
    keep_going: bool,
    allow_missing: bool,
    progress: &str,
    margin: Option<f64>,
    power: Option<f64>,
    limits: Limits,
) -> crate::Result<Options> {
    let d = Options::default();
    let o = Options {
        baseline,
        test: Test::parse(test)?,
        alpha,
        margin: margin.unwrap_or(d.margin),
        power: power.unwrap_or(d.power),
        min_change,
        fail_on: FailOn::parse(fail_on)?,
        jobs,
        keep_going,
        allow_missing,
        progress: Mode::parse(progress)?,
        limits,
    };
    o.validate()?;
    Ok(o)
}

/// The batch limits with any of the three bounds given instead of its default.
fn limits(limits: (Option<u64>, Option<u64>, Option<u64>)) -> Limits {
    let d = batch::batch_limits();
    Limits {
        max_entry_bytes: limits.0.unwrap_or(d.max_entry_bytes),
        max_total_bytes: limits.1.unwrap_or(d.max_total_bytes),
        max_entries: limits.2.unwrap_or(d.max_entries),
    }
}

/// Scan every input and reduce: the result JSON. `progress`: "off", "bar" or
/// "lines"; `bounds`: (bytes per entry, bytes per archive, entries per archive).
#[pyfunction]
#[pyo3(signature = (paths, baseline, test="welch", alpha=0.05, min_change=0.0, fail_on="regression", jobs=None, keep_going=false, progress="off", allow_missing=false, margin=None, power=None, bounds=(None, None, None)))]
#[allow(clippy::too_many_arguments)]
fn batch_run(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    baseline: String,
    test: &str,
    alpha: f64,
    min_change: f64,
    fail_on: &str,
    jobs: Option<usize>,
    keep_going: bool,
    progress: &str,
    allow_missing: bool,
    margin: Option<f64>,
    power: Option<f64>,
    bounds: (Option<u64>, Option<u64>, Option<u64>),
) -> PyResult<String> {
    run(py, || {
        let o = options(
            baseline,
            test,
            alpha,
            min_change,
            fail_on,
            jobs,
            keep_going,
            allow_missing,
            progress,
            margin,
            power,
            limits(bounds),
        )?;
        batch::run(&paths, &o)?.to_json()
    })
}

/// Scan one input with at most `threads` rayon threads: the scan JSON.
#[pyfunction]
#[pyo3(signature = (path, threads=None, bounds=(None, None, None)))]
fn batch_scan(
    py: Python<'_>,
    path: PathBuf,
    threads: Option<usize>,
    bounds: (Option<u64>, Option<u64>, Option<u64>),
) -> PyResult<String> {
    run(py, || parallel::install(threads, || batch::scan(&path, &limits(bounds)))??.to_json())
}

/// Scan an archive given as bytes, named `input`: the scan JSON.
#[pyfunction]
#[pyo3(signature = (data, input, threads=None, bounds=(None, None, None)))]
fn batch_scan_bytes(
    py: Python<'_>,
    data: Vec<u8>,
    input: String,
    threads: Option<usize>,
    bounds: (Option<u64>, Option<u64>, Option<u64>),
) -> PyResult<String> {
    run(py, || parallel::install(threads, || batch::scan_bytes(&data, &input, &limits(bounds)))??.to_json())
}

/// Reduce scans given in input order as (input, scan JSON or None, error message or None).
#[pyfunction]
#[pyo3(signature = (items, baseline, test="welch", alpha=0.05, min_change=0.0, fail_on="regression", jobs=None, allow_missing=false, margin=None, power=None))]
#[allow(clippy::too_many_arguments)]
fn batch_reduce(
    py: Python<'_>,
    items: Vec<(String, Option<String>, Option<String>)>,
    baseline: String,
    test: &str,
    alpha: f64,
    min_change: f64,
    fail_on: &str,
    jobs: Option<usize>,
    allow_missing: bool,
    margin: Option<f64>,
    power: Option<f64>,
) -> PyResult<String> {
    run(py, || {
        let o = options(
            baseline,
            test,
            alpha,
            min_change,
            fail_on,
            jobs,
            true,
            allow_missing,
            "off",
            margin,
            power,
            batch::batch_limits(),
        )?;
        let outcomes = items
            .into_iter()
            .map(|(input, scan, error)| match scan {
                Some(s) => Scan::from_json(&s).map(Outcome::Scanned),
                None => Ok(Outcome::Failed(InputError {
                    input,
                    message: error.unwrap_or_else(|| "no scan and no error given".to_string()),
                })),
            })
            .collect::<crate::Result<Vec<_>>>()?;
        batch::reduce(&outcomes, &o)?.to_json()
    })
}

/// Render a result given as JSON in one of `batch::render::FORMATS` (markdown
/// within `budget` bytes).
#[pyfunction]
#[pyo3(signature = (json, format, budget=None))]
fn batch_render(py: Python<'_>, json: String, format: String, budget: Option<usize>) -> PyResult<String> {
    run(py, || batch::render::render(&batch::BatchResult::from_json(&json)?, &format, budget))
}

/// The result JSON of a JSON-lines result.
#[pyfunction]
fn batch_from_jsonl(py: Python<'_>, text: String) -> PyResult<String> {
    run(py, || batch::BatchResult::from_jsonl(&text)?.to_json())
}

/// Add the batch functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("BATCH_FORMATS", batch::render::FORMATS.to_vec())?;
    m.add_function(wrap_pyfunction!(batch_run, m)?)?;
    m.add_function(wrap_pyfunction!(batch_scan, m)?)?;
    m.add_function(wrap_pyfunction!(batch_reduce, m)?)?;
    m.add_function(wrap_pyfunction!(batch_scan_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(batch_render, m)?)?;
    m.add_function(wrap_pyfunction!(batch_from_jsonl, m)?)?;
    Ok(())
}
