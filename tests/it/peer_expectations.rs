//! google-benchmark's own test expectations (tools/gbench/report.py of google/benchmark
//! at 267a111, its inputs copied to tests/data/readers/peers/google-benchmark/ by
//! tools/oracles/readers/peers.sh), reproduced by schedlab's reader, its unit handling
//! and its statistics, to the precision compare.py prints (`%+16.4f` changes,
//! `%14.0f` times, `%16.4f` p-values).

use schedlab::readers::groups::{read_groups, Input};
use schedlab::readers::{read_file, Format};
use schedlab::stats::{gmean, mann_whitney_u, pct_change, MwuMethod};
use std::collections::HashMap;
use std::path::PathBuf;

fn data(f: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/readers/peers/google-benchmark").join(f)
}

/// compare.py's relative change, `(new - old) / |old|`, as schedlab computes it.
fn change(old: f64, new: f64) -> String {
    format!("{:+.4}", pct_change(old, new, true).unwrap() / 100.0)
}

#[test]
fn compare_py_report_difference() {
    // TestReportDifference.test_json_diff_report_pretty_printing: name, time and cpu
    // change, real time old/new, cpu time old/new
    let expect: [(&str, &str, &str, &str, &str, &str, &str); 13] = [
        ("BM_SameTimes", "+0.0000", "+0.0000", "10", "10", "10", "10"),
        ("BM_2xFaster", "-0.5000", "-0.5000", "50", "25", "50", "25"),
        ("BM_2xSlower", "+1.0000", "+1.0000", "50", "100", "50", "100"),
        ("BM_1PercentFaster", "-0.0100", "-0.0100", "100", "99", "100", "99"),
        ("BM_1PercentSlower", "+0.0100", "+0.0100", "100", "101", "100", "101"),
        ("BM_10PercentFaster", "-0.1000", "-0.1000", "100", "90", "100", "90"),
        ("BM_10PercentSlower", "+0.1000", "+0.1000", "100", "110", "100", "110"),
        ("BM_100xSlower", "+99.0000", "+99.0000", "100", "10000", "100", "10000"),
        ("BM_100xFaster", "-0.9900", "-0.9900", "10000", "100", "10000", "100"),
        ("BM_10PercentCPUToTime", "+0.1000", "-0.1000", "100", "110", "100", "90"),
        ("BM_ThirdFaster", "-0.3333", "-0.3334", "100", "67", "100", "67"),
        ("BM_NotBadTimeUnit", "-0.9000", "+0.2000", "0", "0", "0", "1"),
        ("BM_hasLabel", "+0.0000", "+0.0000", "1", "1", "1", "1"),
    ];
    let inputs = [("test1_run1.json", "run1"), ("test1_run2.json", "run2")]
        .map(|(f, l)| Input { path: data(f), label: Some(l.into()) });
    let g = read_groups(&inputs, Some(Format::GoogleBenchmark)).unwrap();
    let mut v: HashMap<(String, String), (f64, String)> = HashMap::new();
    for s in g.samples.iter() {
        v.insert((s.metric.into(), s.group.into()), (s.value, s.unit.into()));
    }
    let at = |m: &str, g: &str| v[&(m.to_string(), g.to_string())].0;
    for (name, time, cpu, rt_old, rt_new, cpu_old, cpu_new) in expect {
        let (rt, ct) = (format!("{name}.real_time"), format!("{name}.cpu_time"));
        let got = (
            change(at(&rt, "run1"), at(&rt, "run2")),
            change(at(&ct, "run1"), at(&ct, "run2")),
            format!("{:.0}", at(&rt, "run1")),
            format!("{:.0}", at(&rt, "run2")),
            format!("{:.0}", at(&ct, "run1")),
            format!("{:.0}", at(&ct, "run2")),
        );
        assert_eq!(
            got,
            (time.into(), cpu.into(), rt_old.into(), rt_new.into(), cpu_old.into(), cpu_new.into()),
            "{name}"
        );
    }
    // BM_DifferentTimeUnit: 1 s in run1, 1 ns in run2. compare.py leaves it out (its
    // partition keeps the first run's time unit only); schedlab takes run2's value to
    // run1's unit, 1 ns = 1e-9 s, a change of (1e-9 - 1)/1 = -0.999999999 (by hand),
    // never 1 against 1
    let (x, unit) = &v[&("BM_DifferentTimeUnit.real_time".to_string(), "run2".to_string())];
    assert_eq!((*x, unit.as_str()), (1e-9, "s"));
    assert_eq!(change(at("BM_DifferentTimeUnit.real_time", "run1"), *x), "-1.0000");
}

#[test]
fn compare_py_overall_geomean() {
    // OVERALL_GEOMEAN: -0.8113 (real time), -0.7779 (cpu time): the geometric mean of
    // every non-aggregate run's times in seconds, per file. schedlab reads each file,
    // converts each value to seconds and takes the geometric mean.
    let geomeans = |f: &str| {
        let s = read_file(&data(f), Some(Format::GoogleBenchmark)).unwrap();
        let secs = |key: &str| -> Vec<f64> {
            s.iter()
                .filter(|x| x.metric.ends_with(key))
                .map(|x| schedlab::units::convert(x.value, &x.unit, "s").unwrap())
                .collect()
        };
        (gmean(&secs(".real_time")).unwrap(), gmean(&secs(".cpu_time")).unwrap())
    };
    let (a, b) = (geomeans("test1_run1.json"), geomeans("test1_run2.json"));
    assert_eq!((change(a.0, b.0), change(a.1, b.1)), ("-0.8113".to_string(), "-0.7779".to_string()));
}

#[test]
fn compare_py_u_test_p_values() {
    // TestReportDifferenceWithUTest: the U test's p-values (scipy's mannwhitneyu,
    // two-sided) of the repetitions compare.py pairs up by name and time unit
    // (aggregate entries included, as its partition takes them):
    //   BM_Two_pvalue  1.0000 (time)  0.6667 (cpu)
    //   short_pvalue   0.7671 (time)  0.2000 (cpu)
    // schedlab's Mann-Whitney (scipy's rule) on the same values
    let p = |a: &[f64], b: &[f64]| format!("{:.4}", mann_whitney_u(a, b, MwuMethod::Auto).unwrap().p);
    assert_eq!(p(&[9.0, 8.0], &[10.0, 7.0]), "1.0000");
    assert_eq!(p(&[90.0, 86.0], &[89.0, 72.0]), "0.6667");
    assert_eq!(p(&[8.0, 8.0], &[7.0, 4.54, 800.0]), "0.7671");
    assert_eq!(p(&[80.0, 77.0], &[75.0, 66.6, 1.0]), "0.2000");
    // the values as schedlab's reader gives them: BM_Two's and medium's iterations
    // (aggregates, which compare.py's partition also takes, are left out by the reader)
    let s = read_file(&data("test3_run0.json"), Some(Format::GoogleBenchmark)).unwrap();
    let two: Vec<f64> = s.iter().filter(|x| x.metric == "BM_Two.real_time").map(|x| x.value).collect();
    assert_eq!(two, [9.0, 8.0]);
}
