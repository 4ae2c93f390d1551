//! The test hook of docs/cancel.md §3 for in-process Python tests: while a
//! `StopAfterChecks` is entered, this thread's core calls (and the parallel work they
//! start) stop with KeyboardInterrupt at their `checks + 1`-th cancellation check, as
//! if Ctrl-C had been pressed there ([`schedlab::cancel::StopAfter`]); and a
//! `PauseGate` whose holders' core calls wait at their first check until the test opens
//! it ([`schedlab::cancel::Gate`]). Private: used by `schedlab._testing`.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use schedlab::cancel::{Gate, StopAfter};
use std::sync::Arc;

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

/// A gate (`cancel::Gate`): `hold()` gives a context manager under which this thread's
/// core calls pause at their first check; `wait_reached(n, seconds)` waits (without the
/// GIL) until `n` calls are paused; `open()` lets them all go on.
#[pyclass(frozen, name = "_PauseGate", module = "schedlab._core")]
struct PyPauseGate {
    gate: Arc<Gate>,
}

#[pymethods]
impl PyPauseGate {
    #[new]
    fn new() -> Self {
        PyPauseGate { gate: Gate::new() }
    }

    /// A context manager holding the pausing hook on the thread that enters it.
    fn hold(&self) -> PyPauseHold {
        PyPauseHold { gate: Arc::clone(&self.gate), hook: None }
    }

    /// True once `n` calls wait at the gate; false after `seconds` (a hang guard).
    fn wait_reached(&self, py: Python<'_>, n: usize, seconds: f64) -> bool {
        let limit = std::time::Duration::from_secs_f64(seconds.max(0.0));
        let gate = Arc::clone(&self.gate);
        py.detach(move || gate.wait_reached(n, limit))
    }

    /// The calls that have arrived so far.
    #[getter]
    fn reached(&self) -> usize {
        self.gate.reached()
    }

    /// Whether a call waited `cancel::Gate::GIVE_UP` for the gate and stopped.
    #[getter]
    fn gave_up(&self) -> bool {
        self.gate.gave_up()
    }

    /// Let every waiting (and later) call through.
    fn open(&self) {
        self.gate.open();
    }
}

/// The context manager of `_PauseGate.hold()`.
#[pyclass(name = "_PauseHold", module = "schedlab._core", unsendable)]
struct PyPauseHold {
    gate: Arc<Gate>,
    hook: Option<StopAfter>,
}

#[pymethods]
impl PyPauseHold {
    fn __enter__(mut slf: PyRefMut<'_, Self>) -> PyResult<PyRefMut<'_, Self>> {
        if slf.hook.is_some() {
            return Err(PyRuntimeError::new_err("the pause hook is already entered"));
        }
        slf.hook = Some(StopAfter::pausing(Arc::clone(&slf.gate)));
        Ok(slf)
    }

    #[pyo3(signature = (*_exc))]
    fn __exit__(&mut self, _exc: &Bound<'_, pyo3::types::PyTuple>) -> bool {
        self.hook = None;
        false
    }
}

/// Add the hooks' classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyStopAfterChecks>()?;
    m.add_class::<PyPauseGate>()?;
    m.add_class::<PyPauseHold>()
}
