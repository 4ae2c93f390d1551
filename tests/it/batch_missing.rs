//! Batch mode fails closed (docs/batch.md): data that should be there and is not (an
//! unreadable kernel directory, a log without a result line, samples that are not
//! numbers, an operation of the baseline absent on a side, a netperf log MMTests counts
//! as 0) is listed in `missing` and makes the exit code 2 unless `allow_missing`; a
//! baseline prefix of several commits is an error listing them.

use schedlab::archive::{DirTree, Tree};
use schedlab::batch::{self, scan::scan_tree, Options, Outcome, Scan};
use schedlab::{Error, Result};
use std::borrow::Cow;
use std::path::Path;

fn hackbench(root: &Path, kernel: &str, lines: &[&str]) {
    let d = root.join(kernel).join("iter-0/hackbench-process-pipes/logs");
    std::fs::create_dir_all(&d).unwrap();
    for (i, l) in lines.iter().enumerate() {
        std::fs::write(d.join(format!("hackbench-4-{}", i + 1)), format!("{l}\n")).unwrap();
    }
}

const GOOD: [&str; 3] = ["Total time: 0.080 [sec]", "Total time: 0.081 [sec]", "Total time: 0.082 [sec]"];

fn run(dir: &Path, allow_missing: bool) -> batch::BatchResult {
    batch::run(&[dir.to_path_buf()], &Options { allow_missing, ..Options::new("base") }).unwrap()
}

#[test]
fn a_log_without_a_result_line_is_missing_data() {
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("work/log");
    for k in ["base", "new"] {
        hackbench(&log, k, &GOOD);
        let d = log.join(k).join("iter-0/hackbench-process-pipes/logs");
        for i in 1..=3 {
            let text = if k == "new" { "Segmentation fault\n" } else { "Total time: 0.160 [sec]\n" };
            std::fs::write(d.join(format!("hackbench-8-{i}")), text).unwrap();
        }
    }
    let r = run(tmp.path(), false);
    assert_eq!(r.exit_code, 2);
    assert_eq!(r.missing.len(), 1, "{:?}", r.missing);
    let m = &r.missing[0].message;
    assert!(m.contains("work/log/new") && m.contains("no samples of hackbench-process-pipes '8'"), "{m}");
    // with allow_missing: still listed, the exit code is the rows' (4: the same times, noise)
    let r = run(tmp.path(), true);
    assert_eq!((r.exit_code, r.missing.len(), r.options.allow_missing), (0, 1, true));
    let back = batch::BatchResult::from_json(&r.to_json().unwrap()).unwrap();
    assert_eq!(back, r);
    // a kernel without any result is missing data naming it (the rest still compared):
    // exit code 2, or the rows' with allow_missing
    hackbench(&log, "crashed", &["Segmentation fault", "", "garbage"]);
    for allow in [false, true] {
        let r = run(tmp.path(), allow);
        assert_eq!((r.exit_code, r.missing.len(), r.rows.len()), (if allow { 0 } else { 2 }, 2, 2), "{r:?}");
        let m = &r.missing[0].message;
        assert!(m.contains("work/log/crashed: skipped: ") && m.contains("no hackbench results"), "{m}");
    }
}

#[test]
fn an_operation_of_the_baseline_absent_on_a_side_is_missing_data() {
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("work/log");
    hackbench(&log, "base", &GOOD);
    let d = log.join("base/iter-0/hackbench-process-pipes/logs");
    for i in 1..=3 {
        std::fs::write(d.join(format!("hackbench-8-{i}")), "Total time: 0.160 [sec]\n").unwrap();
    }
    hackbench(&log, "new", &GOOD);
    let r = run(tmp.path(), false);
    assert_eq!(r.exit_code, 2);
    assert!(r.missing.iter().any(|e| e.message.contains("no results for 1 of the baseline's operations (8)")));
}

/// The legacy netperf-udp-rr logs of both kernels, with 6.9-patched's third log
/// rewritten by `edit`: the batch result against 6.8-vanilla.
fn netperf_with(edit: impl Fn(&str) -> String) -> batch::BatchResult {
    let tmp = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/mmtests/logs-legacy");
    for k in ["6.8-vanilla", "6.9-patched"] {
        let from = src.join(k).join("iter-0/netperf-udp-rr/logs");
        let to = tmp.path().join("work/log").join(k).join("iter-0/netperf-udp-rr/logs");
        std::fs::create_dir_all(&to).unwrap();
        for e in std::fs::read_dir(&from).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
    let log = tmp.path().join("work/log/6.9-patched/iter-0/netperf-udp-rr/logs/UDP_RR-1.3");
    let text = std::fs::read_to_string(&log).unwrap();
    std::fs::write(&log, edit(&text)).unwrap();
    batch::run(&[tmp.path().to_path_buf()], &Options::new("6.8-vanilla")).unwrap()
}

#[test]
fn a_netperf_log_mmtests_counts_as_0_is_missing_data() {
    let r = netperf_with(|_| "netperf: send_data: data send error: Connection refused\n".into());
    assert_eq!(r.exit_code, 2);
    assert!(
        r.missing.iter().any(|e| e.message.contains("UDP_RR-1.3") && e.message.contains("no netperf result line")),
        "{:?}",
        r.missing
    );
}

#[test]
fn a_rate_that_is_not_a_number_is_missing_data() {
    // the log's own result line (Trans. Rate 50906.59 per sec) with the rate as nan
    let r = netperf_with(|t| t.replace("50906.59", "nan"));
    assert_eq!(r.exit_code, 2);
    assert!(
        r.missing.iter().any(|e| e.message.contains("6.9-patched/iter-0/netperf-udp-rr/logs/UDP_RR-1.3")),
        "{:?}",
        r.missing
    );
}

#[test]
fn a_rate_in_scientific_notation_is_not_counted_as_0_silently() {
    // 50906.59 written as 5.090659e+04: MMTests' result-line pattern does not match it
    // and counts the run as 0 (what compare reproduces); batch lists it as missing
    let r = netperf_with(|t| t.replace("50906.59", "5.090659e+04"));
    assert_eq!(r.exit_code, 2);
    assert!(r.missing.iter().any(|e| e.message.contains("UDP_RR-1.3: no netperf result line")), "{:?}", r.missing);
}

/// A directory tree whose one directory cannot be listed (what an unreadable
/// directory is to a reader that is not root).
struct Unreadable {
    inner: DirTree,
    dir: String,
}

impl Tree for Unreadable {
    fn origin(&self) -> &str {
        self.inner.origin()
    }
    fn read(&self, rel: &str) -> Result<Cow<'_, [u8]>> {
        self.inner.read(rel)
    }
    fn list(&self, rel: &str) -> Result<Vec<String>> {
        if rel == self.dir {
            return Err(Error::Io {
                path: rel.to_string(),
                msg: "Permission denied (os error 13)".into(),
                not_found: false,
            });
        }
        self.inner.list(rel)
    }
    fn is_dir(&self, rel: &str) -> bool {
        self.inner.is_dir(rel)
    }
    fn is_file(&self, rel: &str) -> bool {
        self.inner.is_file(rel)
    }
}

#[test]
fn an_unreadable_kernel_directory_is_missing_data() {
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("work/log");
    hackbench(&log, "base", &GOOD);
    hackbench(&log, "new", &GOOD);
    hackbench(&log, "other", &GOOD);
    let tree = Unreadable { inner: DirTree::at(tmp.path()), dir: "work/log/other".into() };
    let scan: Scan = scan_tree(&tree, "results", "dir").unwrap();
    assert_eq!(scan.missing.len(), 1, "{:?}", scan.missing);
    assert!(scan.missing[0].contains("work/log/other") && scan.missing[0].contains("Permission denied"));
    let r = batch::reduce(&[Outcome::Scanned(scan)], &Options::new("base")).unwrap();
    assert_eq!((r.exit_code, r.rows.len(), r.missing.len()), (2, 1, 1));
    // an unreadable directory above any run
    let tree = Unreadable { inner: DirTree::at(tmp.path()), dir: "work".into() };
    let e = scan_tree(&tree, "results", "dir").unwrap_err().to_string();
    assert!(e.contains("no MMTests results"), "{e}");
}

#[test]
fn a_baseline_prefix_of_several_commits_lists_them() {
    let run = |commit: &str| batch::scan::RunData {
        tool: "lkp".into(),
        input: "in".into(),
        location: format!("in/{commit}"),
        setup: "testcase=x".into(),
        benchmark: "x".into(),
        kernel: commit.into(),
        era: None,
        metrics: Vec::new(),
        started: None,
    };
    let scan = Scan {
        version: batch::scan::SCAN_VERSION,
        input: "in".into(),
        kind: "dir".into(),
        mmtests_runs: 0,
        lkp_roots: 3,
        result_files: 0,
        runs: vec![run("a07630b8aaaa"), run("a07630b8bbbb"), run("ffff000011")],
        warnings: Vec::new(),
        missing: Vec::new(),
        seconds: 0.0,
        notes: Vec::new(),
        failed: Vec::new(),
        skipped: Vec::new(),
    };
    let e = batch::reduce(&[Outcome::Scanned(scan)], &Options::new("a07630b")).unwrap_err().to_string();
    assert!(e.contains("prefix of 2 commits: a07630b8aaaa, a07630b8bbbb"), "{e}");
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dst = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &dst);
        } else {
            std::fs::copy(e.path(), dst).unwrap();
        }
    }
}

#[test]
fn a_failed_or_aborted_benchmark_is_listed_and_the_rest_compared() {
    // tests/data/mmtests/failed (tools/oracles/mmtests/failed.sh): a good run, a run whose
    // benchmarks failed (logs/ holds only mmtests.log, exit code 1) and one whose logs are empty
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/mmtests/failed/head");
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("work/log");
    copy_tree(&data.join("6.8-vanilla"), &log.join("base"));
    copy_tree(&data.join("6.8-vanilla"), &log.join("new"));
    let hb = "iter-0/hackbench-process-pipes";
    std::fs::remove_dir_all(log.join("new").join(hb)).unwrap();
    copy_tree(&data.join("failed").join(hb), &log.join("new").join(hb));
    std::fs::copy(data.join("failed/iter-0/tests-timestamp"), log.join("new/iter-0/tests-timestamp")).unwrap();
    let np = "iter-0/netperf-ipv4-udp";
    copy_tree(&log.join("base"), &log.join("third"));
    std::fs::remove_dir_all(log.join("third").join(np)).unwrap();
    copy_tree(&data.join("aborted").join(np), &log.join("third").join(np));
    let r = run(tmp.path(), false);
    assert_eq!(r.exit_code, 2);
    let msgs: Vec<&str> = r.missing.iter().map(|m| m.message.as_str()).collect();
    assert_eq!(msgs.len(), 2, "{msgs:?}");
    assert!(
        msgs.iter().any(|m| m.contains("work/log/new")
            && m.contains("skipped: benchmark 'hackbench-process-pipes' failed")
            && m.contains("exit code 1")),
        "{msgs:?}"
    );
    assert!(
        msgs.iter()
            .any(|m| m.contains("work/log/third") && m.contains("skipped: benchmark 'netperf-ipv4-udp' aborted")),
        "{msgs:?}"
    );
    // every other benchmark is compared: new's netperf and third's hackbench against base
    let compared: std::collections::BTreeSet<(&str, &str)> =
        r.rows.iter().map(|row| (row.kernel.as_str(), row.benchmark.as_str())).collect();
    assert!(
        compared.contains(&("new", "netperf-ipv4-udp")) && compared.contains(&("third", "hackbench-process-pipes"))
    );
    assert!(
        !compared.contains(&("new", "hackbench-process-pipes")) && !compared.contains(&("third", "netperf-ipv4-udp"))
    );
    // allowed: still listed, the exit code is the rows' (the same data: no regression)
    let r = run(tmp.path(), true);
    assert_eq!((r.exit_code, r.missing.len()), (0, 2));
}
