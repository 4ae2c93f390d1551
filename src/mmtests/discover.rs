//! Finding MMTests runs in a tree whose layout is not known in advance (a results
//! archive, a directory of machines): every `work/log` directory and the runs and
//! benchmarks it holds, in either log layout of docs/mmtests.md §2:
//!
//! - [`Layout::Iterations`] (MMTests 2024 onwards): `<root>/<name>/iter-N/<benchmark>/logs/`;
//! - [`Layout::Profile2018`] (MMTests 2018): `<root>/<benchmark>-<name>/noprofile/`
//!   (or `fine-profile-timer/`), the benchmark told from the name by the longest
//!   benchmark name schedlab has an extractor for.

use super::era::Era;
use super::extract;
use crate::archive::tree::{join, walk};
use crate::archive::Tree;
use crate::error::Result;

/// Which MMTests log layout a run was found in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Layout {
    /// `<root>/<name>/iter-N/<benchmark>/logs/` (MMTests 2024, 2025 and head).
    Iterations,
    /// `<root>/<benchmark>-<name>/noprofile/` (MMTests 2018).
    Profile2018,
}

/// One run (kernel) of one benchmark found under a `work/log` directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundRun {
    /// The `work/log` directory, relative to the tree's root ("" = the root).
    pub root: String,
    /// The run (kernel) name, as `compare-mmtests.pl -n` takes it.
    pub name: String,
    /// The benchmark, as `compare-mmtests.pl -b` takes it.
    pub benchmark: String,
    /// The layout the run was found in.
    pub layout: Layout,
}

/// The eras whose layout is `layout`, newest first.
pub fn eras_of(layout: Layout) -> Vec<Era> {
    match layout {
        Layout::Iterations => vec![Era::Head, Era::E2025, Era::E2024],
        Layout::Profile2018 => vec![Era::E2018],
    }
}

/// Every benchmark name some era has an extractor for, longest first.
fn known_longest_first() -> Vec<&'static str> {
    let mut all: Vec<&'static str> = Era::newest_first().iter().flat_map(|e| extract::known_benchmarks(*e)).collect();
    all.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
    all.dedup();
    all
}

/// Split a 2018 run directory name `<benchmark>-<name>` by the longest known
/// benchmark it starts with; None when no known benchmark matches.
pub fn split_2018(dir_name: &str) -> Option<(String, String)> {
    known_longest_first().into_iter().find_map(|b| {
        let rest = dir_name.strip_prefix(b)?.strip_prefix('-')?;
        (!rest.is_empty()).then(|| (b.to_string(), rest.to_string()))
    })
}

/// The runs directly under `dir` if it is a `work/log` directory (empty otherwise).
/// 2018 run directories whose benchmark schedlab does not know are reported in
/// `unknown` (as `dir/<child>`), so callers can say what they skipped.
pub fn runs_at(tree: &dyn Tree, dir: &str, unknown: &mut Vec<String>) -> Vec<FoundRun> {
    let mut out = Vec::new();
    let Ok(children) = tree.list(dir) else { return out };
    for child in &children {
        let run = join(dir, child);
        if !tree.is_dir(&run) {
            continue;
        }
        if ["noprofile", "fine-profile-timer"].iter().any(|p| tree.is_dir(&join(&run, p))) {
            match split_2018(child) {
                Some((benchmark, name)) => {
                    out.push(FoundRun { root: dir.to_string(), name, benchmark, layout: Layout::Profile2018 })
                }
                None => unknown.push(run.clone()),
            }
            continue;
        }
        let Ok(iters) = tree.list(&run) else { continue };
        let mut benchmarks: Vec<String> = Vec::new();
        for it in iters.iter().filter(|n| n.starts_with("iter-")) {
            let iter_dir = join(&run, it);
            let Ok(bs) = tree.list(&iter_dir) else { continue };
            for b in bs {
                if !benchmarks.contains(&b) && tree.is_dir(&format!("{}/logs", join(&iter_dir, &b))) {
                    benchmarks.push(b);
                }
            }
        }
        benchmarks.sort();
        for benchmark in benchmarks {
            out.push(FoundRun { root: dir.to_string(), name: child.clone(), benchmark, layout: Layout::Iterations });
        }
    }
    out
}

/// Whether [`runs_at`]`(tree, dir)` would find run `name` of `benchmark`, looking only
/// at that run's own directories (not the whole `work/log` directory).
pub fn has_run(tree: &dyn Tree, dir: &str, name: &str, benchmark: &str) -> bool {
    let profile = |run: &str| ["noprofile", "fine-profile-timer"].iter().any(|p| tree.is_dir(&join(run, p)));
    let run_2018 = join(dir, &format!("{benchmark}-{name}"));
    if profile(&run_2018)
        && split_2018(&format!("{benchmark}-{name}")).is_some_and(|(b, n)| b == benchmark && n == name)
    {
        return true;
    }
    let run = join(dir, name);
    if !tree.is_dir(&run) || profile(&run) {
        return false;
    }
    let Ok(iters) = tree.list(&run) else { return false };
    iters
        .iter()
        .filter(|n| n.starts_with("iter-"))
        .any(|it| tree.is_dir(&format!("{}/logs", join(&join(&run, it), benchmark))))
}

/// Every MMTests run in `tree` (a log directory is not searched below itself),
/// in path order; and the 2018-style run directories of unknown benchmarks.
pub fn find_runs(tree: &dyn Tree) -> Result<(Vec<FoundRun>, Vec<String>)> {
    let mut runs = Vec::new();
    let mut unknown = Vec::new();
    walk(tree, &mut |dir: &str| {
        let here = runs_at(tree, dir, &mut unknown);
        let found = !here.is_empty();
        runs.extend(here);
        Ok(!found)
    })?;
    Ok((runs, unknown))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::MemTree;

    #[test]
    fn both_layouts_are_found() {
        let mut t = MemTree::new("r.tar");
        t.add_file("m1/work/log/k1/iter-0/hackbench-process-pipes/logs/hackbench-1-1", vec![]);
        t.add_file("m1/work/log/k1/iter-0/tests-timestamp", vec![]);
        t.add_file("m1/work/log/k2/iter-0/netperf-udp/logs/protocols", vec![]);
        t.add_file("old/netperf-udp-rr-4.18.0-teo/noprofile/x", vec![]);
        t.add_file("old/parsec-4.18.0-teo/noprofile/x", vec![]);
        let (runs, unknown) = find_runs(&t).unwrap();
        let got: Vec<(&str, &str, &str, Layout)> =
            runs.iter().map(|r| (r.root.as_str(), r.name.as_str(), r.benchmark.as_str(), r.layout)).collect();
        assert_eq!(
            got,
            vec![
                ("m1/work/log", "k1", "hackbench-process-pipes", Layout::Iterations),
                ("m1/work/log", "k2", "netperf-udp", Layout::Iterations),
                ("old", "4.18.0-teo", "netperf-udp-rr", Layout::Profile2018),
            ]
        );
        assert_eq!(unknown, vec!["old/parsec-4.18.0-teo".to_string()]);
        // has_run finds exactly the runs runs_at finds, looking at the run alone
        for r in &runs {
            assert!(has_run(&t, &r.root, &r.name, &r.benchmark), "{r:?}");
        }
        assert!(!has_run(&t, "m1/work/log", "k1", "netperf-udp"));
        assert!(!has_run(&t, "m1/work/log", "k3", "netperf-udp"));
        assert!(!has_run(&t, "old", "4.18.0-teo", "parsec"));
        assert!(!has_run(&t, "old", "rr-4.18.0-teo", "netperf-udp"));
    }

    #[test]
    fn splitting_2018_names_takes_the_longest_benchmark() {
        assert_eq!(split_2018("netperf-udp-rr-a-b"), Some(("netperf-udp-rr".into(), "a-b".into())));
        assert_eq!(split_2018("netperf-udp-4.18.0-vanilla"), Some(("netperf-udp".into(), "4.18.0-vanilla".into())));
        assert_eq!(split_2018("hackbench-process-pipes-"), None);
        assert_eq!(split_2018("parsec-x"), None);
    }
}
