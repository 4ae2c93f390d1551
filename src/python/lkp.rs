//! Bindings of [`schedlab::lkp`]: lkp-tests result roots (one frozen class holding the
//! core's [`ResultRoot`]), the ncompare table, raw-output parsers, unite, report parsing
//! and the text plot. Comparisons cross as [`PyComparison`]; a loaded root is compared
//! as it is, never read again from its path.

use super::comparison::PyComparison;
use super::errors::{run, to_py};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use schedlab::archive::{DirTree, Tree};
use schedlab::error::Error;
use schedlab::lkp::comparison::{compare_to_comparison, Test};
use schedlab::lkp::matrix::{load_roots, metric_samples, ResultRoot};
use schedlab::lkp::ncompare::{compare_roots, Options};
use schedlab::lkp::num::Num;
use schedlab::lkp::render_text::render;
use schedlab::lkp::{lookup, parse_report, query, stats, textplot};
use std::path::PathBuf;
use std::sync::Arc;

/// A commit's multi-result root as the core loaded it (`matrix.json[.gz]` zero-filled,
/// the axes of `job.yaml`): `schedlab.lkp.ResultRoot`, which adds the plots. It is
/// compared as it is (`lkp.compare(root, ...)` reads nothing again) and cannot be
/// changed; `matrix`, `integer` and `to_pandas()` are built from it when asked for.
#[pyclass(name = "ResultRoot", module = "schedlab._core", frozen, subclass)]
pub struct PyResultRoot {
    root: Arc<ResultRoot>,
}

#[pymethods]
impl PyResultRoot {
    /// Load the result root at `path` (a directory, or an archive holding one).
    #[new]
    fn new(py: Python<'_>, path: PathBuf) -> PyResult<Self> {
        run(py, || ResultRoot::open(&path)).map(|r| PyResultRoot { root: Arc::new(r) })
    }

    /// The directory (inside an archive: `archive/path/in/archive`).
    #[getter]
    fn path(&self) -> String {
        self.root.path.to_string_lossy().into_owned()
    }

    /// The commit (the `commit` axis, else the directory's name).
    #[getter]
    fn commit(&self) -> String {
        self.root.commit()
    }

    /// The job's axes, sorted by key as lkp's index is.
    #[getter]
    fn axes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in &self.root.axes {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    /// The number of runs (lkp's `matrix_cols`).
    #[getter]
    fn runs(&self) -> usize {
        self.root.matrix.cols()
    }

    /// The metric names in file order.
    #[getter]
    fn keys(&self) -> Vec<String> {
        self.root.matrix.keys().map(str::to_string).collect()
    }

    /// Each metric's values, one per run (zero-filled as lkp does), in file order.
    #[getter]
    fn matrix<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in self.root.matrix.iter() {
            d.set_item(k, v.iter().map(|n| n.f()).collect::<Vec<f64>>())?;
        }
        Ok(d)
    }

    /// Per metric and run, whether lkp holds the value as an Integer.
    #[getter]
    fn integer<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in self.root.matrix.iter() {
            d.set_item(k, v.iter().map(|n| matches!(n, Num::Int(_))).collect::<Vec<bool>>())?;
        }
        Ok(d)
    }

    /// The per-run `stats.json` paths of the matrix, when it names them.
    #[getter]
    fn stats_source(&self) -> Option<Vec<String>> {
        self.root.matrix.stats_source.clone()
    }

    /// The values of `metric`, one per run; KeyError when the matrix has no such metric.
    fn values(&self, metric: &str) -> PyResult<Vec<f64>> {
        self.root
            .matrix
            .get(metric)
            .map(|v| v.iter().map(|n| n.f()).collect())
            .ok_or_else(|| pyo3::exceptions::PyKeyError::new_err(metric.to_string()))
    }

    fn __len__(&self) -> usize {
        self.root.matrix.len()
    }

    fn __contains__(&self, metric: &str) -> bool {
        self.root.matrix.get(metric).is_some()
    }

    fn __repr__(&self) -> String {
        format!(
            "ResultRoot({:?}, commit={:?}, {} metrics x {} runs)",
            self.path(),
            self.commit(),
            self.root.matrix.len(),
            self.root.matrix.cols()
        )
    }
}

/// A root given to a compare: a loaded [`PyResultRoot`] (used as it is) or a path
/// (loaded by the core, the GIL released).
enum RootArg {
    Loaded(Arc<ResultRoot>),
    Path(PathBuf),
}

impl<'a, 'py> FromPyObject<'a, 'py> for RootArg {
    type Error = PyErr;

    fn extract(ob: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(r) = ob.cast::<PyResultRoot>() {
            return Ok(RootArg::Loaded(Arc::clone(&r.get().root)));
        }
        Ok(RootArg::Path(ob.extract()?))
    }
}

/// The roots of BASE HEAD... (an error for fewer than two): the loaded ones as they
/// are, the paths loaded together by [`load_roots`] (in parallel within its memory rule).
fn roots_of(args: Vec<RootArg>) -> schedlab::Result<Vec<Arc<ResultRoot>>> {
    if args.len() < 2 {
        return Err(Error::domain("compare needs a base and at least one head result root"));
    }
    let paths: Vec<PathBuf> =
        args.iter().filter_map(|a| if let RootArg::Path(p) = a { Some(p.clone()) } else { None }).collect();
    let mut loaded = load_roots(&paths)?.into_iter().map(Arc::new);
    args.into_iter()
        .map(|a| match a {
            RootArg::Loaded(r) => Ok(r),
            RootArg::Path(_) => loaded.next().ok_or_else(|| Error::Internal("a result root was not loaded".into())),
        })
        .collect()
}

/// The ncompare text of BASE HEAD... (result roots or their paths); `kpi` is `-k`,
/// `perf_profile_threshold` `-p`.
#[pyfunction]
#[pyo3(signature = (roots, *, all_keys=false, more=false, kpi=false, perf_profile_threshold=None))]
fn lkp_compare_text(
    py: Python<'_>,
    roots: Vec<RootArg>,
    all_keys: bool,
    more: bool,
    kpi: bool,
    perf_profile_threshold: Option<f64>,
) -> PyResult<String> {
    let opt = Options { all_keys, more, kpi, perf_profile_threshold, ..Default::default() };
    run(py, || render(&compare_roots(&roots_of(roots)?, opt)?))
}

/// The ncompare text of the result roots under `dir` matching the `-s`/`-o` queries
/// (`(is -o, "k=v/k=v")` in command-line order), grouped and compared across
/// `compare_keys` (`-c`).
#[pyfunction]
#[pyo3(signature = (dir, queries, compare_keys, *, all_keys=false, more=false, kpi=false, perf_profile_threshold=None))]
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
    let opt = Options { all_keys, more, kpi, perf_profile_threshold, ..Default::default() };
    run(py, || query::compare_query(&dir, &queries, &compare_keys, opt)?.iter().map(render).collect())
}

/// The result root under `dir` of the commit whose hash starts with `prefix`.
#[pyfunction]
fn lkp_find_root(py: Python<'_>, dir: PathBuf, prefix: &str) -> PyResult<String> {
    run(py, || lookup::find_commit_root(&dir, prefix).map(|p| p.to_string_lossy().into_owned()))
}

/// The comparison of BASE HEAD... (result roots or their paths), with verdicts by
/// `test` at `alpha`.
#[pyfunction]
#[pyo3(signature = (roots, *, all_keys=false, more=false, test="welch", alpha=0.05, kpi=false, perf_profile_threshold=None))]
#[allow(clippy::too_many_arguments)]
fn lkp_compare(
    py: Python<'_>,
    roots: Vec<RootArg>,
    all_keys: bool,
    more: bool,
    test: &str,
    alpha: f64,
    kpi: bool,
    perf_profile_threshold: Option<f64>,
) -> PyResult<PyComparison> {
    run(py, || {
        let t = Test::parse(test)?;
        compare_to_comparison(
            &roots_of(roots)?,
            Options { all_keys, more, kpi, perf_profile_threshold, ..Default::default() },
            t,
            alpha,
        )
    })
    .map(PyComparison::from_core)
}

/// The values of `metric` in a result root (directory or archive) or a matrix file
/// (`matrix.json[.gz]`); an error naming the path when it has no such metric.
#[pyfunction]
fn lkp_metric_samples(py: Python<'_>, path: PathBuf, metric: &str) -> PyResult<Vec<f64>> {
    run(py, || metric_samples(&path, metric))
}

/// A run directory's stats (what lkp writes to stats.json), computed from its raw
/// outputs: a dict in lkp's key order, Integers as int.
#[pyfunction]
fn lkp_run_stats<'py>(py: Python<'py>, run_dir: PathBuf) -> PyResult<Bound<'py, PyDict>> {
    let s = run(py, || stats::run_stats(&DirTree::at(&run_dir), ""))?;
    let d = PyDict::new(py);
    for (k, v) in s {
        match v {
            Num::Int(i) => d.set_item(k, i)?,
            Num::Float(f) => d.set_item(k, f)?,
        }
    }
    Ok(d)
}

/// A run directory's stats.json text exactly as lkp writes it (Ruby's pretty JSON).
#[pyfunction]
fn lkp_run_stats_json(py: Python<'_>, run_dir: PathBuf) -> PyResult<String> {
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

/// A pasted report parsed into its commits and rows (`parse_report::Report` as dicts).
#[pyfunction]
fn lkp_parse_report<'py>(py: Python<'py>, text: String) -> PyResult<Bound<'py, PyAny>> {
    let report = run(py, || Ok(parse_report::parse_report(&text)))?;
    to_py(py, &report)
}

/// A pasted report as a comparison.
#[pyfunction]
fn lkp_parse_report_comparison(py: Python<'_>, text: String) -> PyResult<PyComparison> {
    run(py, || parse_report::to_comparison(&parse_report::parse_report(&text))).map(PyComparison::from_core)
}

/// The 80×20 ASCII plot (and, with `script`, the gnuplot script instead).
#[pyfunction]
#[pyo3(signature = (title, bad, good, *, script=false))]
fn lkp_text_plot(py: Python<'_>, title: &str, bad: Vec<f64>, good: Vec<f64>, script: bool) -> PyResult<String> {
    run(py, || Ok(textplot::plot(title, &bad, &good, script)))
}

/// Add the lkp functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyResultRoot>()?;
    m.add_function(wrap_pyfunction!(lkp_compare_text, m)?)?;
    m.add_function(wrap_pyfunction!(lkp_find_root, m)?)?;
    m.add_function(wrap_pyfunction!(lkp_compare_query_text, m)?)?;
    m.add_function(wrap_pyfunction!(lkp_compare, m)?)?;
    m.add_function(wrap_pyfunction!(lkp_metric_samples, m)?)?;
    m.add_function(wrap_pyfunction!(lkp_run_stats, m)?)?;
    m.add_function(wrap_pyfunction!(lkp_run_stats_json, m)?)?;
    m.add_function(wrap_pyfunction!(lkp_unite, m)?)?;
    m.add_function(wrap_pyfunction!(lkp_run_dirs, m)?)?;
    m.add_function(wrap_pyfunction!(lkp_parse_report, m)?)?;
    m.add_function(wrap_pyfunction!(lkp_parse_report_comparison, m)?)?;
    m.add_function(wrap_pyfunction!(lkp_text_plot, m)?)?;
    Ok(())
}
