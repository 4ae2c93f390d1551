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

#[test]
fn pts_composite_xml() {
    // the Phoronix Test Suite's own file (capture_xml_mm.sh): RawString holds the runs,
    // Value their mean as PTS rounds it (2 decimals)
    let s = detected("pts-composite.xml", Format::Pts);
    let text = std::fs::read_to_string(file("pts-composite.xml")).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let mut entries = 0;
    for r in doc.root_element().children().filter(|n| n.has_tag_name("Result")) {
        let child =
            |n: roxmltree::Node, t: &str| n.children().find(|c| c.has_tag_name(t)).unwrap().text().unwrap().to_owned();
        let metric = format!("{}: {}", child(r, "Title"), child(r, "Description"));
        for e in r.descendants().filter(|n| n.has_tag_name("Entry")) {
            let id = child(e, "Identifier");
            let v: Vec<f64> = s.iter().filter(|x| x.metric == metric && x.group == id).map(|x| x.value).collect();
            assert_eq!(v.len(), 3, "{metric} {id}");
            let want: f64 = child(e, "Value").parse().unwrap();
            assert!((mean(&v) - want).abs() <= 0.005 + 1e-9, "{metric} {id}: {} vs {want}", mean(&v));
            entries += 1;
        }
    }
    assert_eq!(entries, 4);
    let cpu: Vec<_> = s.iter().filter(|x| x.metric == "Sysbench System: Test: CPU").collect();
    assert_eq!(cpu.iter().map(|x| x.value).collect::<Vec<_>>(), vec![609.62, 606.41, 969.47, 785.49, 461.4, 368.95]);
    assert_eq!(
        (cpu[0].unit.as_str(), cpu[0].direction, cpu[0].group.as_str()),
        ("Events Per Second", Direction::Higher, "kernel-a")
    );
    let lat = s.iter().find(|x| x.metric == "Sysbench System: Latency average").unwrap();
    assert_eq!((lat.unit.as_str(), lat.direction, lat.value), ("ms", Direction::Lower, 1.63));
}

#[test]
fn mmtests_json_exports() {
    // extract-mmtests.pl --print-json of schbench (lower is better): the values the logs hold
    let s = detected("mmtests-extract-schbench.json", Format::MmtestsJson);
    assert!(s.iter().all(|x| x.group == "6.8-vanilla" && x.direction == Direction::Lower));
    assert_eq!(values(&s, "Wakeup-90.0th-4"), vec![12.0, 12.0, 13.0]);
    assert_eq!(values(&s, "RPS-50.0th-8"), vec![12365.0, 12377.0, 12282.0]);
    // compare-mmtests.pl --json-export, zstd as MMTests leaves it; its table printed
    // Hmean udprr-send-1 52368.97 and 49963.07, Min 51016.94 / 49610.60
    let bytes = std::fs::read(file("mmtests-compare-netperf-ipv4-udp-rr.json.zst")).unwrap();
    assert_eq!(&bytes[..4], &[0x28, 0xb5, 0x2f, 0xfd]);
    let s = read_file(&file("mmtests-compare-netperf-ipv4-udp-rr.json.zst"), None).unwrap();
    let table = std::fs::read_to_string(file("mmtests-compare-netperf-ipv4-udp-rr.txt")).unwrap();
    assert!(table.contains("Hmean     udprr-send-1          52368.97"));
    for (kernel, hmean, min) in [("6.8-vanilla", 52368.97, 51016.94), ("6.9-patched", 49963.07, 49610.60)] {
        let v: Vec<f64> =
            s.iter().filter(|x| x.group == kernel && x.metric == "udprr-send-1").map(|x| x.value).collect();
        assert_eq!(v.len(), 5, "{kernel}");
        let h = v.len() as f64 / v.iter().map(|x| 1.0 / x).sum::<f64>();
        assert!((h - hmean).abs() < 0.005, "{kernel}: {h}");
        assert_eq!(v.iter().cloned().fold(f64::INFINITY, f64::min), min);
        assert!(s.iter().all(|x| x.direction == Direction::Higher));
    }
}
