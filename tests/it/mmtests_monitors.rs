//! Goldens of `compare-mmtests.pl --print-monitor` (tests/data/mmtests/monitors: the tree
//! from tools/oracles/mmtests/gen_monitor_logs.py, the tables from monitors.sh running
//! MMTests' own Perl of each era; goldens.csv lists them). An empty golden (`expect`
//! `error`) means the Perl printed no table: schedlab must refuse with an error there.

use schedlab::archive::DirTree;
use schedlab::mmtests::monitors::{compare_monitor, Monitor, MonitorOptions};
use schedlab::mmtests::Era;
use std::path::PathBuf;

fn data() -> PathBuf {
    crate::goldens::dir("mmtests/monitors")
}

fn names() -> Vec<String> {
    ["6.8-vanilla", "6.9-teo", "6.9-menu"].iter().map(|s| s.to_string()).collect()
}

/// Every golden of tests/data/mmtests/monitors/goldens.csv on the tree `tree`: the failures.
fn check(tree: &str) -> (usize, Vec<String>) {
    let d = data();
    let mut checked = 0;
    let mut failures = Vec::new();
    for g in crate::goldens::read("mmtests/monitors").iter().filter(|g| g.get("tree") == tree) {
        let file = g.file();
        let want = std::fs::read_to_string(d.join(file)).unwrap();
        let opts = MonitorOptions {
            monitor: Monitor::parse(g.get("monitor")).unwrap(),
            era: Era::parse(g.get("era")).unwrap(),
            subheading: g.get("sub_heading").to_string(),
        };
        let names: Vec<String> = g.list("names").into_iter().map(String::from).collect();
        let got = compare_monitor(&DirTree::at(&d.join(tree)), "", g.get("benchmark"), &names, &opts);
        checked += 1;
        match (g.get("expect"), got) {
            ("error", Err(_)) => {}
            ("error", Ok(r)) => {
                failures.push(format!("{file}: the Perl printed nothing, schedlab printed\n{}", r.text))
            }
            (_, Err(e)) => failures.push(format!("{file}: {e}")),
            (_, Ok(r)) if r.text != want => failures.push(format!("{file}:\n--- want\n{want}--- got\n{}", r.text)),
            _ => {}
        }
    }
    (checked, failures)
}

#[test]
fn monitor_tables_match_compare_mmtests() {
    let (checked, failures) = check("tree");
    assert!(checked >= 60, "only {checked} cases");
    assert!(failures.is_empty(), "{} of {checked} differ:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn older_sysstat_and_turbostat_layouts_match_compare_mmtests() {
    let (checked, failures) = check("tree-old");
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
