//! Bindings of [`schedlab::lkp`]: lkp-tests result roots, the ncompare table, raw-output
//! parsers, unite, report parsing and the text plot. Comparisons cross as
//! [`PyComparison`], other rich results as JSON text or plain tuples.

use super::comparison::PyComparison;
use super::errors::run;
use schedlab::archive::{DirTree, Tree};
use schedlab::error::Error;
use schedlab::lkp::compare::{compare_roots, CompareResult, Options};
use schedlab::lkp::comparison::{compare_to_comparison, Test};
use schedlab::lkp::matrix::{load_roots, Matrix, ResultRoot};
use schedlab::lkp::num::Num;
use schedlab::lkp::render_text::render;
use schedlab::lkp::{lookup, parse_report, query, stats, textplot};
use pyo3::prelude::*;
use std::path::PathBuf;

/// The result roots of BASE HEAD... (an error for fewer than two).
fn load(paths: &[PathBuf]) -> schedlab::Result<Vec<ResultRoot>> {
    if paths.len() < 2 {
        return Err(Error::domain("compare needs a base and at least one head result root"));
    }
    load_roots(paths)
}

fn compare(paths: &[PathBuf], opt: Options) -> schedlab::Result<CompareResult> {
    compare_roots(&load(paths)?, opt)
}

/// The ncompare text of BASE HEAD... (result-root directories); `kpi` is `-k`,
/// `perf_profile_threshold` `-p`.
#[pyfunction]
#[pyo3(signature = (paths, all_keys, more, kpi=false, perf_profile_threshold=None))]
fn lkp_compare_text(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    all_keys: bool,
    more: bool,
    kpi: bool,
    perf_profile_threshold: Option<f64>,
) -> PyResult<String> {
    run(py, || compare(&paths, Options { all_keys, more, kpi, perf_profile_threshold }).and_then(|r| render(&r)))
}

/// The ncompare text of the result roots under `dir` matching the `-s`/`-o` queries
/// (`(is -o, "k=v/k=v")` in command-line order), grouped and compared across
/// `compare_keys` (`-c`).
#[pyfunction]
#[pyo3(signature = (dir, queries, compare_keys, all_keys, more, kpi=false, perf_profile_threshold=None))]
#[allow(clippy::too_many_arguments)]
fn lkp_compare_query_text(
    py: Python<'_>,
    dir: PathBuf,
    queries: Vec<(bool, String)>,
    compare_keys: Vec<String>,
    all_keys: bool,
    more: bool,
    kpi: bool,
    perf_profile_threshold: Option<f64>,
) -> PyResult<String> {
    let opt = Options { all_keys, more, kpi, perf_profile_threshold };
    run(py, || query::compare_query(&dir, &queries, &compare_keys, opt)?.iter().map(render).collect())
}

/// The result root under `dir` of the commit whose hash starts with `prefix`.
#[pyfunction]
fn lkp_find_root(py: Python<'_>, dir: PathBuf, prefix: &str) -> PyResult<String> {
    run(py, || lookup::find_commit_root(&dir, prefix).map(|p| p.to_string_lossy().into_owned()))
}

/// The comparison of BASE HEAD..., with verdicts by `test` at `alpha`.
#[pyfunction]
#[pyo3(signature = (paths, all_keys, more, test, alpha, kpi=false, perf_profile_threshold=None))]
#[allow(clippy::too_many_arguments)]
fn lkp_compare(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    all_keys: bool,
    more: bool,
    test: &str,
    alpha: f64,
    kpi: bool,
    perf_profile_threshold: Option<f64>,
) -> PyResult<PyComparison> {
    run(py, || {
        let t = Test::parse(test)?;
        let roots = load(&paths)?;
        compare_to_comparison(&roots, Options { all_keys, more, kpi, perf_profile_threshold }, t, alpha)
    })
    .map(PyComparison::from_core)
}

type Loaded = (String, Vec<(String, String)>, Vec<String>, Vec<Vec<f64>>, Vec<Vec<bool>>, Option<Vec<String>>);

/// A result root: (commit, axes, keys, values, is-integer flags, stats_source).
#[pyfunction]
fn lkp_load(py: Python<'_>, path: PathBuf) -> PyResult<Loaded> {
    run(py, || {
        let r = ResultRoot::open(&path)?;
        let commit = r.commit();
        let m = r.matrix;
        let vals = m.iter().map(|(_, v)| v.iter().map(|n| n.f()).collect()).collect();
        let ints = m.iter().map(|(_, v)| v.iter().map(|n| matches!(n, Num::Int(_))).collect()).collect();
        let keys = m.keys().map(str::to_string).collect();
        Ok((commit, r.axes, keys, vals, ints, m.stats_source))
    })
}

type MatrixTuple = (Vec<String>, Vec<Vec<f64>>, Option<Vec<String>>);

/// One matrix file (matrix.json or .gz): (keys, values, stats_source).
#[pyfunction]
fn lkp_read_matrix(py: Python<'_>, path: PathBuf) -> PyResult<MatrixTuple> {
    run(py, || {
        let (dir, name) = DirTree::of_file(&path);
        let m = Matrix::read(&dir, &name)?;
        let vals = m.iter().map(|(_, v)| v.iter().map(|n| n.f()).collect()).collect();
        Ok((m.keys().map(str::to_string).collect(), vals, m.stats_source))
    })
}

/// The stats.json text of one run directory, computed from its raw outputs.
#[pyfunction]
fn lkp_run_stats(py: Python<'_>, run_dir: PathBuf) -> PyResult<String> {
    run(py, || stats::run_stats(&DirTree::at(&run_dir), "").map(|s| stats::stats_json(&s)))
}

/// unite: (matrix.json, avg.json, stddev.json) texts of the runs [(dir, stats_source label)].
#[pyfunction]
fn lkp_unite(py: Python<'_>, runs: Vec<(PathBuf, String)>) -> PyResult<(String, String, String)> {
    let trees: Vec<DirTree> = runs.iter().map(|(dir, _)| DirTree::at(dir)).collect();
    let refs: Vec<(&dyn Tree, &str, &str)> =
        trees.iter().zip(&runs).map(|(t, (_, label))| (t as &dyn Tree, "", label.as_str())).collect();
    run(py, || stats::unite(&refs).map(|u| (u.matrix, u.avg, u.stddev)))
}

/// The run directories of a result root, in numeric order.
#[pyfunction]
fn lkp_run_dirs(py: Python<'_>, root: PathBuf) -> PyResult<Vec<PathBuf>> {
    run(py, || Ok(stats::run_dirs(&DirTree::at(&root), "")?.into_iter().map(|r| root.join(r)).collect()))
}

/// A pasted report parsed into rows (JSON).
#[pyfunction]
fn lkp_parse_report(py: Python<'_>, text: String) -> PyResult<String> {
    run(py, || serde_json::to_string(&parse_report::parse_report(&text)).map_err(|e| Error::Internal(e.to_string())))
}

/// A pasted report as a comparison.
#[pyfunction]
fn lkp_parse_report_comparison(py: Python<'_>, text: String) -> PyResult<PyComparison> {
    run(py, || parse_report::to_comparison(&parse_report::parse_report(&text))).map(PyComparison::from_core)
}

/// The 80×20 ASCII plot (and, with `script`, the gnuplot script instead).
#[pyfunction]
#[pyo3(signature = (title, bad, good, script=false))]
fn lkp_text_plot(py: Python<'_>, title: &str, bad: Vec<f64>, good: Vec<f64>, script: bool) -> PyResult<String> {
    run(py, || Ok(textplot::plot(title, &bad, &good, script)))
}

/// Add the lkp functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(lkp_compare_text, m)?)?;
    m.add_function(wrap_pyfunction!(lkp_find_root, m)?)?;
    m.add_function(wrap_pyfunction!(lkp_compare_query_text, m)?)?;
    m.add_function(wrap_pyfunction!(lkp_compare, m)?)?;
    m.add_function(wrap_pyfunction!(lkp_load, m)?)?;
    m.add_function(wrap_pyfunction!(lkp_read_matrix, m)?)?;
    m.add_function(wrap_pyfunction!(lkp_run_stats, m)?)?;
    m.add_function(wrap_pyfunction!(lkp_unite, m)?)?;
    m.add_function(wrap_pyfunction!(lkp_run_dirs, m)?)?;
    m.add_function(wrap_pyfunction!(lkp_parse_report, m)?)?;
    m.add_function(wrap_pyfunction!(lkp_parse_report_comparison, m)?)?;
    m.add_function(wrap_pyfunction!(lkp_text_plot, m)?)?;
    Ok(())
}
