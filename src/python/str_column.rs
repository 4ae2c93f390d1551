//! A column of strings as a Python list holding one `str` object per distinct value:
//! a reader's columns repeat a few names over every row (the event, its unit, the
//! direction), and a new object per row would cost ~55 bytes each (the memory bound of docs/readers.md §10
//! of 4× the input).

use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};
use std::collections::HashMap;

/// `values` as a list of `str`, equal values sharing one object.
pub fn shared<'py, 'a>(py: Python<'py>, values: impl Iterator<Item = &'a str>) -> PyResult<Bound<'py, PyList>> {
    let mut seen: HashMap<&'a str, Bound<'py, PyString>> = HashMap::new();
    let items: Vec<Bound<'py, PyString>> =
        values.map(|v| seen.entry(v).or_insert_with(|| PyString::new(py, v)).clone()).collect();
    PyList::new(py, items)
}
