//! MMTests results: extract benchmark logs of a `work/log` tree and print
//! `compare-mmtests.pl`'s tables exactly, for the MMTests version (era) chosen;
//! then go beyond them (named tests, BH-FDR, bootstrap intervals).
//!
//! Data flow: [`extract`] (one parser per benchmark family) → [`summarise`]
//! (MMTests' statistics in its exact summation order) → [`significance`] and
//! [`compare`] / [`ratio`] (a [`Comparison`]) → [`render_text`] (the Perl's bytes).
//! [`parse_text`] reads tables pasted in mail back into a [`Comparison`].
//! The specification is docs/mmtests.md; each era's rules are in [`era`].

// Parsers of untrusted bytes: no unwrap, expect, indexing or string slicing that can panic on input.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

pub mod compare;
pub mod discover;
pub mod era;
pub mod era_detect;
pub mod extract;
pub mod logfile;
pub mod monitors;
pub mod parse_text;
pub mod perlfmt;
pub mod ratio;
pub mod render_text;
pub mod significance;
pub mod summarise;
pub mod timestamp;
pub mod verdicts;

pub use era::{Era, Preferred};

use crate::archive::{self, DirTree, Tree};
use crate::error::{Error, Result};
use crate::parallel;
use crate::table::{Comparison, MmtestsLayout};
use rayon::prelude::*;
use std::path::Path;
use summarise::{filter_ops, ratio_stat, SummaryKind};

/// Options of [`compare`], after compare-mmtests.pl's flags.
#[derive(Debug, Clone, Default)]
pub struct CompareOptions {
    /// `--compat`: the MMTests era; None = the newest era that knows the
    /// benchmark and finds the first name's logs in its layout.
    pub compat: Option<Era>,
    /// `--print-ratio`.
    pub print_ratio: bool,
    /// `--sub-heading` (empty = none).
    pub subheading: String,
    /// Worker threads for reading logs (None = schedlab's default).
    pub threads: Option<usize>,
}

/// The result of [`compare`]: the table as a [`Comparison`] and as MMTests prints it.
#[derive(Debug, Clone)]
pub struct Report {
    /// The era whose rules were applied.
    pub era: Era,
    /// The table (rows × kernels; layout facts in `meta`).
    pub comparison: Comparison,
    /// compare-mmtests.pl's stdout for the same tree and flags.
    pub text: String,
    /// Things MMTests does silently that a user should know (defaults, ...).
    pub warnings: Vec<String>,
    /// Why `era` was chosen ([`era_detect::Detection::reason`]).
    pub era_reason: String,
}

/// Choose the era: the given one, else the one the files tell ([`era_detect::detect`]:
/// layout, markers, which extractors find results; the newest when they cannot tell).
pub fn resolve_era(tree: &dyn Tree, root: &str, benchmark: &str, first_name: &str, compat: Option<Era>) -> Result<Era> {
    era_detect::detect(tree, root, benchmark, first_name, compat).map(|d| d.era)
}

/// [`compare`] of the results at a path: `dir` is the `work/log` directory, or a `.tar`,
/// `.tar.gz`/`.tgz`, `.tar.xz` or `.zip` archive of results (read in memory within
/// [`archive::Limits::default`]), in which the `work/log` directory holding the first
/// name's logs of `benchmark` is found wherever it is ([`discover::find_runs`]), or a
/// directory inside such an archive (`results.tar.gz/work/log.b`, [`archive::inner_path`]).
pub fn compare_at(dir: &Path, benchmark: &str, names: &[String], opts: &CompareOptions) -> Result<Report> {
    let (tree, root) = open_at(dir, benchmark, names)?;
    compare(tree.as_ref(), &root, benchmark, names, opts)
}

/// The tree and `work/log` directory of the results at a path, as [`compare_at`] reads
/// them (a directory, an archive, a directory inside an archive); the run names are
/// checked first.
pub(crate) fn open_at(dir: &Path, benchmark: &str, names: &[String]) -> Result<(Box<dyn Tree>, String)> {
    check_names(names)?;
    let dir = archive::without_trailing_slash(dir);
    if let Some((path, root)) = archive::inner_path(dir) {
        return Ok((archive::open(&path, &archive::Limits::default())?, root));
    }
    if dir.is_file() {
        let tree = archive::open(dir, &archive::Limits::default())?;
        let first = names.first().map(String::as_str).unwrap_or_default();
        let root = locate_root(tree.as_ref(), benchmark, first)?;
        return Ok((tree, root));
    }
    Ok((Box::new(DirTree::at(dir)), String::new()))
}

fn check_names(names: &[String]) -> Result<()> {
    if names.is_empty() {
        return Err(Error::domain("give at least one run name (-n)"));
    }
    if let Some(bad) = names.iter().find(|n| n.is_empty() || n.contains('/')) {
        return Err(Error::domain(format!("run names must be non-empty and contain no '/': '{bad}'")));
    }
    Ok(())
}

/// The `work/log` directory of `tree` that holds run `first`'s logs of `benchmark`
/// (in either layout): exactly one must.
pub fn locate_root(tree: &dyn Tree, benchmark: &str, first: &str) -> Result<String> {
    let (runs, _) = discover::find_runs(tree)?;
    let mut roots: Vec<String> =
        runs.iter().filter(|r| r.name == first && r.benchmark == benchmark).map(|r| r.root.clone()).collect();
    roots.dedup();
    match roots.len() {
        1 => Ok(roots.swap_remove(0)),
        0 => {
            let mut all: Vec<String> = runs.iter().map(|r| format!("{} of {}", r.benchmark, r.name)).collect();
            all.dedup();
            Err(Error::Io {
                path: tree.origin().to_string(),
                msg: format!(
                    "no MMTests logs of benchmark '{benchmark}' for '{first}' in it (found: {})",
                    if all.is_empty() { "no MMTests logs at all".to_string() } else { all.join(", ") }
                ),
                not_found: true,
            })
        }
        _ => Err(Error::domain(format!(
            "{o}: several MMTests log directories hold '{first}' logs of '{benchmark}' ({}); name one inside the \
             archive, as {o}/{}",
            roots.join(", "),
            roots.first().map(String::as_str).unwrap_or_default(),
            o = tree.origin(),
        ))),
    }
}

/// Refuse a run name that `root` has no logs of `benchmark` for, listing the runs it
/// has (when discovery knows the benchmark there; otherwise extraction reports).
fn check_runs_exist(tree: &dyn Tree, root: &str, benchmark: &str, names: &[String]) -> Result<()> {
    // the usual case, without listing the whole work/log directory
    if names.iter().all(|n| discover::has_run(tree, root, n, benchmark)) {
        return Ok(());
    }
    let found = discover::runs_at(tree, root, &mut Vec::new());
    let mut have: Vec<&str> = found.iter().filter(|r| r.benchmark == benchmark).map(|r| r.name.as_str()).collect();
    have.sort_unstable();
    have.dedup();
    match names.iter().find(|n| !have.contains(&n.as_str())) {
        Some(bad) if !have.is_empty() => Err(Error::Io {
            path: tree.display(root),
            msg: format!("no run '{bad}' of {benchmark} here (runs of {benchmark}: {})", have.join(", ")),
            not_found: true,
        }),
        _ => Ok(()),
    }
}

/// `f` of every run, on up to `threads` threads (the subselection statistics draw
/// thousands of resamples per run); in run order, and the first run's error wins, as
/// one thread would give.
fn summarise_all<T: Send>(
    runs: &[extract::Run],
    threads: Option<usize>,
    f: impl Fn(&extract::Run) -> Result<T> + Sync,
) -> Result<Vec<T>> {
    let each: Vec<Result<T>> = parallel::install(threads, || runs.par_iter().map(&f).collect())?;
    each.into_iter().collect()
}

/// `compare-mmtests.pl -d ROOT -b BENCHMARK -n NAMES [--print-ratio] [--sub-heading S]`
/// as MMTests of the chosen era prints it, on the `work/log` directory `root` of `tree`
/// (a directory or an archive); the first name is the baseline.
pub fn compare(
    tree: &dyn Tree,
    root: &str,
    benchmark: &str,
    names: &[String],
    opts: &CompareOptions,
) -> Result<Report> {
    check_names(names)?;
    let first = names.first().ok_or_else(|| Error::domain("give at least one run name (-n)"))?;
    check_runs_exist(tree, root, benchmark, names)?;
    let detection = era_detect::detect(tree, root, benchmark, first, opts.compat)?;
    let era = detection.era;
    let ctx = extract::Ctx { era, benchmark: benchmark.to_string(), subheading: opts.subheading.clone() };
    // each run's result kept in run order, so that the first run's error is the one
    // reported whichever thread finishes first
    let each: Vec<Result<extract::Run>> = parallel::install(opts.threads, || {
        names.par_iter().map(|n| extract::extract_run(&ctx, tree, root, n)).collect()
    })?;
    let runs: Vec<extract::Run> = each.into_iter().collect::<Result<_>>()?;
    let base = runs.first().ok_or_else(|| Error::domain("no runs"))?;
    let meta = base.meta.clone();
    let rules = era.rules();
    let fl = meta.field_length.unwrap_or_else(|| rules.field_length());
    let mut warnings: Vec<String> = runs.iter().flat_map(|r| r.samples.warnings.clone()).collect();
    for r in runs.iter().skip(1) {
        let theirs = r.samples.operations();
        let missing: Vec<String> = base.samples.operations().into_iter().filter(|o| !theirs.contains(o)).collect();
        if !missing.is_empty() {
            warnings.push(format!(
                "'{}' has no results for {} of the baseline's operations ({}); MMTests prints 0.00 there",
                r.name,
                missing.len(),
                missing.join(", ")
            ));
        }
    }
    let rstat = ratio_stat(meta.kind);
    let mut comparison = if opts.print_ratio {
        let ratio_ops: Vec<String> = match base.samples.ratio_operations() {
            Some(r) => filter_ops(r, &opts.subheading),
            None => filter_ops(&base.samples.operations(), &opts.subheading),
        };
        let mut unique: Vec<String> = Vec::new();
        for o in &ratio_ops {
            if !unique.contains(o) {
                unique.push(o.clone());
            }
        }
        let sums = summarise_all(&runs, opts.threads, |r| summarise::summarise(r, era, &[rstat], &unique))?;
        let mut c = ratio::build_ratio(era, benchmark, meta.kind, meta.ratio_preferred, &sums, &ratio_ops);
        c.meta.mmtests.get_or_insert_with(Default::default).layout = MmtestsLayout::Ratio;
        c
    } else {
        let stats = rules.summary_stats(meta.kind);
        let sums = summarise_all(&runs, opts.threads, |r| {
            summarise::summarise(r, era, &stats, &filter_ops(&r.samples.operations(), &opts.subheading))
        })?;
        let names: Vec<String> = stats.iter().map(|s| rules.stat_name(*s, meta.preferred, &meta.value_label)).collect();
        let no_marks = era == Era::E2018 && meta.kind == SummaryKind::Subselection;
        let marks = if no_marks {
            vec![std::collections::HashMap::new(); sums.len()]
        } else {
            significance::marks(era, &sums)?
        };
        let marked = match rules.sig_rule() {
            era::SigRule::TTest => None,
            era::SigRule::CiOverlap { .. } => Some(rstat),
        };
        compare::build_table(era, benchmark, &sums, &names, marked, &marks)
    };
    let ratio_ops: Vec<String> = match base.samples.ratio_operations() {
        Some(r) => filter_ops(r, &opts.subheading),
        None => filter_ops(&base.samples.operations(), &opts.subheading),
    };
    let m = comparison.meta.mmtests.get_or_insert_with(Default::default);
    m.era = Some(era.name().into());
    m.era_reason = Some(detection.reason.clone());
    m.field_length = Some(fl);
    m.precision = Some(meta.precision);
    m.preferred = Some(meta.preferred.direction());
    m.ratio_group = Some(rules.stat_name(rstat, meta.preferred, &meta.value_label));
    m.ratio_ops = Some(ratio_ops);
    m.summary = Some(format!("{:?}", meta.kind));
    m.subheading = (!opts.subheading.is_empty()).then(|| opts.subheading.clone());
    comparison.meta.warnings = warnings.clone();
    let text = render_text::render(&comparison)?;
    Ok(Report { era, comparison, text, warnings, era_reason: detection.reason })
}
