//! MMTests' own significance markers (`*  -4.59%*`), per era
//! (reference: docs/mmtests.md §5.2 and §5.3).
//!
//! - E0/E1 ([`SigRule::TTest`]): |Δmean|/sqrt(σb²/nb + σi²/ni) with pooled
//!   df = nb + ni − 2, p = 2·R's `pt` read back with 7 digits, significant when
//!   p < 0.10; zero standard error marks any difference.
//! - E2/E3 ([`SigRule::CiOverlap`]): the two mean ± round7(1.96σ) bands do not
//!   overlap (`cidiff` beyond ±1), with E2's crash and missing-band quirks.

use super::era::{Era, SigRule};
use super::perlfmt::{perl_str_roundtrip, r_print7};
use super::summarise::{OpSummary, RunSummary};
use crate::error::{Error, Result};
use statrs::distribution::{ContinuousCDF, StudentsT};

/// The marker decision for one (operation, run) cell.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mark {
    /// Whether the cell gets `*..*`.
    pub significant: bool,
    /// The t-test p-value (E0/E1), when a t statistic was computed.
    pub p: Option<f64>,
    /// The `cidiff` ratio r (E2/E3).
    pub r: Option<f64>,
}

/// R's `pt(t, df, lower.tail = FALSE)` as printed by `R --slave` and read back.
pub fn r_pt_upper(t: f64, df: f64) -> f64 {
    if t.is_nan() || df.is_nan() || df <= 0.0 {
        return f64::NAN;
    }
    match StudentsT::new(0.0, 1.0, df) {
        Ok(d) => r_print7(d.sf(perl_str_roundtrip(t))),
        Err(_) => f64::NAN,
    }
}

/// The t-test of E0/E1 (`Compare.pm::_significanceTest`, α = 0.10).
pub fn ttest_mark(base: Option<&OpSummary>, new: Option<&OpSummary>) -> Mark {
    let pick = |o: Option<&OpSummary>| match o {
        Some(s) => (s.mean, if s.sd_arith.is_nan() { 0.0 } else { s.sd_arith }, s.n as f64),
        None => (0.0, 0.0, 0.0),
    };
    let (mb, sb, nb) = pick(base);
    let (mi, si, ni) = pick(new);
    let se = if nb != 0.0 && ni != 0.0 { (sb * sb / nb + si * si / ni).sqrt() } else { 0.0 };
    if se == 0.0 {
        let delta = mb - mi;
        return Mark { significant: delta.is_nan() || delta != 0.0, p: None, r: None };
    }
    let t = ((mb - mi) / se).abs();
    let p = 2.0 * r_pt_upper(t, nb + ni - 2.0);
    Mark { significant: p < 0.10, p: Some(p), r: None }
}

/// Stat.pm's `cidiff(new, [lo, hi], base, [lo, hi])`: (new − base) over the sum of
/// the facing half-widths, evaluated left to right as the Perl does
/// (`hi_new − new + base − lo_base`); missing bounds count as 0.
pub fn cidiff(new: f64, cn: Option<(f64, f64)>, base: f64, cb: Option<(f64, f64)>) -> f64 {
    let (ln, hn) = cn.unwrap_or((0.0, 0.0));
    let (lb, hb) = cb.unwrap_or((0.0, 0.0));
    let diff = new - base;
    let cisum = if new < base { hn - new + base - lb } else { new - ln + hb - base };
    if cisum == 0.0 {
        diff
    } else {
        diff / cisum
    }
}

/// Markers of every compared run (index 0, the baseline, is never marked), one
/// map per run keyed by operation.
pub fn marks(era: Era, runs: &[RunSummary]) -> Result<Vec<std::collections::HashMap<String, Mark>>> {
    let mut out = vec![std::collections::HashMap::new(); runs.len()];
    let Some(base) = runs.first() else { return Ok(out) };
    let base_has_ci = base.per_op.values().any(|s| s.ci.is_some());
    // the empty column of a run compare-mmtests.pl lost is never marked (docs/mmtests.md §12)
    for (i, run) in runs.iter().enumerate().skip(1).filter(|(_, r)| !r.lost) {
        let run_has_ci = run.per_op.values().any(|s| s.ci.is_some());
        for op in &base.ops {
            let b = base.per_op.get(op);
            let v = run.per_op.get(op);
            let mark = match era.rules().sig_rule() {
                SigRule::TTest => ttest_mark(b, v),
                SigRule::CiOverlap { die_on_missing } => {
                    if !run_has_ci {
                        Mark { significant: false, p: None, r: None }
                    } else if let Some(vci) = v.and_then(|s| s.ci) {
                        let vv = v.map(|s| s.ratio_value).unwrap_or(f64::NAN);
                        let (bv, bci) = if base_has_ci {
                            (b.map(|s| s.ratio_value).unwrap_or(0.0), b.and_then(|s| s.ci))
                        } else {
                            (0.0, None)
                        };
                        let r = cidiff(bv, bci, vv, Some(vci));
                        Mark { significant: r.abs() > 1.0, p: None, r: Some(r) }
                    } else if die_on_missing {
                        return Err(Error::domain(format!(
                            "MMTests {} cannot mark '{op}' of '{}': it has fewer than 2 usable samples there while other operations have an interval (compare-mmtests.pl dies: \"Can't use an undefined value as an ARRAY reference\"); use --compat head or another era",
                            era.name(),
                            run.name
                        )));
                    } else {
                        Mark { significant: false, p: None, r: Some(0.0) }
                    }
                }
            };
            if let Some(m) = out.get_mut(i) {
                m.insert(op.clone(), mark);
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cidiff_by_hand() {
        // docs/mmtests.md §5.2 worked example: B 6160.61 ± 188.39, V 5878.01 ± 79.03 -> r = 282.6/267.42
        let r = cidiff(
            6160.61,
            Some((6160.61 - 188.39, 6160.61 + 188.39)),
            5878.01,
            Some((5878.01 - 79.03, 5878.01 + 79.03)),
        );
        assert!((r - 282.6 / 267.42).abs() < 1e-9, "{r}");
        // no bands: new < base gives cisum = 0 - 1 + 3 - 0 = 2
        assert_eq!(cidiff(1.0, None, 3.0, None), -1.0);
    }

    #[test]
    fn pt_df1_is_cauchy() {
        // P(T_1 > 1) = 1/4
        assert_eq!(r_pt_upper(1.0, 1.0), 0.25);
    }
}
