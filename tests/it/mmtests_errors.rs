//! Bad input gives a clear error naming the file or run, or the NaN cell
//! MMTests prints; never a panic or a silently wrong number.

use schedlab::mmtests::{compare_at, CompareOptions, Era};
use schedlab::Error;
use std::path::{Path, PathBuf};

fn tree(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("schedlab-mmtests-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn sockperf(root: &Path, name: &str, size: &str, values: &[&str]) {
    let d = root.join(name).join("iter-0/sockperf-udp-throughput/logs");
    std::fs::create_dir_all(&d).unwrap();
    for (i, v) in values.iter().enumerate() {
        std::fs::write(
            d.join(format!("udp-{size}-max-{}.stdout", i + 1)),
            format!("sockperf: Summary: BandWidth is 1.0 MBps ({v} Mbps)\n"),
        )
        .unwrap();
    }
}

fn opts(era: Era) -> CompareOptions {
    CompareOptions { compat: Some(era), ..Default::default() }
}

fn names(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn missing_directory_and_run() {
    let e =
        compare_at(Path::new("/nonexistent/work/log"), "netperf-udp", &names(&["a"]), &opts(Era::E2025)).unwrap_err();
    assert!(matches!(e, Error::Io { not_found: true, .. }), "{e}");
    let root = tree("missing");
    sockperf(&root, "a", "14", &["10", "11"]);
    let e = compare_at(&root, "sockperf-udp-throughput", &names(&["a", "b"]), &opts(Era::E2025)).unwrap_err();
    assert!(matches!(e, Error::Io { not_found: true, .. }));
    // names the run not found and lists those there are
    assert!(
        e.to_string().contains("no run 'b' of sockperf-udp-throughput here (runs of sockperf-udp-throughput: a)"),
        "{e}"
    );
    let e = compare_at(&root, "no-such-bench", &names(&["a"]), &CompareOptions::default()).unwrap_err();
    assert!(e.to_string().contains("no-such-bench"), "{e}");
}

#[test]
fn a_run_without_results_is_a_parse_error() {
    let root = tree("empty");
    sockperf(&root, "a", "14", &["10", "11"]);
    let d = root.join("b/iter-0/sockperf-udp-throughput/logs");
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join("unrelated.txt"), "nothing\n").unwrap();
    let e = compare_at(&root, "sockperf-udp-throughput", &names(&["a", "b"]), &opts(Era::E2025)).unwrap_err();
    assert!(matches!(e, Error::Parse { .. }), "{e}");
    assert!(e.to_string().contains("no sockperf results found for 'b'"), "{e}");
}

#[test]
fn garbage_and_truncated_lines_are_skipped_as_mmtests_does() {
    let root = tree("garbage");
    sockperf(&root, "a", "14", &["10", "20"]);
    let d = root.join("b/iter-0/sockperf-udp-throughput/logs");
    std::fs::create_dir_all(&d).unwrap();
    // non-UTF-8 bytes, a truncated summary line and a good one
    std::fs::write(d.join("udp-14-max-1.stdout"), b"\xff\xfe garbage\nsockperf: Summary: BandWidth is 1.0 MBps (12.\n")
        .unwrap();
    std::fs::write(d.join("udp-14-max-2.stdout"), b"sockperf: Summary: BandWidth is 1.0 MBps (30 Mbps)\n").unwrap();
    let r = compare_at(&root, "sockperf-udp-throughput", &names(&["a", "b"]), &opts(Era::E2025)).unwrap();
    // b has the one sample 30: Min = Max = 30, Hmean of a = 2/(1/10 + 1/20) = 13.33
    assert!(r.text.contains("Min       14       10.00 (   0.00%)       30.00 ( 200.00%)"), "{}", r.text);
    assert!(r.text.contains("Hmean     14       13.33 (   0.00%)       30.00 ( 125.00%)"), "{}", r.text);
}

#[test]
fn different_operation_sets_print_zero_cells_and_warn() {
    let root = tree("ops");
    sockperf(&root, "a", "14", &["10", "20"]);
    sockperf(&root, "a", "100", &["50", "60"]);
    sockperf(&root, "b", "14", &["10", "20"]);
    let r = compare_at(&root, "sockperf-udp-throughput", &names(&["a", "b"]), &opts(Era::E2024)).unwrap();
    assert!(r.text.contains("Min       100       50.00 (   0.00%)        0.00 (   0.00%)"), "{}", r.text);
    assert!(
        r.warnings.iter().any(|w| w.contains("'b' has no results for 1 of the baseline's operations (100)")),
        "{:?}",
        r.warnings
    );
    // 2025 dies in its significance code on such a table (b lacks an interval): a clear error
    let e = compare_at(&root, "sockperf-udp-throughput", &names(&["a", "b"]), &opts(Era::E2025)).unwrap_err();
    assert!(matches!(e, Error::Domain(_)) && e.to_string().contains("'100'"), "{e}");
}

#[test]
fn non_positive_values_under_hmean() {
    let root = tree("hmean");
    sockperf(&root, "a", "14", &["0", "0"]);
    sockperf(&root, "b", "14", &["10", "20"]);
    // 2025: the best value is 0, compare-mmtests.pl dies with a division by zero
    let e = compare_at(&root, "sockperf-udp-throughput", &names(&["a", "b"]), &opts(Era::E2025)).unwrap_err();
    assert!(matches!(e, Error::Domain(_)) && e.to_string().contains("Illegal division by zero"), "{e}");
    // 2024: the harmonic mean is MMTests' -1 "missing": the row prints 0.00 cells
    let r = compare_at(&root, "sockperf-udp-throughput", &names(&["a", "b"]), &opts(Era::E2024)).unwrap();
    let line = r.text.lines().find(|l| l.starts_with("Hmean")).unwrap();
    assert!(line.starts_with("Hmean     14        0.00 (   0.00%)        0.00 "), "{line}");
    let cell = &r.comparison.rows.iter().find(|r| r.group == "Hmean").unwrap().cells[0];
    assert_eq!(cell.value, None, "a missing value is None in the model, not 0");
}

#[test]
fn netperf_without_result_line_warns() {
    let root = tree("netperf");
    for name in ["a", "b"] {
        let d = root.join(name).join("iter-0/netperf-udp-rr/logs");
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("protocols"), "UDP_RR\n").unwrap();
        std::fs::write(d.join("UDP_RR-1.1"), "212992 212992 1        1       60.00    52961.16\n").unwrap();
        std::fs::write(d.join("UDP_RR-1.2"), "MIGRATED UDP REQUEST/RESPONSE TEST (truncated)\n").unwrap();
    }
    let r = compare_at(&root, "netperf-udp-rr", &names(&["a", "b"]), &opts(Era::E2024)).unwrap();
    assert!(r.warnings.iter().any(|w| w.contains("UDP_RR-1.2: no netperf result line")), "{:?}", r.warnings);
    // 2025: the 0 makes the harmonic mean NaN, printed as MMTests does: 0.00 cells
    let r = compare_at(&root, "netperf-udp-rr", &names(&["a", "b"]), &opts(Era::E2025)).unwrap();
    assert!(r.text.contains("Hmean     1        0.00 (   0.00%)        0.00 (   0.00%)"), "{}", r.text);
}

/// Trees of benchmarks that failed (logs/ holds only mmtests.log) or aborted (every log
/// empty), beside a good run; `failed/out/*.rc` is compare-mmtests.pl's exit code on each
/// (tools/oracles/mmtests/failed.sh). The Perl dies with the failed run as baseline and
/// prints 0.00 columns otherwise; schedlab refuses both with an error naming the benchmark,
/// the run and why.
#[test]
fn failed_and_aborted_benchmarks_are_named_errors() {
    let d = crate::goldens::dir("mmtests/failed");
    let goldens = crate::goldens::read("mmtests/failed");
    assert_eq!(goldens.len(), 24);
    let mut perl_died = 0;
    for g in &goldens {
        let (f, bench, run) = (g.file(), g.get("benchmark"), g.get("run"));
        let era = Era::parse(g.get("era")).unwrap();
        let n: Vec<String> = g.list("names").into_iter().map(String::from).collect();
        let rc: i32 = std::fs::read_to_string(d.join(g.get("rc"))).unwrap().trim().parse().unwrap();
        let printed = std::fs::read_to_string(d.join(f)).unwrap();
        if rc != 0 {
            perl_died += 1;
            assert!(printed.is_empty(), "{f}: the Perl died but printed");
        }
        let e = compare_at(&d.join(g.get("tree")), bench, &n, &opts(era)).unwrap_err();
        let msg = e.to_string();
        assert!(matches!(e, Error::InsufficientData(_)), "{f}: {msg}");
        assert!(msg.contains(&format!("benchmark '{bench}'")) && msg.contains(&format!("'{run}'")), "{f}: {msg}");
        match run {
            "failed" => {
                assert!(msg.contains("holds only mmtests.log") && msg.contains("exit code 1"), "{f}: {msg}")
            }
            _ => assert!(msg.contains(&format!("aborted for '{run}'")), "{f}: {msg}"),
        }
    }
    // with the failed or aborted run as baseline the Perl dies in every era, except 2024 on the
    // aborted netperf-udp, where it prints a table of 0.00 rows marked significant
    assert_eq!(perl_died, 11);
}

/// The files a family's parser cannot do without (the Perl dies "Failed to open") are named;
/// a layout schedlab does not read (a multi-JVM SPECjbb run) is refused, not misread.
#[test]
fn missing_inputs_of_the_newer_families_are_named() {
    let root = tree("newer");
    for run in ["a", "b"] {
        let d = root.join(run).join("iter-0/futexbench-hash/logs");
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("hash-4.log"), "[thread  0] futexes: 0x1 ... 0x2 [ 2631734 ops/sec ]\n").unwrap();
    }
    let e = compare_at(&root, "futexbench-hash", &names(&["a", "b"]), &opts(Era::E2024)).unwrap_err();
    assert!(matches!(e, Error::Parse { .. }) && e.to_string().contains("no file 'workloads'"), "{e}");
    for run in ["a", "b"] {
        let d = root.join(run).join("iter-0/specjbb/logs/default/SPECjbbMultiJVM.001");
        std::fs::create_dir_all(&d).unwrap();
    }
    let e = compare_at(&root, "specjbb", &names(&["a", "b"]), &opts(Era::Head)).unwrap_err();
    assert!(e.to_string().contains("multi-JVM"), "{e}");
    for run in ["a", "b"] {
        let d = root.join(run).join("iter-0/saladfork/logs");
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("saladfork-0.time"), "").unwrap();
    }
    let e = compare_at(&root, "saladfork", &names(&["a", "b"]), &opts(Era::E2025)).unwrap_err();
    assert!(e.to_string().contains("numactl.txt.gz"), "{e}");
}
