//! `schedlab lkp compare` with text output, run natively: what the Python command line
//! prints for it (python/schedlab/commands/lkp.py `run_compare`: `lkp ncompare`'s
//! table), computed by the same core calls. A compare that fails gives
//! [`Outcome::Fallback`]: the Python command line then runs it again and reports the
//! error in its own words (docs/cli.md §1).

use super::encoding::python_writes_utf8;
use super::fast_args::LkpCompareArgs;
use super::fast_compare::Outcome;
use crate::error::{Error, Result};
use crate::lkp::lookup::find_commit_root;
use crate::lkp::matrix::load_roots;
use crate::lkp::ncompare::{compare_roots, Options};
use crate::lkp::render_text::render;
use std::path::PathBuf;

/// The roots `a` names: a path that exists as it is, else (with `--root`) the result
/// root of the commit it is a prefix of, as the Python command line resolves them.
fn paths(a: &LkpCompareArgs) -> Result<Vec<PathBuf>> {
    a.roots
        .iter()
        .map(|p| match &a.search_root {
            Some(dir) if !p.exists() => find_commit_root(dir, &p.to_string_lossy()),
            _ => Ok(p.clone()),
        })
        .collect()
}

/// Run the compare `a` describes.
pub fn run(a: &LkpCompareArgs) -> Outcome {
    let opt = Options {
        all_keys: a.all_keys,
        more: a.more,
        kpi: a.kpi,
        perf_profile_threshold: a.perf_profile_threshold,
        ..Default::default()
    };
    let text = paths(a).and_then(|p| load_roots(&p)).and_then(|roots| render(&compare_roots(&roots, opt)?));
    match text {
        // lkp's table has '±': written as Python would write it, else left to Python
        Ok(t) if t.is_ascii() || python_writes_utf8() => Outcome::Done { stdout: t, stderr: String::new(), code: 0 },
        Err(Error::Interrupted) => Outcome::Interrupted,
        // an error is Python's to word
        _ => Outcome::Fallback,
    }
}
