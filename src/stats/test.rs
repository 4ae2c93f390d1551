//! The two-sample tests a verdict can rest on, named once: `welch` and `mann-whitney`
//! are the only spellings, in every command, result and output.

use super::{mann_whitney_u, welch_ttest, MwuMethod};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// A two-sided two-sample test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Test {
    /// Welch's unequal-variance t-test ([`welch_ttest`]), as scipy's `ttest_ind(equal_var=False)`.
    #[default]
    #[serde(rename = "welch")]
    Welch,
    /// Mann-Whitney U with scipy's `auto` method ([`mann_whitney_u`]).
    #[serde(rename = "mann-whitney")]
    MannWhitney,
}

/// The names [`Test::parse`] accepts, in the order help texts list them.
pub const TEST_NAMES: [&str; 2] = ["welch", "mann-whitney"];

impl Test {
    /// The test named `s` (one of [`TEST_NAMES`]).
    pub fn parse(s: &str) -> Result<Test> {
        match s {
            "welch" => Ok(Test::Welch),
            "mann-whitney" => Ok(Test::MannWhitney),
            _ => Err(Error::domain(format!("test must be one of {}, got '{s}'", TEST_NAMES.join(", ")))),
        }
    }

    /// The test's name, as [`TEST_NAMES`] spells it.
    pub fn name(self) -> &'static str {
        match self {
            Test::Welch => TEST_NAMES[0],
            Test::MannWhitney => TEST_NAMES[1],
        }
    }

    /// The two-sided p-value of `base` against `new` (symmetric in the two).
    pub fn p_value(self, base: &[f64], new: &[f64]) -> Result<f64> {
        match self {
            Test::Welch => Ok(welch_ttest(base, new)?.p),
            Test::MannWhitney => Ok(mann_whitney_u(base, new, MwuMethod::Auto)?.p),
        }
    }

    /// The p-value a verdict uses: None with fewer than two samples on a side or where
    /// the test is undefined, except that two sides holding one and the same constant
    /// value are no difference at all (p = 1). (Two different constants give p = 0 from
    /// the tests themselves, Welch's limit, as scipy does.)
    pub fn verdict_p(self, base: &[f64], new: &[f64]) -> Option<f64> {
        if base.len() < 2 || new.len() < 2 {
            return None;
        }
        let p = self.p_value(base, new).ok()?;
        if p.is_nan() {
            let first = base.first().copied();
            return base.iter().chain(new).all(|x| Some(*x) == first).then_some(1.0);
        }
        Some(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_spelling_each() {
        for name in TEST_NAMES {
            assert_eq!(Test::parse(name).unwrap().name(), name);
        }
        let e = Test::parse("mwu").unwrap_err().to_string();
        assert!(e.contains("welch, mann-whitney"), "{e}");
        assert_eq!(serde_json::to_string(&Test::MannWhitney).unwrap(), "\"mann-whitney\"");
    }

    #[test]
    fn equal_constants_are_no_difference() {
        assert_eq!(Test::Welch.verdict_p(&[3.0, 3.0], &[3.0, 3.0, 3.0]), Some(1.0));
        // scipy.stats.ttest_ind([3, 3], [4, 4], equal_var=False).pvalue == 0.0
        assert_eq!(Test::Welch.verdict_p(&[3.0, 3.0], &[4.0, 4.0]), Some(0.0));
        assert_eq!(Test::MannWhitney.verdict_p(&[3.0], &[4.0, 5.0]), None);
    }
}
