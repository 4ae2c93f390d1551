//! [`CellTest`]: what decided a cell's p-value or significance marker — one of the
//! two-sample tests of [`Test`], or one of MMTests' own markers (docs/tables.md §1).

use crate::error::{Error, Result};
use crate::stats::{Test, TEST_NAMES};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The test or rule behind a cell's `p` / `significant`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CellTest {
    /// A two-sample test on the samples (`welch`, `mann-whitney`).
    Test(Test),
    /// MMTests' t-test marker of the 2018 and 2024 eras (`mmtests-ttest`).
    MmtestsTtest,
    /// MMTests' overlap of ±1.96σ bands, from 2025 (`mmtests-ci`).
    MmtestsCi,
    /// MMTests' marker as read from a pasted table (`mmtests`).
    Mmtests,
}

/// MMTests' marker names, after [`TEST_NAMES`] in the names a cell's test can have.
const MMTESTS_MARKERS: [&str; 3] = ["mmtests-ttest", "mmtests-ci", "mmtests"];

impl CellTest {
    /// The name as the JSON form and the views write it.
    pub fn name(self) -> &'static str {
        match self {
            CellTest::Test(t) => t.name(),
            CellTest::MmtestsTtest => MMTESTS_MARKERS[0],
            CellTest::MmtestsCi => MMTESTS_MARKERS[1],
            CellTest::Mmtests => MMTESTS_MARKERS[2],
        }
    }

    /// The test named `s`: one of [`TEST_NAMES`] or MMTests' markers.
    pub fn parse(s: &str) -> Result<CellTest> {
        match s {
            "mmtests-ttest" => Ok(CellTest::MmtestsTtest),
            "mmtests-ci" => Ok(CellTest::MmtestsCi),
            "mmtests" => Ok(CellTest::Mmtests),
            _ => Test::parse(s).map(CellTest::Test).map_err(|_| {
                let names: Vec<&str> = TEST_NAMES.iter().chain(&MMTESTS_MARKERS).copied().collect();
                Error::domain(format!("a cell's test must be one of {}, got '{s}'", names.join(", ")))
            }),
        }
    }
}

impl From<Test> for CellTest {
    fn from(t: Test) -> Self {
        CellTest::Test(t)
    }
}

impl Serialize for CellTest {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for CellTest {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let s = std::borrow::Cow::<str>::deserialize(d)?;
        CellTest::parse(&s).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_reads_back() {
        for t in [
            CellTest::Test(Test::Welch),
            CellTest::Test(Test::MannWhitney),
            CellTest::MmtestsTtest,
            CellTest::MmtestsCi,
            CellTest::Mmtests,
        ] {
            assert_eq!(CellTest::parse(t.name()).unwrap(), t);
        }
        let e = CellTest::parse("t-test").unwrap_err().to_string();
        assert!(e.contains("welch, mann-whitney, mmtests-ttest, mmtests-ci, mmtests"), "{e}");
    }
}
