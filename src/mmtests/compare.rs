//! The comparison table of compare-mmtests.pl (`Compare.pm::_generateComparisonTable`):
//! summary rows × runs with MMTests' percentage and markers, as a [`Comparison`]
//! (reference: docs/mmtests.md §5.1).

use super::era::{Era, Preferred, SigRule};
use super::perlfmt::perl_str_roundtrip;
use super::significance::Mark;
use super::summarise::{RunSummary, Stat};
use crate::table::{Cell, CellTest, ChangeKind, Comparison, Direction, Row, Verdict};
use std::collections::HashMap;

/// MMTests' `pdiff`: percentage gain of `v` over `b` (higher is better).
pub fn pdiff(v: f64, b: f64) -> f64 {
    pdiff_by(v, b, |l, r| l - r)
}

/// MMTests' `pndiff`: percentage gain of `v` over `b` (lower is better).
pub fn pndiff(v: f64, b: f64) -> f64 {
    pndiff_by(v, b, |l, r| l - r)
}

fn pdiff_by(v: f64, b: f64, minus: fn(f64, f64) -> f64) -> f64 {
    if v == b || v == 0.0 {
        return 0.0;
    }
    if b == 0.0 || b.is_nan() {
        return 100.0;
    }
    minus(v * 100.0 / b, 100.0)
}

fn pndiff_by(v: f64, b: f64, minus: fn(f64, f64) -> f64) -> f64 {
    if v == b {
        return 0.0;
    }
    if v == 0.0 {
        return 100.0;
    }
    if b == 0.0 {
        return -99.0;
    }
    minus(100.0, v * 100.0 / b)
}

/// 2^62: Perl 5.36 subtracts two integral numbers below this in integer arithmetic.
const PERL_IV_SUBTRACT_LIMIT: f64 = 4_611_686_018_427_387_904.0;

/// `l - r` as compare-mmtests.pl's `"$pct$sig"` and then `printf("%f")` see it. Perl
/// subtracts in integers when both operands are integral and below 2^62 in magnitude
/// (a percentage of a ~0 baseline, `100 - 5.4e16`, is one: its digits are exact) and
/// stringifies the integer with all its digits; otherwise it subtracts doubles and
/// stringifies with 15 significant digits. printf reads the string back as the nearest double.
fn perl_printed_minus(l: f64, r: f64) -> f64 {
    let integral = |x: f64| x.fract() == 0.0 && x.abs() < PERL_IV_SUBTRACT_LIMIT;
    if integral(l) && integral(r) {
        // both below 2^62 in magnitude: the difference fits an i64
        ((l as i64) - (r as i64)) as f64
    } else {
        perl_str_roundtrip(l - r)
    }
}

/// The percentage of one cell with the compare function of its statistic (`pdiff`, or
/// `pndiff` for lower-is-better statistics), as compare-mmtests.pl prints it
/// (see [`perl_printed_minus`]).
pub fn printed_pct(stat: Stat, pref: Preferred, v: f64, b: f64) -> f64 {
    if stat.always_lower() || pref == Preferred::Lower {
        pndiff_by(v, b, perl_printed_minus)
    } else {
        pdiff_by(v, b, perl_printed_minus)
    }
}

fn direction(stat: Stat, pref: Preferred) -> Direction {
    if stat.always_lower() {
        Direction::Lower
    } else {
        Direction::from_higher(pref == Preferred::Higher)
    }
}

/// Build the table. `names[i]` are the stat display names; `marked` says which
/// statistic carries the markers (None: rows named `/^.mean/`, the E0/E1 rule).
#[allow(clippy::too_many_arguments)]
pub fn build_table(
    era: Era,
    benchmark: &str,
    runs: &[RunSummary],
    names: &[String],
    marked_stat: Option<Stat>,
    marks: &[HashMap<String, Mark>],
) -> Comparison {
    let kernels: Vec<String> = runs.iter().map(|r| r.name.clone()).collect();
    let mut c = Comparison::new("mmtests", benchmark, kernels);
    let Some(base) = runs.first() else { return c };
    let pref = base.preferred;
    let test_name = match era.rules().sig_rule() {
        SigRule::TTest => CellTest::MmtestsTtest,
        SigRule::CiOverlap { .. } => CellTest::MmtestsCi,
    };
    for (si, &stat) in base.stats.iter().enumerate() {
        let name = names.get(si).cloned().unwrap_or_default();
        let is_marked = match marked_stat {
            Some(m) => m == stat,
            None => name.get(1..5) == Some("mean"),
        };
        for op in &base.ops {
            let b = base.per_op.get(op).and_then(|s| s.values.get(si)).copied().unwrap_or(f64::NAN);
            let mut cells = Vec::with_capacity(runs.len());
            for (i, run) in runs.iter().enumerate() {
                let s = run.per_op.get(op);
                let v = s.and_then(|s| s.values.get(si)).copied().unwrap_or(f64::NAN);
                let mut cell = Cell::default();
                if !v.is_nan() && v != -1.0 && b != -1.0 {
                    cell.value = Some(v);
                    cell.change = Some(printed_pct(stat, pref, v, b));
                }
                cell.n = s.map(|s| s.n as u64);
                if is_marked {
                    cell.samples = s.map(|s| s.samples.clone().into_boxed_slice());
                    if i == 0 {
                        cell.verdict = Some(Verdict::Baseline);
                    } else if let Some(m) = marks.get(i).and_then(|m| m.get(op)) {
                        cell.significant = Some(m.significant);
                        cell.p = m.p;
                        cell.test = Some(test_name);
                        let ch = cell.change.unwrap_or(0.0);
                        cell.verdict = Some(if !m.significant {
                            Verdict::Noise
                        } else if ch > 0.0 {
                            Verdict::Better
                        } else if ch < 0.0 {
                            Verdict::Worse
                        } else {
                            Verdict::Changed
                        });
                    }
                }
                cells.push(cell);
            }
            c.rows.push(Row {
                group: name.clone(),
                name: op.clone(),
                direction: direction(stat, pref),
                change_kind: ChangeKind::Improvement,
                unit: None,
                cells,
            });
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_by_hand() {
        assert_eq!(pdiff(110.0, 100.0), 110.0 * 100.0 / 100.0 - 100.0);
        assert_eq!(pdiff(0.0, 100.0), 0.0);
        assert_eq!(pdiff(5.0, 0.0), 100.0);
        assert_eq!(pdiff(5.0, f64::NAN), 100.0);
        assert_eq!(pndiff(90.0, 100.0), 10.0);
        assert_eq!(pndiff(0.0, 100.0), 100.0);
        assert_eq!(pndiff(5.0, 0.0), -99.0);
        assert!(pndiff(5.0, f64::NAN).is_nan());
    }

    #[test]
    fn printed_percentages_follow_perls_integer_subtraction() {
        // perl 5.36: my $x = 19.28*100/1.7797887332061e-14; print 100 - $x  -> -108327464042707548
        let x: f64 = 19.28 * 100.0 / 1.7797887332061e-14;
        assert_eq!(x, 108327464042707648.0);
        assert_eq!(printed_pct(Stat::CoeffVar, Preferred::Higher, 19.28, 1.7797887332061e-14), -108327464042707548.0);
        // perl: print 100 - 2**62 * 1.5 -> -6.91752902764108e+18 (doubles, 15 digits)
        assert_eq!(perl_printed_minus(100.0, 6917529027641081856.0), -6.91752902764108e18);
        // not integral: doubles, 15 digits
        assert_eq!(perl_printed_minus(156747967.4796748, 100.0), 156747867.479675);
    }
}
