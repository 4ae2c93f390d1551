//! lkp-tests inputs: `matrix.json`, per-run `stats.json`, the raw outputs of a run
//! directory, and `job.yaml`.

use super::common::{bounded, line_count, parse_error, text, typed_error};
use super::tree;
use schedlab::lkp::matrix::{Matrix, ResultRoot, MAX_MATRIX_VALUES, STATS_SOURCE};
use schedlab::lkp::ncompare::{compare_roots, Options};
use schedlab::lkp::num::Num;
use schedlab::lkp::rubyfmt::{pretty_json, Json};
use schedlab::lkp::stats::ojson::{self, JValue};
use schedlab::Error;

fn num_json(n: &Num) -> Json {
    match n {
        Num::Int(i) => Json::Int(*i),
        Num::Float(f) => Json::Float(*f),
    }
}

fn same_num(a: &Num, b: &Num) -> bool {
    match (a, b) {
        (Num::Int(x), Num::Int(y)) => x == y,
        (Num::Float(x), Num::Float(y)) => x.to_bits() == y.to_bits() || x.is_nan() && y.is_nan(),
        _ => false,
    }
}

/// [`Matrix::parse`]: the zero-filled matrix stays proportional to the input; written
/// back as Ruby writes JSON it reads back identically (Integer/Float kinds and every
/// float bit); and `lkp ncompare` of it against itself computes and renders.
pub fn matrix(data: &[u8]) {
    let m = match Matrix::parse(data, "matrix.json") {
        Ok(m) => m,
        Err(e) => return parse_error(&e, Some("matrix.json"), line_count(data)),
    };
    let cells: usize = m.iter().map(|(_, v)| v.len()).sum();
    // zero-filling to the run count may exceed the input (lkp does it too), never the cap
    assert!(cells <= MAX_MATRIX_VALUES, "{cells} values");
    if m.stats_source.is_none() {
        bounded(cells * 2, data.len(), "matrix values"); // every value takes 2 bytes of input
    }
    if m.stats_source.is_some() {
        assert!(m.iter().all(|(_, v)| v.len() == m.cols()), "not zero-filled to the run count");
    }
    let mut obj: Vec<(String, Json)> =
        m.iter().map(|(k, v)| (k.to_string(), Json::Arr(v.iter().map(|n| num_json(&n)).collect()))).collect();
    if let Some(src) = &m.stats_source {
        obj.push((STATS_SOURCE.to_string(), Json::Arr(src.iter().map(|s| Json::Str(s.clone())).collect())));
    }
    let written = pretty_json(&Json::Obj(obj));
    let back = Matrix::parse(written.as_bytes(), "written.json")
        .unwrap_or_else(|e| panic!("a matrix written as Ruby writes it does not read back: {e}\n{written}"));
    assert!(back.keys().eq(m.keys()));
    assert_eq!(back.stats_source, m.stats_source);
    for ((_, a), (_, b)) in m.iter().zip(back.iter()) {
        let (a, b) = (a.to_vec(), b.to_vec());
        assert!(a.len() == b.len() && a.iter().zip(&b).all(|(x, y)| same_num(x, y)), "values changed: {a:?} -> {b:?}");
    }
    let root =
        |c: &str| ResultRoot { path: c.into(), matrix: m.clone(), axes: vec![("commit".to_string(), c.to_string())] };
    let older =
        Options { more: true, variance: Some(2.0), gap: Some(0.5), regression_only: true, ..Default::default() };
    for opt in [
        Options::default(),
        Options { all_keys: true, more: true, kpi: true, perf_profile_threshold: Some(0.5), ..Default::default() },
        older,
    ] {
        let res = compare_roots(&[root("base"), root("head")], opt).expect("compares");
        let text = schedlab::lkp::render_text::render(&res).expect("renders");
        bounded(text.len(), data.len() * 4, "ncompare text");
    }
}

fn to_json(v: &JValue) -> Option<Json> {
    Some(match v {
        JValue::Int(i) => Json::Int(*i),
        JValue::Float(f) => Json::Float(*f),
        JValue::Str(s) => Json::Str(s.clone()),
        JValue::Arr(a) => Json::Arr(a.iter().map(to_json).collect::<Option<_>>()?),
        JValue::Obj(o) => Json::Obj(o.iter().map(|(k, v)| Some((k.clone(), to_json(v)?))).collect::<Option<_>>()?),
        JValue::Null | JValue::Bool(_) => return None,
    })
}

fn same_value(a: &JValue, b: &JValue) -> bool {
    match (a, b) {
        (JValue::Float(x), JValue::Float(y)) => x.to_bits() == y.to_bits(),
        (JValue::Arr(x), JValue::Arr(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_value(p, q)),
        (JValue::Obj(x), JValue::Obj(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|((k, p), (l, q))| k == l && same_value(p, q))
        }
        _ => a == b,
    }
}

/// [`ojson::parse`] (per-run `stats.json`, mpstat's JSON): errors name the file and a
/// line that exists; what is read, written as Ruby writes JSON, reads back the same.
pub fn stats_json(data: &[u8]) {
    let v = match ojson::parse(data, "stats.json") {
        Ok(v) => v,
        Err(e) => return parse_error(&e, Some("stats.json"), line_count(data)),
    };
    if let Some(j) = to_json(&v) {
        let written = pretty_json(&j);
        let back = ojson::parse(written.as_bytes(), "written.json")
            .unwrap_or_else(|e| panic!("JSON written as Ruby writes it does not read back: {e}\n{written}"));
        assert!(same_value(&v, &back), "JSON round trip changed the value:\n{written}");
    }
}

/// One run directory (`0/`) of raw outputs ([`schedlab::lkp::stats::run_stats`],
/// then [`schedlab::lkp::stats::unite`]): errors are typed and name a file of the
/// tree; the stats written as stats.json read back with the same numbers; the
/// matrix.json that unite writes is one [`Matrix::parse`] reads.
pub fn raw(data: &[u8]) {
    use schedlab::lkp::stats::{run_stats, stats_json as write_stats, unite};
    let (_, files) = tree::split(data);
    let t = tree::mem_tree("fuzz", "0", &files);
    let check = |e: &Error| {
        typed_error(e);
        if let Error::Parse { loc, .. } = e {
            assert!(loc.path.as_deref().unwrap_or("").starts_with("fuzz"), "a parse error names no file: {e}");
        }
    };
    match run_stats(&t, "0") {
        Ok(stats) => {
            let written = write_stats(&stats);
            bounded(written.len(), data.len() * 4, "stats.json");
            let back = ojson::parse(written.as_bytes(), "stats.json")
                .unwrap_or_else(|e| panic!("stats.json does not read back: {e}\n{written}"));
            let JValue::Obj(o) = back else { panic!("stats.json is not an object") };
            assert_eq!(o.len(), stats.len(), "keys lost (duplicates?)");
            for ((k, n), (l, v)) in stats.iter().zip(&o) {
                assert_eq!(k, l);
                let got = match v {
                    JValue::Int(i) => Num::Int(*i),
                    JValue::Float(f) => Num::Float(*f),
                    other => panic!("{k} read back as {other:?}"),
                };
                assert!(
                    same_num(n, &got) || matches!(n, Num::Float(f) if !f.is_finite()),
                    "{k}: {n:?} read back as {got:?}"
                );
            }
        }
        Err(e) => check(&e),
    }
    match unite(&[(&t, "0", "fuzz/0")]) {
        Ok(u) => {
            if let Err(e) = Matrix::parse(u.matrix.as_bytes(), "matrix.json") {
                // non-finite floats have no JSON form: Ruby writes NaN/Infinity too
                assert!(
                    u.matrix.contains("NaN") || u.matrix.contains("Infinity"),
                    "unite's matrix.json does not read back: {e}"
                );
            }
        }
        Err(e) => check(&e),
    }
}

/// [`schedlab::lkp::jobyaml::axes`]: any text gives axes (each key once, bounded by the
/// input) or an error naming the file.
pub fn jobyaml(data: &[u8]) {
    let Some(t) = text(data) else { return };
    let axes = match schedlab::lkp::jobyaml::axes(t, "job.yaml") {
        Ok(a) => a,
        Err(e) => return parse_error(&e, Some("job.yaml"), line_count(data)),
    };
    let mut keys: Vec<&str> = axes.iter().map(|(k, _)| k.as_str()).collect();
    bounded(axes.iter().map(|(k, v)| k.len() + v.len()).sum(), data.len(), "axes");
    keys.sort_unstable();
    let n = keys.len();
    keys.dedup();
    assert_eq!(keys.len(), n, "an axis appears twice: {axes:?}");
}
