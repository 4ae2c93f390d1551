//! The benchstat view byte for byte against Go's benchstat:
//! - benchstat's own test goldens (golang/perf cmd/benchstat/testdata, copied to
//!   tests/data/table/benchstat/go/ by tools/oracles/table/benchstat_testdata.sh),
//!   read through schedlab's Go benchmark reader and its groups, as `schedlab stats`
//!   reads them (docs/benchstat.md §6 names the cases the view cannot express);
//! - benchstat run on schedlab's own samples (tests/data/table/benchstat/, made by
//!   tools/oracles/table/benchstat.py): hyperfine's runs, MMTests' netperf runs, and
//!   generated samples of 5 to 100 runs a side.

use schedlab::readers::groups::{read_groups, Input};
use schedlab::readers::{parse_text, Format};
use schedlab::stats::Test;
use schedlab::table::groups::{compare_groups, GroupMetric};
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

#[test]
fn rows_and_columns_from_name_keys() {
    // benchstat -filter /align:0 -row /size -col /poly crc-new.txt: the projection is
    // done here (schedlab has no -row/-col), the view prints the table it gives
    let text = golden("crc-new.txt");
    let r = parse_text(&text, Some("crc-new.txt"), Some(Format::GoBench)).unwrap().unwrap();
    let key = |name: &str, k: &str| {
        name.split('/').find_map(|p| p.strip_prefix(&format!("{k}="))).map(|v| v.trim_end_matches("-8").to_string())
    };
    let (mut polys, mut metrics): (Vec<String>, Vec<GroupMetric>) = (Vec::new(), Vec::new());
    for s in r.samples.iter() {
        let name = s.metric.split(' ').next().unwrap();
        if key(name, "align").as_deref() != Some("0") {
            continue;
        }
        let (poly, size) = (key(name, "poly").unwrap(), key(name, "size").unwrap());
        if !polys.contains(&poly) {
            polys.push(poly.clone());
        }
        let row = format!("{size} {}", s.unit);
        let i = match metrics.iter().position(|m| m.name == row) {
            Some(i) => i,
            None => {
                metrics.push(GroupMetric {
                    name: row,
                    unit: Some(s.unit.into()),
                    direction: s.direction,
                    samples: vec![Vec::new(); 3],
                });
                metrics.len() - 1
            }
        };
        let g = polys.iter().position(|p| *p == poly).unwrap();
        metrics[i].samples[g].push(s.value);
    }
    let mut c = compare_groups("stats", &polys, &metrics, Test::MannWhitney, &VerdictRule::default(), Some(1)).unwrap();
    c.meta.config = r.config.clone();
    same(&benchstat::render(&c).unwrap(), &golden("crcSizeVsPoly.stdout"), "crcSizeVsPoly");
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
