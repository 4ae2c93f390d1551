//! The pyo3 binding layer, and the only place pyo3 and numpy appear.
//!
//! It converts (numpy arrays ⇄ slices, [`schedlab::Error`] ⇄ `schedlab.errors`
//! exceptions), releases the GIL around the core call and turns a panic into
//! `schedlab.SchedlabError`; it computes nothing itself.

mod arrays;
mod batch;
mod batch_scan;
mod benchtab;
mod bisect;
mod cli;
mod comparison;
mod defaults;
mod errors;
mod idle;
mod idle_objects;
mod live;
mod lkp;
mod mmtests;
mod mmtests_tables;
mod pelt;
mod py_write;
mod readers;
mod report;
mod series;
mod sigint;
mod stats;
mod str_column;
mod table;
mod testing;
mod trace;

use pyo3::prelude::*;

/// The native module `schedlab._core`.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    stats::register(m)?;
    comparison::register(m)?;
    table::register(m)?;
    lkp::register(m)?;
    mmtests::register(m)?;
    mmtests_tables::register(m)?;
    pelt::register(m)?;
    idle::register(m)?;
    live::register(m)?;
    batch::register(m)?;
    series::register(m)?;
    bisect::register(m)?;
    readers::register(m)?;
    benchtab::register(m)?;
    report::register(m)?;
    cli::register(m)?;
    testing::register(m)?;
    trace::register(m)?;
    Ok(())
}
