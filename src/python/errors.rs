//! Core errors to Python exceptions, and the guarded, GIL-free call every binding uses.
//!
//! The exception classes live in Python (`schedlab/errors.py`) so that they can
//! inherit from both `SchedlabError` and the matching builtin (`ValueError`,
//! `OSError`) and pickle with their fields; here they are looked up once and
//! instantiated with (message, path, line, column).

use crate::error::{Error, Result};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyModule;
use std::panic::{catch_unwind, AssertUnwindSafe};

static ERRORS_MODULE: PyOnceLock<Py<PyModule>> = PyOnceLock::new();

fn errors_module(py: Python<'_>) -> PyResult<&Bound<'_, PyModule>> {
    ERRORS_MODULE.get_or_try_init(py, || py.import("schedlab.errors").map(Bound::unbind)).map(|m| m.bind(py))
}

/// Convert a core error into the matching `schedlab.errors` exception.
pub fn to_pyerr(py: Python<'_>, err: Error) -> PyErr {
    let message = err.to_string();
    let (class, path, line, column) = match &err {
        Error::Parse { loc, .. } => ("ParseError", loc.path.clone(), loc.line, loc.column.clone()),
        Error::Domain(_) => ("DomainError", None, None, None),
        Error::InsufficientData(_) => ("InsufficientDataError", None, None, None),
        Error::Io { path, not_found: true, .. } => ("FileNotFoundError", Some(path.clone()), None, None),
        Error::Io { path, .. } => ("ReadError", Some(path.clone()), None, None),
        Error::Internal(_) => ("SchedlabError", None, None, None),
    };
    let made = errors_module(py).and_then(|m| {
        let cls = m.getattr(class)?;
        let exc = if class == "SchedlabError" {
            cls.call1((message.clone(),))?
        } else {
            cls.call1((message.clone(), path, line, column))?
        };
        Ok(PyErr::from_value(exc))
    });
    made.unwrap_or_else(|e| PyRuntimeError::new_err(format!("{message} (and schedlab.errors failed: {e})")))
}

fn panic_message(payload: Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic with a non-string payload".to_string()
    }
}

/// Run a core computation with the GIL released; a core error becomes its Python
/// exception and a panic becomes `SchedlabError` (never an abort).
pub fn run<T: Send>(py: Python<'_>, f: impl FnOnce() -> Result<T> + Send) -> PyResult<T> {
    let out =
        py.detach(|| catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|p| Err(Error::Internal(panic_message(p)))));
    out.map_err(|e| to_pyerr(py, e))
}
