//! The stats.json lkp-tests makes of each parser fixture (`<case>.stats.json` beside
//! `<case>.yaml` under tests/data/lkp/spec, captured and edge, written by
//! tools/oracles/lkp/stats_json.sh: lkp's parser, then its sbin/dump-stat and
//! bin/create-stats-matrix) equals schedlab's, byte for byte: the keys, their order,
//! the values and Integer vs Float. schedlab's side is the same chain: the program's
//! parser (as tests/it/lkp_spec.rs runs it), `dump_stat`, `reduce`, `stats_json`.
//!
//! Whole run directories (tests/data/lkp/runs/<case>/, several raw outputs, some empty,
//! binary or already JSON) are checked the same way against what lkp's bin/run-stats
//! and bin/create-stats-matrix make of them (tools/oracles/lkp/run_stats.sh).

use schedlab::archive::DirTree;
use schedlab::lkp::stats::{dump_stat, program, reduce, run_stats, stats_json};
use std::path::Path;

/// schedlab's stats.json of one fixture of `program`.
fn stats_of(program: &str, input: &Path) -> Result<String, String> {
    let shown = input.display().to_string();
    let lines = if input.is_dir() {
        let raw = std::fs::read_to_string(input.join(program)).unwrap_or_default();
        program::parse_in_run(program, &raw, &shown, &DirTree::at(input), "")
    } else {
        program::parse(program, &std::fs::read_to_string(input).unwrap(), &shown)
    };
    let lines = lines.ok_or_else(|| format!("no parser for {program}"))?.map_err(|e| e.to_string())?;
    let series = dump_stat(program, &lines, &shown).map_err(|e| e.to_string())?;
    let monitors = if series.keys.is_empty() { Vec::new() } else { vec![(program.to_string(), series)] };
    Ok(stats_json(&reduce(&monitors)))
}

/// Every `<program>/<case>.stats.json` under `tests/data/lkp/<set>` passes; the pass
/// counts per program are printed.
fn check(set: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/lkp").join(set);
    let mut programs: Vec<_> =
        std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()).collect();
    programs.sort();
    let (mut failures, mut report, mut total) = (Vec::new(), Vec::new(), 0);
    for dir in &programs {
        let name = dir.file_name().unwrap().to_str().unwrap();
        let mut cases: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.to_str().unwrap().ends_with(".stats.json"))
            .collect();
        cases.sort();
        let mut pass = 0;
        for golden in &cases {
            let input = Path::new(golden.to_str().unwrap().strip_suffix(".stats.json").unwrap());
            let want = std::fs::read_to_string(golden).unwrap();
            match stats_of(name, input) {
                Ok(got) if got.trim_end() == want.trim_end() => pass += 1,
                Ok(got) => failures.push(format!("{}:\n--- want\n{want}\n--- got\n{got}", input.display())),
                Err(e) => failures.push(format!("{}: {e}", input.display())),
            }
        }
        total += cases.len();
        report.push(format!("{name}: {pass}/{}", cases.len()));
    }
    eprintln!("{}", report.join("\n"));
    assert!(total > 0, "no stats.json goldens under {}", root.display());
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
