//! The runs of one metric per commit from results that already exist (docs/bisect.md
//! §6): MMTests runs, lkp result roots and result files of benchmark tools, found in
//! directories and archives as `schedlab batch` finds them (`batch::scan`), each run
//! named by its commit (an MMTests run name, an lkp commit directory, a result file or
//! directory name). A benchmark that failed in a run (a build or boot failure leaves
//! MMTests' log without results) is that commit's failure.

use super::advisor::CommitRuns;
use super::order::Range;
use crate::archive::Limits;
use crate::batch::scan::{scan, Scan};
use crate::error::{Error, Result};
use crate::table::Direction;
use std::path::Path;

/// The runs of the chosen metric, by commit.
#[derive(Debug, Clone, PartialEq)]
pub struct CommitResults {
    /// One entry per commit of the range with runs or failures.
    pub runs: Vec<CommitRuns>,
    /// The metric: `benchmark operation` (MMTests), the lkp key or the reader's metric.
    pub metric: String,
    /// Which way it is better (the tool's, else `schedlab.direction`'s).
    pub direction: Direction,
    /// What was skipped: runs named by no commit of the range, the scans' warnings.
    pub warnings: Vec<String>,
}

/// The label of metric `name` of a run of `tool` and `benchmark`, as `schedlab series` names it.
fn label(tool: &str, benchmark: &str, name: &str) -> String {
    if tool == "mmtests" {
        format!("{benchmark} {name}")
    } else {
        name.to_string()
    }
}

/// Read `paths` (bounded by `limits`) and collect the runs of `metric` (None: the only
/// metric there is) by commit of `range`.
pub fn read(paths: &[&Path], range: &Range, metric: Option<&str>, limits: &Limits) -> Result<CommitResults> {
    let scans = paths.iter().map(|p| scan(p, limits)).collect::<Result<Vec<Scan>>>()?;
    collect(&scans, range, metric)
}

/// [`read`] over scans already made.
pub fn collect(scans: &[Scan], range: &Range, metric: Option<&str>) -> Result<CommitResults> {
    collect_by(scans, metric, &|name| range.position(name).ok())
}

/// The runs of `metric` in `scans` by the position `position` gives each run name
/// (None: a run of no commit of the range, left out with a warning).
fn collect_by(scans: &[Scan], metric: Option<&str>, position: &dyn Fn(&str) -> Option<usize>) -> Result<CommitResults> {
    let mut labels: Vec<(String, Direction)> = Vec::new();
    for r in scans.iter().flat_map(|s| &s.runs) {
        for m in &r.metrics {
            let l = label(&r.tool, &r.benchmark, &m.name);
            if !labels.iter().any(|(x, _)| *x == l) {
                labels.push((l, m.direction));
            }
        }
    }
    let (metric, direction) = match metric {
        Some(m) => labels.iter().find(|(l, _)| l == m).cloned().ok_or_else(|| {
            Error::domain(format!("metric '{m}' is in none of the results (they hold: {})", listed(&labels)))
        })?,
        None if labels.len() == 1 => labels.first().cloned().ok_or_else(|| Error::Internal("labels".into()))?,
        None if labels.is_empty() => return Err(Error::insufficient("no metric in the results")),
        None => return Err(Error::domain(format!("give --metric: the results hold {}", listed(&labels)))),
    };
    let direction = if direction == Direction::Unknown { crate::direction::direction(&metric) } else { direction };
    let mut out = CommitResults { runs: Vec::new(), metric, direction, warnings: Vec::new() };
    let mut unnamed: Vec<String> = Vec::new();
    let mut entry = |out: &mut CommitResults, kernel: &str| -> Option<usize> {
        let Some(position) = position(kernel) else {
            if !unnamed.iter().any(|u| u == kernel) {
                unnamed.push(kernel.to_string());
            }
            return None;
        };
        Some(match out.runs.iter().position(|r| r.position == position) {
            Some(i) => i,
            None => {
                out.runs.push(CommitRuns { position, ..Default::default() });
                out.runs.len() - 1
            }
        })
    };
    let mut setups: Vec<&str> = Vec::new();
    let chosen = out.metric.clone();
    for r in scans.iter().flat_map(|s| &s.runs) {
        for m in r.metrics.iter().filter(|m| label(&r.tool, &r.benchmark, &m.name) == chosen) {
            if !setups.contains(&r.setup.as_str()) {
                setups.push(&r.setup);
            }
            if let Some(i) = entry(&mut out, &r.kernel) {
                if let Some(c) = out.runs.get_mut(i) {
                    c.values.extend_from_slice(&m.samples);
                }
            }
        }
    }
    if setups.len() > 1 {
        return Err(Error::domain(format!(
            "metric '{}' is in {} setups ({}): give results of one setup",
            out.metric,
            setups.len(),
            setups.join(", ")
        )));
    }
    let benchmark = out.metric.split(' ').next().unwrap_or("").to_string();
    for f in scans.iter().flat_map(|s| &s.failed) {
        if f.benchmark == benchmark || out.metric.starts_with(&format!("{} ", f.benchmark)) {
            if let Some(i) = entry(&mut out, &f.kernel) {
                if let Some(c) = out.runs.get_mut(i) {
                    c.failures.push(format!("{}: {}", f.location, f.reason));
                }
            }
        }
    }
    if !unnamed.is_empty() {
        out.warnings.push(format!(
            "results named by no commit of the range, left out: {}",
            unnamed.iter().take(5).cloned().collect::<Vec<_>>().join(", ")
                + if unnamed.len() > 5 { ", ..." } else { "" }
        ));
    }
    out.warnings.extend(scans.iter().flat_map(|s| s.warnings.iter().cloned()));
    Ok(out)
}

/// The values one run of a benchmark left at `path` (a result file, an MMTests tree,
/// an lkp result root or an archive of one): every sample of `metric` (None: the only
/// metric there is), with the metric's name and direction. The path must hold the
/// results of one run name only.
pub fn values_at(path: &Path, metric: Option<&str>, limits: &Limits) -> Result<(Vec<f64>, String, Direction)> {
    let s = scan(path, limits)?;
    let mut kernels: Vec<&str> = s.runs.iter().map(|r| r.kernel.as_str()).collect();
    kernels.dedup();
    if kernels.len() > 1 {
        return Err(Error::domain(format!(
            "{}: results of several runs ({}): the command's result must hold one",
            path.display(),
            kernels.join(", ")
        )));
    }
    if kernels.is_empty() {
        return Err(Error::insufficient(format!("{}: no results", path.display())));
    }
    let r = collect_by(std::slice::from_ref(&s), metric, &|_| Some(0))?;
    let values = r.runs.into_iter().flat_map(|c| c.values).collect::<Vec<_>>();
    if values.is_empty() {
        return Err(Error::insufficient(format!("{}: no value of '{}'", path.display(), r.metric)));
    }
    Ok((values, r.metric, r.direction))
}

fn listed(labels: &[(String, Direction)]) -> String {
    let mut s = labels.iter().take(10).map(|(l, _)| format!("'{l}'")).collect::<Vec<_>>().join(", ");
    if labels.len() > 10 {
        s.push_str(&format!(" and {} more", labels.len() - 10));
    }
    s
}
