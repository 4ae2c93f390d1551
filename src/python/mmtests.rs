//! Bindings of [`schedlab::mmtests`]: comparisons cross as [`PyComparison`].

use super::comparison::PyComparison;
use super::errors::run;
use pyo3::prelude::*;
use schedlab::mmtests::{self, monitors, verdicts, CompareOptions, Era};
use std::path::PathBuf;

/// compare-mmtests.pl on a work/log tree: (comparison, text, era, warnings).
#[pyfunction]
#[pyo3(signature = (directory, benchmark, names, *, compat=None, print_ratio=false, subheading=String::new(), test="mmtests".to_string(), alpha=0.05, threads=None))]
#[allow(clippy::too_many_arguments)]
fn mmtests_compare(
    py: Python<'_>,
    directory: PathBuf,
    benchmark: String,
    names: Vec<String>,
    compat: Option<String>,
    print_ratio: bool,
    subheading: String,
    test: String,
    alpha: f64,
    threads: Option<usize>,
) -> PyResult<(PyComparison, String, String, Vec<String>)> {
    let (c, text, era, warnings) = run(py, || {
        let compat = compat.as_deref().map(Era::parse).transpose()?;
        let opts = CompareOptions { compat, print_ratio, subheading, threads };
        let test = verdicts::VerdictTest::parse(&test)?;
        let r = verdicts::compare_at_tested(&directory, &benchmark, &names, &opts, test, alpha)?;
        Ok((r.comparison, r.text, r.era.name().to_string(), r.warnings))
    })?;
    Ok((PyComparison::from_core(c), text, era, warnings))
}

/// `compare-mmtests.pl --print-monitor`: (comparison, text, era, warnings).
#[pyfunction]
#[pyo3(signature = (directory, benchmark, names, monitor, *, compat=None, subheading=String::new()))]
fn mmtests_monitor(
    py: Python<'_>,
    directory: PathBuf,
    benchmark: String,
    names: Vec<String>,
    monitor: String,
    compat: Option<String>,
    subheading: String,
) -> PyResult<(PyComparison, String, String, Vec<String>)> {
    let (c, text, era, warnings) = run(py, || {
        let compat = compat.as_deref().map(Era::parse).transpose()?;
        let monitor = monitors::Monitor::parse(&monitor)?;
        let (r, era) = monitors::compare_monitor_at(&directory, &benchmark, &names, monitor, compat, subheading)?;
        Ok((r.comparison, r.text, era.name().to_string(), r.warnings))
    })?;
    Ok((PyComparison::from_core(c), text, era, warnings))
}

/// Parse a pasted compare table.
#[pyfunction]
#[pyo3(signature = (text, source="<text>".to_string()))]
fn mmtests_parse_compare(py: Python<'_>, text: &str, source: String) -> PyResult<PyComparison> {
    run(py, || mmtests::parse_text::parse_compare(text, &source)).map(PyComparison::from_core)
}

/// Direction-aligned Gmean ratio per kernel.
#[pyfunction]
fn mmtests_gmean_ratio(py: Python<'_>, comparison: PyRef<'_, PyComparison>) -> PyResult<Vec<f64>> {
    let c = comparison.core();
    run(py, || verdicts::gmean_ratio(c))
}

/// The overview tables' label of a Gmean ratio ("10% better", "no change"; "n/a" for
/// None or a ratio that is not finite).
#[pyfunction]
fn mmtests_overview_label(ratio: Option<f64>) -> String {
    verdicts::overview_label(ratio.unwrap_or(f64::NAN))
}

/// Re-decide verdicts with a named test and BH-FDR; returns the new comparison.
#[pyfunction]
fn mmtests_apply_test(
    py: Python<'_>,
    comparison: PyRef<'_, PyComparison>,
    test: String,
    alpha: f64,
) -> PyResult<PyComparison> {
    let c = comparison.core();
    run(py, || verdicts::with_test(c, verdicts::VerdictTest::parse(&test)?, alpha)).map(PyComparison::from_core)
}

/// Bootstrap interval of kernel `k`'s Gmean ratio: (estimate, low, high).
#[pyfunction]
#[pyo3(signature = (comparison, k, *, level=0.95, n_resamples=2000, seed=0, threads=None))]
fn mmtests_bootstrap_gmean(
    py: Python<'_>,
    comparison: PyRef<'_, PyComparison>,
    k: usize,
    level: f64,
    n_resamples: usize,
    seed: u64,
    threads: Option<usize>,
) -> PyResult<(f64, f64, f64)> {
    let c = comparison.core();
    run(py, || {
        let ci = verdicts::bootstrap_gmean_ci(c, k, level, n_resamples, seed, threads)?;
        Ok((ci.estimate, ci.low, ci.high))
    })
}

/// Add the mmtests functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let eras: Vec<&str> = Era::newest_first().iter().rev().map(|e| e.name()).collect();
    m.add("MMTESTS_ERAS", eras)?;
    m.add_function(wrap_pyfunction!(mmtests_compare, m)?)?;
    m.add_function(wrap_pyfunction!(mmtests_monitor, m)?)?;
    m.add("MMTESTS_MONITORS", monitors::MONITOR_NAMES.to_vec())?;
    m.add_function(wrap_pyfunction!(mmtests_parse_compare, m)?)?;
    m.add_function(wrap_pyfunction!(mmtests_gmean_ratio, m)?)?;
    m.add_function(wrap_pyfunction!(mmtests_overview_label, m)?)?;
    m.add_function(wrap_pyfunction!(mmtests_apply_test, m)?)?;
    m.add_function(wrap_pyfunction!(mmtests_bootstrap_gmean, m)?)?;
    Ok(())
}
