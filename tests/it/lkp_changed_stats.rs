//! lkp-tests' changed-stats cases (spec/fixtures/stats_changed_stats, copied to
//! tests/data/lkp/changed_stats; lkp's own spec no longer finds them) and further
//! cases written here for the options they use: schedlab's compare engine
//! (`compare::changed_stats`, lkp's `__get_changed_stats`) against what lkp's code
//! returns for each (`<case>.json`, written by tools/oracles/lkp/changed_stats.rb from
//! `<case>.input.json`, the case as Ruby's YAML loader reads it). Every field lkp's
//! `StatCompare#process` returns is compared exactly, Integer vs Float included; the
//! rest of each entry is lkp's options hash echoed back.

use schedlab::lkp::matrix::Matrix;
use schedlab::lkp::ncompare::{changed_stats, Options, StatChange};
use schedlab::lkp::num::Num;
use schedlab::lkp::rubyfmt::{pretty_json, Json};
use schedlab::lkp::stats::ojson::{self, JValue};
use std::path::Path;

fn num(n: Num) -> JValue {
    match n {
        Num::Int(i) => JValue::Int(i),
        Num::Float(f) => JValue::Float(f),
    }
}

fn nums(v: &[Num]) -> JValue {
    JValue::Arr(v.iter().map(|&n| num(n)).collect())
}

/// The fields of lkp's `StatCompare#process` result, from schedlab's change.
fn fields(k: &str, c: &StatChange) -> Vec<(&'static str, JValue)> {
    vec![
        ("stat", JValue::Str(k.to_string())),
        ("interval", JValue::Str(c.interval())),
        ("a", nums(&c.a.sorted)),
        ("b", nums(&c.b.sorted)),
        ("is_function_stat", JValue::Bool(c.function)),
        ("is_latency", JValue::Bool(false)),
        ("ratio", num(c.ratio)),
        ("delta", num(c.delta)),
        ("mean_a", num(c.a.mean)),
        ("mean_b", num(c.b.mean)),
        ("x", num(c.x)),
        ("y", num(c.y)),
        ("z", num(c.z)),
        ("min_a", num(c.a.min)),
        ("max_a", num(c.a.max)),
        ("min_b", num(c.b.min)),
        ("max_b", num(c.b.max)),
        ("max", num(c.max)),
        ("nr_run", JValue::Int(c.runs as i64)),
    ]
}

/// The engine options of a case's options hash (the keys lkp's compare reads).
fn options(o: &JValue) -> Options {
    let JValue::Obj(o) = o else { panic!("options: {o:?}") };
    let mut opt = Options::default();
    for (k, v) in o {
        match (k.as_str(), v) {
            ("more", JValue::Bool(b)) => opt.more = *b,
            ("regression-only", JValue::Bool(b)) => opt.regression_only = *b,
            ("gap", v) => opt.gap = v.num(),
            ("variance", v) => opt.variance = v.num(),
            _ => panic!("an option the test does not map: {k}"),
        }
    }
    opt
}

/// A matrix of the case, written out in its own key order for the matrix reader.
fn matrix(v: &JValue, name: &str) -> Matrix {
    fn json(v: &JValue) -> Json {
        match v {
            JValue::Int(i) => Json::Int(*i),
            JValue::Float(f) => Json::Float(*f),
            JValue::Arr(a) => Json::Arr(a.iter().map(json).collect()),
            JValue::Obj(o) => Json::Obj(o.iter().map(|(k, v)| (k.clone(), json(v))).collect()),
            other => panic!("not a matrix value: {other:?}"),
        }
    }
    Matrix::parse(pretty_json(&json(v)).as_bytes(), name).unwrap()
}

fn read(path: &Path) -> JValue {
    ojson::parse(&std::fs::read(path).unwrap(), &path.display().to_string()).unwrap()
}

#[test]
fn changed_stats_cases_agree_with_lkps_code() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/lkp/changed_stats");
    let mut cases: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_str().unwrap().ends_with(".input.json"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 7, "lkp's seven cases and ours");
    let mut failures = Vec::new();
    for input in &cases {
        let name = input.file_name().unwrap().to_str().unwrap().strip_suffix(".input.json").unwrap();
        let case = read(input);
        let want = read(&dir.join(format!("{name}.json")));
        let (a, b) = (matrix(case.get("matrix_a").unwrap(), "a"), matrix(case.get("matrix_b").unwrap(), "b"));
        let got = changed_stats(&a, &b, options(case.get("options").unwrap())).unwrap();
        // lkp's nil (no key: too few runs for --variance) and {} are both "nothing changed"
        let want_keys: Vec<&str> = match &want {
            JValue::Obj(o) => o.iter().map(|(k, _)| k.as_str()).collect(),
            _ => Vec::new(),
        };
        let got_keys: Vec<&str> = got.iter().map(|(k, _)| k.as_str()).collect();
        if want_keys != got_keys {
            failures.push(format!("{name}: keys {got_keys:?}, lkp {want_keys:?}"));
            continue;
        }
        for (k, c) in &got {
            for (f, v) in fields(k, c) {
                let lkp = want.get(k).and_then(|e| e.get(f));
                if lkp != Some(&v) {
                    failures.push(format!("{name}: {k}.{f} = {v:?}, lkp {lkp:?}"));
                }
            }
        }
    }
    eprintln!("{} changed-stats cases", cases.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
