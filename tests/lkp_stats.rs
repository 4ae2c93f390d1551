//! Raw outputs → per-monitor series → stats.json → matrix.json/avg.json/stddev.json,
//! against scenario A of tests/data/lkp/golden (written by lkp-tests' own parsers,
//! dump-stat and unite code).

use schedlab::lkp::stats::{run_dirs, run_monitors, run_stats, stats_json, unite};
use std::path::{Path, PathBuf};

const A: &str = "unixbench/performance-30s-1-execl/lkp-ivb-d04/debian-x86_64.cgz/x86_64-rhel/gcc-7";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/lkp/golden/scenario_a_raw").join(A)
}

fn commits() -> [&'static str; 2] {
    ["a07630b8b2c16f82a2d7b5ecfa4a1c0a8e0c5a01", "d519329f72a6f36bc4f2b85452aa7c3b0d1e2f3a"]
}

#[test]
fn monitor_json_and_stats_json_byte_for_byte() {
    for c in commits() {
        for run in run_dirs(&root().join(c)).unwrap() {
            for (monitor, series) in run_monitors(&run).unwrap() {
                let want = std::fs::read_to_string(run.join(format!("{monitor}.json"))).unwrap();
                assert_eq!(series.to_json(), want, "{}/{monitor}.json", run.display());
            }
            let want = std::fs::read_to_string(run.join("stats.json")).unwrap();
            assert_eq!(stats_json(&run_stats(&run).unwrap()), want, "{}/stats.json", run.display());
        }
    }
}

#[test]
fn unite_byte_for_byte() {
    let mut all = Vec::new();
    for c in commits() {
        let runs: Vec<(PathBuf, String)> = run_dirs(&root().join(c))
            .unwrap()
            .into_iter()
            .map(|p| {
                let n = p.file_name().unwrap().to_string_lossy().into_owned();
                (p, format!("result/{A}/{c}/{n}"))
            })
            .collect();
        all.extend(runs.clone());
        let u = unite(&runs).unwrap();
        for (name, got) in [("matrix.json", &u.matrix), ("avg.json", &u.avg), ("stddev.json", &u.stddev)] {
            let want = std::fs::read_to_string(root().join(c).join(name)).unwrap();
            assert_eq!(got, &want, "{c}/{name}");
        }
    }
    // the compiler-level root (__rt) unites every run of both commits
    let u = unite(&all).unwrap();
    for (name, got) in [("matrix.json", &u.matrix), ("avg.json", &u.avg), ("stddev.json", &u.stddev)] {
        let want = std::fs::read_to_string(root().join(name)).unwrap();
        assert_eq!(got, &want, "__rt {name}");
    }
}
