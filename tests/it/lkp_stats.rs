//! Raw outputs → per-monitor series → stats.json → matrix.json/avg.json/stddev.json,
//! against scenario A of tests/data/lkp/golden (written by lkp-tests' own parsers,
//! dump-stat and unite code).

use schedlab::archive::{DirTree, Tree};
use schedlab::lkp::stats::{dump_stat, run_dirs, run_monitors, run_stats, stats_json, unite};
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
        let commit = DirTree::at(&root().join(c));
        for rel in run_dirs(&commit, "").unwrap() {
            let run = root().join(c).join(&rel);
            for (monitor, series) in run_monitors(&commit, &rel).unwrap() {
                let want = std::fs::read_to_string(run.join(format!("{monitor}.json"))).unwrap();
                assert_eq!(series.to_json(), want, "{}/{monitor}.json", run.display());
            }
            let want = std::fs::read_to_string(run.join("stats.json")).unwrap();
            assert_eq!(stats_json(&run_stats(&commit, &rel).unwrap()), want, "{}/stats.json", run.display());
        }
    }
}

#[test]
fn unite_byte_for_byte() {
    let top = DirTree::at(&root());
    let mut all: Vec<(String, String)> = Vec::new();
    for c in commits() {
        let runs: Vec<(String, String)> = run_dirs(&top, c)
            .unwrap()
            .into_iter()
            .map(|rel| {
                let label = format!("result/{A}/{rel}");
                (rel, label)
            })
            .collect();
        all.extend(runs.clone());
        let refs: Vec<(&dyn Tree, &str, &str)> =
            runs.iter().map(|(r, l)| (&top as &dyn Tree, r.as_str(), l.as_str())).collect();
        let u = unite(&refs).unwrap();
        for (name, got) in [("matrix.json", &u.matrix), ("avg.json", &u.avg), ("stddev.json", &u.stddev)] {
            let want = std::fs::read_to_string(root().join(c).join(name)).unwrap();
            assert_eq!(got, &want, "{c}/{name}");
        }
    }
    // the compiler-level root (__rt) unites every run of both commits
    let refs: Vec<(&dyn Tree, &str, &str)> =
        all.iter().map(|(r, l)| (&top as &dyn Tree, r.as_str(), l.as_str())).collect();
    let u = unite(&refs).unwrap();
    for (name, got) in [("matrix.json", &u.matrix), ("avg.json", &u.avg), ("stddev.json", &u.stddev)] {
        let want = std::fs::read_to_string(root().join(name)).unwrap();
        assert_eq!(got, &want, "__rt {name}");
    }
}

/// sbin/dump-stat's valid ranges, never-truncate monitors and record deletion: each
/// `tests/data/lkp/dump_stat/<monitor>--<case>.txt` gives lkp's own `<case>.json`
/// (tools/oracles/lkp/dump_stat_cases.py), or none when lkp writes no file.
#[test]
fn dump_stat_as_lkp() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/lkp/dump_stat");
    let mut cases: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 14);
    for txt in &cases {
        let stem = txt.file_stem().unwrap().to_str().unwrap();
        let monitor = stem.split("--").next().unwrap();
        let s = dump_stat(monitor, &std::fs::read_to_string(txt).unwrap(), stem).unwrap();
        match std::fs::read_to_string(txt.with_extension("json")) {
            Ok(want) => assert_eq!(s.to_json().trim_end(), want.trim_end(), "{stem}"),
            Err(_) => assert!(s.keys.is_empty(), "{stem}: lkp writes no file, got {:?}", s.keys),
        }
    }
}
