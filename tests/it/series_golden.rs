//! Change points checked against Apache Otava: the series and expected change points
//! of Otava's own tests, and Otava's full results (index, segment means and
//! deviations, p-value) on further series, both made by
//! tools/oracles/stats/otava_goldens.py (tests/data/series/).

use schedlab::series::{change_points, fill_missing, Options, Significance};
use serde_json::Value;

fn cases(file: &str) -> Vec<Value> {
    let path = format!("{}/tests/data/series/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let doc: Value = serde_json::from_str(&text).unwrap();
    doc["cases"].as_array().unwrap().clone()
}

fn close(got: f64, want: f64, rel: f64) -> bool {
    got == want || (got - want).abs() <= rel * want.abs().max(1e-300)
}

fn check(file: &str) -> usize {
    let mut n = 0;
    for case in cases(file) {
        let name = case["name"].as_str().unwrap();
        let mut x: Vec<f64> =
            case["values"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap_or(f64::NAN)).collect();
        assert!(fill_missing(&mut x));
        let opts = Options {
            window: case["window"].as_u64().unwrap() as usize,
            max_p: case["max_p"].as_f64().unwrap(),
            min_magnitude: case["min_magnitude"].as_f64().unwrap(),
            significance: Significance::TTest,
        };
        let got = change_points(&x, &opts).unwrap();
        let idx: Vec<u64> = got.iter().map(|c| c.index as u64).collect();
        if let Some(expected) = case.get("expected").and_then(Value::as_array) {
            let want: Vec<u64> = expected.iter().map(|v| v.as_u64().unwrap()).collect();
            assert_eq!(idx, want, "{name}: Otava's test asserts these change points");
        }
        let otava = case["otava"].as_array().unwrap();
        let want: Vec<u64> = otava.iter().map(|c| c["index"].as_u64().unwrap()).collect();
        assert_eq!(idx, want, "{name}: Otava's change points");
        for (g, w) in got.iter().zip(otava) {
            let s = g.stats;
            for (k, v) in [
                ("mean_before", s.mean_before),
                ("mean_after", s.mean_after),
                ("std_before", s.std_before),
                ("std_after", s.std_after),
            ] {
                assert!(close(v, w[k].as_f64().unwrap(), 1e-13), "{name} at {}: {k} {v} vs {}", g.index, w[k]);
            }
            let p = w["p"].as_f64().unwrap();
            assert!(close(s.p, p, 1e-9) || (s.p - p).abs() < 1e-300, "{name} at {}: p {} vs {p}", g.index, s.p);
        }
        n += 1;
    }
    n
}

#[test]
fn otava_own_tests() {
    assert_eq!(check("otava_tests.json"), 16);
}

#[test]
fn otava_on_seeded_series() {
    assert_eq!(check("otava_goldens.json"), 15);
}
