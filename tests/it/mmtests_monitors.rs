//! Goldens of `compare-mmtests.pl --print-monitor` (tests/data/mmtests/monitors: the tree
//! from tools/oracles/mmtests/gen_monitor_logs.py, the tables from monitors.sh running
//! MMTests' own Perl of each era). An empty golden means the Perl printed no table:
//! schedlab must refuse with an error there.

use schedlab::archive::DirTree;
use schedlab::mmtests::monitors::{compare_monitor, Monitor, MonitorOptions};
use schedlab::mmtests::Era;
use std::path::PathBuf;

fn data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/mmtests/monitors")
}

fn names() -> Vec<String> {
    ["6.8-vanilla", "6.9-teo", "6.9-menu"].iter().map(|s| s.to_string()).collect()
}

/// Every case of `cases` (tree `tree`, goldens `out/<prefix><era>-...`): the failures.
fn check(tree: &str, cases: &str, prefix: &str) -> (usize, Vec<String>) {
    let d = data();
    let cases = std::fs::read_to_string(d.join(cases)).unwrap();
    let mut checked = 0;
    let mut failures = Vec::new();
    for line in cases.lines().filter(|l| !l.trim().is_empty()) {
        let mut parts = line.split_whitespace();
        let mon = parts.next().unwrap();
        let sub = parts.next().unwrap_or("");
        for era in ["head", "2025", "2024"] {
            let file =
                format!("{prefix}{era}-{mon}{}.oracle", if sub.is_empty() { String::new() } else { format!("_{sub}") });
            let want = std::fs::read_to_string(d.join("out").join(&file)).unwrap();
            let opts = MonitorOptions {
                monitor: Monitor::parse(mon).unwrap(),
                era: Era::parse(era).unwrap(),
                subheading: sub.to_string(),
            };
            let got = compare_monitor(&DirTree::at(&d.join(tree)), "", "hackbench-process-pipes", &names(), &opts);
            checked += 1;
            match (want.is_empty(), got) {
                (true, Err(_)) => {}
                (true, Ok(r)) => {
                    failures.push(format!("{file}: the Perl printed nothing, schedlab printed\n{}", r.text))
                }
                (false, Err(e)) => failures.push(format!("{file}: {e}")),
                (false, Ok(r)) if r.text != want => {
                    failures.push(format!("{file}:\n--- want\n{want}--- got\n{}", r.text))
                }
                _ => {}
            }
        }
    }
    (checked, failures)
}

#[test]
fn monitor_tables_match_compare_mmtests() {
    let (checked, failures) = check("tree", "cases", "");
    assert!(checked >= 60, "only {checked} cases");
    assert!(failures.is_empty(), "{} of {checked} differ:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn older_sysstat_and_turbostat_layouts_match_compare_mmtests() {
    let (checked, failures) = check("tree-old", "cases-old", "old-");
    assert!(checked >= 12, "only {checked} cases");
    assert!(failures.is_empty(), "{} of {checked} differ:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn mpstat_needs_a_node_and_unknown_monitors_are_refused() {
    let opts = MonitorOptions { monitor: Monitor::Mpstat, era: Era::Head, subheading: String::new() };
    let e = compare_monitor(&DirTree::at(&data().join("tree")), "", "hackbench-process-pipes", &names(), &opts)
        .unwrap_err();
    assert!(e.to_string().contains("node-N"), "{e}");
    assert!(Monitor::parse("top").unwrap_err().to_string().contains("proc-vmstat"));
    let opts = MonitorOptions { monitor: Monitor::Vmstat, era: Era::Head, subheading: "nope".into() };
    let e = compare_monitor(&DirTree::at(&data().join("tree")), "", "hackbench-process-pipes", &names(), &opts)
        .unwrap_err();
    assert!(e.to_string().contains("Unrecognised heading"), "{e}");
}

#[test]
fn a_benchmark_without_monitor_logs_is_an_error() {
    let opts = MonitorOptions { monitor: Monitor::Vmstat, era: Era::Head, subheading: String::new() };
    let e = compare_monitor(&DirTree::at(&data().join("tree")), "", "no-such-benchmark", &names(), &opts).unwrap_err();
    assert!(e.to_string().contains("no vmstat monitor data"), "{e}");
}
