//! lkp-tests' lib/tests/stats.rb (`LKP::Stats`), the result table of the test-suite
//! parsers: test cases normalised to stat names, each added once, a String result
//! printed as `<case>.<result>: 1` and a number as `<case>: <value>`.

use super::ruby::{self, Hash};
use regex::Regex;
use std::sync::OnceLock;

/// A result: a String (normalised, printed as `<case>.<result>: 1`) or a number's text.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A String or Symbol result.
    Result(String),
    /// A number, printed as is.
    Number(String),
}

/// `LKP::Stats`: results in the order their cases were first added.
#[derive(Debug, Default, Clone)]
pub struct Stats {
    stats: Hash<Value>,
}

/// `LKP::Stats.normalize`: stripped, runs of whitespace, `,"_[]():` one `_`, no `_` at
/// either end, `__…` one `_`, `....` and longer one `.`.
pub fn normalize(test_case: &str) -> String {
    static P: OnceLock<[Regex; 4]> = OnceLock::new();
    let [sep, ends, underscores, dots] = P.get_or_init(|| {
        [ruby::re(r#"[\s,"_\[\]():]+"#), ruby::re("(^_+|_+$)"), ruby::re("_{2,}"), ruby::re(r"\.{4,}")]
    });
    let s = sep.replace_all(ruby::strip(test_case), "_");
    let s = ends.replace_all(&s, "");
    let s = underscores.replace_all(&s, "_");
    dots.replace_all(&s, ".").into_owned()
}

impl Stats {
    /// `stats.key?(test_case)`.
    pub fn contains(&self, test_case: &str) -> bool {
        self.stats.contains(&normalize(test_case))
    }

    /// `stats.empty?`.
    pub fn is_empty(&self) -> bool {
        self.stats.is_empty()
    }

    /// `stats.add(test_case, result, overwrite:)` of a String result (`.` → `_`,
    /// lower-cased, normalised). Err with lkp's message when the case exists and
    /// `overwrite` is false (lkp's Ruby raises).
    pub fn add(&mut self, test_case: &str, result: &str, overwrite: bool) -> Result<(), String> {
        let v = Value::Result(normalize(&ruby::downcase(&result.replace('.', "_"))));
        self.put(test_case, v, overwrite)
    }

    /// `stats.add(test_case, number, overwrite:)`: a number result, kept as its text.
    pub fn add_number(&mut self, test_case: &str, number: &str, overwrite: bool) -> Result<(), String> {
        self.put(test_case, Value::Number(number.to_string()), overwrite)
    }

    fn put(&mut self, test_case: &str, v: Value, overwrite: bool) -> Result<(), String> {
        let k = normalize(test_case);
        if !overwrite && self.stats.contains(&k) {
            return Err(format!("{k} has already existed"));
        }
        self.stats.set(&k, v);
        Ok(())
    }

    /// `stats.dump(mapping)`: each result mapped (`mapping` pairs of result → shown
    /// result), as `key.result: 1` or `key: number` lines.
    pub fn dump(&self, mapping: &[(&str, &str)]) -> String {
        let mut out = String::new();
        for (k, v) in self.stats.iter() {
            match v {
                Value::Result(r) => {
                    let r = mapping.iter().find(|(from, _)| from == r).map_or(r.as_str(), |(_, to)| to);
                    ruby::puts(&mut out, &format!("{k}.{r}: 1"));
                }
                Value::Number(n) => ruby::puts(&mut out, &format!("{k}: {n}")),
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_as_lkp() {
        // Ruby 3.1 with lkp-tests bbbc29c49: LKP::Stats.normalize(" a  b,(c)__d: ") = "a_b_c_d",
        // normalize("x.....y") = "x.y", normalize("__x__") = "x"
        assert_eq!(normalize(" a  b,(c)__d: "), "a_b_c_d");
        assert_eq!(normalize("x.....y"), "x.y");
        assert_eq!(normalize("__x__"), "x");
        let mut s = Stats::default();
        s.add("rcu", "SUCCESS", false).unwrap();
        assert!(s.add("rcu", "x", false).is_err());
        s.add("cpuhotplug-rcu", "RCU_HOTPLUG", false).unwrap();
        assert_eq!(s.dump(&[("success", "pass")]), "rcu.pass: 1\ncpuhotplug-rcu.rcu_hotplug: 1\n");
    }
}
