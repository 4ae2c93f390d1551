//! The equivalence test, the noncentral t and the power behind the verdicts against
//! scipy and statsmodels (tests/data/stats/verdict-oracles.json, written by
//! tools/oracles/stats/verdicts.py): power, runs needed and TOST within 1e-9
//! relative (or 1e-15 absolute, for probabilities that are all but 0); the noncentral
//! t CDF within 1e-9 relative or 1e-14 absolute (its far lower tail, below 1e-5, is
//! computed as 1 − F of the mirrored upper part and so keeps ~1e-16 absolute only).

use schedlab::stats::{noncentral_t, runs_needed, tost_welch, welch_power};
use serde_json::Value;

fn oracles() -> Value {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/stats/verdict-oracles.json"))
        .expect("oracle file");
    serde_json::from_str(&text).expect("oracle JSON")
}

fn f(v: &Value, k: &str) -> f64 {
    v[k].as_f64().unwrap_or_else(|| panic!("{k} in {v}"))
}

fn close_within(got: f64, want: f64, abs: f64, what: &str) {
    let err = (got - want).abs();
    assert!(err <= 1e-9 * want.abs() || err <= abs, "{what}: got {got:e}, want {want:e} (error {err:e})");
}

fn close(got: f64, want: f64, what: &str) {
    close_within(got, want, 1e-15, what);
}

#[test]
fn noncentral_t_cdf_matches_scipy() {
    let o = oracles();
    let cases = o["nct_cdf"].as_array().unwrap();
    assert!(cases.len() > 400);
    for c in cases {
        let (t, df, nc) = (f(c, "t"), f(c, "df"), f(c, "nc"));
        close_within(noncentral_t::cdf(t, df, nc).unwrap(), f(c, "cdf"), 1e-14, &format!("nct.cdf({t}, {df}, {nc})"));
    }
}

#[test]
fn power_matches_statsmodels() {
    let o = oracles();
    for c in o["power"].as_array().unwrap() {
        let (d, n, alpha) = (f(c, "effect_size"), f(c, "n"), f(c, "alpha"));
        // equal variances (sd 1, so the difference is the effect size) and equal n
        let p = welch_power(d, 1.0, 1.0, n, n, alpha).unwrap();
        close(p, f(c, "power"), &format!("power(d={d}, n={n}, alpha={alpha})"));
        // the scale does not matter: a difference of 5d with sd 5
        close(welch_power(5.0 * d, 5.0, 5.0, n, n, alpha).unwrap(), f(c, "power"), "scaled power");
    }
}

#[test]
fn runs_needed_is_statsmodels_solve_power_rounded_up() {
    let o = oracles();
    for c in o["runs_needed"].as_array().unwrap() {
        let (d, alpha, power) = (f(c, "effect_size"), f(c, "alpha"), f(c, "power"));
        let want = c["runs"].as_u64().unwrap();
        assert_eq!(runs_needed(d, 1.0, 1.0, alpha, power).unwrap(), want, "{c}");
    }
}

#[test]
fn tost_matches_statsmodels_ttost_ind() {
    let o = oracles();
    for c in o["tost"].as_array().unwrap() {
        let xs = |k: &str| -> Vec<f64> { c[k].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect() };
        let r = tost_welch(&xs("base"), &xs("new"), f(c, "low"), f(c, "upp")).unwrap();
        for (got, k) in
            [(r.p, "p"), (r.t_low, "t_low"), (r.p_low, "p_low"), (r.t_upp, "t_upp"), (r.p_upp, "p_upp"), (r.df, "df")]
        {
            close(got, f(c, k), &format!("tost {k} of {c}"));
        }
    }
}
