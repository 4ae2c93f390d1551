//! numpy ⇄ Rust slices. Contiguous float64 arrays are borrowed without a copy;
//! strided views are copied once. (The Python layer turns lists and integer
//! arrays into float64 arrays before they reach here.) A borrowed array is made
//! read-only for the length of the call ([`ReadOnly`], docs/arrays.md).

use numpy::{PyReadonlyArray1, PyUntypedArrayMethods};
use pyo3::prelude::*;
use std::borrow::Cow;

/// numpy arrays made read-only while a core call reads them without the GIL, and made
/// writeable again when the guard is dropped (the call has returned, the GIL held).
/// The array and the ndarrays down its `.base` chain (numpy points a view straight at
/// the array owning the memory) that were writeable are locked, so that another thread
/// writing through any of them gets numpy's
/// "assignment destination is read-only" instead of changing what the call reads
/// half-way (docs/arrays.md). A flag that cannot be set is left as it was.
pub struct ReadOnly<'py> {
    locked: Vec<Bound<'py, PyAny>>,
}

impl<'py> ReadOnly<'py> {
    /// Lock `array` and the writeable ndarrays under it.
    pub fn lock(array: &Bound<'py, PyAny>) -> Self {
        let py = array.py();
        let mut locked = Vec::new();
        let Ok(ndarray) = py.import("numpy").and_then(|np| np.getattr("ndarray")) else {
            return ReadOnly { locked };
        };
        let mut cur = Some(array.clone());
        while let Some(a) = cur.take() {
            if !a.is_instance(&ndarray).unwrap_or(false) {
                break;
            }
            let writeable = a.getattr("flags").and_then(|f| f.getattr("writeable")).and_then(|w| w.extract::<bool>());
            if writeable.unwrap_or(false) && set_writeable(&a, false) {
                locked.push(a.clone());
            }
            cur = a.getattr("base").ok().filter(|b| !b.is_none());
        }
        ReadOnly { locked }
    }
}

fn set_writeable(a: &Bound<'_, PyAny>, write: bool) -> bool {
    let kwargs = pyo3::types::PyDict::new(a.py());
    kwargs.set_item("write", write).is_ok() && a.call_method("setflags", (), Some(&kwargs)).is_ok()
}

impl Drop for ReadOnly<'_> {
    fn drop(&mut self) {
        // the base first: numpy lets a view be made writeable only over a writeable base
        for a in self.locked.iter().rev() {
            set_writeable(a, true);
        }
    }
}

/// Lock `a` read-only for the call when the core borrows it (a contiguous array is read
/// in place; a strided one is copied, and not locked): hold the guard until the call
/// has returned.
pub fn lock<'py, T: numpy::Element>(a: &PyReadonlyArray1<'py, T>) -> Option<ReadOnly<'py>> {
    a.is_contiguous().then(|| ReadOnly::lock(a.as_any()))
}

/// A float64 array seen as a slice: borrowed (and locked read-only while this lives)
/// when contiguous, copied otherwise.
pub struct F64<'py> {
    array: PyReadonlyArray1<'py, f64>,
    copy: Option<Vec<f64>>,
    _read_only: Option<ReadOnly<'py>>,
}

impl<'py> F64<'py> {
    /// Wrap a read-only array.
    pub fn new(array: PyReadonlyArray1<'py, f64>) -> Self {
        let (copy, lock) = if array.is_contiguous() {
            (None, Some(ReadOnly::lock(array.as_any())))
        } else {
            (Some(array.as_array().iter().copied().collect()), None)
        };
        F64 { array, copy, _read_only: lock }
    }

    /// The values as a slice.
    pub fn slice(&self) -> Cow<'_, [f64]> {
        match (&self.copy, self.array.as_slice()) {
            (Some(v), _) => Cow::Borrowed(v.as_slice()),
            (None, Ok(s)) => Cow::Borrowed(s),
            (None, Err(_)) => Cow::Owned(self.array.as_array().iter().copied().collect()),
        }
    }
}

/// The lengths of a packed ragged array (each series' number of values), as indices.
pub fn lengths(a: &PyReadonlyArray1<'_, u64>) -> Vec<usize> {
    a.as_array().iter().map(|&l| l as usize).collect()
}
