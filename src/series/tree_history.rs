//! A history read from result trees: the MMTests runs and lkp result roots that the
//! batch scanner finds in directories and archives, turned into one series per
//! metric with one point per run (MMTests kernel, lkp commit): the mean of the
//! run's samples, in history order (docs/change-points.md §5).

use super::numpy_sum;
use crate::archive::Limits;
use crate::batch::scan::{scan, RunData, Scan};
use crate::error::{Error, Result};
use crate::table::Direction;
use std::cmp::Ordering;
use std::collections::HashMap;
use std::path::Path;

/// Per-metric series over the runs of some result trees.
#[derive(Debug, Clone, PartialEq)]
pub struct TreeHistory {
    /// The runs (MMTests kernel names, lkp commits) in history order.
    pub runs: Vec<String>,
    /// The metrics: `benchmark operation` (MMTests) or the lkp key, followed by
    /// ` [setup]` when two setups share that name.
    pub metrics: Vec<String>,
    /// Which way each metric is better.
    pub directions: Vec<Direction>,
    /// The mean of each metric's samples at each run: metrics × runs, row-major,
    /// NaN where a run has no sample of the metric.
    pub values: Vec<f64>,
    /// What the scans skipped or could not read, each naming where.
    pub warnings: Vec<String>,
    /// What put the runs in their order (`--order`, the runs' start dates and the
    /// field they came from, the names' natural order and why, the order found).
    pub order: String,
}

/// Read every path (a directory or archive, bounded by `limits`) with the batch
/// scanner and make its history ([`history`]).
pub fn read(paths: &[&Path], order: Option<&[String]>, limits: &Limits) -> Result<TreeHistory> {
    let scans = paths.iter().map(|p| scan(p, limits)).collect::<Result<Vec<Scan>>>()?;
    history(&scans, order)
}

/// The series of every metric in `scans` over their runs. The order of the runs is
/// `order` when given (it must name every run exactly once); otherwise the runs'
/// start dates when every run has one (MMTests' `tests-timestamp` start, perf stat's
/// `# started on`, fio's `timestamp`: the earliest of a run's files), ties in the
/// names' natural order; else the natural (version-aware) order of the names when
/// every run is an MMTests run or a result file's (6.8, 6.9, 6.10); else the order
/// found: inputs as given, each in path order. [`TreeHistory::order`] says which.
/// Runs of one name in several places count as one point, the mean of all their
/// samples.
pub fn history(scans: &[Scan], order: Option<&[String]>) -> Result<TreeHistory> {
    let all: Vec<&RunData> = scans.iter().flat_map(|s| s.runs.iter()).collect();
    let mut runs: Vec<String> = Vec::new();
    for r in &all {
        if !runs.contains(&r.kernel) {
            runs.push(r.kernel.clone());
        }
    }
    if runs.is_empty() {
        return Err(Error::InsufficientData("no run with results in the inputs".into()));
    }
    let how = match order {
        Some(order) => {
            runs = ordered(runs, order)?;
            "the order given (--order)".to_string()
        }
        None => by_default(&mut runs, &all),
    };
    let position: HashMap<&str, usize> = runs.iter().enumerate().map(|(i, r)| (r.as_str(), i)).collect();
    // each metric: (setup, label) -> its samples per run
    let mut keys: Vec<(String, String, Direction)> = Vec::new();
    let mut index: HashMap<(String, String), usize> = HashMap::new();
    let mut samples: Vec<Vec<Vec<f64>>> = Vec::new();
    for r in &all {
        let Some(&at) = position.get(r.kernel.as_str()) else { continue };
        for m in &r.metrics {
            let label = if r.tool == "mmtests" { format!("{} {}", r.benchmark, m.name) } else { m.name.clone() };
            let key = (r.setup.clone(), label);
            let i = *index.entry(key.clone()).or_insert_with(|| {
                keys.push((key.0, key.1, m.direction));
                samples.push(vec![Vec::new(); runs.len()]);
                samples.len() - 1
            });
            if let Some(cell) = samples.get_mut(i).and_then(|s| s.get_mut(at)) {
                cell.extend_from_slice(&m.samples);
            }
        }
    }
    let mut uses: HashMap<&str, usize> = HashMap::new();
    for (_, label, _) in &keys {
        *uses.entry(label.as_str()).or_default() += 1;
    }
    let metrics = keys
        .iter()
        .map(|(setup, label, _)| {
            if uses.get(label.as_str()).copied().unwrap_or(0) > 1 {
                format!("{label} [{setup}]")
            } else {
                label.clone()
            }
        })
        .collect();
    let values = samples
        .iter()
        .flat_map(|per_run| per_run.iter().map(|s| if s.is_empty() { f64::NAN } else { numpy_sum::mean(s) }))
        .collect();
    let warnings = scans.iter().flat_map(|s| s.warnings.iter().chain(&s.missing).cloned()).collect();
    Ok(TreeHistory { runs, metrics, directions: keys.iter().map(|k| k.2).collect(), values, warnings, order: how })
}

/// Put `runs` (of the runs `all`) in their default order ([`history`]) and say
/// what it is.
fn by_default(runs: &mut [String], all: &[&RunData]) -> String {
    // each run's earliest start, and the fields the starts came from
    let mut starts: HashMap<&str, Option<i64>> = HashMap::new();
    let mut sources: Vec<&str> = Vec::new();
    for r in all {
        let s = starts.entry(r.kernel.as_str()).or_insert(Some(i64::MAX));
        *s = match (*s, &r.started) {
            (Some(a), Some((b, source))) => {
                if !sources.contains(&source.as_str()) {
                    sources.push(source);
                }
                Some(a.min(*b))
            }
            _ => None,
        };
    }
    let undated: Vec<&str> =
        runs.iter().map(String::as_str).filter(|r| starts.get(r).is_some_and(Option::is_none)).collect();
    if undated.is_empty() {
        let at = |r: &str| starts.get(r).copied().flatten().unwrap_or(i64::MAX);
        runs.sort_by(|a, b| at(a).cmp(&at(b)).then_with(|| natural_cmp(a, b)));
        return format!("the runs' start dates ({})", sources.join(", "));
    }
    let shown = undated.iter().take(3).copied().collect::<Vec<_>>().join(", ");
    let why = format!(
        "{} of the {} runs have no start date ({shown}{}); give --order",
        undated.len(),
        runs.len(),
        if undated.len() > 3 { ", ..." } else { "" }
    );
    if all.iter().all(|r| r.tool == "mmtests" || r.tool == crate::batch::result_files::TOOL) {
        runs.sort_by(|a, b| natural_cmp(a, b));
        format!("the natural order of the names: {why}")
    } else {
        format!("the order found (inputs as given, each in path order): {why}")
    }
}

/// `runs` in the order of `order`, which must name each of them once and nothing else.
fn ordered(runs: Vec<String>, order: &[String]) -> Result<Vec<String>> {
    for (i, name) in order.iter().enumerate() {
        if order.get(..i).is_some_and(|before| before.contains(name)) {
            return Err(Error::domain(format!("'{name}' is twice in the order")));
        }
        if !runs.contains(name) {
            return Err(Error::domain(format!(
                "'{name}' of the order has no results (the runs found: {})",
                runs.join(", ")
            )));
        }
    }
    if let Some(left) = runs.iter().find(|r| !order.contains(r)) {
        return Err(Error::domain(format!("run '{left}' is not in the order; give every run found")));
    }
    Ok(order.to_vec())
}

/// Natural order of names: runs of digits compare as numbers (so 6.9 < 6.10),
/// everything else byte by byte; names equal so (6.08, 6.8) fall back to bytes.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (mut x, mut y) = (a.as_bytes(), b.as_bytes());
    loop {
        match (x.first(), y.first()) {
            (None, None) => return a.cmp(b),
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(p), Some(q)) if p.is_ascii_digit() && q.is_ascii_digit() => {
                let (dx, rx) = split_digits(x);
                let (dy, ry) = split_digits(y);
                let (tx, ty) = (trim_zeros(dx), trim_zeros(dy));
                match tx.len().cmp(&ty.len()).then_with(|| tx.cmp(ty)) {
                    Ordering::Equal => (x, y) = (rx, ry),
                    o => return o,
                }
            }
            (Some(p), Some(q)) => match p.cmp(q) {
                Ordering::Equal => (x, y) = (x.get(1..).unwrap_or_default(), y.get(1..).unwrap_or_default()),
                o => return o,
            },
        }
    }
}

fn split_digits(s: &[u8]) -> (&[u8], &[u8]) {
    s.split_at(s.iter().position(|b| !b.is_ascii_digit()).unwrap_or(s.len()))
}

fn trim_zeros(d: &[u8]) -> &[u8] {
    d.get(d.iter().position(|&b| b != b'0').unwrap_or(d.len())..).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::MemTree;
    use crate::batch::scan::scan_tree;
    use crate::series::{analyze, Options};

    /// Small noise around 1, the same for every tree: ±0.5% in a fixed pattern.
    const NOISE: [f64; 10] = [1.000, 1.004, 0.997, 1.002, 0.995, 1.003, 0.998, 1.005, 0.996, 1.001];

    /// Ten kernels 6.1 .. 6.10 of hackbench-process-pipes with 1 and 4 groups, three
    /// samples each; the 4-group times are 1.2 times longer from the 5th kernel (6.5) on.
    fn mmtests_tree() -> MemTree {
        let mut t = MemTree::new("hist.tar");
        for (k, noise) in NOISE.iter().enumerate() {
            let kernel = format!("6.{}", k + 1);
            t.add_file(&format!("work/log/{kernel}/iter-0/tests-timestamp"), b"start 1700000000\n".to_vec());
            for (groups, base) in [(1, 0.020), (4, 0.080)] {
                let step = if groups == 4 && k >= 4 { 1.2 } else { 1.0 };
                let text: String = [0.999, 1.0, 1.001]
                    .iter()
                    .map(|s| {
                        format!(
                            "# Running 'sched/messaging' benchmark:\n\n     Total time: {:.6} [sec]\n",
                            base * noise * step * s
                        )
                    })
                    .collect();
                t.add_file(
                    &format!("work/log/{kernel}/iter-0/hackbench-process-pipes/logs/hackbench-{groups}"),
                    text.into_bytes(),
                );
            }
        }
        t
    }

    #[test]
    fn natural_order_of_kernels() {
        let mut v = vec!["6.10", "6.9", "6.8", "v6.1-rc2", "v6.1-rc10", "6.08"];
        v.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(v, ["6.08", "6.8", "6.9", "6.10", "v6.1-rc2", "v6.1-rc10"]);
    }

    #[test]
    fn mmtests_step_found_at_the_fifth_kernel() {
        let s = scan_tree(&mmtests_tree(), "hist.tar", "tar").unwrap();
        let h = history(&[s], None).unwrap();
        // natural order: 6.10 last, not after 6.1
        assert_eq!(h.runs, (1..=10).map(|k| format!("6.{k}")).collect::<Vec<_>>());
        let g4 = h.metrics.iter().position(|m| m.ends_with("-4")).unwrap();
        let g1 = h.metrics.iter().position(|m| m.ends_with("-1")).unwrap();
        // one point per kernel: the mean of its three samples, 0.02 x noise at 6.1
        let x = |m: usize, k: usize| h.values[m * h.runs.len() + k];
        assert!((x(g1, 0) - 0.020).abs() < 1e-9, "{}", x(g1, 0));
        assert!((x(g4, 4) - 0.080 * 0.995 * 1.2).abs() < 1e-9, "{}", x(g4, 4));
        let r = analyze(&h.values, h.runs.len(), &h.directions, &Options::default(), Some(1)).unwrap();
        // the step starts at 6.5, index 4 (written by hand); nothing in the 1-group times
        assert_eq!(r.iter().map(|c| (c.metric, c.point.index)).collect::<Vec<_>>(), vec![(g4, 4)]);
        assert_eq!(r[0].verdict(h.directions[g4]), "worse");
    }

    #[test]
    fn explicit_order_is_followed_and_checked() {
        let s = scan_tree(&mmtests_tree(), "hist.tar", "tar").unwrap();
        let mut order: Vec<String> = (1..=10).rev().map(|k| format!("6.{k}")).collect();
        let h = history(std::slice::from_ref(&s), Some(&order)).unwrap();
        assert_eq!(h.runs, order);
        let g4 = h.metrics.iter().position(|m| m.ends_with("-4")).unwrap();
        let r = analyze(&h.values, h.runs.len(), &h.directions, &Options::default(), Some(1)).unwrap();
        // reversed: 6.10 .. 6.5 are slow, the change is at 6.4, index 6
        assert_eq!(r.iter().map(|c| (c.metric, c.point.index)).collect::<Vec<_>>(), vec![(g4, 6)]);
        order.pop();
        let e = history(std::slice::from_ref(&s), Some(&order)).unwrap_err().to_string();
        assert!(e.contains("run '6.1' is not in the order"), "{e}");
        order.push("6.11".into());
        let e = history(std::slice::from_ref(&s), Some(&order)).unwrap_err().to_string();
        assert!(e.contains("'6.11' of the order has no results"), "{e}");
    }

    #[test]
    fn lkp_step_found_at_the_fifth_commit() {
        let mut t = MemTree::new("lkp");
        let commits: Vec<String> = (0..10).map(|i| format!("{:040x}", 0xc0ffee + 7 * (9 - i))).collect();
        for (i, (c, noise)) in commits.iter().zip(NOISE).enumerate() {
            let step = if i >= 4 { 1.2 } else { 1.0 };
            let json = format!(
                "{{\"unixbench.score\": [{}, {}], \"hackbench.throughput\": [{}, {}]}}",
                1000.0 * noise * step,
                1001.0 * noise * step,
                500.0 * noise,
                501.0 * noise
            );
            t.add_file(&format!("unixbench/{c}/matrix.json"), json.into_bytes());
        }
        let s = scan_tree(&t, "lkp", "dir").unwrap();
        // path order would sort the hashes (the last commit first): the order is given
        assert_eq!(s.runs.first().map(|r| r.kernel.as_str()), commits.last().map(|c| c.as_str()));
        let h = history(&[s], Some(&commits)).unwrap();
        assert_eq!(h.runs, commits);
        let score = h.metrics.iter().position(|m| m == "unixbench.score").unwrap();
        assert!((h.values[score * 10] - 1000.5).abs() < 1e-9);
        let r = analyze(&h.values, h.runs.len(), &h.directions, &Options::default(), Some(1)).unwrap();
        assert_eq!(r.iter().map(|c| (c.metric, c.point.index)).collect::<Vec<_>>(), vec![(score, 4)]);
        assert_eq!(r[0].verdict(h.directions[score]), "better");
    }
}
