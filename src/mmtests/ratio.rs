//! `compare-mmtests.pl --print-ratio` (`Compare.pm::_generateRatioComparisonTable`):
//! per-operation ratios new/base of the ratio statistic, the normalised
//! difference `(±x.xxs)`, and the Dmean/Dmin/Dmax and Gmean summary rows
//! (reference: docs/mmtests.md §7).

use super::compare::{pdiff, pndiff};
use super::era::{Era, NormRule, Preferred};
use super::significance::cidiff;
use super::summarise::{OpSummary, RunSummary, SummaryKind};
use crate::table::{Cell, ChangeKind, Comparison, Direction, Row};

/// MMTests' `rdiff`: a/b, except 0 against a zero baseline and 1 for a zero value.
pub fn rdiff(a: f64, b: f64) -> f64 {
    if b == 0.0 || b.is_nan() {
        return 0.0;
    }
    if a == 0.0 || a.is_nan() {
        return 1.0;
    }
    a / b
}

/// MMTests' `sdiff`: (new − base)/sqrt((σn² + σb²)/2), or the difference when that is 0.
pub fn sdiff(new: f64, sd_new: f64, base: f64, sd_base: f64) -> f64 {
    let diff = new - base;
    let pdev = ((sd_new * sd_new + sd_base * sd_base) / 2.0).sqrt();
    if pdev == 0.0 {
        diff
    } else {
        diff / pdev
    }
}

/// Stat.pm's `calc_geomean`: (Π u)^(1/n) in the given order.
pub fn calc_geomean(units: &[f64]) -> f64 {
    if units.is_empty() {
        return f64::NAN;
    }
    let mut m = 1.0;
    for u in units {
        m *= u;
    }
    m.powf(1.0 / units.len() as f64)
}

/// Stat.pm's `cidiff` of MMTests 2018 and 2024: (new − base) over the sum of the two
/// half-widths, or the difference when that sum is 0.
pub fn cidiff_half(new: f64, new_half: f64, base: f64, base_half: f64) -> f64 {
    let diff = new - base;
    let cisum = new_half + base_half;
    if cisum == 0.0 {
        diff
    } else {
        diff / cisum
    }
}

/// One compared run's ratio, percentage and normalised difference for an operation.
fn ratio_cell(
    era: Era,
    kind: SummaryKind,
    pref: Preferred,
    a: Option<&OpSummary>,
    b: Option<&OpSummary>,
    has_norm: bool,
    swap: bool,
) -> (f64, f64, Option<f64>) {
    if era == Era::E2018 {
        return ratio_cell_2018(kind, pref, a, b, has_norm);
    }
    let (a, b) = if swap { (b, a) } else { (a, b) };
    let av = a.map(|s| s.ratio_value).unwrap_or(f64::NAN);
    let bv = b.map(|s| s.ratio_value).unwrap_or(f64::NAN);
    if av == -1.0 || av.is_nan() || bv == -1.0 || bv.is_nan() {
        return (1.0, 0.0, has_norm.then_some(0.0));
    }
    let ratio = rdiff(av, bv);
    let pct = if pref == Preferred::Higher { pdiff(ratio, 1.0) } else { pndiff(ratio, 1.0) };
    if !has_norm {
        return (ratio, pct, None);
    }
    let norm = match (era.rules().norm_rule(), kind) {
        (NormRule::Cidiff, _) => cidiff(av, a.and_then(|s| s.ci), bv, b.and_then(|s| s.ci)),
        (NormRule::Sdiff, SummaryKind::Subselection) => {
            let h = |s: Option<&OpSummary>| s.and_then(|s| s.sub_half).filter(|h| !h.is_nan()).unwrap_or(0.0);
            cidiff_half(av, h(a), bv, h(b))
        }
        (NormRule::Sdiff, _) => {
            let sd = |s: Option<&OpSummary>| {
                let v = s.map(|s| s.sd_arith).unwrap_or(f64::NAN);
                if era == Era::E2024 && v.is_nan() {
                    0.0
                } else {
                    v
                }
            };
            sdiff(av, sd(a), bv, sd(b))
        }
    };
    (ratio, pct, Some(if norm.is_nan() { 0.0 } else { norm }))
}

/// MMTests 2018's ratio cell (`Compare.pm::_generateComparisonTable` on the one-column
/// ratio summary, docs/mmtests.md §7.3): a run without the operation, or whose value is
/// −1 or NaN, or a baseline of −1, gives (1, 0 %, 0 s); otherwise the ratio is
/// `rdiff(a, b)`, the percentage the column's compare function of the two values (not of
/// the ratio: `pdiff`/`pndiff`, where a zero baseline gives 100 or −99 %), and the
/// normalised difference (where the baseline has the intervals) `sdiff` with the standard
/// deviations or, for the subselection summary, `cidiff` with the half-widths R printed
/// (NaN → 0).
fn ratio_cell_2018(
    kind: SummaryKind,
    pref: Preferred,
    a: Option<&OpSummary>,
    b: Option<&OpSummary>,
    has_norm: bool,
) -> (f64, f64, Option<f64>) {
    let bv = b.map(|s| s.ratio_value).unwrap_or(f64::NAN);
    let Some(a) = a.filter(|a| a.ratio_value != -1.0 && !a.ratio_value.is_nan() && bv != -1.0) else {
        return (1.0, 0.0, has_norm.then_some(0.0));
    };
    let av = a.ratio_value;
    let pct = if pref == Preferred::Higher { pdiff(av, bv) } else { pndiff(av, bv) };
    if !has_norm {
        return (rdiff(av, bv), pct, None);
    }
    let norm = match kind {
        SummaryKind::Subselection => {
            let h = |s: Option<&OpSummary>| s.and_then(|s| s.sub_half).unwrap_or(0.0);
            cidiff_half(av, h(Some(a)), bv, h(b))
        }
        _ => sdiff(av, a.sd_arith, bv, b.map(|s| s.sd_arith).unwrap_or(f64::NAN)),
    };
    (rdiff(av, bv), pct, Some(if norm.is_nan() { 0.0 } else { norm }))
}

/// Whether the baseline has the intervals that make the `(±x.xxs)` column and
/// the D rows appear.
fn has_norm(era: Era, kind: SummaryKind, base: &RunSummary) -> bool {
    match (era, kind) {
        (_, SummaryKind::Singleops) => false,
        // 2024's SummariseVariabletime has one ratio statistic (percentile-95) and no
        // interval beside it
        (Era::E2024, SummaryKind::Variabletime) => false,
        (Era::E2018, _) => true,
        (Era::E2024, _) => base.per_op.values().any(|s| !s.sd_arith.is_nan()),
        _ => base.per_op.values().any(|s| s.ci.is_some()),
    }
}

/// Build the `--print-ratio` table of `runs` (summaries of the ratio operations
/// `ops`, duplicates kept as MMTests prints them), in the direction `ratio_pref` when the
/// module's ratio direction is not its operations' (each pair is then swapped).
pub fn build_ratio(
    era: Era,
    benchmark: &str,
    kind: SummaryKind,
    ratio_pref: Option<Preferred>,
    runs: &[RunSummary],
    ops: &[String],
) -> Comparison {
    let kernels: Vec<String> = runs.iter().map(|r| r.name.clone()).collect();
    let mut c = Comparison::new("mmtests", benchmark, kernels);
    let Some(base) = runs.first() else { return c };
    let pref = ratio_pref.unwrap_or(base.preferred);
    let swap = pref != base.preferred;
    let norm = has_norm(era, kind, base);
    c.meta.mmtests.get_or_insert_with(Default::default).norm = Some(norm);
    let mut unique: Vec<&String> = Vec::new();
    for op in ops {
        if !unique.contains(&op) {
            unique.push(op);
        }
    }
    let cells_of = |op: &str| -> Vec<(f64, f64, Option<f64>)> {
        runs.iter().map(|r| ratio_cell(era, kind, pref, r.per_op.get(op), base.per_op.get(op), norm, swap)).collect()
    };
    for op in ops {
        let cells = cells_of(op)
            .into_iter()
            .zip(runs)
            .map(|((ratio, pct, nrm), r)| Cell {
                value: Some(ratio),
                change: Some(pct),
                spread: nrm,
                n: r.per_op.get(op.as_str()).map(|s| s.n as u64),
                ..Default::default()
            })
            .collect();
        c.rows.push(Row {
            group: "Ratio".into(),
            name: op.clone(),
            direction: Direction::from_higher(pref == Preferred::Higher),
            change_kind: ChangeKind::Improvement,
            unit: None,
            cells,
        });
    }
    let per_unique: Vec<Vec<(f64, f64, Option<f64>)>> = unique.iter().map(|op| cells_of(op)).collect();
    let summary_row = |group: &str, vals: Vec<f64>| Row {
        group: group.into(),
        name: pref.name().into(),
        direction: Direction::from_higher(pref == Preferred::Higher),
        change_kind: ChangeKind::Improvement,
        unit: None,
        cells: vals.into_iter().map(|v| Cell { value: Some(v), ..Default::default() }).collect(),
    };
    if norm {
        let (mut dmean, mut dmin, mut dmax) = (Vec::new(), Vec::new(), Vec::new());
        for i in 0..runs.len() {
            let u: Vec<f64> = per_unique.iter().map(|cells| cells.get(i).and_then(|c| c.2).unwrap_or(0.0)).collect();
            dmean.push(super::summarise::amean(&u));
            dmin.push(u.iter().copied().fold(f64::NAN, |m, v| if m.is_nan() || v < m { v } else { m }));
            dmax.push(u.iter().copied().fold(f64::NAN, |m, v| if m.is_nan() || v > m { v } else { m }));
        }
        c.rows.push(summary_row("Dmean", dmean));
        c.rows.push(summary_row("Dmin", dmin));
        c.rows.push(summary_row("Dmax", dmax));
    }
    let mut gmean = Vec::new();
    for i in 0..runs.len() {
        let u: Vec<f64> = per_unique
            .iter()
            .map(|cells| {
                let r = cells.get(i).map(|c| c.0).unwrap_or(f64::NAN);
                if r.is_nan() {
                    1.0
                } else if r != 0.0 {
                    r
                } else {
                    0.00001
                }
            })
            .collect();
        gmean.push(calc_geomean(&u));
    }
    c.rows.push(summary_row("Gmean", gmean));
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratio_helpers_by_hand() {
        assert_eq!(rdiff(3.0, 2.0), 1.5);
        assert_eq!(rdiff(3.0, 0.0), 0.0);
        assert_eq!(rdiff(0.0, 2.0), 1.0);
        // (4 - 2) / sqrt((1 + 1)/2) = 2
        assert_eq!(sdiff(4.0, 1.0, 2.0, 1.0), 2.0);
        assert_eq!(sdiff(4.0, 0.0, 2.0, 0.0), 2.0);
        assert_eq!(calc_geomean(&[2.0, 8.0]), 4.0);
    }
}
