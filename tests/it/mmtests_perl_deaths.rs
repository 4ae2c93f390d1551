//! Where compare-mmtests.pl dies, schedlab refuses with an error naming the benchmark
//! (or the file and line) and what was expected, and prints no table. One test per
//! class of docs/mmtests.md §11 that the goldens of the other suites do not already
//! hold; the trees and the Perl's exit code and message are in
//! tests/data/mmtests/deaths/ (tools/oracles/mmtests/deaths.sh).

use schedlab::mmtests::{compare_at, CompareOptions, Era};
use std::path::{Path, PathBuf};

fn deaths() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/mmtests/deaths")
}

fn names() -> Vec<String> {
    vec!["6.8-vanilla".into(), "6.9-patched".into()]
}

/// The Perl's exit code is not 0, it printed nothing, and its stderr holds `says`.
fn perl_died(class: &str, era: &str, says: &str) {
    let out = deaths().join("out");
    let rc = std::fs::read_to_string(out.join(format!("{class}-{era}.rc"))).unwrap();
    assert_ne!(rc.trim(), "0", "{class} {era}");
    assert_eq!(std::fs::read_to_string(out.join(format!("{class}-{era}.oracle"))).unwrap(), "");
    let err = std::fs::read_to_string(out.join(format!("{class}-{era}.stderr"))).unwrap();
    assert!(err.contains(says), "{class} {era}: {err}");
}

fn refused(class: &str, bench: &str, era: Option<Era>) -> String {
    let opts = CompareOptions { compat: era, ..Default::default() };
    match compare_at(&deaths().join(class), bench, &names(), &opts) {
        Ok(r) => panic!("{class}: printed a table:\n{}", r.text),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_time_in_another_unit() {
    for era in [Era::E2024, Era::E2025] {
        perl_died("futex-unit", era.name(), "Units of time us not recognised");
        let e = refused("futex-unit", "perffutexwake", Some(era));
        assert!(e.contains("perffutexwake-1.log.gz:4:"), "{e}");
        assert!(e.contains("time in 'us', expected 'ms'"), "{e}");
    }
}

#[test]
fn no_data_files() {
    for era in [Era::E2024, Era::E2025] {
        perl_died("no-data", era.name(), "No data at");
        let e = refused("no-data", "xsbench", Some(era));
        assert!(e.contains("benchmark 'xsbench'") && e.contains("no xsbench-*-1.log") && e.contains("No data"), "{e}");
    }
}

#[test]
fn a_benchmark_no_era_extracts() {
    perl_died("unknown", "2025", "Can't locate MMTests/ExtractNosuchbench.pm");
    perl_died("unknown", "head", "Extraction module ExtractNosuchbench does not exist");
    let e = refused("unknown", "nosuchbench", None);
    assert!(e.contains("no MMTests version has an extractor for benchmark 'nosuchbench'"), "{e}");
}
