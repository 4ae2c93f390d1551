//! numpy ⇄ Rust slices. Contiguous float64 arrays are borrowed without a copy;
//! strided views are copied once. (The Python layer turns lists and integer
//! arrays into float64 arrays before they reach here.)

use numpy::{PyReadonlyArray1, PyUntypedArrayMethods};
use std::borrow::Cow;

/// A float64 array seen as a slice: borrowed when contiguous, copied otherwise.
pub struct F64<'py> {
    array: PyReadonlyArray1<'py, f64>,
    copy: Option<Vec<f64>>,
}

impl<'py> F64<'py> {
    /// Wrap a read-only array.
    pub fn new(array: PyReadonlyArray1<'py, f64>) -> Self {
        let copy = if array.is_contiguous() { None } else { Some(array.as_array().iter().copied().collect()) };
        F64 { array, copy }
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
