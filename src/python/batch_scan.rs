//! The map half of a batch run as one frozen class holding the core's
//! [`schedlab::batch::Scan`] (or the error that stopped it), and the reduce that takes
//! those objects. JSON is only its pickle form: what a Dask worker sends back.

use super::errors::{run, to_py, to_pyerr};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple, PyType};
use schedlab::batch::{self, InputError, Outcome, Scan};
use std::sync::Arc;

/// One input read: the core's scan of it, or the `SchedlabError` that stopped it.
#[pyclass(frozen, name = "Scan", module = "schedlab._core")]
pub struct PyScan {
    input: String,
    scan: Option<Arc<Scan>>,
    error: Option<Py<PyAny>>,
}

impl PyScan {
    /// The scan of `input`, or its error as a `schedlab.errors` exception (a Ctrl-C is
    /// raised, not kept).
    pub fn of(py: Python<'_>, input: String, scan: schedlab::Result<Scan>) -> PyResult<Self> {
        match scan {
            Ok(s) => Ok(PyScan { input, scan: Some(Arc::new(s)), error: None }),
            Err(e @ schedlab::Error::Interrupted) => Err(to_pyerr(py, e)),
            Err(e) => Ok(PyScan { input, scan: None, error: Some(to_pyerr(py, e).into_value(py).into_any()) }),
        }
    }

    fn scan_or_empty(&self) -> Option<&Scan> {
        self.scan.as_deref()
    }

    /// What `reduce` takes of it: the scan, or the input failed with the error's message.
    fn outcome(&self, py: Python<'_>) -> PyResult<Outcome> {
        match (&self.scan, &self.error) {
            (Some(s), _) => Ok(Outcome::Scanned(Scan::clone(s))),
            (None, Some(e)) => {
                Ok(Outcome::Failed(InputError { input: self.input.clone(), message: e.bind(py).str()?.to_string() }))
            }
            (None, None) => Ok(Outcome::Failed(InputError {
                input: self.input.clone(),
                message: "no scan and no error given".to_string(),
            })),
        }
    }
}

#[pymethods]
impl PyScan {
    /// The scan of `input` that failed with `error` (an exception), as when it is read
    /// elsewhere (a download that failed before the core saw the bytes).
    #[classmethod]
    fn from_error(_cls: &Bound<'_, PyType>, input: String, error: Bound<'_, PyAny>) -> PyResult<Self> {
        if !error.is_instance_of::<pyo3::exceptions::PyBaseException>() {
            let msg = format!("error must be an exception, got {}", error.get_type().name()?);
            return Err(to_pyerr(error.py(), schedlab::Error::domain(msg)));
        }
        Ok(PyScan { input, scan: None, error: Some(error.unbind()) })
    }

    /// Read a scan's JSON form (`to_json`) back; `input` is the scan's own.
    #[classmethod]
    fn from_json(cls: &Bound<'_, PyType>, text: &str) -> PyResult<Self> {
        let s = run(cls.py(), || Scan::from_json(text))?;
        Ok(PyScan { input: s.input.clone(), scan: Some(Arc::new(s)), error: None })
    }

    /// The pickle form's reader: `(input, scan JSON or None, error or None)`.
    #[classmethod]
    fn _from_state(
        cls: &Bound<'_, PyType>,
        input: String,
        json: Option<&str>,
        error: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        match (json, error) {
            (Some(text), _) => Self::from_json(cls, text).map(|s| PyScan { input, ..s }),
            (None, Some(e)) => Self::from_error(cls, input, e),
            (None, None) => Err(to_pyerr(cls.py(), schedlab::Error::domain("a scan needs its JSON or its error"))),
        }
    }

    /// The input as given.
    #[getter]
    fn input(&self) -> &str {
        &self.input
    }
    /// The `SchedlabError` that stopped the scan, or None.
    #[getter]
    fn error(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.error.as_ref().map(|e| e.clone_ref(py))
    }
    /// Whether the input was read.
    #[getter]
    fn ok(&self) -> bool {
        self.scan.is_some()
    }
    /// The whole scan as a JSON-shaped dict (a new one each time), None when it failed.
    #[getter]
    fn data<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.scan_or_empty().map(|s| to_py(py, s)).transpose()
    }
    /// "dir", "tar", "tar.gz", "tar.xz", "zip" or "file" (None when it failed).
    #[getter]
    fn kind(&self) -> Option<&str> {
        self.scan_or_empty().map(|s| s.kind.as_str())
    }
    /// MMTests runs found.
    #[getter]
    fn mmtests_runs(&self) -> u64 {
        self.scan_or_empty().map_or(0, |s| s.mmtests_runs)
    }
    /// lkp result roots found.
    #[getter]
    fn lkp_roots(&self) -> u64 {
        self.scan_or_empty().map_or(0, |s| s.lkp_roots)
    }
    /// Result files of benchmark tools read.
    #[getter]
    fn result_files(&self) -> u64 {
        self.scan_or_empty().map_or(0, |s| s.result_files)
    }
    /// Every run read (tool, input, location, setup, benchmark, kernel, era, metrics, started).
    #[getter]
    fn runs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.scan_or_empty().map_or(&[][..], |s| &s.runs))
    }
    /// The MMTests benchmarks of runs that failed or cannot be read, with the reason.
    #[getter]
    fn failed<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.scan_or_empty().map_or(&[][..], |s| &s.failed))
    }
    /// The MMTests benchmarks no era has an extractor for.
    #[getter]
    fn skipped<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.scan_or_empty().map_or(&[][..], |s| &s.skipped))
    }
    /// What was skipped and why.
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.scan_or_empty().map_or_else(Vec::new, |s| s.warnings.clone())
    }
    /// Data that should be there and is not.
    #[getter]
    fn missing(&self) -> Vec<String> {
        self.scan_or_empty().map_or_else(Vec::new, |s| s.missing.clone())
    }
    /// Why each MMTests benchmark was read with its era.
    #[getter]
    fn notes(&self) -> Vec<String> {
        self.scan_or_empty().map_or_else(Vec::new, |s| s.notes.clone())
    }
    /// Seconds the scan took.
    #[getter]
    fn seconds(&self) -> f64 {
        self.scan_or_empty().map_or(0.0, |s| s.seconds)
    }

    /// Per MMTests benchmark of the `work/log` directory `setup` (None: all), a tuple
    /// (kernels read, {kernel: why its run failed}, why the benchmark was skipped or None).
    #[pyo3(signature = (setup=None))]
    fn mmtests_benchmarks<'py>(&self, py: Python<'py>, setup: Option<&str>) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        if let Some(s) = self.scan_or_empty() {
            for (name, b) in s.mmtests_benchmarks(setup) {
                let failed = PyDict::new(py);
                for (k, why) in &b.failed {
                    failed.set_item(k, why)?;
                }
                out.set_item(name, (b.read, failed, b.skipped))?;
            }
        }
        Ok(out)
    }

    /// The scan's JSON form (None when it failed).
    fn to_json(&self, py: Python<'_>) -> PyResult<Option<String>> {
        let Some(s) = self.scan.clone() else { return Ok(None) };
        run(py, move || s.to_json()).map(Some)
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        let Ok(o) = other.cast::<PyScan>() else { return Ok(false) };
        let o = o.get();
        let errors = match (&self.error, &o.error) {
            (None, None) => true,
            (Some(a), Some(b)) => a.bind(py).repr()?.to_string() == b.bind(py).repr()?.to_string(),
            _ => false,
        };
        Ok(self.input == o.input && self.scan == o.scan && errors)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(match (&self.scan, &self.error) {
            (Some(s), _) => format!(
                "Scan({:?}, {} MMTests runs, {} lkp roots, {} runs read, {} failed)",
                self.input,
                s.mmtests_runs,
                s.lkp_roots,
                s.runs.len(),
                s.failed.len()
            ),
            (None, Some(e)) => format!("Scan({:?}, error={})", self.input, e.bind(py).repr()?),
            (None, None) => format!("Scan({:?})", self.input),
        })
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let me = slf.get();
        let from_state = slf.get_type().getattr("_from_state")?;
        let args = (me.input.clone(), me.to_json(py)?, me.error(py)).into_pyobject(py)?;
        PyTuple::new(py, [from_state, args.into_any()])
    }
}

/// The outcomes of `scans` in the order given; without `keep_going`, the first
/// scan's error is raised.
pub fn outcomes(py: Python<'_>, scans: &[PyRef<'_, PyScan>], keep_going: bool) -> PyResult<Vec<Outcome>> {
    let mut out = Vec::with_capacity(scans.len());
    for s in scans {
        if let (false, Some(e)) = (keep_going, &s.error) {
            return Err(PyErr::from_value(e.bind(py).clone()));
        }
        out.push(s.outcome(py)?);
    }
    if out.is_empty() {
        return Err(to_pyerr(py, schedlab::Error::domain("give at least one directory or archive")));
    }
    Ok(out)
}

/// The core's default archive bounds of a batch run: (bytes per entry, bytes per
/// archive, entries per archive).
pub fn limit_defaults() -> (u64, u64, u64) {
    let d = batch::batch_limits();
    (d.max_entry_bytes, d.max_total_bytes, d.max_entries)
}
