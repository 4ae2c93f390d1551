//! Result files of benchmark tools as batch runs (docs/batch.md, "Result files of benchmark tools"):
//! in an input that holds no MMTests run and no lkp result root, every directory
//! holding files the readers recognise ([`crate::readers`]) is one run per format,
//! named after the directory (the input's own name for its top level), each file
//! one or more of its runs, their samples pooled per metric. A file that names its
//! systems or kernels (a PTS result, an MMTests comparison) gives one run per name.
//! An input that is one such file is one run named after the file.

use super::scan::{Metric, RunData};
use crate::archive::tree::{join, walk};
use crate::archive::Tree;
use crate::direction::direction;
use crate::error::{Error, Result};
use crate::readers::started::Started;
use crate::readers::{parse_text, text_of};
use crate::table::Direction;

/// The tool name of the runs read from result files.
pub const TOOL: &str = "results";

/// What the result files of one input gave.
#[derive(Debug, Default)]
pub struct Found {
    /// One run per directory, format and named system, in path order.
    pub runs: Vec<RunData>,
    /// The result files read.
    pub files: u64,
    /// Files no reader recognises (skipped).
    pub warnings: Vec<String>,
    /// Recognised files without a measured value.
    pub missing: Vec<String>,
}

/// The name a top-level run of input `input` of `kind` ("dir", "file" or an
/// archive's) takes: a directory's name as it is (`v6.8`), an archive's without its
/// extensions (`runs.tar.gz` → `runs`), a file's without its compression and format
/// extensions (`base.json.zst` → `base`).
pub fn input_stem(input: &str, kind: &str) -> String {
    let name = input.trim_end_matches('/').rsplit('/').next().unwrap_or(input);
    if kind == "dir" {
        return name.to_string();
    }
    if kind != "file" {
        return crate::archive::name_stem(name).unwrap_or(name).to_string();
    }
    let stem = [".zst", ".xz"].iter().fold(name, |s, ext| s.strip_suffix(ext).unwrap_or(s));
    match stem.rsplit_once('.') {
        Some((s, _)) if !s.is_empty() => s.to_string(),
        _ => stem.to_string(),
    }
}

/// A run being gathered: its key and the samples of each metric so far.
struct Gather {
    dir: String,
    format: &'static str,
    group: String,
    metrics: Vec<Metric>,
    /// The earliest start the files give; None once a file gives none.
    started: Option<Option<Started>>,
}

/// Read every result file of `tree` (an input named `input`, of `kind`: "dir",
/// "file" or an archive's) into runs.
pub fn scan_results(tree: &dyn Tree, input: &str, kind: &str) -> Result<Found> {
    let mut found = Found::default();
    let mut runs: Vec<Gather> = Vec::new();
    walk(tree, &mut |dir: &str| {
        crate::cancel::check()?;
        let Ok(names) = tree.list(dir) else { return Ok(true) };
        for name in names {
            let rel = join(dir, &name);
            if !tree.is_file(&rel) {
                continue;
            }
            let shown = tree.display(&rel);
            let bytes = tree.read(&rel)?;
            let file = match text_of(&bytes, Some(&shown))? {
                Ok(text) => match parse_text(&text, Some(&shown), None) {
                    Ok(f) => f,
                    Err(Error::InsufficientData(msg)) => {
                        found.missing.push(msg);
                        continue;
                    }
                    Err(e) => return Err(e),
                },
                Err(_) => None,
            };
            let Some(file) = file else {
                found.warnings.push(format!("{shown}: not a result file schedlab recognises; skipped"));
                continue;
            };
            found.files += 1;
            for s in file.samples.iter() {
                let g = match runs
                    .iter()
                    .position(|g| g.dir == dir && g.format == file.format.name() && g.group == s.group)
                {
                    Some(i) => i,
                    None => {
                        runs.push(Gather {
                            dir: dir.to_string(),
                            format: file.format.name(),
                            group: s.group.to_string(),
                            metrics: Vec::new(),
                            started: None,
                        });
                        runs.len() - 1
                    }
                };
                let Some(run) = runs.get_mut(g) else { continue };
                run.started = Some(match run.started {
                    None => file.started,
                    Some(Some(a)) => file.started.map(|b| if b.seconds < a.seconds { b } else { a }),
                    Some(None) => None,
                });
                match run.metrics.iter_mut().find(|m| m.name == s.metric) {
                    Some(m) => m.samples.push(s.value),
                    None => {
                        let d = if s.direction == Direction::Unknown { direction(s.metric) } else { s.direction };
                        run.metrics.push(Metric { name: s.metric.to_string(), direction: d, samples: vec![s.value] });
                    }
                }
            }
        }
        Ok(true)
    })?;
    let stem = input_stem(input, kind);
    found.runs = runs
        .into_iter()
        .map(|g| {
            let own = g.dir.rsplit('/').next().filter(|n| !n.is_empty()).map_or(stem.clone(), str::to_string);
            let (kernel, setup) = if g.group.is_empty() {
                (own, g.dir.rsplit_once('/').map_or(String::new(), |(parent, _)| parent.to_string()))
            } else {
                (g.group.clone(), g.dir.clone())
            };
            RunData {
                tool: TOOL.to_string(),
                input: input.to_string(),
                location: if kind == "file" { input.to_string() } else { tree.display(&g.dir) },
                setup,
                benchmark: g.format.to_string(),
                kernel,
                era: None,
                metrics: g.metrics,
                started: g.started.flatten().map(|s| (s.seconds, s.source.to_string())),
            }
        })
        .collect();
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::MemTree;

    #[test]
    fn stems() {
        assert_eq!(input_stem("ci/base.json", "file"), "base");
        assert_eq!(input_stem("base.json.zst", "file"), "base");
        assert_eq!(input_stem(".hidden", "file"), ".hidden");
        assert_eq!(input_stem("runs.tar.gz", "tar.gz"), "runs");
        assert_eq!(input_stem("v6.8.tgz", "tar.gz"), "v6.8");
        assert_eq!(input_stem("out/v6.8/", "dir"), "v6.8");
    }

    #[test]
    fn directories_are_runs_and_files_pool() {
        let mut t = MemTree::new("runs.tar");
        let csv = |v: &str| format!("{v},msec,task-clock,1,100.00,,\n").into_bytes();
        t.add_file("base/1.csv", csv("1.5"));
        t.add_file("base/2.csv", csv("2.5"));
        t.add_file("base/README", b"three runs of ls\n".to_vec());
        t.add_file("m1/head/1.csv", csv("3"));
        let f = scan_results(&t, "runs.tar", "tar").unwrap();
        assert_eq!(f.files, 3);
        let names: Vec<(&str, &str)> = f.runs.iter().map(|r| (r.kernel.as_str(), r.setup.as_str())).collect();
        assert_eq!(names, [("base", ""), ("head", "m1")]);
        assert_eq!(f.runs[0].metrics[0].samples, [1.5, 2.5]);
        assert_eq!(f.runs[0].benchmark, "perf-stat-csv");
        // perf stat names no direction for an event, nor does schedlab.direction for task-clock
        assert_eq!(f.runs[0].metrics[0].direction, Direction::Unknown);
        assert!(f.warnings[0].contains("runs.tar/base/README: not a result file"), "{:?}", f.warnings);
        // no '# started on' header: no date
        assert_eq!(f.runs[0].started, None);
    }
}
