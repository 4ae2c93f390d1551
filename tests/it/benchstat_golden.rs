//! The benchstat view byte for byte against Go's benchstat:
//! - benchstat's own test goldens (golang/perf cmd/benchstat/testdata, copied to
//!   tests/data/table/benchstat/go/ by tools/oracles/table/benchstat_testdata.sh),
//!   read through schedlab's Go benchmark reader and its groups, as `schedlab stats`
//!   reads them, and all ten through benchstat's projections with the arguments of
//!   benchstat's own test (`schedlab benchstat`, docs/benchstat.md §7);
//! - benchstat run on schedlab's own samples (tests/data/table/benchstat/, made by
//!   tools/oracles/table/benchstat.py): hyperfine's runs, MMTests' netperf runs, and
//!   generated samples of 5 to 100 runs a side.

use schedlab::readers::groups::{read_groups, Input};
use schedlab::readers::Format;
use schedlab::stats::Test;
use schedlab::table::{benchstat, Cell, Comparison, Direction, Row, VerdictRule};
use serde_json::Value;
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/table/benchstat")
}

fn golden(name: &str) -> String {
    std::fs::read_to_string(dir().join("go").join(name)).unwrap()
}

/// The files as `schedlab stats --format go-bench` reads them, each labelled as
/// benchstat names its column (the path as given) or by the groups the file names.
fn stats_view(files: &[(&str, bool)]) -> String {
    let inputs: Vec<Input> = files
        .iter()
        .map(|(f, labelled)| Input { path: dir().join("go").join(f), label: labelled.then(|| f.to_string()) })
        .collect();
    let g = read_groups(&inputs, Some(Format::GoBench)).unwrap();
    let c = g.compare(None, Test::MannWhitney, &VerdictRule::default(), Some(1)).unwrap();
    benchstat::render(&c).unwrap()
}

fn same(got: &str, want: &str, case: &str) {
    assert!(got == want, "{case}: got\n{got}\nwant\n{want}");
}

#[test]
fn crc_old_new_compared_as_benchstat_ignore_note() {
    // benchstat -ignore note crc-old.txt crc-new.txt: the files differ only in `note`,
    // which schedlab's comparison of the two files leaves out of the shared header
    same(&stats_view(&[("crc-old.txt", true), ("crc-new.txt", true)]), &golden("crcIgnore.stdout"), "crcIgnore");
}

#[test]
fn configurations_within_a_file_are_its_groups() {
    // benchstat -col note FILE: the key that changes within the file names the columns
    for case in ["units", "zero", "smallSample", "issue19565", "issue19634"] {
        same(&stats_view(&[(&format!("{case}.txt"), false)]), &golden(&format!("{case}.stdout")), case);
    }
}

/// A case of tools/oracles/table/benchstat.py: its samples as a comparison.
fn load(case: &str) -> (Comparison, String) {
    let doc: Value =
        serde_json::from_str(&std::fs::read_to_string(dir().join(format!("{case}.json"))).unwrap()).unwrap();
    let want = std::fs::read_to_string(dir().join(format!("{case}.benchstat.txt"))).unwrap();
    let kernels: Vec<String> = doc["kernels"].as_array().unwrap().iter().map(|k| k.as_str().unwrap().into()).collect();
    let mut c = Comparison::new("schedlab", case, kernels);
    for r in doc["rows"].as_array().unwrap() {
        let cells = r["samples"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                let s: Vec<f64> = s.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
                Cell { n: Some(s.len() as u64), samples: Some(s.into()), ..Default::default() }
            })
            .collect();
        c.rows.push(Row {
            name: r["name"].as_str().unwrap().into(),
            unit: Some(doc["unit"].as_str().unwrap().into()),
            direction: Direction::Unknown,
            cells,
            ..Default::default()
        });
    }
    (c, want)
}

#[test]
fn schedlab_samples_as_benchstat_prints_them() {
    for case in ["hyperfine", "netperf-udp", "orders"] {
        let (c, want) = load(case);
        same(&benchstat::render(&c).unwrap(), &want, case);
    }
}

/// benchstat's command line `args` (its flags, then its inputs) on the files of
/// tests/data/table/benchstat/go/, through schedlab's projections: (stdout, stderr).
fn benchstat_cli(args: &[&str]) -> (String, String) {
    use schedlab::table::benchtab::{build, Input, Options};
    let mut o = Options::default();
    let mut csv = false;
    let mut it = args.iter();
    let mut inputs = Vec::new();
    while let Some(a) = it.next() {
        let mut val = || it.next().unwrap().to_string();
        match *a {
            "-format" => csv = val() == "csv",
            "-row" => o.row = val(),
            "-col" => o.col = val(),
            "-table" => o.table = val(),
            "-filter" => o.filter = val(),
            "-ignore" => o.ignore = val(),
            f => {
                let text = golden(f);
                let results = schedlab::readers::go_bench::results(&text, Some(f)).unwrap();
                inputs.push(Input { label: f.to_string(), results });
            }
        }
    }
    let t = build(&inputs, &o).unwrap();
    if csv {
        t.csv()
    } else {
        (t.text(), String::new())
    }
}

/// The stderr golden of a case ("" when benchstat's test has none: it treats a
/// missing file as empty).
fn golden_stderr(name: &str) -> String {
    std::fs::read_to_string(dir().join("go").join(format!("{name}.stderr"))).unwrap_or_default()
}

#[test]
fn every_golden_of_benchstats_own_test_through_its_flags() {
    // golang/perf cmd/benchstat/main_test.go: each golden with the arguments it is made with
    let cases: &[(&str, &[&str])] = &[
        ("csvOldNew", &["-format", "csv", "old.txt", "new.txt"]),
        ("csvErrors", &["-format", "csv", "-row", ".name", "new.txt"]),
        ("crcOldNew", &["crc-old.txt", "crc-new.txt"]),
        ("crcIgnore", &["-ignore", "note", "crc-old.txt", "crc-new.txt"]),
        ("crcSizeVsPoly", &["-filter", "/align:0", "-row", "/size", "-col", "/poly", "crc-new.txt"]),
        ("units", &["-col", "note", "units.txt"]),
        ("zero", &["-col", "note", "zero.txt"]),
        ("smallSample", &["-col", "note", "smallSample.txt"]),
        ("issue19565", &["-col", "note", "issue19565.txt"]),
        ("issue19634", &["-col", "note", "issue19634.txt"]),
    ];
    for (name, args) in cases {
        let (out, err) = benchstat_cli(args);
        same(&out, &golden(&format!("{name}.stdout")), name);
        same(&err, &golden_stderr(name), &format!("{name} (stderr)"));
    }
}

#[test]
fn projections_refuse_bad_expressions() {
    use schedlab::table::benchtab::{build, Options};
    for (o, want) in [
        (Options { filter: "/align".into(), ..Options::default() }, "parsing -filter: "),
        (Options { row: ".unit".into(), ..Options::default() }, ".unit is only allowed in filters"),
        (Options { col: "x@nope".into(), ..Options::default() }, "unknown order \"nope\""),
        (Options { table: ".config@(a)".into(), ..Options::default() }, "fixed order not allowed for .config"),
        (Options { alpha: 2.0, ..Options::default() }, "-alpha must be in range [0, 1]"),
    ] {
        let e = build(&[], &o).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(e.contains(want), "{o:?}: {e}");
    }
}
