//! Parser fixtures compared as lkp-tests' spec/unit/lib/stats_spec.rb compares them (the
//! parser's output and the yaml, each with one trailing newline removed, are equal text):
//! lkp's own (tests/data/lkp/spec/<program>/<case> with the expected <case>.yaml, copied
//! from lkp-tests' spec/fixtures/stats) and outputs captured on a Linux box with the yaml
//! printed by lkp's own parser (tests/data/lkp/captured); hand-written inputs for paths
//! lkp's fixtures do not reach (tests/data/lkp/edge) and for parsers that read their run
//! directory (tests/data/lkp/run-context), with lkp's own output. A fixture that is a
//! directory is a run directory, read as lkp's parser reads its `RESULT_ROOT`; kmsg's
//! fixture files are read with `RESULT_ROOT=/boot/1/vm-`, as stats_spec.rb runs them.
//! The stats.json of each fixture is tests/it/lkp_stats_json.rs.

use schedlab::archive::{DirTree, MemTree};
use schedlab::lkp::stats::program;
use std::path::{Path, PathBuf};

fn chomp(s: &str) -> &str {
    s.strip_suffix("\r\n").or_else(|| s.strip_suffix('\n')).unwrap_or(s)
}

/// The programs of set `set` with their cases (`<case>.yaml` without the extension).
pub(crate) fn fixtures(set: &str) -> Vec<(String, Vec<PathBuf>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/lkp").join(set);
    let mut programs: Vec<_> =
        std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()).collect();
    programs.sort();
    programs
        .into_iter()
        .map(|dir| {
            let name = dir.file_name().unwrap().to_str().unwrap().to_string();
            let mut cases: Vec<_> = std::fs::read_dir(&dir)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
                .map(|p| p.with_extension(""))
                .collect();
            cases.sort();
            (name, cases)
        })
        .collect()
}

/// Program `name`'s parser on the fixture `input`, run as stats_spec.rb runs it.
pub(crate) fn run_parser(name: &str, input: &Path) -> Result<String, String> {
    let shown = input.display().to_string();
    let got = if input.is_dir() {
        // a run directory (lkp's RESULT_ROOT), with the raw `<program>` file if any
        let raw = std::fs::read_to_string(input.join(name)).unwrap_or_default();
        program::parse_in_run(name, &raw, &shown, &DirTree::at(input), "")
    } else if name == "kmsg" {
        // stats_spec.rb runs kmsg's parser with RESULT_ROOT=/boot/1/vm- (a boot test on a VM)
        let raw = std::fs::read_to_string(input).unwrap();
        program::parse_in_run(name, &raw, &shown, &MemTree::new("/boot/1/vm-"), "")
    } else {
        program::parse(name, &std::fs::read_to_string(input).unwrap(), &shown)
    };
    got.unwrap_or_else(|| panic!("no parser for {name}")).map_err(|e| format!("{shown}: {e}"))
}

/// Every `<program>/<case>.yaml` under `tests/data/lkp/<set>` passes; the pass counts
/// per program are printed.
fn check(set: &str) {
    let mut failures = Vec::new();
    let mut report = Vec::new();
    for (name, cases) in fixtures(set) {
        let mut pass = 0;
        for input in &cases {
            let want = std::fs::read_to_string(input.with_extension("yaml")).unwrap();
            match run_parser(&name, input) {
                Ok(got) if chomp(&got) == chomp(&want) => pass += 1,
                Ok(got) => failures.push(format!("{}:\n--- want\n{want}\n--- got\n{got}", input.display())),
                Err(e) => failures.push(e),
            }
        }
        report.push(format!("{name}: {pass}/{}", cases.len()));
    }
    eprintln!("{}", report.join("\n"));
    assert!(failures.is_empty(), "{}\n\n{}", report.join("\n"), failures.join("\n\n"));
}

#[test]
fn every_fixture_of_lkp_tests() {
    check("spec");
}

#[test]
fn every_captured_output() {
    check("captured");
}

#[test]
fn every_edge_case() {
    check("edge");
}

#[test]
fn every_run_context_case() {
    check("run-context");
}
