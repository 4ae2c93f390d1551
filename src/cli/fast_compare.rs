//! `schedlab mmtests compare` with text output, run natively: what the Python command
//! line prints for it (python/schedlab/commands/mmtests.py `run_compare`), computed by
//! the same core calls, as bytes for standard output and standard error and an exit
//! code. A compare that fails gives [`Outcome::Fallback`]: the Python command line then
//! runs it again and reports the error in its own words (docs/cli.md §1).

use super::encoding::python_writes_utf8;
use super::fast_args::CompareArgs;
use super::messages;
use crate::error::Error;
use crate::mmtests::{verdicts, CompareOptions};

/// What the launcher does with a compare.
#[derive(Debug, PartialEq)]
pub enum Outcome {
    /// Print `stdout` and `stderr` and exit with `code`.
    Done {
        /// Standard output: the tool's table.
        stdout: String,
        /// Standard error: the era note and the missing-data lines.
        stderr: String,
        /// The exit code (0, or 2 for missing data not allowed).
        code: i32,
    },
    /// Stopped by Ctrl-C.
    Interrupted,
    /// Hand the command line to Python.
    Fallback,
}

/// Run the compare `a` describes.
pub fn run(a: &CompareArgs) -> Outcome {
    let opts = CompareOptions {
        compat: a.compat,
        print_ratio: a.print_ratio,
        subheading: a.sub_heading.clone(),
        threads: None,
    };
    // as the Python command line does: the test's verdicts are not printed in text, but
    // a test that cannot run there is an error there
    let r = verdicts::compare_at_tested(&a.directory, &a.benchmark, &a.names, &opts, a.test, a.alpha);
    let r = match r {
        Ok(r) => r,
        Err(Error::Interrupted) => return Outcome::Interrupted,
        Err(_) => return Outcome::Fallback,
    };
    let mut stderr = String::new();
    if let Some(note) = messages::era_note(r.era.name(), &r.era_reason, a.compat.is_some()) {
        stderr.push_str(&note);
        stderr.push('\n');
    }
    let (lines, code) = messages::missing_data(&r.warnings, a.allow_missing);
    for l in lines {
        stderr.push_str(&l);
        stderr.push('\n');
    }
    let ascii = r.text.is_ascii() && stderr.is_ascii();
    if !ascii && !python_writes_utf8() {
        // Python encodes for the locale's standard streams; ASCII is the same in all
        return Outcome::Fallback;
    }
    Outcome::Done { stdout: r.text, stderr, code }
}
