//! CI batch mode: whole result archives in, one machine-readable verdict out.
//!
//! `schedlab batch PATH... --baseline NAME` reads every input (a directory or a
//! `.tar`, `.tar.gz`/`.tgz`, `.tar.xz`, `.zip` archive, read in memory within
//! [`options::batch_limits`], never unpacked to disk), finds every MMTests run (both
//! log layouts, [`crate::mmtests::discover`]) and every lkp result root in it,
//! compares each kernel or commit with the baseline of its group, and decides each
//! metric with a p-value (Welch or Mann-Whitney), Benjamini-Hochberg control across
//! all rows of the run and [`crate::table::decide`]; see docs/batch.md.
//!
//! The work is split so that it scales out: [`scan()`] reads one input into samples
//! (independent per input: rayon threads here, Dask workers from Python), and
//! [`reduce()`] combines the scans of all inputs into the [`BatchResult`]. [`run`]
//! is both on one machine, the scans in parallel within `jobs` threads.

pub mod document;
pub mod github;
pub mod html;
pub mod markdown;
pub mod options;
pub mod progress;
pub mod reduce;
pub mod render;
pub mod result_files;
pub mod scan;

pub use document::{BatchResult, InputError, Row, Summary, Timings};
pub use options::{batch_limits, batch_limits_with, FailOn, Named, Options, Test};
pub use reduce::{reduce, Outcome};
pub use scan::{scan, scan_bytes, Scan};

use crate::error::{Error, Result};
use crate::parallel;
use rayon::prelude::*;
use std::path::PathBuf;

/// Scan every input in parallel (at most `opts.jobs` threads) and reduce the scans.
///
/// Without `keep_going`, the first input (in the order given) that cannot be read
/// is the error; with it, such inputs are listed in [`BatchResult::errors`] and the
/// exit code is 2. The baseline not being found, or a kernel whose baseline is
/// ambiguous, is always an error.
pub fn run(paths: &[PathBuf], opts: &Options) -> Result<BatchResult> {
    opts.validate()?;
    let start = std::time::Instant::now();
    if paths.is_empty() {
        return Err(Error::domain("give at least one directory or archive"));
    }
    let bar = progress::Progress::new(paths.len(), opts.progress);
    let scans: Vec<Result<Scan>> = parallel::install(opts.jobs, || {
        paths
            .par_iter()
            .map(|p| {
                let s = scan(p, &opts.limits);
                bar.tick();
                s
            })
            .collect()
    })?;
    bar.finish();
    let mut outcomes = Vec::with_capacity(scans.len());
    for (p, s) in paths.iter().zip(scans) {
        match s {
            Ok(s) => outcomes.push(Outcome::Scanned(s)),
            Err(e) if opts.keep_going => {
                outcomes.push(Outcome::Failed(InputError { input: p.display().to_string(), message: e.to_string() }))
            }
            Err(e) => return Err(e),
        }
    }
    let mut res = reduce(&outcomes, opts)?;
    res.timings.total = start.elapsed().as_secs_f64();
    Ok(res)
}
