//! The four versions ("eras") of MMTests whose tables schedlab reproduces, as
//! small rule types behind one trait (reference: docs/mmtests.md §0).
//!
//! | name | spec | MMTests | what it decides |
//! |---|---|---|---|
//! | `2018` | E0 | 7237c819, Dec 2018 | `<benchmark>-<name>/noprofile` layout, raw-order sums, t-test markers |
//! | `2024` | E1 | 93946ac6, Aug 2024 | `<name>/iter-N/<benchmark>/logs`, sorted sums, t-test markers |
//! | `2025` | E2 | 3ded02f7, 2024-11 … 2025-12 | ±1.96σ band markers, HStddev rows |
//! | `head` | E3 | 638401e0, 2026-06 | ExtractShellpack labels, `BAmean.95`/`Pctile.95` names, FL 18 |

use super::summarise::{Stat, SummaryKind};
use crate::archive::tree::join;
use crate::archive::Tree;
use crate::error::{Error, Result};

/// An MMTests version, selected by `--compat`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Era {
    /// MMTests of December 2018 (E0).
    E2018,
    /// The t-test era as of 2024-08 (E1).
    E2024,
    /// CI-overlap markers, the last with sockperf/tbench4/dbench4 (E2).
    E2025,
    /// Current MMTests with ExtractShellpack (E3).
    Head,
}

/// Which way a benchmark is better, as MMTests' `getPreferredValue` says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Preferred {
    /// Higher values are better (Hmean is shown).
    Higher,
    /// Lower values are better (Amean is shown).
    Lower,
}

impl Preferred {
    /// "Higher" or "Lower", as printed in `--print-ratio` summary rows.
    pub fn name(self) -> &'static str {
        match self {
            Preferred::Higher => "Higher",
            Preferred::Lower => "Lower",
        }
    }

    /// The table's direction of the benchmark's values.
    pub fn direction(self) -> crate::table::Direction {
        match self {
            Preferred::Higher => crate::table::Direction::Higher,
            Preferred::Lower => crate::table::Direction::Lower,
        }
    }
}

/// How significance markers are decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SigRule {
    /// Two-sample t-test with pooled df, α = 0.10, on rows named `/^.mean/` (E0, E1).
    TTest,
    /// ±1.96σ bands do not overlap, on the ratio statistic's row (E2, E3).
    /// `die_on_missing`: E2 dies when a compared run lacks a band another op has.
    CiOverlap { die_on_missing: bool },
}

/// How `--print-ratio`'s `(±x.xxs)` column is computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NormRule {
    /// (a − b)/sqrt((σa² + σb²)/2) (E0, E1).
    Sdiff,
    /// (a − b)/(q_a + q_b) with the 1.96σ half-widths (E2, E3).
    Cidiff,
}

/// How the harmonic mean treats a value ≤ 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HmeanRule {
    /// The mean is −1, which compare treats as missing (E0, E1).
    MinusOne,
    /// NaN; Perl dies with "Illegal division by zero" when the best value is ≤ 0 (E2, E3).
    NanOrDie,
}

/// The rules one era applies; one implementation per era.
pub trait EraRules: Sync {
    /// The era these rules belong to.
    fn era(&self) -> Era;
    /// The directories holding one run's logs (paths of `tree`), one per iteration
    /// in Perl glob order; `root` is the `work/log` directory inside `tree`.
    fn log_dirs(&self, tree: &dyn Tree, root: &str, benchmark: &str, name: &str) -> Result<Vec<String>>;
    /// The summary rows of a summary type, in print order.
    fn summary_stats(&self, kind: SummaryKind) -> Vec<Stat>;
    /// The display name of a statistic (`getStatName`).
    fn stat_name(&self, stat: Stat, pref: Preferred, value_label: &str) -> String;
    /// `_FieldLength` when the module does not set one.
    fn field_length(&self) -> usize;
    /// Significance rule.
    fn sig_rule(&self) -> SigRule;
    /// The ratio table's normalised difference.
    fn norm_rule(&self) -> NormRule;
    /// Harmonic mean of non-positive data.
    fn hmean_rule(&self) -> HmeanRule;
    /// Whether samples are sorted best-first before summing (E1+), or summed in
    /// extraction order (E0).
    fn sorted_sums(&self) -> bool;
    /// Whether a non-numeric sample is dropped (`looks_like_number`, E1+) rather
    /// than kept and poisoning the statistics (E0).
    fn drops_non_numeric(&self) -> bool;
}

impl Era {
    /// Parse a `--compat` name: 2018, 2024, 2025 or head.
    pub fn parse(s: &str) -> Result<Era> {
        match s {
            "2018" => Ok(Era::E2018),
            "2024" => Ok(Era::E2024),
            "2025" => Ok(Era::E2025),
            "head" => Ok(Era::Head),
            _ => Err(Error::domain(format!("--compat must be 2018, 2024, 2025 or head, got '{s}'"))),
        }
    }

    /// The `--compat` name.
    pub fn name(self) -> &'static str {
        match self {
            Era::E2018 => "2018",
            Era::E2024 => "2024",
            Era::E2025 => "2025",
            Era::Head => "head",
        }
    }

    /// When MMTests wrote the logs this era's rules are meant for, as a note telling
    /// the user which `--compat` to pass says it (docs/mmtests.md §0).
    pub fn written(self) -> &'static str {
        match self {
            Era::E2018 => "of 2018 (the <benchmark>-<name>/noprofile layout)",
            Era::E2024 => "before 2024-11-28",
            Era::E2025 => "of 2024-11-28 to 2025-12",
            Era::Head => "of 2026 or later",
        }
    }

    /// Every era, newest first (the order `--compat` is guessed in).
    pub fn newest_first() -> [Era; 4] {
        [Era::Head, Era::E2025, Era::E2024, Era::E2018]
    }

    /// The rules of this era.
    pub fn rules(self) -> &'static dyn EraRules {
        match self {
            Era::E2018 => &E0,
            Era::E2024 => &E1,
            Era::E2025 => &E2,
            Era::Head => &E3,
        }
    }
}

/// Rules of MMTests 7237c819 (December 2018).
pub struct E0;
/// Rules of MMTests 93946ac6 (August 2024).
pub struct E1;
/// Rules of MMTests 3ded02f7 (2024-11-28 … 2025-12).
pub struct E2;
/// Rules of MMTests 638401e0 (2026-06).
pub struct E3;

fn iter_dirs(tree: &dyn Tree, root: &str, benchmark: &str, name: &str) -> Result<Vec<String>> {
    let run = join(root, name);
    let names = tree.list(&run)?;
    let dirs: Vec<String> = names
        .iter()
        .filter(|n| n.starts_with("iter-"))
        .map(|n| format!("{}/{benchmark}/logs", join(&run, n)))
        .filter(|p| tree.is_dir(p))
        .collect();
    if dirs.is_empty() {
        return Err(Error::Io {
            path: tree.display(&format!("{run}/iter-*/{benchmark}/logs")),
            msg: format!("no logs of benchmark '{benchmark}' for '{name}'"),
            not_found: true,
        });
    }
    Ok(dirs)
}

fn mean_name(pref: Preferred) -> &'static str {
    match pref {
        Preferred::Higher => "Hmean",
        Preferred::Lower => "Amean",
    }
}

fn common_name(stat: Stat, pref: Preferred, value_label: &str, dotted: bool) -> String {
    let m = mean_name(pref);
    let h = if pref == Preferred::Higher { "H" } else { "" };
    match stat {
        Stat::Min => "Min".into(),
        Stat::Max => "Max".into(),
        Stat::Mean => m.into(),
        Stat::MeanBest(p) => {
            let b = if pref == Preferred::Higher { "BHmean" } else { "BAmean" };
            if dotted {
                format!("{b}.{p}")
            } else {
                format!("{b}-{p}")
            }
        }
        Stat::Stddev => "Stddev".into(),
        Stat::CoeffVar => "CoeffVar".into(),
        Stat::StddevMean => format!("{h}Stddev"),
        Stat::CoeffVarMean => format!("{h}CoeffVar"),
        Stat::Percentile(p) => {
            if dotted {
                format!("Pctile.{p}")
            } else {
                match p {
                    25 => "1st-qrtle".into(),
                    50 => "2nd-qrtle".into(),
                    75 => "3rd-qrtle".into(),
                    _ => format!("Max-{p}"),
                }
            }
        }
        Stat::SubMean => {
            if pref == Preferred::Higher {
                "SubHmean".into()
            } else {
                "SubAmean".into()
            }
        }
        Stat::SubMeanCi => "SubAmeanCI".into(),
        Stat::Value => value_label.into(),
    }
}

const VARIABLETIME: [Stat; 20] = [
    Stat::Min,
    Stat::Percentile(25),
    Stat::Percentile(50),
    Stat::Percentile(75),
    Stat::Percentile(1),
    Stat::Percentile(5),
    Stat::Percentile(10),
    Stat::Percentile(90),
    Stat::Percentile(95),
    Stat::Percentile(99),
    Stat::Max,
    Stat::Mean,
    Stat::StddevMean,
    Stat::CoeffVarMean,
    Stat::MeanBest(99),
    Stat::MeanBest(95),
    Stat::MeanBest(90),
    Stat::MeanBest(75),
    Stat::MeanBest(50),
    Stat::MeanBest(25),
];

impl EraRules for E0 {
    fn era(&self) -> Era {
        Era::E2018
    }
    fn log_dirs(&self, tree: &dyn Tree, root: &str, benchmark: &str, name: &str) -> Result<Vec<String>> {
        let base = join(root, &format!("{benchmark}-{name}"));
        for profile in ["noprofile", "fine-profile-timer"] {
            let d = join(&base, profile);
            if tree.is_dir(&d) {
                return Ok(vec![d]);
            }
        }
        Err(Error::Io {
            path: tree.display(&join(&base, "noprofile")),
            msg: format!("no logs of benchmark '{benchmark}' for '{name}' (2018 layout <benchmark>-<name>/noprofile)"),
            not_found: true,
        })
    }
    fn summary_stats(&self, kind: SummaryKind) -> Vec<Stat> {
        use Stat::*;
        match kind {
            SummaryKind::Multiops => vec![Min, Mean, Stddev, CoeffVar, Max, MeanBest(50), MeanBest(95), MeanBest(99)],
            SummaryKind::Subselection => vec![Min, Mean, Stddev, Max, SubMean, SubMeanCi],
            SummaryKind::Singleops => vec![Value],
            _ => VARIABLETIME.to_vec(),
        }
    }
    fn stat_name(&self, stat: Stat, pref: Preferred, value_label: &str) -> String {
        common_name(stat, pref, value_label, false)
    }
    fn field_length(&self) -> usize {
        12
    }
    fn sig_rule(&self) -> SigRule {
        SigRule::TTest
    }
    fn norm_rule(&self) -> NormRule {
        NormRule::Sdiff
    }
    fn hmean_rule(&self) -> HmeanRule {
        HmeanRule::MinusOne
    }
    fn sorted_sums(&self) -> bool {
        false
    }
    fn drops_non_numeric(&self) -> bool {
        false
    }
}

impl EraRules for E1 {
    fn era(&self) -> Era {
        Era::E2024
    }
    fn log_dirs(&self, tree: &dyn Tree, root: &str, benchmark: &str, name: &str) -> Result<Vec<String>> {
        iter_dirs(tree, root, benchmark, name)
    }
    fn summary_stats(&self, kind: SummaryKind) -> Vec<Stat> {
        use Stat::*;
        match kind {
            SummaryKind::Multiops => vec![Min, Mean, Stddev, CoeffVar, Max, MeanBest(50), MeanBest(95), MeanBest(99)],
            SummaryKind::Subselection => vec![Min, Mean, Stddev, CoeffVar, Max, SubMean, SubMeanCi],
            SummaryKind::Singleops => vec![Value],
            _ => VARIABLETIME
                .iter()
                .map(|s| match s {
                    StddevMean => Stddev,
                    CoeffVarMean => CoeffVar,
                    o => *o,
                })
                .collect(),
        }
    }
    fn stat_name(&self, stat: Stat, pref: Preferred, value_label: &str) -> String {
        match stat {
            Stat::SubMeanCi => "SubmeanCI".into(),
            _ => common_name(stat, pref, value_label, false),
        }
    }
    fn field_length(&self) -> usize {
        12
    }
    fn sig_rule(&self) -> SigRule {
        SigRule::TTest
    }
    fn norm_rule(&self) -> NormRule {
        NormRule::Sdiff
    }
    fn hmean_rule(&self) -> HmeanRule {
        HmeanRule::MinusOne
    }
    fn sorted_sums(&self) -> bool {
        true
    }
    fn drops_non_numeric(&self) -> bool {
        true
    }
}

impl EraRules for E2 {
    fn era(&self) -> Era {
        Era::E2025
    }
    fn log_dirs(&self, tree: &dyn Tree, root: &str, benchmark: &str, name: &str) -> Result<Vec<String>> {
        iter_dirs(tree, root, benchmark, name)
    }
    fn summary_stats(&self, kind: SummaryKind) -> Vec<Stat> {
        use Stat::*;
        match kind {
            SummaryKind::Multiops => {
                vec![Min, Mean, StddevMean, CoeffVarMean, Max, MeanBest(50), MeanBest(95), MeanBest(99)]
            }
            SummaryKind::Subselection => vec![
                Min,
                Mean,
                MeanBest(50),
                MeanBest(90),
                MeanBest(95),
                MeanBest(99),
                StddevMean,
                CoeffVarMean,
                Max,
                SubMean,
                SubMeanCi,
            ],
            SummaryKind::Singleops => vec![Value],
            _ => VARIABLETIME.to_vec(),
        }
    }
    fn stat_name(&self, stat: Stat, pref: Preferred, value_label: &str) -> String {
        common_name(stat, pref, value_label, false)
    }
    fn field_length(&self) -> usize {
        12
    }
    fn sig_rule(&self) -> SigRule {
        SigRule::CiOverlap { die_on_missing: true }
    }
    fn norm_rule(&self) -> NormRule {
        NormRule::Cidiff
    }
    fn hmean_rule(&self) -> HmeanRule {
        HmeanRule::NanOrDie
    }
    fn sorted_sums(&self) -> bool {
        true
    }
    fn drops_non_numeric(&self) -> bool {
        true
    }
}

impl EraRules for E3 {
    fn era(&self) -> Era {
        Era::Head
    }
    fn log_dirs(&self, tree: &dyn Tree, root: &str, benchmark: &str, name: &str) -> Result<Vec<String>> {
        iter_dirs(tree, root, benchmark, name)
    }
    fn summary_stats(&self, kind: SummaryKind) -> Vec<Stat> {
        use Stat::*;
        match kind {
            SummaryKind::Multiops => vec![Min, Mean, StddevMean, CoeffVarMean, Max, MeanBest(95)],
            SummaryKind::Subselection => vec![Min, Mean, MeanBest(95), Stddev, CoeffVar, Max, SubMean, SubMeanCi],
            SummaryKind::Singleops => vec![Value],
            SummaryKind::Normalisedops => {
                vec![Min, Mean, MeanBest(95), Percentile(95), StddevMean, CoeffVarMean, Max]
            }
            SummaryKind::NormalisedLeftSkewops => vec![
                Min,
                Mean,
                MeanBest(50),
                Percentile(50),
                MeanBest(75),
                Percentile(75),
                MeanBest(90),
                Percentile(90),
                MeanBest(99),
                Percentile(99),
                StddevMean,
                CoeffVarMean,
                Max,
            ],
            SummaryKind::Variabletime => VARIABLETIME.to_vec(),
        }
    }
    fn stat_name(&self, stat: Stat, pref: Preferred, value_label: &str) -> String {
        common_name(stat, pref, value_label, true)
    }
    fn field_length(&self) -> usize {
        18
    }
    fn sig_rule(&self) -> SigRule {
        SigRule::CiOverlap { die_on_missing: false }
    }
    fn norm_rule(&self) -> NormRule {
        NormRule::Cidiff
    }
    fn hmean_rule(&self) -> HmeanRule {
        HmeanRule::NanOrDie
    }
    fn sorted_sums(&self) -> bool {
        true
    }
    fn drops_non_numeric(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_per_era() {
        let h = Preferred::Higher;
        assert_eq!(E2.stat_name(Stat::StddevMean, h, "Ops"), "HStddev");
        assert_eq!(E1.stat_name(Stat::Stddev, h, "Ops"), "Stddev");
        assert_eq!(E3.stat_name(Stat::MeanBest(95), h, "Ops"), "BHmean.95");
        assert_eq!(E2.stat_name(Stat::MeanBest(95), Preferred::Lower, "Ops"), "BAmean-95");
        assert_eq!(E3.stat_name(Stat::Percentile(50), Preferred::Lower, "Ops"), "Pctile.50");
        assert_eq!(E2.stat_name(Stat::Percentile(95), Preferred::Lower, "Ops"), "Max-95");
        assert_eq!(E0.stat_name(Stat::Value, Preferred::Lower, "Lat"), "Lat");
        assert_eq!(Era::parse("head").unwrap(), Era::Head);
        assert!(Era::parse("2019").is_err());
    }
}
