//! The error type shared by every schedlab module.
//!
//! Each variant maps to one Python exception class of `schedlab.errors`
//! (see `src/python/errors.rs`): a parse problem carries the file, line and column
//! it was found at; a domain problem says which mathematical precondition failed.

use std::fmt;

/// Where in an input a parse problem was found: file (if any), 1-based line, column name.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Location {
    /// Path of the file, or a label such as `<string>` for in-memory text.
    pub path: Option<String>,
    /// 1-based line number.
    pub line: Option<usize>,
    /// Column name or field the problem is in.
    pub column: Option<String>,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut wrote = false;
        if let Some(p) = &self.path {
            write!(f, "{p}")?;
            wrote = true;
        }
        if let Some(l) = self.line {
            if wrote {
                write!(f, ":{l}")?
            } else {
                write!(f, "line {l}")?
            }
            wrote = true;
        }
        if let Some(c) = &self.column {
            write!(f, "{}column '{c}'", if wrote { ": " } else { "" })?;
        }
        Ok(())
    }
}

/// Every failure a schedlab function can report.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Error {
    /// Input text or bytes do not have the expected format.
    #[error("{}{msg}", fmt_loc(loc))]
    Parse { loc: Location, msg: String },
    /// A statistic or model is undefined for these values (e.g. hmean of a
    /// non-positive sample, NaN input, a ratio against a zero baseline).
    #[error("{0}")]
    Domain(String),
    /// Too few samples for the requested statistic or test.
    #[error("{0}")]
    InsufficientData(String),
    /// A file could not be read.
    #[error("{path}: {msg}")]
    Io { path: String, msg: String, not_found: bool },
    /// The computation was stopped by a request from outside ([`crate::cancel`], Ctrl-C).
    #[error("interrupted")]
    Interrupted,
    /// A bug in schedlab (a caught panic); never a property of the input.
    #[error("internal error in schedlab: {0}")]
    Internal(String),
}

fn fmt_loc(loc: &Location) -> String {
    let s = loc.to_string();
    if s.is_empty() {
        s
    } else {
        format!("{s}: ")
    }
}

impl Error {
    /// A parse error at `path`, 1-based `line`, with a message saying what was expected.
    pub fn parse(path: Option<&str>, line: Option<usize>, msg: impl Into<String>) -> Self {
        Error::Parse { loc: Location { path: path.map(str::to_owned), line, column: None }, msg: msg.into() }
    }

    /// A parse error that also names the column (field) at fault.
    pub fn parse_col(
        path: Option<&str>,
        line: Option<usize>,
        column: impl Into<String>,
        msg: impl Into<String>,
    ) -> Self {
        Error::Parse {
            loc: Location { path: path.map(str::to_owned), line, column: Some(column.into()) },
            msg: msg.into(),
        }
    }

    /// A domain error (mathematically undefined input).
    pub fn domain(msg: impl Into<String>) -> Self {
        Error::Domain(msg.into())
    }

    /// An insufficient-data error.
    pub fn insufficient(msg: impl Into<String>) -> Self {
        Error::InsufficientData(msg.into())
    }

    /// Wrap an I/O error for `path`.
    pub fn io(path: impl AsRef<std::path::Path>, err: &std::io::Error) -> Self {
        Error::Io {
            path: path.as_ref().display().to_string(),
            msg: err.to_string(),
            not_found: err.kind() == std::io::ErrorKind::NotFound,
        }
    }
}

/// Result with [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_error_names_file_line_and_column() {
        let e = Error::parse_col(Some("trace.csv"), Some(12), "dur_ns", "expected an integer, got 'x'");
        assert_eq!(e.to_string(), "trace.csv:12: column 'dur_ns': expected an integer, got 'x'");
        let e = Error::parse(None, None, "empty input");
        assert_eq!(e.to_string(), "empty input");
    }
}
