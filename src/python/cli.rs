//! The command line's shared messages ([`schedlab::cli::messages`]) for the Python
//! command line, so that it and the native launcher print the same words.

use pyo3::prelude::*;
use schedlab::cli::messages;

/// `mmtests compare`'s era note, or None.
#[pyfunction]
fn cli_era_note(era: &str, reason: &str, compat_given: bool) -> Option<String> {
    messages::era_note(era, reason, compat_given)
}

/// `mmtests compare`'s missing-data lines and exit code.
#[pyfunction]
fn cli_missing_data(warnings: Vec<String>, allowed: bool) -> (Vec<String>, i32) {
    messages::missing_data(&warnings, allowed)
}

/// The line of a command stopped by Ctrl-C.
#[pyfunction]
fn cli_interrupted(command: &str) -> String {
    messages::interrupted(command)
}

/// Add the command-line message functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(cli_era_note, m)?)?;
    m.add_function(wrap_pyfunction!(cli_missing_data, m)?)?;
    m.add_function(wrap_pyfunction!(cli_interrupted, m)?)?;
    m.add("CLI_INTERRUPTED", messages::INTERRUPTED)?;
    Ok(())
}
