//! Parser fixtures compared as lkp-tests' spec/unit/lib/stats_spec.rb compares them (the
//! parser's output and the yaml, each with one trailing newline removed, are equal text):
//! lkp's own (tests/data/lkp/spec/<program>/<case> with the expected <case>.yaml, copied
//! from lkp-tests' spec/fixtures/stats) and outputs captured on a Linux box with the yaml
//! printed by lkp's own parser (tests/data/lkp/captured). A fixture that is a directory
//! is a run directory, read as lkp's parser reads its `RESULT_ROOT`.

use schedlab::archive::DirTree;
use schedlab::lkp::stats::program;
use std::path::Path;

fn chomp(s: &str) -> &str {
    s.strip_suffix("\r\n").or_else(|| s.strip_suffix('\n')).unwrap_or(s)
}

/// Every `<program>/<case>.yaml` under `tests/data/lkp/<set>` passes; the pass counts
/// per program are printed.
fn check(set: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/lkp").join(set);
    let mut programs: Vec<_> =
        std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()).collect();
    programs.sort();
    let mut failures = Vec::new();
    let mut report = Vec::new();
    for dir in &programs {
        let name = dir.file_name().unwrap().to_str().unwrap();
        let mut cases: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
            .collect();
        cases.sort();
        let mut pass = 0;
        for yaml in &cases {
            let input = yaml.with_extension("");
            let want = std::fs::read_to_string(yaml).unwrap();
            let shown = input.display().to_string();
            let got = if input.is_dir() {
                // a run directory (lkp's RESULT_ROOT), with the raw `<program>` file if any
                let raw = std::fs::read_to_string(input.join(name)).unwrap_or_default();
                program::parse_in_run(name, &raw, &shown, &DirTree::at(&input), "")
            } else {
                program::parse(name, &std::fs::read_to_string(&input).unwrap(), &shown)
            };
            let got = got.unwrap_or_else(|| panic!("no parser for {name}"));
            match got {
                Ok(got) if chomp(&got) == chomp(&want) => pass += 1,
                Ok(got) => failures.push(format!("{shown}:\n--- want\n{want}\n--- got\n{got}")),
                Err(e) => failures.push(format!("{shown}: {e}")),
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
