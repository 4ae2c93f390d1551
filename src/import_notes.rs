//! What a trace importer could not read and what it had to assume, kept with its result so
//! that nothing is guessed silently (docs/tracing.md).
//!
//! A line the importer cannot read (a garbled `bprint`, a cut-off event) is counted and the
//! first [`MAX_KEPT`] are kept as `file:line: what was expected`; under
//! [`ImportOptions::strict`] the first one is the error instead. Every value the importer
//! supplies itself (a sleep length without timer events, a capacity, a bit layout) is one
//! line of [`ImportNotes::assumptions`].

use crate::error::{Error, Result};

/// Malformed lines kept word for word; the rest are only counted.
pub const MAX_KEPT: usize = 20;

/// How strictly a trace is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ImportOptions {
    /// The first malformed line is an error (otherwise it is counted and skipped).
    pub strict: bool,
    /// Events out of time order are sorted (with a note) instead of refused.
    pub sort: bool,
}

/// The malformed lines and the assumptions of one import.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ImportNotes {
    /// Lines skipped because they could not be read.
    pub malformed: u64,
    /// The first [`MAX_KEPT`] of them, as `file:line: message`.
    pub malformed_lines: Vec<String>,
    /// Every value the importer supplied or inferred, one sentence each.
    pub assumptions: Vec<String>,
}

impl ImportNotes {
    /// Record the malformed line `err`: an error under `strict`, otherwise counted.
    pub fn malformed(&mut self, opts: ImportOptions, err: Error) -> Result<()> {
        if opts.strict {
            return Err(err);
        }
        self.malformed += 1;
        if self.malformed_lines.len() < MAX_KEPT {
            self.malformed_lines.push(err.to_string());
        }
        Ok(())
    }

    /// Add an assumption (once: the same sentence is not repeated).
    pub fn assume(&mut self, what: impl Into<String>) {
        let what = what.into();
        if !self.assumptions.contains(&what) {
            self.assumptions.push(what);
        }
    }

    /// Everything worth telling the user, one line each: the skipped-line count, the
    /// kept lines, then the assumptions.
    pub fn messages(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.malformed > 0 {
            out.push(format!(
                "{} malformed line(s) skipped{}",
                self.malformed,
                if self.malformed as usize > self.malformed_lines.len() {
                    format!(" (the first {} follow)", self.malformed_lines.len())
                } else {
                    String::new()
                }
            ));
            out.extend(self.malformed_lines.iter().cloned());
        }
        out.extend(self.assumptions.iter().cloned());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_fails_lenient_counts() {
        let e = Error::parse(Some("t.txt"), Some(3), "bad");
        let mut n = ImportNotes::default();
        assert_eq!(n.malformed(ImportOptions { strict: true, sort: false }, e.clone()), Err(e.clone()));
        for _ in 0..MAX_KEPT + 2 {
            n.malformed(ImportOptions::default(), e.clone()).unwrap();
        }
        n.assume("x");
        n.assume("x");
        let m = n.messages();
        assert_eq!(m[0], format!("{} malformed line(s) skipped (the first {MAX_KEPT} follow)", MAX_KEPT + 2));
        assert_eq!(m[1], "t.txt:3: bad");
        assert_eq!(m.len(), MAX_KEPT + 2);
        assert_eq!(m.last().unwrap(), "x");
    }
}
