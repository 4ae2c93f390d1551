//! The per-input half of a batch run (the "map"): open a directory or archive,
//! find every MMTests run and lkp result root in it, and read each into per-metric
//! samples ([`Scan`]). A scan depends only on its input, so scans can run anywhere
//! (rayon threads, Dask workers) and be combined later by [`super::reduce`].

use super::result_files;
use crate::archive::tree::walk;
use crate::archive::{self, Kind, Limits, MemTree, Tree};
use crate::direction::mmtests_op_direction;
use crate::error::{Error, Result};
use crate::lkp::direction::direction;
use crate::lkp::matrix::{self, ResultRoot};
use crate::lkp::rules;
use crate::mmtests::discover::{eras_of, runs_at, FoundRun};
use crate::mmtests::era::Era;
use crate::mmtests::era_detect;
use crate::mmtests::extract::{self, Ctx};
use crate::table::Direction;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::Instant;

/// Version of the JSON form of [`Scan`] (what Dask workers send back).
pub const SCAN_VERSION: u32 = 1;

/// One metric of one run: its samples and which way is better.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Metric {
    /// Operation (MMTests) or key (lkp).
    pub name: String,
    /// Which way is better.
    pub direction: Direction,
    /// The samples, in extraction order (MMTests: every iteration pooled; lkp:
    /// one value per complete run, zero-filled as lkp does).
    pub samples: Vec<f64>,
}

/// One kernel's (or commit's) results of one benchmark.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunData {
    /// "mmtests" or "lkp".
    pub tool: String,
    /// The input holding it.
    pub input: String,
    /// Where it is, as error messages show it (`archive.tar.gz/work/log/k`).
    pub location: String,
    /// What runs must share to be compared ([`super::document::Row::setup`]).
    pub setup: String,
    /// MMTests benchmark or lkp testcase.
    pub benchmark: String,
    /// Kernel (MMTests run name) or commit.
    pub kernel: String,
    /// The MMTests era whose extractor read it.
    pub era: Option<String>,
    /// The metrics, in the tool's order.
    pub metrics: Vec<Metric>,
    /// When the run started, as its files say (seconds since the epoch), and which
    /// field said so: MMTests' `tests-timestamp` start, perf stat's or fio's date.
    #[serde(default)]
    pub started: Option<(i64, String)>,
}

/// One MMTests benchmark of one run that could not be compared: it failed or aborted
/// (MMTests kept only `mmtests.log`, every log is empty, no result file holds a
/// result) or its logs cannot be read. Listed with the reason; the input's other
/// runs and benchmarks are still read (docs/batch.md, "Fail closed").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FailedRun {
    /// Where it is, as error messages show it (`archive.tar.gz/work/log/k`).
    pub location: String,
    /// The `work/log` directory it is in ([`RunData::setup`]).
    pub setup: String,
    /// The MMTests benchmark.
    pub benchmark: String,
    /// The run (kernel) name.
    pub kernel: String,
    /// Why: MMTests' own trace of the failure (the exit code, the shellpack's last
    /// `FATAL` line), or the error reading the logs.
    pub reason: String,
}

/// Everything read from one input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Scan {
    /// [`SCAN_VERSION`].
    pub version: u32,
    /// The input as given.
    pub input: String,
    /// "dir", "tar", "tar.gz", "tar.xz" or "zip".
    pub kind: String,
    /// MMTests runs found.
    pub mmtests_runs: u64,
    /// lkp result roots found.
    pub lkp_roots: u64,
    /// Result files of benchmark tools read ([`super::results`]).
    #[serde(default)]
    pub result_files: u64,
    /// Every run read, in path order.
    pub runs: Vec<RunData>,
    /// What was skipped and why.
    pub warnings: Vec<String>,
    /// Data that should be there and could not be read or held nothing, each
    /// naming where (exit code 2 unless `allow_missing`; docs/batch.md).
    #[serde(default)]
    pub missing: Vec<String>,
    /// Seconds the scan took (a measurement: [`super::document::Timings::inputs`]).
    #[serde(default)]
    pub seconds: f64,
    /// Why each MMTests benchmark was read with its era (the era detection's reason:
    /// the file and line that told, or that the files cannot tell), once per setup,
    /// benchmark and era.
    #[serde(default)]
    pub notes: Vec<String>,
    /// The MMTests benchmarks of runs that failed or cannot be read, each also in
    /// `missing` (as "<location>: skipped: <reason>").
    #[serde(default)]
    pub failed: Vec<FailedRun>,
    /// The MMTests benchmarks of runs no era has an extractor for, each also in
    /// `warnings` (not missing data: schedlab cannot read them at all).
    #[serde(default)]
    pub skipped: Vec<FailedRun>,
}

impl Scan {
    /// The JSON form.
    pub fn to_json(&self) -> Result<String> {
        serde_json::to_string(self).map_err(|e| Error::Internal(format!("JSON encoding: {e}")))
    }

    /// Read the JSON form back.
    pub fn from_json(text: &str) -> Result<Scan> {
        let s: Scan = serde_json::from_str(text)
            .map_err(|e| Error::parse(Some("<batch scan json>"), Some(e.line()), format!("invalid scan JSON: {e}")))?;
        if s.version != SCAN_VERSION {
            return Err(Error::domain(format!(
                "scan version {} is not supported (this schedlab reads {SCAN_VERSION})",
                s.version
            )));
        }
        Ok(s)
    }
}

fn kind_name(k: Kind) -> &'static str {
    match k {
        Kind::Dir => "dir",
        Kind::Tar => "tar",
        Kind::TarGz => "tar.gz",
        Kind::TarXz => "tar.xz",
        Kind::Zip => "zip",
    }
}

/// Scan one input: a directory or archive (bounded by `limits`). Runs are read in
/// parallel on the current rayon pool. An input with no MMTests run and no lkp
/// result root is an error naming it.
pub fn scan(path: &Path, limits: &Limits) -> Result<Scan> {
    let start = Instant::now();
    let path = crate::archive::without_trailing_slash(path);
    let input = path.display().to_string();
    if let Some(file) = result_file(path, limits)? {
        let mut s = scan_tree(&file, &input, "file")?;
        s.seconds = start.elapsed().as_secs_f64();
        return Ok(s);
    }
    let kind = archive::detect(path)?;
    let tree = archive::open(path, limits)?;
    let mut s = scan_tree(tree.as_ref(), &input, kind_name(kind))?;
    s.seconds = start.elapsed().as_secs_f64();
    Ok(s)
}

/// Scan an archive held in memory (as fetched from an object store), named `input`
/// in the result and in errors; bounded by `limits` as [`scan`].
pub fn scan_bytes(bytes: &[u8], input: &str, limits: &Limits) -> Result<Scan> {
    let start = Instant::now();
    let mut s = match archive::kind_of(bytes) {
        Some(kind) => scan_tree(&archive::read_bytes(bytes, input, limits)?, input, kind_name(kind))?,
        None => scan_tree(&one_file(input, bytes.to_vec(), limits), input, "file")?,
    };
    s.seconds = start.elapsed().as_secs_f64();
    Ok(s)
}

/// The file at `path` as a tree of that one file, when it is a regular file and no
/// archive (a result file holding the runs of one side: docs/batch.md); None for a
/// directory or an archive. Read within the per-entry limit.
fn result_file(path: &Path, limits: &Limits) -> Result<Option<MemTree>> {
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) || archive::detect(path).is_ok() {
        return Ok(None);
    }
    let bytes = crate::archive::dir::read_file(path, limits.max_entry_bytes)?;
    Ok(Some(one_file(&path.display().to_string(), bytes, limits)))
}

/// A tree holding `bytes` as the file named after `input`'s last component.
fn one_file(input: &str, bytes: Vec<u8>, limits: &Limits) -> MemTree {
    let name = input.rsplit('/').next().filter(|n| !n.is_empty()).unwrap_or("result");
    let parent = input.strip_suffix(name).unwrap_or("").trim_end_matches('/');
    let mut t = MemTree::new(if parent.is_empty() { "." } else { parent });
    t.set_max_file_bytes(limits.max_entry_bytes);
    t.add_file(name, bytes);
    t
}

/// A run read, with the messages of what is missing in it.
/// A run read: its data, what is missing in it, and why its era was chosen (MMTests).
type Read = (RunData, Vec<String>, Option<String>);

enum Found {
    Mmtests(FoundRun),
    Lkp(String),
}

/// Scan an opened tree; `input` and `kind` label the result.
pub fn scan_tree(tree: &dyn Tree, input: &str, kind: &str) -> Result<Scan> {
    let mut found: Vec<Found> = Vec::new();
    let mut unknown: Vec<String> = Vec::new();
    let mut missing: Vec<String> = Vec::new();
    walk(tree, &mut |dir: &str| {
        crate::cancel::check()?;
        if let Err(e) = tree.list(dir) {
            missing.push(format!("{}: cannot read this directory: {}", tree.display(dir), matrix::io_msg(&e)));
            return Ok(false);
        }
        let here = runs_at(tree, dir, &mut unknown);
        if !here.is_empty() {
            found.extend(here.into_iter().map(Found::Mmtests));
            return Ok(false);
        }
        if matrix::is_commit_root(tree, dir) {
            found.push(Found::Lkp(dir.to_string()));
            return Ok(false);
        }
        Ok(true)
    })?;
    let mut warnings: Vec<String> =
        unknown.iter().map(|u| format!("{}: not a benchmark schedlab can read; skipped", tree.display(u))).collect();
    if found.is_empty() {
        let r = result_files::scan_results(tree, input, kind)?;
        if r.runs.is_empty() && r.missing.is_empty() {
            return Err(Error::parse(
                Some(input),
                None,
                format!(
                    "no MMTests results (work/log/<kernel>/iter-N/<benchmark>/logs or <benchmark>-<kernel>/noprofile), \
                     no lkp result root (a directory with matrix.json[.gz]) and no result file of a benchmark tool \
                     ({}) found",
                    crate::readers::FORMAT_NAMES.join(", ")
                ),
            ));
        }
        return Ok(Scan {
            version: SCAN_VERSION,
            input: input.to_string(),
            kind: kind.to_string(),
            mmtests_runs: 0,
            lkp_roots: 0,
            result_files: r.files,
            runs: r.runs,
            warnings: r.warnings,
            missing: r.missing,
            seconds: 0.0,
            notes: Vec::new(),
            failed: Vec::new(),
            skipped: Vec::new(),
        });
    }
    missing.extend(unreadable_kernels(tree, &found));
    let mmtests_runs = found.iter().filter(|f| matches!(f, Found::Mmtests(_))).count() as u64;
    let lkp_roots = found.len() as u64 - mmtests_runs;
    let read: Vec<Result<Option<Read>>> = found
        .par_iter()
        .map(|f| {
            crate::cancel::check()?;
            match f {
                Found::Mmtests(r) => read_mmtests(tree, input, r),
                Found::Lkp(rel) => read_lkp(tree, input, rel).map(|r| Some((r, Vec::new(), None))),
            }
        })
        .collect();
    let mut runs = Vec::with_capacity(read.len());
    let mut notes: Vec<String> = Vec::new();
    let mut noted: Vec<(String, String, Option<String>)> = Vec::new();
    let mut failed: Vec<FailedRun> = Vec::new();
    let mut skipped: Vec<FailedRun> = Vec::new();
    for (f, r) in found.iter().zip(read) {
        let r = match (f, r) {
            (_, Err(e @ (Error::Interrupted | Error::Internal(_)))) => return Err(e),
            // a benchmark that failed or aborted in one run (MMTests kept only mmtests.log,
            // or every log is empty), or whose logs cannot be read: listed with the reason,
            // the other benchmarks and runs still read
            (Found::Mmtests(fr), Err(e)) => {
                let location = tree.display(&crate::archive::tree::join(&fr.root, &fr.name));
                let reason = match e {
                    Error::InsufficientData(msg) => msg,
                    e => format!("benchmark '{}' cannot be read for '{}': {e}", fr.benchmark, fr.name),
                };
                missing.push(format!("{location}: skipped: {reason}"));
                failed.push(FailedRun {
                    location,
                    setup: fr.root.clone(),
                    benchmark: fr.benchmark.clone(),
                    kernel: fr.name.clone(),
                    reason,
                });
                continue;
            }
            (_, r) => r,
        };
        match r? {
            Some((run, gaps, note)) => {
                missing.extend(gaps);
                // one note per setup, benchmark and era: the first run's
                let key = (run.setup.clone(), run.benchmark.clone(), run.era.clone());
                if let Some(n) = note.filter(|_| !noted.contains(&key)) {
                    noted.push(key);
                    notes.push(n);
                }
                runs.push(run);
            }
            None => {
                if let Found::Mmtests(fr) = f {
                    let location = tree.display(&crate::archive::tree::join(&fr.root, &fr.name));
                    let reason = format!("no extractor for MMTests benchmark '{}'", fr.benchmark);
                    warnings.push(format!("{location}: {reason}; skipped"));
                    skipped.push(FailedRun {
                        location,
                        setup: fr.root.clone(),
                        benchmark: fr.benchmark.clone(),
                        kernel: fr.name.clone(),
                        reason,
                    });
                }
            }
        }
    }
    Ok(Scan {
        version: SCAN_VERSION,
        input: input.to_string(),
        kind: kind.to_string(),
        mmtests_runs,
        lkp_roots,
        result_files: 0,
        runs,
        warnings,
        missing,
        seconds: 0.0,
        notes,
        failed,
        skipped,
    })
}

/// The kernel directories beside the MMTests runs found that cannot be listed
/// (discovery passes over them): one message each.
fn unreadable_kernels(tree: &dyn Tree, found: &[Found]) -> Vec<String> {
    let mut roots: Vec<&str> =
        found.iter().filter_map(|f| if let Found::Mmtests(r) = f { Some(r.root.as_str()) } else { None }).collect();
    roots.sort_unstable();
    roots.dedup();
    let mut out = Vec::new();
    for root in roots {
        let Ok(children) = tree.list(root) else { continue };
        for name in children {
            let dir = crate::archive::tree::join(root, &name);
            if !tree.is_dir(&dir) {
                continue;
            }
            if let Err(e) = tree.list(&dir) {
                out.push(format!(
                    "{}: cannot read this kernel's directory ({}); its results are missing",
                    tree.display(&dir),
                    matrix::io_msg(&e)
                ));
            }
        }
    }
    out
}

/// The eras that can read run `r`, newest first: those of its layout that know its
/// benchmark, narrowed by the file names and line formats only some eras write
/// ([`era_detect::narrow`]: docs/mmtests.md §0.1), and the reasons the others were left out.
fn candidate_eras(tree: &dyn Tree, r: &FoundRun) -> Result<(Vec<Era>, Vec<String>)> {
    let layout = eras_of(r.layout);
    match era_detect::narrow(tree, &r.root, &r.benchmark, &r.name) {
        Ok((eras, reasons)) => Ok((eras.into_iter().filter(|e| layout.contains(e)).collect(), reasons)),
        Err(Error::Domain(_)) => Ok((Vec::new(), Vec::new())), // no era knows the benchmark
        Err(e) => Err(e),
    }
}

/// The note saying why run `r` was read with `eras[chosen]`: the detection's reasons,
/// the eras tried before it that found no results, and whether the files tell the
/// remaining eras apart ([`era_detect::decision`], as `schedlab mmtests compare` says it).
fn era_note(tree: &dyn Tree, r: &FoundRun, eras: &[Era], chosen: usize, mut reasons: Vec<String>) -> Option<String> {
    let (tried, left) = eras.split_at_checked(chosen)?;
    let era = *left.first()?;
    if !tried.is_empty() {
        let names: Vec<&str> = tried.iter().map(|e| e.name()).collect();
        reasons.push(format!("the extractor of MMTests {} finds no results in these logs", names.join(", ")));
    }
    let d = era_detect::decision(era, left.to_vec(), reasons);
    (!d.reason.is_empty()).then(|| {
        let at = tree.display(&crate::archive::tree::join(&r.root, &r.name));
        format!("{at}: {}: MMTests {}: {}", r.benchmark, era.name(), d.reason)
    })
}

/// Read one MMTests run with the newest era that knows its benchmark and finds
/// results in its logs, with what is missing in it (logs without a result line,
/// samples that are not numbers); None when no era has an extractor for the benchmark.
fn read_mmtests(tree: &dyn Tree, input: &str, r: &FoundRun) -> Result<Option<Read>> {
    let (eras, reasons) = candidate_eras(tree, r)?;
    let mut first_err: Option<Error> = None;
    for (chosen, &era) in eras.iter().enumerate() {
        let ctx = Ctx { era, benchmark: r.benchmark.clone(), subheading: String::new() };
        match extract::extract_run(&ctx, tree, &r.root, &r.name) {
            Ok(run) => {
                let ex = extract::find(era, &r.benchmark);
                let location = tree.display(&crate::archive::tree::join(&r.root, &r.name));
                let mut gaps: Vec<String> = run.samples.warnings.clone(); // each names its log
                let metrics = run
                    .samples
                    .operations()
                    .into_iter()
                    .map(|op| {
                        let all = run.samples.pooled(&op);
                        let samples: Vec<f64> = all.iter().copied().filter(|v| v.is_finite()).collect();
                        if samples.len() < all.len() {
                            gaps.push(format!(
                                "{location}: {} of the {} samples of '{op}' are not numbers (nan or inf); left out",
                                all.len() - samples.len(),
                                all.len()
                            ));
                        }
                        let direction = mmtests_op_direction(ex, era, &r.benchmark, &op, run.meta.preferred);
                        Metric { name: op, direction, samples }
                    })
                    .collect();
                let data = RunData {
                    tool: "mmtests".into(),
                    input: input.to_string(),
                    location,
                    setup: r.root.clone(),
                    benchmark: r.benchmark.clone(),
                    kernel: r.name.clone(),
                    era: Some(era.name().to_string()),
                    metrics,
                    started: crate::mmtests::timestamp::run_start(tree, &crate::archive::tree::join(&r.root, &r.name))
                        .map(|t| (t, crate::mmtests::timestamp::START_SOURCE.to_string())),
                };
                return Ok(Some((data, gaps, era_note(tree, r, &eras, chosen, reasons))));
            }
            Err(e) => {
                // an era whose extractor finds nothing in these logs gives way to a
                // real problem (a corrupt log) found by another era
                let nothing = |e: &Error| e.to_string().contains(" results found for '");
                if first_err.as_ref().is_none_or(|f| nothing(f) && !nothing(&e)) {
                    first_err = Some(e);
                }
            }
        }
    }
    match first_err {
        Some(e) => Err(e),
        None => Ok(None),
    }
}

/// Read one lkp result root: the metrics of its complete runs that lkp shows
/// without `-m`, are not failure counts, and have a known direction.
fn read_lkp(tree: &dyn Tree, input: &str, rel: &str) -> Result<RunData> {
    let root = ResultRoot::load(tree, rel)?;
    let kernel = root.commit();
    let benchmark =
        root.axes.iter().find(|(k, _)| k == "testcase").map(|(_, v)| v.clone()).unwrap_or_else(|| "lkp".to_string());
    let others: Vec<String> =
        root.axes.iter().filter(|(k, _)| k != "commit").map(|(k, v)| format!("{k}={v}")).collect();
    let setup = if others.is_empty() {
        // no job.yaml: roots are told apart by where they are
        match rel.rsplit_once('/') {
            Some((parent, _)) => parent.to_string(),
            None => String::new(),
        }
    } else {
        others.join(" ")
    };
    let m = root.matrix.complete();
    let metrics = m
        .iter()
        .filter(|(k, _)| !rules::function_stat(k) && rules::shown_without_more(k))
        .filter_map(|(k, v)| {
            let d = direction(k);
            (d != Direction::Unknown).then(|| Metric {
                name: k.to_string(),
                direction: d,
                samples: v.iter().map(|n| n.f()).collect(),
            })
        })
        .collect();
    Ok(RunData {
        tool: "lkp".into(),
        input: input.to_string(),
        location: tree.display(rel),
        setup,
        benchmark,
        kernel,
        era: None,
        metrics,
        started: None,
    })
}
