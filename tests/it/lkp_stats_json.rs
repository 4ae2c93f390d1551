//! The stats.json lkp-tests makes of each parser fixture (`<case>.stats.json` beside
//! `<case>.yaml` under tests/data/lkp/spec, captured, edge and run-context, written by
//! tools/oracles/lkp/spec_stats.sh: lkp's parser, then its sbin/dump-stat and
//! bin/create-stats-matrix) equals schedlab's, byte for byte: the keys, their order,
//! the values and Integer vs Float. schedlab's side is the same chain: the program's
//! parser (run as tests/it/lkp_spec.rs runs it), `dump_stat`, `reduce`, `stats_json`.
//! Every case with a yaml has its golden: none is skipped.
//!
//! Whole run directories (tests/data/lkp/runs/<case>/, several raw outputs, some empty,
//! binary or already JSON) are checked the same way against what lkp's bin/run-stats
//! and bin/create-stats-matrix make of them (tools/oracles/lkp/run_stats.sh).

use super::lkp_spec::{fixtures, run_parser};
use schedlab::archive::DirTree;
use schedlab::lkp::stats::{dump_stat, reduce, run_stats, stats_json};
use std::path::{Path, PathBuf};

/// schedlab's stats.json of the fixture `input` of `program`.
fn stats_of(program: &str, input: &Path) -> Result<String, String> {
    let lines = run_parser(program, input)?;
    let series = dump_stat(program, &lines, &input.display().to_string()).map_err(|e| e.to_string())?;
    let monitors = if series.keys.is_empty() { Vec::new() } else { vec![(program.to_string(), series)] };
    Ok(stats_json(&reduce(&monitors)))
}

/// Every `<program>/<case>.yaml` under `tests/data/lkp/<set>` has its `<case>.stats.json`
/// and schedlab's stats.json of the case is that text; the pass counts per program are
/// printed.
fn check(set: &str) {
    let (mut failures, mut report, mut total) = (Vec::new(), Vec::new(), 0);
    for (name, cases) in fixtures(set) {
        let mut pass = 0;
        for input in &cases {
            let golden = PathBuf::from(format!("{}.stats.json", input.display()));
            let Ok(want) = std::fs::read_to_string(&golden) else {
                failures.push(format!("{}: no golden (tools/oracles/lkp/spec_stats.sh)", golden.display()));
                continue;
            };
            match stats_of(&name, input) {
                Ok(got) if got == want => pass += 1,
                Ok(got) => failures.push(format!("{}:\n--- want\n{want}\n--- got\n{got}", golden.display())),
                Err(e) => failures.push(e),
            }
        }
        total += cases.len();
        report.push(format!("{name}: {pass}/{}", cases.len()));
    }
    eprintln!("stats.json of {set}:\n{}", report.join("\n"));
    assert!(total > 0, "no fixtures under tests/data/lkp/{set}");
    assert!(failures.is_empty(), "{}\n\n{}", report.join("\n"), failures.join("\n\n"));
}

#[test]
fn stats_json_of_every_fixture_of_lkp_tests() {
    check("spec");
}

#[test]
fn stats_json_of_every_captured_output() {
    check("captured");
}

#[test]
fn stats_json_of_every_edge_case() {
    check("edge");
}

#[test]
fn stats_json_of_every_run_context_case() {
    check("run-context");
}

#[test]
fn stats_json_of_run_directories() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/lkp/runs");
    let mut runs: Vec<_> =
        std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()).collect();
    runs.sort();
    assert!(runs.len() >= 2, "no run directories under {}", root.display());
    for run in &runs {
        let want = std::fs::read_to_string(run.with_extension("stats.json")).unwrap();
        let got = stats_json(&run_stats(&DirTree::at(run), "").unwrap());
        assert_eq!(got.trim_end(), want.trim_end(), "{}", run.display());
    }
}
