//! The test hook of docs/cancel.md §3 for in-process Python tests: while a
//! `StopAfterChecks` is entered, this thread's core calls (and the parallel work they
//! start) stop with KeyboardInterrupt at their `checks + 1`-th cancellation check, as
//! if Ctrl-C had been pressed there ([`schedlab::cancel::StopAfter`]). Private: used by
//! `schedlab._testing`.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use schedlab::cancel::StopAfter;

/// A context manager holding a [`StopAfter`] hook on the thread that entered it.
#[pyclass(name = "_StopAfterChecks", module = "schedlab._core", unsendable)]
struct PyStopAfterChecks {
    checks: u64,
    hook: Option<StopAfter>,
}

#[pymethods]
impl PyStopAfterChecks {
    #[new]
    fn new(checks: u64) -> Self {
        PyStopAfterChecks { checks, hook: None }
    }

    fn __enter__(mut slf: PyRefMut<'_, Self>) -> PyResult<PyRefMut<'_, Self>> {
        if slf.hook.is_some() {
            return Err(PyRuntimeError::new_err("the stop hook is already entered"));
        }
        slf.hook = Some(StopAfter::checks(slf.checks));
        Ok(slf)
    }

    #[pyo3(signature = (*_exc))]
    fn __exit__(&mut self, _exc: &Bound<'_, pyo3::types::PyTuple>) -> bool {
        self.hook = None;
        false
    }
}

/// Add the hook's class to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyStopAfterChecks>()
}
