//! `schedlab batch` and `schedlab series` over result files of benchmark tools
//! captured on this machine (tools/oracles/batch/capture_results.sh,
//! tools/oracles/series/capture_results.sh, tools/oracles/series/make_mmtests_starts.sh).
//! The expected samples are the numbers the files print, read here with a split of
//! their lines; the expected orders are the dates the files print (written out below).

use schedlab::archive::Limits;
use schedlab::batch::{self, BatchResult, Options};
use schedlab::readers::Format;
use schedlab::series::read_trees;
use std::path::{Path, PathBuf};

fn data(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(rel)
}

fn run(paths: &[PathBuf]) -> BatchResult {
    batch::run(paths, &Options::new("base")).unwrap()
}

/// The first field of every line of a perf stat -x, file whose third field is `event`.
fn perf_values(path: &Path, event: &str) -> Vec<f64> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter(|l| l.split(',').nth(2) == Some(event))
        .map(|l| l.split(',').next().unwrap().parse().unwrap())
        .collect()
}

fn amean(x: &[f64]) -> f64 {
    x.iter().sum::<f64>() / x.len() as f64
}

#[test]
fn two_directories_of_runs_are_two_sides() {
    let dirs = data("batch/results/dirs");
    let r = run(&[dirs.join("base"), dirs.join("head")]);
    assert_eq!(r.errors.len(), 0);
    assert!(r.missing.is_empty(), "{:?}", r.missing);
    assert_eq!(r.inputs[0].result_files, 8); // five perf stat files and three fio files
    assert!(r.warnings.iter().any(|w| w.contains("base/README: not a result file")), "{:?}", r.warnings);
    // one comparison per format: perf-stat-csv and fio, head against base
    assert_eq!(r.summary.comparisons, 2);
    let tc = r.rows.iter().find(|x| x.benchmark == "perf-stat-csv" && x.metric == "task-clock").unwrap();
    assert_eq!((tc.tool.as_str(), tc.kernel.as_str(), tc.baseline.as_str()), ("results", "head", "base"));
    assert_eq!((tc.n_base, tc.n_new), (5, 5));
    let base: Vec<f64> =
        (1..=5).flat_map(|i| perf_values(&dirs.join(format!("base/perf-{i}.csv")), "task-clock")).collect();
    let head: Vec<f64> =
        (1..=5).flat_map(|i| perf_values(&dirs.join(format!("head/perf-{i}.csv")), "task-clock")).collect();
    assert!((tc.mean_base.unwrap() - amean(&base)).abs() < 1e-12);
    assert!((tc.mean_new.unwrap() - amean(&head)).abs() < 1e-12);
    // head lists /usr/bin long, base lists /: a CPU time more than twice as long,
    // "changed" as perf stat names no direction for task-clock
    assert!(amean(&head) > 2.0 * amean(&base));
    assert_eq!(tc.verdict.name(), "changed");
    let v: Vec<(&str, &str)> = r.rows.iter().map(|x| (x.metric.as_str(), x.verdict.name())).collect();
    // fio reads 16 KiB blocks in head, 4 KiB in base: more bytes a second, each
    // read taking longer (the verdicts of these captured runs)
    let verdict = |m: &str| v.iter().find(|x| x.0 == m).map(|x| x.1);
    let bw = r.rows.iter().find(|x| x.metric == "randread.read.bw").unwrap();
    assert_eq!((bw.n_base, bw.n_new, bw.benchmark.as_str()), (3, 3, "fio"));
    assert_eq!(verdict("randread.read.bw"), Some("better"), "{v:?}");
    assert_eq!(verdict("randread.read.clat_p50"), Some("worse"), "{v:?}");
    assert_eq!(r.exit_code, 1);
}

#[test]
fn a_pair_of_files_of_repeated_runs() {
    let perf = data("batch/results/files/perf");
    let r = run(&[perf.join("base.csv"), perf.join("head.csv")]);
    assert_eq!(r.inputs[0].kind.as_deref(), Some("file"));
    let tc = r.rows.iter().find(|x| x.metric == "task-clock").unwrap();
    // perf stat --append: five runs, each after its own "# started on" header
    assert_eq!((tc.n_base, tc.n_new), (5, 5));
    assert!((tc.mean_base.unwrap() - amean(&perf_values(&perf.join("base.csv"), "task-clock"))).abs() < 1e-12);
    let hf = data("batch/results/files/hyperfine");
    let r = run(&[hf.join("base.json"), hf.join("head.json")]);
    let row = &r.rows[0];
    assert_eq!((row.metric.as_str(), row.n_base, row.n_new), ("sh -c \"ls $D >/dev/null\"", 10, 10));
    let text = std::fs::read_to_string(hf.join("base.json")).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    // hyperfine's own mean of its times
    assert!((row.mean_base.unwrap() - doc["results"][0]["mean"].as_f64().unwrap()).abs() < 1e-12);
}

#[test]
fn one_archive_holding_both_sides() {
    let tmp = tempfile::tempdir().unwrap();
    let tgz = tmp.path().join("runs.tar.gz");
    let f = std::fs::File::create(&tgz).unwrap();
    let mut b = tar::Builder::new(flate2::write::GzEncoder::new(f, flate2::Compression::fast()));
    b.append_dir_all("ci/base", data("batch/results/dirs/base")).unwrap();
    b.append_dir_all("ci/head", data("batch/results/dirs/head")).unwrap();
    b.into_inner().unwrap().finish().unwrap();
    let r = run(&[tgz]);
    let tc = r.rows.iter().find(|x| x.metric == "task-clock").unwrap();
    assert_eq!((tc.setup.as_str(), tc.kernel.as_str(), tc.n_base), ("ci", "head", 5));
    assert_eq!(r.summary.comparisons, 2);
}

#[test]
fn a_file_without_values_is_missing_and_garbage_is_an_error() {
    let tmp = tempfile::tempdir().unwrap();
    for side in ["base", "head"] {
        std::fs::create_dir(tmp.path().join(side)).unwrap();
        std::fs::copy(data("batch/results/dirs/base/perf-1.csv"), tmp.path().join(side).join("1.csv")).unwrap();
        std::fs::copy(data("batch/results/dirs/base/perf-2.csv"), tmp.path().join(side).join("2.csv")).unwrap();
    }
    // a run that counted nothing (perf: every event <not counted>)
    std::fs::write(tmp.path().join("head/3.csv"), "<not counted>,,task-clock,0,0.00,,\n").unwrap();
    let r = run(&[tmp.path().join("base"), tmp.path().join("head")]);
    assert!(r.missing.iter().any(|m| m.message.contains("head/3.csv: no measured value")), "{:?}", r.missing);
    assert_eq!(r.exit_code, 2);
    std::fs::write(tmp.path().join("head/3.csv"), "1.5,msec,task-clock,1,100.00,,\n2.5\n").unwrap();
    let e = batch::run(&[tmp.path().join("base"), tmp.path().join("head")], &Options::new("base")).unwrap_err();
    assert!(e.to_string().contains("head/3.csv:2: expected VALUE,UNIT,EVENT"), "{e}");
}

fn order_of(paths: &[PathBuf], order: Option<&[String]>) -> (Vec<String>, String) {
    let p: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
    let h = read_trees(&p, order, &Limits::default()).unwrap();
    (h.runs, h.order)
}

#[test]
fn series_of_result_files_by_their_dates() {
    let res = data("series/results");
    // fio's "timestamp": c3 1796176715, a1 1796176717, b2 1796176719
    let (runs, how) = order_of(&[res.join("fio")], None);
    assert_eq!(runs, ["c3", "a1", "b2"]);
    assert_eq!(how, "the runs' start dates (fio's 'timestamp')");
    // perf stat's "# started on": c3 01:58:35, a1 01:58:37, b2 01:58:39
    let files: Vec<PathBuf> = ["a1", "b2", "c3"].iter().map(|c| res.join(format!("perf/{c}.csv"))).collect();
    let (runs, how) = order_of(&files, None);
    assert_eq!(runs, ["c3", "a1", "b2"]);
    assert!(how.contains("perf stat's '# started on' date"), "{how}");
    // hyperfine records no date: the names' order, and the message says so
    let files: Vec<PathBuf> = ["c3", "b2", "a1"].iter().map(|c| res.join(format!("hyperfine/{c}.json"))).collect();
    let (runs, how) = order_of(&files, None);
    assert_eq!(runs, ["a1", "b2", "c3"]);
    assert!(how.starts_with("the natural order of the names: 3 of the 3 runs have no start date"), "{how}");
    let given: Vec<String> = ["b2", "c3", "a1"].iter().map(|s| s.to_string()).collect();
    let (runs, how) = order_of(&files, Some(&given));
    assert_eq!((runs, how.as_str()), (given.clone(), "the order given (--order)"));
    let text = std::fs::read_to_string(res.join("fio/a1/run.json")).unwrap();
    assert_eq!(Format::detect(&text), Some(Format::Fio));
}

#[test]
fn mmtests_runs_by_their_tests_timestamp_start() {
    // starts (the copy's edited lines): 6.9-patched 1700000000, 6.8-vanilla 1700003600
    let (runs, how) = order_of(&[data("series/mmtests-starts")], None);
    assert_eq!(runs, ["6.9-patched", "6.8-vanilla"]);
    assert_eq!(how, "the runs' start dates (the 'start' line of tests-timestamp)");
    // the fixture it was copied from, whose lines say 'start T', not 'start :: T':
    // no start date, the names' natural order, and the message says so
    let (runs, how) = order_of(&[data("mmtests/logs-head")], None);
    assert_eq!(runs, ["6.8-vanilla", "6.9-patched"]);
    assert!(how.contains("2 of the 2 runs have no start date"), "{how}");
    let (runs, how) = order_of(&[data("mmtests/logs-legacy")], None);
    assert_eq!(runs, ["6.8-vanilla", "6.9-patched"]);
    assert!(how.contains("2 of the 2 runs have no start date"), "{how}");
}
