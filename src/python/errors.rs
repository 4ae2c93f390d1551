//! Core errors to Python exceptions, and the guarded, GIL-free call every binding uses.
//!
//! The exception classes live in Python (`schedlab/errors.py`) so that they can
//! inherit from both `SchedlabError` and the matching builtin (`ValueError`,
//! `OSError`) and pickle with their fields; here they are looked up once and
//! instantiated with (message, path, line, column).

use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyModule;
use schedlab::cancel;
use schedlab::error::{Error, Result};
use std::panic::{catch_unwind, AssertUnwindSafe};

static ERRORS_MODULE: PyOnceLock<Py<PyModule>> = PyOnceLock::new();

fn errors_module(py: Python<'_>) -> PyResult<&Bound<'_, PyModule>> {
    ERRORS_MODULE.get_or_try_init(py, || py.import("schedlab.errors").map(Bound::unbind)).map(|m| m.bind(py))
}

/// A `str` argument as Rust text; one with lone surrogates (which UTF-8 cannot hold)
/// is the `ParseError` `schedlab._text.text` raises, naming `source` and the line.
pub fn text_arg(text: &Bound<'_, pyo3::types::PyString>, source: &str) -> PyResult<String> {
    match text.to_str() {
        Ok(t) => Ok(t.to_owned()),
        Err(_) => text.py().import("schedlab._text")?.call_method1("text", (text, source))?.extract(),
    }
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
        Error::Interrupted => return PyKeyboardInterrupt::new_err(message),
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

static MAIN_THREAD: PyOnceLock<std::ffi::c_ulong> = PyOnceLock::new();

/// Whether the current thread is Python's main thread, the only one Python runs
/// signal handlers on and the only one that may change them.
pub(super) fn on_main_thread(py: Python<'_>) -> bool {
    // SAFETY: PyThread_get_thread_ident only reads the calling thread's identity.
    let me = unsafe { pyo3::ffi::PyThread_get_thread_ident() };
    let main = MAIN_THREAD.get_or_try_init(py, || -> PyResult<std::ffi::c_ulong> {
        // threading knows the main thread once it is loaded; until then no thread has been
        // started through it, so this is the main thread (and importing threading only to
        // be told so costs a process ~1 ms at start-up)
        let modules = py.import("sys")?.getattr("modules")?;
        match modules.get_item("threading") {
            Ok(threading) => threading.call_method0("main_thread")?.getattr("ident")?.extract(),
            Err(_) => Ok(me),
        }
    });
    main.is_ok_and(|m| *m == me)
}

fn guarded<T>(f: impl FnOnce() -> Result<T>) -> Result<T> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|p| Err(Error::Internal(panic_message(p))))
}

/// Run a core computation with the GIL released; a core error becomes its Python
/// exception and a panic becomes `SchedlabError` (never an abort).
///
/// On Python's main thread, Ctrl-C during the computation also requests a stop
/// ([`super::sigint`]): the core's loops return [`Error::Interrupted`] within one
/// [`cancel::EVERY`] stretch, and the call raises what Python's own SIGINT handler
/// raises (KeyboardInterrupt). docs/cancel.md.
pub fn run<T: Send>(py: Python<'_>, f: impl FnOnce() -> Result<T> + Send) -> PyResult<T> {
    let hook = if on_main_thread(py) { super::sigint::Hook::install() } else { None };
    if hook.is_some() {
        // a Ctrl-C that arrived before the hook was in place is still pending in Python
        if let Err(e) = py.check_signals() {
            drop(hook);
            cancel::clear();
            return Err(e);
        }
    }
    let out = py.detach(|| guarded(f));
    if hook.is_some() {
        drop(hook);
        cancel::clear();
        if matches!(out, Err(Error::Interrupted)) {
            py.check_signals()?; // Python's handler ran in the signal: its exception
        }
    }
    out.map_err(|e| to_pyerr(py, e))
}

/// A core value as the Python object its JSON form would load as (dicts, lists, ...).
pub fn to_py<'py, T: serde::Serialize>(py: Python<'py>, v: &T) -> PyResult<Bound<'py, PyAny>> {
    pythonize::pythonize(py, v).map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))
}
