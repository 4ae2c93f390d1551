//! Output of the core written to Python: a `write(bytes)` callable as an `io::Write`
//! ([`PyWrite`]), and a run of the core that writes either to such a callable or into
//! memory ([`run_writing`]).

use super::errors::run;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// A Python `write(bytes)` callable as an `io::Write`: each chunk is handed over with the
/// GIL taken back briefly; a Python exception is kept to be re-raised as is (so that a
/// `BrokenPipeError` stays one).
pub(crate) struct PyWrite {
    pub(crate) write: Py<PyAny>,
    pub(crate) err: Option<PyErr>,
}

impl std::io::Write for PyWrite {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let r = Python::attach(|py| self.write.call1(py, (PyBytes::new(py, buf),)).map(|_| ()));
        match r {
            Ok(()) => Ok(buf.len()),
            Err(e) => {
                self.err = Some(e);
                Err(std::io::Error::other("the Python write() failed"))
            }
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Run `f` with the GIL released ([`run`]), writing to the Python callable `write` in
/// chunks (None returned with `f`'s result) or, without one, into memory (the bytes
/// returned). A failure of `write` is raised as itself (a `BrokenPipeError` stays one),
/// not as the write error the core then reports.
pub(crate) fn run_writing<'py, T: Send>(
    py: Python<'py>,
    write: Option<Py<PyAny>>,
    f: impl FnOnce(&mut dyn std::io::Write) -> schedlab::Result<T> + Send,
) -> PyResult<(Option<Bound<'py, PyBytes>>, T)> {
    let Some(write) = write else {
        let mut out = Vec::new();
        let r = run(py, || f(&mut out))?;
        return Ok((Some(PyBytes::new(py, &out)), r));
    };
    let mut sink = PyWrite { write, err: None };
    let r = run(py, || f(&mut sink));
    if let Some(err) = sink.err {
        return Err(err);
    }
    Ok((None, r?))
}
