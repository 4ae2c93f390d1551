//! A real, published MMTests tree (tests/data/mmtests/real/: an IBM CI lab's 2020 results,
//! source and licence in its README) against what compare-mmtests.pl of the MMTests that
//! wrote it (025ef72e, 2020-05-13) printed on it (`out/`, made by
//! tools/oracles/mmtests/real.sh): every table the Perl prints for runs that have results,
//! byte for byte with the era told from the files (2024's rules: tests-timestamp's
//! `test end` lines carry no exit code before 2024-06-05), and a named refusal for the
//! benchmarks that failed, aborted or that the Perl dies on.

use schedlab::error::Error;
use schedlab::mmtests::era_detect::detect;
use schedlab::mmtests::{compare_at, CompareOptions, Era};
use std::path::{Path, PathBuf};

fn real() -> PathBuf {
    crate::goldens::dir("mmtests/real")
}

/// The runs of `root` holding logs of `bench`, sorted (as real.sh names them to the Perl).
fn runs_of(root: &Path, bench: &str) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|k| root.join(k).join("iter-0").join(bench).join("logs").is_dir())
        .collect();
    out.sort();
    out
}

/// (root directory, benchmark, --print-ratio, the Perl's exit code, its stdout) for every
/// golden of tests/data/mmtests/real/goldens.csv.
fn goldens() -> Vec<(PathBuf, String, bool, i32, String)> {
    crate::goldens::read("mmtests/real")
        .iter()
        .map(|g| {
            let rc = std::fs::read_to_string(real().join(g.get("rc"))).unwrap().trim().parse().unwrap();
            let printed = std::fs::read_to_string(real().join(g.file())).unwrap();
            (real().join(g.get("tree")), g.get("benchmark").to_string(), g.flag("print_ratio"), rc, printed)
        })
        .collect()
}

/// The benchmarks whose every run has results, in both roots.
const COMPARED: &[&str] = &[
    "blogbench",
    "netperf-tcp",
    "netperf-udp",
    "schbench",
    "sockperf-tcp-throughput",
    "sockperf-udp-throughput",
    "usemem",
];

#[test]
fn every_table_of_runs_with_results_is_the_perls_byte_for_byte() {
    let mut matched = 0;
    for (root, bench, ratio, rc, printed) in goldens() {
        if !COMPARED.contains(&bench.as_str()) {
            continue;
        }
        let names = runs_of(&root, &bench);
        let at = format!("{} {bench} {names:?} ratio={ratio}", root.display());
        assert_eq!(rc, 0, "{at}");
        let opts = CompareOptions { print_ratio: ratio, ..Default::default() };
        let r = compare_at(&root, &bench, &names, &opts).unwrap_or_else(|e| panic!("{at}: {e}"));
        assert_eq!(r.era, Era::E2024, "{at}: {}", r.era_reason);
        // schbench's own format tells first; every other benchmark's, tests-timestamp
        let marker = if bench == "schbench" { "schbench before 2023" } else { "7cc7bac7" };
        assert!(r.era_reason.contains(marker), "{at}: {}", r.era_reason);
        assert_eq!(r.text, printed, "{at}");
        matched += 1;
    }
    // 7 benchmarks (blogbench read since schedlab has its extractor) × 2 roots × (table, --print-ratio)
    assert_eq!(matched, 28);
}

#[test]
fn the_2020_tree_is_told_from_tests_timestamp_and_2025_would_print_otherwise() {
    let root = real().join("mmtests_CI/work/log.ltccip8.2020-06-12_1807");
    for bench in ["netperf-udp", "sockperf-udp-throughput"] {
        let first = &runs_of(&root, bench)[0];
        let d = detect(&schedlab::archive::DirTree::at(&root), "", bench, first, None).unwrap();
        assert_eq!((d.era, d.decided, d.candidates.clone()), (Era::E2024, true, vec![Era::E2024]), "{d:?}");
        assert!(
            d.reason.contains(&format!("{first}/iter-0/tests-timestamp line ")) && d.reason.contains("2024-06-05"),
            "{}",
            d.reason
        );
    }
    // the markers are what set the era: 2025's rules print another table on the same logs
    let names = runs_of(&root, "netperf-udp");
    let golden = std::fs::read_to_string(real().join("out/log.ltccip8.2020-06-12_1807/netperf-udp.oracle")).unwrap();
    let opts = CompareOptions { compat: Some(Era::E2025), ..Default::default() };
    assert_ne!(compare_at(&root, "netperf-udp", &names, &opts).unwrap().text, golden);
}

/// Not reproduced (a known gap): MMTests' stream extractor changed on 2022-10-05 (f0acad15:
/// GB/sec, operations named with the thread count), inside the span of 2024's rules, and
/// the files do not tell; schedlab prints 2024's table, MMTests of 2020 printed MB/sec rows
/// `copy`, `scale`, `add`, `triad`.
#[test]
fn stream_of_2020_is_printed_with_2024s_extractor() {
    for (root, bench, ratio, rc, printed) in goldens() {
        if bench != "stream" {
            continue;
        }
        assert_eq!(rc, 0);
        let names = runs_of(&root, &bench);
        let opts = CompareOptions { print_ratio: ratio, ..Default::default() };
        let r = compare_at(&root, &bench, &names, &opts).unwrap();
        assert!(printed.contains("copy ") && !printed.contains("copy-8"), "{printed}");
        assert!(r.text.contains("copy-8 ") && r.era == Era::E2024, "{}", r.text);
    }
}

#[test]
fn failed_aborted_and_unknown_benchmarks_are_named_refusals() {
    let mut seen = 0;
    for (root, bench, ratio, rc, printed) in goldens() {
        if COMPARED.contains(&bench.as_str()) || bench == "stream" {
            continue;
        }
        let names = runs_of(&root, &bench);
        let at = format!("{} {bench} {names:?} ratio={ratio}: Perl rc {rc}", root.display());
        let opts = CompareOptions { print_ratio: ratio, ..Default::default() };
        let e = compare_at(&root, &bench, &names, &opts).unwrap_err();
        let msg = e.to_string();
        if rc != 0 && !ratio {
            assert!(printed.is_empty(), "{at}: the Perl died but printed");
        }
        match bench.as_str() {
            // failed while installing: logs/ holds only a plain mmtests.log ending in FATAL
            "hackbench-process-pipes" | "perfsyscall" | "sysbench" => {
                assert!(matches!(e, Error::InsufficientData(_)), "{at}: {msg}");
                // sysbench under postgres also left a `pagetype` file
                let only = if bench == "sysbench" { "holds no sysbench result file" } else { "holds only mmtests.log" };
                assert!(msg.contains(only), "{at}: {msg}");
                assert!(msg.contains("no 'test begin' line for it"), "{at}: {msg}");
                assert!(msg.contains("mmtests.log line ") && msg.contains(": FATAL "), "{at}: {msg}");
            }
            // iperf3 exited 255 (the Perl dies: no results)
            "iperf3" => {
                assert!(matches!(e, Error::InsufficientData(_)), "{at}: {msg}");
                assert!(msg.contains("holds only mmtests.log") && msg.contains("exit code 255"), "{at}: {msg}");
                assert!(msg.contains(": FATAL iperf3-bench: Failed to start iperf3 server"), "{at}: {msg}");
            }
            // sockperf stopped (`_seqN > m_maxSequenceNo`): every result log empty (the Perl dies)
            "sockperf-tcp-under-load" | "sockperf-udp-under-load" => {
                assert!(matches!(e, Error::InsufficientData(_)), "{at}: {msg}");
                assert!(msg.contains("aborted for 'sockperf-unbound'"), "{at}: {msg}");
                assert!(msg.contains("none of the 15 result files"), "{at}: {msg}");
            }
            _ => panic!("{at}: a golden this test does not know"),
        }
        seen += 1;
    }
    // 6 refused benchmarks × 2 roots × (table, --print-ratio)
    assert_eq!(seen, 2 * 2 * 6);
}
