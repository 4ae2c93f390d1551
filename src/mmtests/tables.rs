//! What a report shows of each benchmark of one MMTests tree, read once: the tree
//! opened once (an archive decompressed once), each benchmark's logs read once, and
//! from those runs both of compare-mmtests.pl's tables (the normal one with its
//! verdicts re-decided by a named test, and `--print-ratio`), the direction-aligned
//! Gmean ratio per kernel and the overview cell it gives (docs/report.md, "Structure").
//! Benchmarks are read in parallel.

use super::verdicts::{self, VerdictTest};
use super::{build_report, extract_runs, locate_root, CompareOptions, Report};
use crate::archive::{self, DirTree, Tree};
use crate::error::{Error, Result};
use crate::parallel;
use crate::table::Verdict;
use rayon::prelude::*;
use std::path::Path;

/// One kernel's cell of the overview: the label of its Gmean ratio against the
/// baseline ([`verdicts::overview_label`]) and the verdict the label states.
#[derive(Debug, Clone, PartialEq)]
pub struct OverviewCell {
    /// "10% better", "1% worse", "no change" or "n/a".
    pub label: String,
    /// [`Verdict::Better`] or [`Verdict::Worse`] when the label says so, else None.
    pub verdict: Option<Verdict>,
    /// The direction-aligned Gmean ratio (> 1 is better).
    pub ratio: f64,
}

impl OverviewCell {
    /// The cell of a direction-aligned Gmean ratio: its label, and better or worse when
    /// the label's whole-percent change is not zero (none for "no change" and "n/a").
    pub fn of(ratio: f64) -> OverviewCell {
        let label = verdicts::overview_label(ratio);
        let verdict = if label.ends_with("better") {
            Some(Verdict::Better)
        } else if label.ends_with("worse") {
            Some(Verdict::Worse)
        } else {
            None
        };
        OverviewCell { label, verdict, ratio }
    }
}

/// Both tables of one benchmark and its overview cells.
#[derive(Debug, Clone)]
pub struct Tables {
    /// compare-mmtests.pl's table, the mean rows' verdicts decided by the test asked for.
    pub table: Report,
    /// compare-mmtests.pl `--print-ratio` of the same runs.
    pub ratio: Report,
    /// Per kernel after the baseline, its overview cell; or why there is no Gmean
    /// ratio (no row of the ratio statistic among the table's operations).
    pub cells: std::result::Result<Vec<OverviewCell>, String>,
    /// The cells of `table` whose verdict is a change (better, worse, or changed without
    /// a known direction) as (row, kernel) indices, in row order then kernel order.
    pub changed: Vec<(usize, usize)>,
}

/// The cells of `c` whose verdict is a change ([`Tables::changed`]).
pub fn changed_cells(c: &crate::table::Comparison) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for ri in 0..c.rows.len() {
        for k in 0..c.kernels.len() {
            let v = c.rows.cell(ri, k).and_then(|cell| cell.verdict);
            if matches!(v, Some(Verdict::Better | Verdict::Worse | Verdict::Changed)) {
                out.push((ri, k));
            }
        }
    }
    out
}

/// Both tables of `benchmark` for runs `names` (the first the baseline) at `root` of
/// `tree`, the runs read once; `test` at `alpha` decides the table's verdicts.
pub fn tables(
    tree: &dyn Tree,
    root: &str,
    benchmark: &str,
    names: &[String],
    test: VerdictTest,
    alpha: f64,
) -> Result<Tables> {
    let opts = CompareOptions::default();
    let runs = extract_runs(tree, root, benchmark, names, &opts)?;
    let mut table = build_report(&runs, benchmark, &opts)?;
    verdicts::apply_test(&mut table.comparison, test, alpha)?;
    let ratio = build_report(&runs, benchmark, &CompareOptions { print_ratio: true, ..opts })?;
    let cells = match verdicts::gmean_ratio(&table.comparison) {
        Ok(g) => Ok(g.into_iter().skip(1).map(OverviewCell::of).collect()),
        Err(e @ (Error::Interrupted | Error::Internal(_))) => return Err(e),
        Err(e) => Err(e.to_string()),
    };
    let changed = changed_cells(&table.comparison);
    Ok(Tables { table, ratio, cells, changed })
}

/// [`tables`] of every `(benchmark, run names)` of the tree at `dir` (a `work/log`
/// directory, an archive of one, or a directory inside an archive, as
/// [`super::compare_at`] reads it), the tree opened once and the benchmarks read in
/// parallel on `threads`; each benchmark's own outcome, in the order given.
pub fn tables_at(
    dir: &Path,
    benchmarks: &[(String, Vec<String>)],
    test: VerdictTest,
    alpha: f64,
    threads: Option<usize>,
) -> Result<Vec<Result<Tables>>> {
    let dir = archive::without_trailing_slash(dir);
    let (tree, root): (Box<dyn Tree>, Option<String>) = if let Some((path, root)) = archive::inner_path(dir) {
        (archive::open(&path, &archive::Limits::default())?, Some(root))
    } else if dir.is_file() {
        (archive::open(dir, &archive::Limits::default())?, None)
    } else {
        (Box::new(DirTree::at(dir)), Some(String::new()))
    };
    let tree = tree.as_ref();
    parallel::install(threads, || {
        benchmarks
            .par_iter()
            .map(|(benchmark, names)| {
                crate::cancel::check()?;
                let root = match &root {
                    Some(r) => r.clone(),
                    None => locate_root(tree, benchmark, names.first().map(String::as_str).unwrap_or_default())?,
                };
                tables(tree, &root, benchmark, names, test, alpha)
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cell_states_the_verdict_its_label_says() {
        // 1.0956: +9.56 % rounds to 10 % better; 0.9912: -0.88 % rounds to 1 % worse;
        // 1.004: +0.4 % rounds to 0, no change
        let c = OverviewCell::of(1.0956);
        assert_eq!((c.label.as_str(), c.verdict), ("10% better", Some(Verdict::Better)));
        let c = OverviewCell::of(0.9912);
        assert_eq!((c.label.as_str(), c.verdict), ("1% worse", Some(Verdict::Worse)));
        assert_eq!(OverviewCell::of(1.004).verdict, None);
        assert_eq!(OverviewCell::of(f64::NAN).label, "n/a");
    }
}
