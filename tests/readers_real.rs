//! The result file readers on files captured on this machine with the real tools
//! (tools/oracles/readers/capture.sh): the values below are the ones the files
//! print, and the means the tools computed themselves (hyperfine's "mean",
//! pytest-benchmark's stats.mean, google-benchmark's _mean aggregate, `pyperf stats`).

use schedlab::readers::{read, read_file, Format, Sample};
use schedlab::table::Direction;
use std::path::PathBuf;

fn file(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/readers").join(name)
}

fn detected(name: &str, want: Format) -> Vec<Sample> {
    let text = std::fs::read_to_string(file(name)).unwrap();
    assert_eq!(Format::detect(&text), Some(want), "{name}");
    read_file(&file(name), None).unwrap()
}

fn values(s: &[Sample], metric: &str) -> Vec<f64> {
    s.iter().filter(|x| x.metric == metric).map(|x| x.value).collect()
}

fn mean(x: &[f64]) -> f64 {
    x.iter().sum::<f64>() / x.len() as f64
}

fn json(name: &str) -> serde_json::Value {
    let t = std::fs::read_to_string(file(name)).unwrap();
    serde_json::from_str(&t).unwrap()
}

#[test]
fn perf_stat_text() {
    let s = detected("perf-stat-r5.txt", Format::PerfStatText);
    let got: Vec<(&str, f64, &str)> = s.iter().map(|x| (x.metric.as_str(), x.value, x.unit.as_str())).collect();
    assert_eq!(
        got,
        vec![
            ("task-clock", 3.28, "msec"),
            ("context-switches", 1.0, ""),
            ("cpu-migrations", 0.0, ""),
            ("page-faults", 167.0, ""),
            ("time-elapsed", 0.04349, "s"),
        ]
    );
    let s = detected("perf-stat-run1.txt", Format::PerfStatText);
    assert_eq!(values(&s, "task-clock"), vec![3.54]);
    assert_eq!(values(&s, "page-faults"), vec![167.0]);
    assert_eq!(values(&s, "context-switches"), vec![1.0]);
    assert_eq!(values(&s, "time-elapsed"), vec![0.039062661]);
    assert_eq!(values(&s, "user"), vec![0.004626]);
    assert_eq!(values(&s, "sys"), vec![0.0]);
    assert_eq!(s.iter().find(|x| x.metric == "sys").unwrap().direction, Direction::Lower);
}

#[test]
fn perf_stat_csv_and_json() {
    let s = detected("perf-stat-r5.csv", Format::PerfStatCsv);
    let got: Vec<(&str, f64)> = s.iter().map(|x| (x.metric.as_str(), x.value)).collect();
    assert_eq!(
        got,
        vec![("task-clock", 4.16), ("context-switches", 1.0), ("cpu-migrations", 0.0), ("page-faults", 168.0)]
    );
    assert_eq!(s[0].unit, "msec");
    let s = detected("perf-stat-run1.csv", Format::PerfStatCsv);
    assert_eq!(values(&s, "task-clock"), vec![3.84]);
    assert_eq!(values(&s, "page-faults"), vec![164.0]);
    // -I 100 with ';': two intervals counted, two not
    let s = detected("perf-stat-interval.csv", Format::PerfStatCsv);
    assert_eq!(values(&s, "task-clock"), vec![1.74, 0.06]);
    let s = detected("perf-stat-r5.json", Format::PerfStatJson);
    let got: Vec<(&str, f64)> = s.iter().map(|x| (x.metric.as_str(), x.value)).collect();
    assert_eq!(
        got,
        vec![("task-clock", 3.567758), ("context-switches", 1.0), ("cpu-migrations", 0.0), ("page-faults", 164.0)]
    );
}

#[test]
fn fio_json() {
    let s = detected("fio.json", Format::Fio);
    assert_eq!(values(&s, "randread.read.bw"), vec![13861.0]);
    assert_eq!(values(&s, "randread.read.iops"), vec![3465.313029]);
    assert_eq!(values(&s, "randread.read.clat_mean"), vec![287029.46582]);
    assert_eq!(values(&s, "randread.read.lat_mean"), vec![287192.255859]);
    assert_eq!(values(&s, "randread.read.clat_p99"), vec![4177920.0]);
    assert_eq!(values(&s, "seqwrite.write.bw"), vec![512000.0]);
    assert_eq!(values(&s, "seqwrite.write.iops"), vec![8000.0]);
    // the job that only read has no write metrics, nor trim
    assert!(values(&s, "randread.write.bw").is_empty());
    assert_eq!(s.iter().filter(|x| x.metric.starts_with("randread.read.clat_p")).count(), 17);
    let bw = s.iter().find(|x| x.metric == "randread.read.bw").unwrap();
    assert_eq!((bw.unit.as_str(), bw.direction), ("KiB/s", Direction::Higher));
}

#[test]
fn hyperfine_json() {
    let s = detected("hyperfine.json", Format::Hyperfine);
    let doc = json("hyperfine.json");
    for r in doc["results"].as_array().unwrap() {
        let v = values(&s, r["command"].as_str().unwrap());
        assert_eq!(v.len(), 10);
        let want = r["mean"].as_f64().unwrap();
        assert!((mean(&v) - want).abs() <= 1e-12 * want, "{} vs {want}", mean(&v));
    }
    assert_eq!(values(&s, "sh -c \"ls / >/dev/null\"")[0], 0.01195399276);
}

#[test]
fn pytest_benchmark_json() {
    let s = detected("pytest-benchmark.json", Format::PytestBenchmark);
    let doc = json("pytest-benchmark.json");
    for b in doc["benchmarks"].as_array().unwrap() {
        let v = values(&s, b["fullname"].as_str().unwrap());
        assert_eq!(v.len(), b["stats"]["rounds"].as_u64().unwrap() as usize);
        let want = b["stats"]["mean"].as_f64().unwrap();
        assert!((mean(&v) - want).abs() <= 1e-12 * want);
    }
    assert_eq!(values(&s, "test_bench.py::test_sum").len(), 10);
}

#[test]
fn pyperf_json() {
    let s = detected("pyperf.json", Format::Pyperf);
    let v = values(&s, "timeit");
    // pyperf stats: "Total number of values: 9", "Mean +- std dev: 16.7 us", "Minimum: 1.28 us"
    let stats = std::fs::read_to_string(file("pyperf-stats.txt")).unwrap();
    assert!(stats.contains("Total number of values: 9"));
    assert_eq!(v.len(), 9);
    assert!((mean(&v) * 1e6 - 16.7).abs() < 0.05, "{}", mean(&v));
    assert!((v.iter().cloned().fold(f64::INFINITY, f64::min) * 1e6 - 1.28).abs() < 0.005);
    assert_eq!(s[0].unit, "second");
}

#[test]
fn google_benchmark_json() {
    let s = detected("google-benchmark.json", Format::GoogleBenchmark);
    let doc = json("google-benchmark.json");
    for agg in doc["benchmarks"].as_array().unwrap().iter().filter(|b| b["aggregate_name"] == "mean") {
        let name = agg["run_name"].as_str().unwrap();
        for key in ["real_time", "cpu_time"] {
            let v = values(&s, &format!("{name}.{key}"));
            assert_eq!(v.len(), 5);
            let want = agg[key].as_f64().unwrap();
            assert!((mean(&v) - want).abs() <= 1e-9 * want, "{name}.{key}");
        }
    }
    assert_eq!(values(&s, "sum_1000.real_time")[0], 189932.58476257324);
}

#[test]
fn bad_files_name_the_line_and_field() {
    let e = read(b"3.1 msec task-clock\n12 x y z\n", Some("p.txt"), Some(Format::PerfStatText)).unwrap_err();
    assert_eq!(e.to_string(), "p.txt:2: expected 'VALUE [UNIT] EVENT', got '12 x y z'");
    let e = read(b"3.1,msec,task-clock\n1x,,page-faults\n", Some("p.csv"), None).unwrap_err();
    assert_eq!(e.to_string(), "p.csv:2: column 'value': expected a counter value, got '1x'");
    let e = read(b"{\"results\": [{\"command\": \"a\", \"times\": [1, \"x\"]}]}", Some("h.json"), None).unwrap_err();
    assert_eq!(e.to_string(), "h.json: results[0].times[1]: expected a number, got \"x\"");
    let e = read(b"{\"results\": [{\"command\": \"a\",\n \"times\": [1,", Some("h.json"), Some(Format::Hyperfine))
        .unwrap_err();
    assert!(e.to_string().starts_with("h.json:2: the JSON ends early"), "{e}");
    let e = read(b"hello\n", Some("x"), None).unwrap_err();
    assert!(e.to_string().starts_with("x: not a result file schedlab recognises"), "{e}");
    let e = read(b"{\"results\": []}", Some("h.json"), Some(Format::Hyperfine)).unwrap_err();
    assert_eq!(e.to_string(), "h.json: no measured value in this hyperfine file");
    let e = read(b"\xff", Some("b"), None).unwrap_err();
    assert_eq!(e.to_string(), "b:1: not UTF-8 text");
}
