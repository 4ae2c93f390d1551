//! What each path given to `schedlab report` is: MMTests `work/log` trees (directories,
//! or archives holding one), lkp result roots, idle traces and state tables, PELT task
//! traces (docs/report.md). Directories of results are searched two levels deep; a CSV
//! is known by its header, an archive by its name.

use crate::archive::{self, Limits};
use crate::error::{Error, Result};
use crate::mmtests::discover;
use serde::Serialize;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

/// How deep plain directories are searched below a given path.
const MAX_DEPTH: usize = 2;
/// The longest header line read to tell one CSV from another.
const MAX_HEADER_BYTES: u64 = 4096;

/// An MMTests tree found: its runs (kernels) and benchmarks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MmtestsTree {
    /// The `work/log` directory, or the archive.
    pub log_dir: PathBuf,
    /// In an archive, the log directory inside it ("" for a directory on disk).
    pub root: String,
    /// What the report names it after: the archive, or the machine's result
    /// directory holding `work/log`.
    pub machine: PathBuf,
    /// The run names with an `iter-0` directory, sorted.
    pub kernels: Vec<String>,
    /// Every benchmark with a `logs` directory in some run's `iter-0`, sorted.
    pub benchmarks: Vec<String>,
}

/// Everything found in the paths, by kind, in path order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Inputs {
    /// MMTests trees.
    pub mmtests: Vec<MmtestsTree>,
    /// lkp result roots (directories holding `matrix.json[.gz]`).
    pub lkp_roots: Vec<PathBuf>,
    /// Idle period trace CSVs.
    pub idle_traces: Vec<PathBuf>,
    /// cpuidle state table CSVs.
    pub idle_states: Vec<PathBuf>,
    /// PELT task trace CSVs.
    pub task_traces: Vec<PathBuf>,
}

/// The kinds of CSV the report reads, known by their first columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CsvKind {
    IdleTrace,
    IdleStates,
    TaskTrace,
}

fn csv_kind(path: &Path) -> Option<CsvKind> {
    let f = std::fs::File::open(path).ok()?;
    let mut head = Vec::new();
    BufReader::new(f.take(MAX_HEADER_BYTES)).read_until(b'\n', &mut head).ok()?;
    let head = String::from_utf8_lossy(&head).trim().to_ascii_lowercase();
    let starts = |cols: &[&str]| head.starts_with(&cols.join(","));
    if starts(&crate::idle::trace::REQUIRED_COLUMNS[..1]) {
        Some(CsvKind::IdleTrace)
    } else if starts(&crate::idle::states::CSV_COLUMNS[..2]) {
        Some(CsvKind::IdleStates)
    } else if starts(&crate::pelt::trace::CSV_COLUMNS) {
        Some(CsvKind::TaskTrace)
    } else {
        None
    }
}

fn is_archive(path: &Path) -> bool {
    path.file_name().is_some_and(|n| archive::name_stem(&n.to_string_lossy()).is_some())
}

fn sorted_children(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> =
        std::fs::read_dir(dir).map_or_else(|_| Vec::new(), |rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect());
    out.sort();
    out
}

fn name_of(p: &Path) -> String {
    p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

/// Whether `dir` holds `<kernel>/iter-0/` runs.
fn holds_runs(dir: &Path) -> bool {
    dir.is_dir() && sorted_children(dir).iter().any(|k| k.join("iter-0").is_dir())
}

/// The MMTests log directories of `path`: `path` itself when it holds `<kernel>/iter-0/`
/// runs; else every directory holding runs among `path/work/*` and `path/log*` (one
/// machine's `work/log`, or several roots such as `work/log.<host>.<date>` that
/// run-mmtests.sh's callers keep side by side), sorted.
fn mmtests_log_dirs(path: &Path) -> Vec<PathBuf> {
    if holds_runs(path) {
        return vec![path.to_path_buf()];
    }
    let mut out: Vec<PathBuf> = sorted_children(&path.join("work"));
    out.extend(sorted_children(path).into_iter().filter(|c| name_of(c).starts_with("log")));
    out.retain(|c| holds_runs(c));
    out
}

/// The directory a `work/log` tree belongs to (the machine's result directory).
fn machine_dir(log: &Path) -> PathBuf {
    let parent = log.parent().map(Path::to_path_buf).unwrap_or_default();
    if name_of(log) == "log" && name_of(&parent) == "work" {
        parent.parent().map(Path::to_path_buf).unwrap_or_default()
    } else if name_of(log) == "log" {
        parent
    } else {
        log.to_path_buf()
    }
}

fn dir_tree(log: PathBuf) -> MmtestsTree {
    let kernels: Vec<PathBuf> = sorted_children(&log).into_iter().filter(|k| k.join("iter-0").is_dir()).collect();
    let mut benchmarks: Vec<String> = kernels
        .iter()
        .flat_map(|k| sorted_children(&k.join("iter-0")))
        .filter(|b| b.join("logs").is_dir())
        .map(|b| name_of(&b))
        .collect();
    benchmarks.sort();
    benchmarks.dedup();
    MmtestsTree {
        root: String::new(),
        machine: machine_dir(&log),
        kernels: kernels.iter().map(|k| name_of(k)).collect(),
        benchmarks,
        log_dir: log,
    }
}

/// One tree per MMTests log directory in an archive, in path order, found as
/// `mmtests compare` finds runs ([`discover::find_runs`]). Each is named after the
/// archive, joined with its directory when the archive holds several.
fn archive_trees(path: &Path) -> Result<Vec<MmtestsTree>> {
    let shown = path.display().to_string();
    let tree = archive::open(path, &Limits::default())
        .map_err(|e| Error::parse(Some(&shown), None, format!("not a readable archive: {e}")))?;
    let (runs, _) = discover::find_runs(tree.as_ref())?;
    let mut roots: Vec<&str> = runs.iter().map(|r| r.root.as_str()).collect();
    roots.dedup(); // find_runs lists a directory's runs together
    if roots.is_empty() {
        return Err(Error::parse(
            Some(&shown),
            None,
            "the archive holds no MMTests <kernel>/iter-N/<benchmark>/logs/ tree",
        ));
    }
    let several = roots.len() > 1;
    Ok(roots
        .iter()
        .map(|root| {
            let here = || runs.iter().filter(|r| r.root == *root);
            let sorted = |mut v: Vec<String>| {
                v.sort();
                v.dedup();
                v
            };
            MmtestsTree {
                log_dir: path.to_path_buf(),
                root: root.to_string(),
                machine: if several { path.join(root) } else { path.to_path_buf() },
                kernels: sorted(here().map(|r| r.name.clone()).collect()),
                benchmarks: sorted(here().map(|r| r.benchmark.clone()).collect()),
            }
        })
        .collect())
}

fn classify(p: &Path, found: &mut Inputs, depth: usize) -> Result<()> {
    crate::cancel::check()?;
    if p.is_file() {
        match csv_kind(p) {
            Some(CsvKind::IdleTrace) => found.idle_traces.push(p.to_path_buf()),
            Some(CsvKind::IdleStates) => found.idle_states.push(p.to_path_buf()),
            Some(CsvKind::TaskTrace) => found.task_traces.push(p.to_path_buf()),
            None if depth == 0 && is_archive(p) => found.mmtests.extend(archive_trees(p)?),
            None if depth == 0 => {
                return Err(Error::parse(
                    Some(&p.display().to_string()),
                    None,
                    "not a result tree or a trace schedlab recognises (expected an MMTests work/log tree or archive of one, an lkp result root, or an idle/task trace CSV)",
                ))
            }
            None => {}
        }
        return Ok(());
    }
    let logs = mmtests_log_dirs(p);
    if !logs.is_empty() {
        found.mmtests.extend(logs.into_iter().map(dir_tree));
    } else if p.join("matrix.json").is_file() || p.join("matrix.json.gz").is_file() {
        found.lkp_roots.push(p.to_path_buf());
    } else if depth < MAX_DEPTH {
        for child in sorted_children(p) {
            classify(&child, found, depth + 1)?;
        }
    }
    Ok(())
}

/// Classify every path (each must exist). Fails when nothing the report can use is found.
pub fn detect(paths: &[PathBuf]) -> Result<Inputs> {
    let mut found = Inputs::default();
    for p in paths {
        let p = crate::archive::without_trailing_slash(p);
        std::fs::metadata(p).map_err(|e| Error::io(p, &e))?;
        classify(p, &mut found, 0)?;
    }
    let empty = found.mmtests.is_empty()
        && found.lkp_roots.is_empty()
        && found.idle_traces.is_empty()
        && found.task_traces.is_empty();
    if empty {
        let given = paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ");
        return Err(Error::parse(
            Some(&given),
            None,
            "nothing to report: no MMTests work/log tree or archive, lkp result root (a directory with matrix.json) or idle/task trace CSV found (searched two levels deep)",
        ));
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("schedlab-report-inputs-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn finds_trees_roots_and_csvs_two_levels_deep() {
        let d = tmp("kinds");
        for k in ["6.9", "6.8"] {
            std::fs::create_dir_all(d.join("m1/work/log").join(k).join("iter-0/hackbench/logs")).unwrap();
        }
        std::fs::create_dir_all(d.join("m1/work/log/6.8/iter-0/schbench/logs")).unwrap();
        std::fs::create_dir_all(d.join("a/lkp")).unwrap();
        std::fs::write(d.join("a/lkp/matrix.json"), "{}").unwrap();
        std::fs::write(d.join("idle.csv"), "Sleep_Length_ns,next_tick_ns\n1,2\n").unwrap();
        std::fs::write(d.join("states.csv"), "name,exit_latency_us,target_residency_us,flags\n").unwrap();
        std::fs::write(d.join("task.csv"), "dur_ns,state\n5,R\n").unwrap();
        std::fs::write(d.join("notes.txt"), "x").unwrap();
        std::fs::create_dir_all(d.join("a/b/c/deep")).unwrap();
        std::fs::write(d.join("a/b/c/deep/matrix.json"), "{}").unwrap();
        let f = detect(std::slice::from_ref(&d)).unwrap();
        assert_eq!(f.mmtests.len(), 1);
        let t = &f.mmtests[0];
        assert_eq!((t.log_dir.clone(), t.machine.clone()), (d.join("m1/work/log"), d.join("m1")));
        assert_eq!(
            (t.kernels.clone(), t.benchmarks.clone()),
            (vec!["6.8".into(), "6.9".into()], vec!["hackbench".into(), "schbench".into()])
        );
        // three levels below the given path: not searched
        assert_eq!(f.lkp_roots, vec![d.join("a/lkp")]);
        assert_eq!(
            (f.idle_traces, f.idle_states, f.task_traces),
            (vec![d.join("idle.csv")], vec![d.join("states.csv")], vec![d.join("task.csv")])
        );
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn an_archive_of_two_log_directories_is_two_trees() {
        let d = tmp("roots");
        for (root, k) in [("log.a", "k1"), ("log.a", "k2"), ("log.b", "k1")] {
            let logs = d.join("src/m/work").join(root).join(k).join("iter-0/hackbench/logs");
            std::fs::create_dir_all(&logs).unwrap();
            std::fs::write(logs.join("hackbench-1-1"), "x").unwrap();
        }
        let mut b = tar::Builder::new(std::fs::File::create(d.join("r.tar")).unwrap());
        b.append_dir_all("m", d.join("src/m")).unwrap();
        b.finish().unwrap();
        drop(b);
        let f = detect(&[d.join("r.tar")]).unwrap();
        let got: Vec<_> = f
            .mmtests
            .iter()
            .map(|t| (t.log_dir.clone(), t.root.as_str(), t.machine.clone(), t.kernels.len()))
            .collect();
        assert_eq!(
            got,
            vec![
                (d.join("r.tar"), "m/work/log.a", d.join("r.tar/m/work/log.a"), 2),
                (d.join("r.tar"), "m/work/log.b", d.join("r.tar/m/work/log.b"), 1),
            ]
        );
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_given_file_must_be_known_and_nothing_found_is_an_error() {
        let d = tmp("errors");
        std::fs::write(d.join("notes.txt"), "x").unwrap();
        let e = detect(&[d.join("notes.txt")]).unwrap_err().to_string();
        assert!(e.contains("notes.txt") && e.contains("not a result tree or a trace schedlab recognises"), "{e}");
        let e = detect(std::slice::from_ref(&d)).unwrap_err().to_string();
        assert!(e.contains("nothing to report") && e.contains("searched two levels deep"), "{e}");
        std::fs::write(d.join("bad.tar.gz"), "not gzip").unwrap();
        let e = detect(&[d.join("bad.tar.gz")]).unwrap_err().to_string();
        assert!(e.contains("bad.tar.gz") && e.contains("not a readable archive"), "{e}");
        assert!(detect(&[d.join("absent")]).unwrap_err().to_string().contains("absent"));
        std::fs::remove_dir_all(&d).unwrap();
    }
}
