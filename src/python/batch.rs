//! Bindings of [`schedlab::batch`]: the whole run, and its two halves (scan one input,
//! reduce many scans) for Dask. The result is the core's [`BatchResult`] as one frozen
//! class; its lists and dicts are built from the core's values when asked for. Scans
//! cross as JSON text, which pickles cheaply between workers.

use super::errors::{run, text_arg, to_py, to_pyerr};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple, PyType};
use schedlab::archive::Limits;
use schedlab::batch::{self, BatchResult, FailOn, Named, Options, Outcome};
use schedlab::choice::Choice;
use schedlab::parallel;
use std::path::PathBuf;
use std::sync::Arc;

/// The result of a batch run (`batch::BatchResult`): every compared metric with its
/// verdict, the counts and the exit code `schedlab batch` returns.
#[pyclass(frozen, name = "BatchResult", module = "schedlab._core")]
pub struct PyBatchResult {
    inner: Arc<BatchResult>,
}

/// The result document held by a JSON-shaped Python dict.
fn from_dict(py: Python<'_>, d: &Bound<'_, PyAny>) -> PyResult<BatchResult> {
    if !d.is_instance_of::<PyDict>() {
        let (schema, version) = (batch::document::RESULT_SCHEMA, batch::document::RESULT_VERSION);
        let msg = format!("not a {schema} version {version} document: a Python {}", d.get_type().name()?);
        return Err(to_pyerr(py, schedlab::Error::domain(msg)));
    }
    let value: serde_json::Value = pythonize::depythonize(d).map_err(|e| {
        to_pyerr(py, schedlab::Error::parse(Some("<dict>"), None, format!("not a batch result document: {e}")))
    })?;
    BatchResult::from_value(value).map_err(|e| to_pyerr(py, e))
}

impl PyBatchResult {
    fn of(r: BatchResult) -> Self {
        PyBatchResult { inner: Arc::new(r) }
    }
}

#[pymethods]
impl PyBatchResult {
    /// `BatchResult(document)`: the result from its JSON-shaped dict (as `.data` gives).
    #[new]
    fn new(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<Self> {
        from_dict(py, data).map(Self::of)
    }

    /// Read a result document (as `to_json` or `schedlab batch --format json` writes it).
    #[classmethod]
    fn from_json(cls: &Bound<'_, PyType>, text: &Bound<'_, PyString>) -> PyResult<Self> {
        let text = text_arg(text, "<batch result json>")?;
        run(cls.py(), || BatchResult::from_json(&text)).map(Self::of)
    }

    /// Read the JSON-lines form (`to_jsonl`, `schedlab batch --format jsonl`).
    #[classmethod]
    fn from_jsonl(cls: &Bound<'_, PyType>, text: &Bound<'_, PyString>) -> PyResult<Self> {
        let text = text_arg(text, "<batch result jsonl>")?;
        run(cls.py(), || BatchResult::from_jsonl(&text)).map(Self::of)
    }

    /// The whole document as a dict (a new one each time).
    #[getter]
    fn data<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &*self.inner)
    }
    /// 0: no significant regression; 1: a row fails under `fail_on`; 2: an input could
    /// not be read or data is missing; 3: an inconclusive row (`fail_on="inconclusive"`).
    #[getter]
    fn exit_code(&self) -> i32 {
        self.inner.exit_code
    }
    /// The options the result was computed with.
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner.options)
    }
    /// The inputs read, with what each held.
    #[getter]
    fn inputs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner.inputs)
    }
    /// Every compared metric (the fields of the schema's `rows` items).
    #[getter]
    fn rows<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner.rows)
    }
    /// The rows judged worse.
    #[getter]
    fn regressions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner.regressions())
    }
    /// Counts: inputs, comparisons, rows and each verdict.
    #[getter]
    fn summary<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner.summary)
    }
    /// Runs found but not compared (no baseline with the same benchmark and setup).
    #[getter]
    fn unmatched<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner.unmatched)
    }
    /// What was skipped and why.
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.inner.warnings.clone()
    }
    /// Why each MMTests benchmark was read with its era (the files' marker, or that they cannot tell).
    #[getter]
    fn notes(&self) -> Vec<String> {
        self.inner.notes.clone()
    }
    /// Inputs that could not be read (`keep_going` only): `{"input", "message"}`.
    #[getter]
    fn errors<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner.errors)
    }
    /// Data that should be there and is not (exit code 2 unless `allow_missing`).
    #[getter]
    fn missing<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner.missing)
    }
    /// Measured seconds: `total`, per input `inputs`, per row `rows`.
    #[getter]
    fn timings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner.timings)
    }

    /// The result document as JSON text, indented by `indent` spaces if given.
    #[pyo3(signature = (indent=None))]
    fn to_json(&self, py: Python<'_>, indent: Option<usize>) -> PyResult<String> {
        let r = Arc::clone(&self.inner);
        run(py, move || schedlab::json_text::to_string(&*r, indent))
    }

    /// The result in one of `BATCH_FORMATS` (what `schedlab batch --format` writes);
    /// markdown within `max_bytes` (default the pull-request comment budget).
    #[pyo3(signature = (format, max_bytes=None))]
    fn render(&self, py: Python<'_>, format: String, max_bytes: Option<usize>) -> PyResult<String> {
        let r = Arc::clone(&self.inner);
        run(py, move || batch::render::render(&r, &format, max_bytes))
    }

    /// JSON lines: a header, one record per input and per row, an end record.
    fn to_jsonl(&self, py: Python<'_>) -> PyResult<String> {
        self.render(py, "jsonl".into(), None)
    }
    /// GitHub Actions annotations (`::error`, `::warning`, a `::notice` headline).
    fn to_github(&self, py: Python<'_>) -> PyResult<String> {
        self.render(py, "github".into(), None)
    }
    /// JUnit XML: one testcase per compared metric, a failure per failing row.
    fn to_junit(&self, py: Python<'_>) -> PyResult<String> {
        self.render(py, "junit".into(), None)
    }
    /// Markdown for a pull-request comment within `max_bytes`.
    #[pyo3(signature = (max_bytes=None))]
    fn to_markdown(&self, py: Python<'_>, max_bytes: Option<usize>) -> PyResult<String> {
        self.render(py, "markdown".into(), max_bytes)
    }
    /// Plain text for a terminal.
    fn to_text(&self, py: Python<'_>) -> PyResult<String> {
        self.render(py, "text".into(), None)
    }
    /// The result for Jupyter: the headline, then the rows that are not equivalent.
    fn _repr_html_(&self, py: Python<'_>) -> PyResult<String> {
        self.render(py, "html".into(), None)
    }

    /// One row per compared metric, the columns of the schema's `rows` items.
    fn to_pandas<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let pd = py.import("pandas")?;
        let kwargs = PyDict::new(py);
        kwargs.set_item("columns", batch::document::ROW_COLUMNS.to_vec())?;
        let df = pd.getattr("DataFrame")?.call_method("from_records", (self.rows(py)?,), Some(&kwargs))?;
        for c in batch::document::ROW_FLOAT_COLUMNS {
            let col = pd.call_method1("to_numeric", (df.get_item(c)?,))?.call_method1("astype", ("float64",))?;
            df.set_item(c, col)?;
        }
        Ok(df)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyBatchResult>().is_ok_and(|o| o.get().inner.same_result(&self.inner))
    }

    fn __repr__(&self) -> String {
        self.inner.repr_line()
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let from_json = slf.get_type().getattr("from_json")?;
        let text = slf.get().to_json(py, None)?;
        PyTuple::new(py, [from_json, PyTuple::new(py, [text])?.into_any()])
    }
}

/// The batch limits from the Python tuple of bounds.
fn limits(bounds: (Option<u64>, Option<u64>, Option<u64>)) -> Limits {
    batch::batch_limits_with(bounds.0, bounds.1, bounds.2)
}

/// Scan every input and reduce: the result. `progress`: "off", "bar" or
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
) -> PyResult<PyBatchResult> {
    let named = Named {
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
        limits: limits(bounds),
    };
    run(py, || batch::run(&paths, &Options::from_named(named)?)).map(PyBatchResult::of)
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

/// Reduce scans given in input order as (input, scan JSON or None, error message or None):
/// the result.
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
) -> PyResult<PyBatchResult> {
    let named = Named {
        baseline,
        test,
        alpha,
        min_change,
        fail_on,
        jobs,
        keep_going: true,
        allow_missing,
        progress: "off",
        margin,
        power,
        limits: batch::batch_limits(),
    };
    run(py, || {
        let o = Options::from_named(named)?;
        let outcomes = items
            .into_iter()
            .map(|(input, scan, error)| Outcome::of(input, scan.as_deref(), error))
            .collect::<schedlab::Result<Vec<_>>>()?;
        batch::reduce(&outcomes, &o)
    })
    .map(PyBatchResult::of)
}

/// Add the batch functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("BATCH_FORMATS", batch::render::FORMATS.to_vec())?;
    m.add("BATCH_SCHEMA_NAME", batch::document::RESULT_SCHEMA)?;
    m.add("BATCH_SCHEMA_VERSION", batch::document::RESULT_VERSION)?;
    m.add("BATCH_FAIL_ON", FailOn::names())?;
    m.add("BATCH_PROGRESS", schedlab::batch::progress::Mode::names())?;
    m.add_function(wrap_pyfunction!(batch_run, m)?)?;
    m.add_function(wrap_pyfunction!(batch_scan, m)?)?;
    m.add_function(wrap_pyfunction!(batch_reduce, m)?)?;
    m.add_function(wrap_pyfunction!(batch_scan_bytes, m)?)?;
    m.add_class::<PyBatchResult>()?;
    Ok(())
}
