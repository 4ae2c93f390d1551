//! Batch mode on the MMTests and lkp test data, as directories and as every kind of
//! archive: the archive readers give the directory's results (MMTests and lkp goldens
//! included), the grouping rules, hand-computed rows, and map/reduce = run.

use schedlab::archive::{self, Limits};
use schedlab::batch::{self, reduce::is_baseline, FailOn, Options, Outcome, Scan};
use schedlab::lkp::matrix::ResultRoot;
use schedlab::lkp::ncompare::{compare_roots, Options as LkpOptions};
use schedlab::lkp::render_text::render;
use schedlab::mmtests::{compare_at, CompareOptions, Era};
use schedlab::table::Verdict;
use schedlab::Error;
use std::io::Write;
use std::path::{Path, PathBuf};

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

const A: &str =
    "lkp/golden/scenario_a_raw/unixbench/performance-30s-1-execl/lkp-ivb-d04/debian-x86_64.cgz/x86_64-rhel/gcc-7";
const BASE_A: &str = "a07630b8b2c16f82a2d7b5ecfa4a1c0a8e0c5a01";
const HEAD_A: &str = "d519329f72a6f36bc4f2b85452aa7c3b0d1e2f3a";

fn tar_of(dir: &Path, prefix: &str) -> Vec<u8> {
    let mut b = tar::Builder::new(Vec::new());
    b.follow_symlinks(false);
    b.append_dir_all(prefix, dir).unwrap();
    b.into_inner().unwrap()
}

fn gz(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn xz(bytes: &[u8]) -> Vec<u8> {
    let mut e = xz2::write::XzEncoder::new(Vec::new(), 1);
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn zip_of(dir: &Path, prefix: &str) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let mut stack = vec![(dir.to_path_buf(), prefix.to_string())];
    while let Some((d, rel)) = stack.pop() {
        let mut entries: Vec<_> = std::fs::read_dir(&d).unwrap().map(|e| e.unwrap()).collect();
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let name = format!("{rel}/{}", e.file_name().to_string_lossy());
            if e.path().is_dir() {
                stack.push((e.path(), name));
            } else {
                w.start_file(name, zip::write::SimpleFileOptions::default()).unwrap();
                w.write_all(&std::fs::read(e.path()).unwrap()).unwrap();
            }
        }
    }
    w.finish().unwrap().into_inner()
}

/// The five archive kinds of `dir` (entries under `prefix/`), written into `out`.
fn archives(dir: &Path, prefix: &str, out: &Path, stem: &str) -> Vec<PathBuf> {
    let tar = tar_of(dir, prefix);
    let files = [
        (format!("{stem}.tar"), tar.clone()),
        (format!("{stem}.tar.gz"), gz(&tar)),
        (format!("{stem}.tgz"), gz(&tar)),
        (format!("{stem}.tar.xz"), xz(&tar)),
        (format!("{stem}.zip"), zip_of(dir, prefix)),
    ];
    files
        .into_iter()
        .map(|(name, bytes)| {
            let p = out.join(name);
            std::fs::write(&p, bytes).unwrap();
            p
        })
        .collect()
}

/// Rows without the fields that name the input.
fn rows_sans_input(r: &batch::BatchResult) -> Vec<batch::Row> {
    r.rows
        .iter()
        .map(|row| {
            let mut x = row.clone();
            x.input.clear();
            x.base_input.clear();
            x
        })
        .collect()
}

#[test]
fn every_archive_kind_gives_the_directory_result() {
    let tmp = tempfile::tempdir().unwrap();
    for (dir, base, stem) in [
        ("mmtests/logs-legacy", "6.8-vanilla", "legacy"),
        ("mmtests/logs-2018", "4.18.0-vanilla", "e2018"),
        (A, BASE_A, "lkp"),
    ] {
        // the directory is read with the same setup path as inside the archives
        let holder = tmp.path().join(format!("{stem}-dir"));
        std::fs::create_dir_all(&holder).unwrap();
        std::fs::write(holder.join("x.tar"), tar_of(&data().join(dir), "results")).unwrap();
        let unpacked = tmp.path().join(format!("{stem}-unpacked"));
        tar::Archive::new(std::fs::File::open(holder.join("x.tar")).unwrap()).unpack(&unpacked).unwrap();
        let want = batch::run(&[unpacked], &Options::new(base)).unwrap();
        assert!(want.summary.rows > 0 && want.summary.worse > 0, "{stem}: {:?}", want.summary);
        for a in archives(&data().join(dir), "results", tmp.path(), stem) {
            let got = batch::run(std::slice::from_ref(&a), &Options::new(base)).unwrap();
            assert_eq!(rows_sans_input(&got), rows_sans_input(&want), "{}", a.display());
            assert_eq!(got.summary, want.summary);
            assert!(got.rows.iter().all(|r| r.input == a.display().to_string()));
        }
    }
}

#[test]
fn mmtests_compare_reads_an_archive_as_the_golden_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let opts = |era| CompareOptions { compat: Some(era), ..Default::default() };
    for (dir, era, bench, names, stem) in [
        ("logs-legacy", Era::E2025, "netperf-udp", ["6.8-vanilla", "6.9-patched"].as_slice(), "2025-netperf-udp"),
        (
            "logs-legacy",
            Era::E2024,
            "hackbench-process-pipes",
            &["6.8-vanilla", "6.9-patched"],
            "2024-hackbench-process-pipes",
        ),
        ("logs-head", Era::Head, "schbench", &["6.8-vanilla", "6.9-patched"], "head-schbench"),
        (
            "logs-2018",
            Era::E2018,
            "netperf-tcp",
            &["4.18.0-vanilla", "4.18.0-teo", "4.18.0-teo-v6+backport"],
            "2018-netperf-tcp",
        ),
    ] {
        let names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        let want = std::fs::read_to_string(data().join("mmtests/out").join(format!("{stem}.oracle"))).unwrap();
        let direct = compare_at(&data().join("mmtests").join(dir), bench, &names, &opts(era)).unwrap();
        assert_eq!(direct.text, want, "{stem} from the directory");
        for a in archives(&data().join("mmtests").join(dir), &format!("work/log/{dir}"), tmp.path(), dir) {
            let r = compare_at(&a, bench, &names, &opts(era)).unwrap_or_else(|e| panic!("{}: {e}", a.display()));
            assert_eq!(r.text, want, "{stem} from {}", a.display());
        }
    }
}

#[test]
fn lkp_compare_reads_archives_as_the_golden_directories() {
    let tmp = tempfile::tempdir().unwrap();
    let want = std::fs::read_to_string(data().join("lkp/golden/out_A_default.txt")).unwrap();
    let base = archives(&data().join(A).join(BASE_A), BASE_A, tmp.path(), "base");
    let head = archives(&data().join(A).join(HEAD_A), HEAD_A, tmp.path(), "head");
    for (b, h) in base.iter().zip(&head) {
        let roots = [ResultRoot::open(b).unwrap(), ResultRoot::open(h).unwrap()];
        assert_eq!(render(&compare_roots(&roots, LkpOptions::default()).unwrap()).unwrap(), want, "{}", b.display());
    }
    // a root at the archive's top is named after the archive
    let top = tmp.path().join("top");
    std::fs::create_dir_all(&top).unwrap();
    std::fs::write(top.join("matrix.json"), r#"{"unixbench.score": [1, 2]}"#).unwrap();
    let bare = tmp.path().join("deadbeef.tar.gz");
    std::fs::write(&bare, gz(&tar_of(&top, "."))).unwrap();
    let r = ResultRoot::open(&bare).unwrap();
    assert_eq!(r.commit(), "deadbeef");
    assert_eq!(r.path, PathBuf::from(bare.display().to_string()));
    // two roots in one archive: which one?
    let e = ResultRoot::open(&base[0].with_file_name("none.tar")).unwrap_err().to_string();
    assert!(e.contains("none.tar") && e.contains("no such"), "{e}");
    let both = tmp.path().join("both.tar");
    std::fs::write(&both, tar_of(&data().join(A), "gcc-7")).unwrap();
    let e = ResultRoot::open(&both).unwrap_err().to_string();
    assert!(e.contains("2 result roots") && e.contains(BASE_A) && e.contains(HEAD_A), "{e}");
}

/// A work/log tree of hackbench runs: kernel → group → seconds per iteration file.
fn hackbench(root: &Path, kernel: &str, group: &str, secs: &[f64]) {
    let d = root.join(kernel).join("iter-0/hackbench-process-pipes/logs");
    std::fs::create_dir_all(&d).unwrap();
    for (i, s) in secs.iter().enumerate() {
        std::fs::write(d.join(format!("hackbench-{group}-{}", i + 1)), format!("Total time: {s} [sec]\n")).unwrap();
    }
}

#[test]
fn rows_by_hand() {
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("work/log");
    hackbench(&log, "base", "1", &[1.0, 2.0, 3.0]);
    hackbench(&log, "new", "1", &[2.0, 4.0, 6.0]);
    hackbench(&log, "base", "4", &[5.0, 5.0, 5.0]);
    hackbench(&log, "new", "4", &[5.0, 5.0, 5.0]);
    hackbench(&log, "base", "8", &[7.0]);
    hackbench(&log, "new", "8", &[7.5]);
    let r = batch::run(&[tmp.path().to_path_buf()], &Options::new("base")).unwrap();
    assert_eq!(r.rows.len(), 3);
    let g1 = &r.rows[0];
    assert_eq!((g1.metric.as_str(), g1.statistic.as_str(), g1.setup.as_str()), ("1", "amean", "work/log"));
    assert_eq!((g1.mean_base, g1.mean_new), (Some(2.0), Some(4.0)));
    // lower is better: 100 - 4·100/2 = -100 %
    assert_eq!(g1.change_pct, Some(-100.0));
    // Welch by hand: t = -2/sqrt(5/3), df = 50/17 (the p-value is the core's, checked against scipy)
    let w = schedlab::stats::welch_ttest(&[1.0, 2.0, 3.0], &[2.0, 4.0, 6.0]).unwrap();
    assert_eq!(g1.p, Some(w.p));
    // two constant, equal samples: no difference at all
    assert_eq!((r.rows[1].p, r.rows[1].change_pct), (Some(1.0), Some(0.0)));
    // one sample a side: no p, not enough data
    assert_eq!((r.rows[2].p, r.rows[2].verdict), (None, Verdict::NotEnoughData));
    // BH over the two p-values {p, 1}: q(p) = min(2p, 1), q(1) = 1
    assert_eq!(g1.q, Some((2.0 * w.p).min(1.0)));
    assert_eq!(r.rows[1].q, Some(1.0));
    // not significant, and nowhere near equivalent within ±2% (TOST): inconclusive
    // (before the equivalence test this was "noise")
    let expect = if 2.0 * w.p < 0.05 { Verdict::Worse } else { Verdict::Inconclusive };
    assert_eq!(g1.verdict, expect);
    assert_eq!(r.exit_code, i32::from(expect == Verdict::Worse));
    // a threshold above the change: not called, and not equivalent either: inconclusive, exit 0
    let o = Options { alpha: 0.5, min_change: 150.0, ..Options::new("base") };
    let r2 = batch::run(&[tmp.path().to_path_buf()], &o).unwrap();
    assert_eq!((r2.rows[0].verdict, r2.exit_code), (Verdict::Inconclusive, 0));
    // ... which --fail-on inconclusive tells apart from a regression (1) and a pass (0)
    assert_eq!(r2.exit_code_for(FailOn::Inconclusive), 3);
    // two constant, equal samples are equivalent (TOST p = 0: a zero difference inside ±2%)
    assert_eq!((r2.rows[1].p_equivalent, r2.rows[1].verdict), (Some(0.0), Verdict::Equivalent));
    let o = Options { alpha: 0.5, ..Options::new("base") };
    let r3 = batch::run(&[tmp.path().to_path_buf()], &o).unwrap();
    assert_eq!((r3.rows[0].verdict, r3.exit_code), (Verdict::Worse, 1));
    assert_eq!(r3.exit_code_for(FailOn::Never), 0);
    assert_eq!(r3.exit_code_for(FailOn::AnyChange), 1);
    assert_eq!(r3.exit_code_for(FailOn::Inconclusive), 1);
}

#[test]
fn grouping_across_inputs() {
    let tmp = tempfile::tempdir().unwrap();
    let mk = |name: &str, kernels: &[(&str, [f64; 3])]| {
        let root = tmp.path().join(name);
        for (k, v) in kernels {
            hackbench(&root.join("work/log"), k, "1", v);
        }
        root
    };
    let base = mk("base", &[("v1", [1.0, 1.1, 1.2])]);
    let p1 = mk("p1", &[("v2", [1.0, 1.1, 1.2])]);
    let p2 = mk("p2", &[("v3", [2.0, 2.1, 2.2])]);
    // per-kernel inputs meet the one baseline input (same setup work/log)
    let r = batch::run(&[base.clone(), p1.clone(), p2.clone()], &Options::new("v1")).unwrap();
    let pairs: Vec<(&str, &str)> = r.rows.iter().map(|x| (x.kernel.as_str(), x.base_input.as_str())).collect();
    let b = base.display().to_string();
    assert_eq!(pairs, vec![("v2", b.as_str()), ("v3", b.as_str())]);
    assert_eq!(r.summary.comparisons, 2);
    // two inputs hold the baseline and neither is the kernel's own: an error naming both
    let other = mk("other", &[("v1", [1.0, 1.0, 1.0])]);
    let e = batch::run(&[base.clone(), other.clone(), p1.clone()], &Options::new("v1")).unwrap_err().to_string();
    assert!(e.contains("which baseline") && e.contains("base/work/log/v1") && e.contains("other/work/log/v1"), "{e}");
    // but a baseline in the kernel's own input wins
    let m = mk("machine", &[("v1", [3.0, 3.0, 3.1]), ("v2", [3.0, 3.1, 3.0])]);
    let r = batch::run(&[base.clone(), m.clone()], &Options::new("v1")).unwrap();
    assert_eq!(r.rows.len(), 1);
    assert_eq!(r.rows[0].base_input, m.display().to_string());
    // a group without a baseline anywhere is reported, not compared
    let elsewhere = tmp.path().join("elsewhere");
    hackbench(&elsewhere.join("results"), "v9", "1", &[1.0, 2.0, 3.0]);
    let r = batch::run(&[base.clone(), p1.clone(), elsewhere.clone()], &Options::new("v1")).unwrap();
    assert_eq!(r.unmatched.len(), 1);
    assert_eq!((r.unmatched[0].kernel.as_str(), r.unmatched[0].setup.as_str()), ("v9", "results"));
    // the baseline nowhere: an error listing what is there
    let e = batch::run(std::slice::from_ref(&p1), &Options::new("v1")).unwrap_err();
    assert!(matches!(e, Error::Domain(_)) && e.to_string().contains("found: v2"), "{e}");
}

#[test]
fn lkp_baseline_by_commit_prefix_and_aggregates_are_searched() {
    let r = batch::run(&[data().join("lkp/golden/scenario_a_raw")], &Options::new(&BASE_A[..12])).unwrap();
    // the compiler-level matrix (both commits united) is not a commit of its own
    assert_eq!(r.inputs[0].lkp_roots, 2);
    assert!(r.rows.iter().all(|x| x.kernel == HEAD_A && x.baseline == BASE_A && x.tool == "lkp"));
    let score = r.rows.iter().find(|x| x.metric == "unixbench.score").unwrap();
    assert_eq!((score.benchmark.as_str(), score.verdict, score.n_base), ("unixbench", Verdict::Worse, 4));
    assert!(score.setup.contains("tbox_group=lkp-ivb-d04") && !score.setup.contains("commit="), "{}", score.setup);
    let mut run = batch::scan(&data().join(A), &Limits::default()).unwrap().runs.remove(0);
    run.kernel = BASE_A.into();
    assert!(is_baseline(&run, "a07630b") && !is_baseline(&run, "a07630") && !is_baseline(&run, "a0763x0"));
}

#[test]
fn scans_reduce_to_the_run() {
    let inputs = [
        data().join("mmtests/logs-legacy"),
        data().join("mmtests/logs-head"),
        data().join("lkp/golden/scenario_a_raw"),
    ];
    let opts = Options { jobs: Some(2), ..Options::new("6.8-vanilla") };
    let mut want = batch::run(&inputs, &opts).unwrap();
    let outcomes: Vec<Outcome> = inputs
        .iter()
        .map(|p| {
            let s = batch::scan(p, &batch::batch_limits()).unwrap();
            Outcome::Scanned(Scan::from_json(&s.to_json().unwrap()).unwrap())
        })
        .collect();
    let mut got = batch::reduce(&outcomes, &Options { jobs: Some(1), ..opts.clone() }).unwrap();
    // measured per scan and per row, and so equal in shape only
    assert_eq!((got.timings.inputs.len(), got.timings.rows.len()), (inputs.len(), want.rows.len()));
    assert!(want.timings.inputs.iter().all(|&t| t > 0.0) && want.timings.total > 0.0);
    (got.timings, want.timings) = (Default::default(), Default::default());
    assert_eq!(got, want);
    assert_eq!(batch::BatchResult::from_json(&want.to_json().unwrap()).unwrap(), want);
    // one FDR over every row of both MMTests layouts (the lkp commits have no 6.8-vanilla: unmatched)
    assert!(want.rows.iter().any(|r| r.era.as_deref() == Some("head")));
    assert!(want.rows.iter().any(|r| r.era.as_deref() == Some("2025")));
    assert_eq!(want.unmatched.len(), 2);
}

#[test]
fn bad_inputs_name_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let empty = tmp.path().join("empty");
    std::fs::create_dir_all(empty.join("nothing/here")).unwrap();
    let e = batch::run(std::slice::from_ref(&empty), &Options::new("x")).unwrap_err().to_string();
    assert!(e.starts_with(&empty.display().to_string()) && e.contains("no MMTests results"), "{e}");
    // a corrupt log inside an archive: archive/path/in/archive
    let log = tmp.path().join("t/work/log");
    hackbench(&log, "a", "1", &[1.0, 2.0]);
    let d = log.join("b/iter-0/dbench4/logs");
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join("dbench-loadfile-1.log.xz"), b"not xz").unwrap();
    let a = tmp.path().join("bad.tar.gz");
    std::fs::write(&a, gz(&tar_of(&tmp.path().join("t"), "r"))).unwrap();
    // is missing data naming it (exit code 2); the input's other runs are still read
    let r = batch::run(std::slice::from_ref(&a), &Options::new("a")).unwrap();
    assert_eq!((r.exit_code, r.missing.len()), (2, 1), "{:?}", r.missing);
    let m = &r.missing[0].message;
    assert!(m.contains("bad.tar.gz/r/work/log/b/iter-0/dbench4/logs/dbench-loadfile-1.log.xz"), "{m}");
    assert!(m.contains("skipped: benchmark 'dbench4' cannot be read for 'b'"), "{m}");
    // a's hackbench: the baseline alone ran it
    assert_eq!(r.unmatched.len(), 1, "{:?}", r.unmatched);
    // keep going: an archive that cannot be read at all is recorded, exit code 2
    let a = tmp.path().join("truncated.tar.gz");
    let whole = gz(&tar_of(&tmp.path().join("t"), "r"));
    std::fs::write(&a, &whole[..whole.len() / 2]).unwrap();
    assert!(batch::run(std::slice::from_ref(&a), &Options::new("a")).is_err());
    let ok = tmp.path().join("good");
    hackbench(&ok.join("work/log"), "a", "1", &[1.0, 2.0]);
    hackbench(&ok.join("work/log"), "b", "1", &[1.5, 2.5]);
    let o = Options { keep_going: true, ..Options::new("a") };
    let r = batch::run(&[ok, a.clone()], &o).unwrap();
    assert_eq!((r.exit_code, r.errors.len()), (2, 1));
    assert_eq!(r.errors[0].input, a.display().to_string());
    assert!(r.inputs[1].kind.is_none());
    let _ = archive::detect(&a).unwrap();
}
