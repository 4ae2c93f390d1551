//! What compare-mmtests.pl does not give: the direction-aligned Gmean ratio per
//! kernel (the figure behind "10% better" overview tables), verdicts from a
//! named test (Welch, Mann-Whitney, or MMTests' own rule) with Benjamini-Hochberg
//! control across rows, and a bootstrap interval of the Gmean ratio.

use super::ratio::{calc_geomean, rdiff};
use crate::error::{Error, Result};
use crate::parallel;
use crate::stats::rng::Rng;
use crate::stats::{fdr_bh, Test};
use crate::table::{decide, evidence, Comparison, Direction, Row, Verdict, VerdictMeta, VerdictRule};
use rayon::prelude::*;

fn higher(c: &Comparison) -> bool {
    c.meta.mmtests.as_ref().and_then(|m| m.preferred) == Some(Direction::Higher)
}

/// The rows (one per unique operation) whose values `--print-ratio` divides:
/// the `Ratio` rows of a ratio table, else the rows of the ratio statistic
/// (`mmtests.ratio_group`, e.g. Hmean) restricted to `mmtests.ratio_ops`.
fn ratio_rows(c: &Comparison) -> Result<Vec<Row>> {
    let mm = c.meta.mmtests.as_ref();
    let group = if c.meta.is_mmtests_ratio() {
        "Ratio".to_string()
    } else {
        mm.and_then(|m| m.ratio_group.clone()).filter(|g| !g.is_empty()).unwrap_or_else(|| {
            if higher(c) {
                "Hmean".into()
            } else {
                "Amean".into()
            }
        })
    };
    let ops = mm.and_then(|m| m.ratio_ops.as_ref());
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for r in &c.rows {
        if r.group != group || seen.contains(&r.name) {
            continue;
        }
        if let Some(ops) = &ops {
            if !ops.is_empty() && !ops.contains(&r.name) {
                continue;
            }
        }
        seen.push(r.name.clone());
        out.push(r);
    }
    if out.is_empty() {
        return Err(Error::domain(format!("the table has no '{group}' rows to take a Gmean ratio of")));
    }
    Ok(out)
}

/// The overview tables' wording of a direction-aligned Gmean ratio (as
/// [`gmean_ratio`] gives it): the change rounded to a whole percent, half away from
/// zero, as "10% better" or "1% worse"; "no change" when that is 0, "n/a" for a ratio
/// that is not finite.
pub fn overview_label(ratio: f64) -> String {
    if !ratio.is_finite() {
        return "n/a".to_string();
    }
    let pct = (ratio - 1.0) * 100.0;
    let whole = (pct.abs() + 0.5).floor();
    if whole == 0.0 {
        "no change".to_string()
    } else {
        format!("{whole:.0}% {}", if pct > 0.0 { "better" } else { "worse" })
    }
}

/// Per kernel, the Gmean of the per-operation ratios new/base of the ratio
/// statistic, as `--print-ratio` computes it (a missing or NaN value gives
/// ratio 1, a zero ratio counts as 1e-5), then direction-aligned: inverted when
/// lower is better, so > 1 always means better. The baseline gets 1.
pub fn gmean_ratio(c: &Comparison) -> Result<Vec<f64>> {
    let rows = ratio_rows(c)?;
    let ratio_layout = c.meta.is_mmtests_ratio();
    let hi = higher(c);
    let mut out = Vec::with_capacity(c.kernels.len());
    for k in 0..c.kernels.len() {
        let units: Vec<f64> = rows
            .iter()
            .map(|r| {
                let ratio = if ratio_layout {
                    r.cells.get(k).and_then(|c| c.value).unwrap_or(f64::NAN)
                } else {
                    let a = r.cells.get(k).and_then(|c| c.value).unwrap_or(f64::NAN);
                    let b = r.cells.first().and_then(|c| c.value).unwrap_or(f64::NAN);
                    if a.is_nan() || b.is_nan() || a == -1.0 || b == -1.0 {
                        1.0
                    } else {
                        rdiff(a, b)
                    }
                };
                if ratio.is_nan() {
                    1.0
                } else if ratio != 0.0 {
                    ratio
                } else {
                    0.00001
                }
            })
            .collect();
        let g = calc_geomean(&units);
        out.push(if hi { g } else { 1.0 / g });
    }
    Ok(out)
}

/// Which test decides the verdicts of the mean rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VerdictTest {
    /// MMTests' own marker (t-test or ±1.96σ bands, per era).
    Mmtests,
    /// A two-sample test on the samples, with BH-FDR across rows.
    Test(Test),
}

impl VerdictTest {
    /// Parse "mmtests" or one of [`crate::stats::TEST_NAMES`].
    pub fn parse(s: &str) -> Result<Self> {
        if s == "mmtests" {
            return Ok(Self::Mmtests);
        }
        Test::parse(s).map(Self::Test).map_err(|_| {
            Error::domain(format!("test must be one of mmtests, {}, got '{s}'", crate::stats::TEST_NAMES.join(", ")))
        })
    }
}

/// [`super::compare_at`] with the verdicts of its table then decided by `test` at
/// `alpha` ([`apply_test`]): what `schedlab mmtests compare --test` computes, from
/// the Python command line and the native launcher alike. A test that cannot run is an
/// error even where its verdicts are not printed (the text is compare-mmtests.pl's).
pub fn compare_at_tested(
    dir: &std::path::Path,
    benchmark: &str,
    names: &[String],
    opts: &super::CompareOptions,
    test: VerdictTest,
    alpha: f64,
) -> Result<super::Report> {
    let mut r = super::compare_at(dir, benchmark, names, opts)?;
    apply_test(&mut r.comparison, test, alpha)?;
    Ok(r)
}

/// A copy of `c` with its verdicts re-decided by `test` at `alpha` ([`apply_test`]).
pub fn with_test(c: &Comparison, test: VerdictTest, alpha: f64) -> Result<Comparison> {
    let mut c = c.clone();
    apply_test(&mut c, test, alpha)?;
    Ok(c)
}

/// Re-decide the verdicts of every row that carries samples with `test`,
/// adjusting the p-values of each kernel across rows with Benjamini-Hochberg
/// (q); `significant` keeps MMTests' own marker. Cells with fewer than two
/// samples on either side get `not_enough_data`.
pub fn apply_test(c: &mut Comparison, test: VerdictTest, alpha: f64) -> Result<()> {
    let VerdictTest::Test(test) = test else {
        return Ok(());
    };
    if !(alpha > 0.0 && alpha < 1.0) {
        return Err(Error::domain(format!("alpha must be within (0, 1), got {alpha}")));
    }
    let name = test.name();
    let rule = VerdictRule { alpha, ..VerdictRule::default() };
    for k in 1..c.kernels.len() {
        let mut ps: Vec<(usize, f64)> = Vec::new();
        for ri in 0..c.rows.len() {
            let (Some(base), Some(mut cell)) = (c.rows.cell(ri, 0), c.rows.cell(ri, k)) else { continue };
            let (Some(base), Some(new)) = (base.samples.as_ref(), cell.samples.as_ref()) else { continue };
            let p = if base.len() < 2 || new.len() < 2 { None } else { test.p_value(base, new).ok() };
            if let Some(p) = p.filter(|p| !p.is_nan()) {
                ps.push((ri, p));
            }
            cell.test = Some(test.into());
            cell.p = p;
            cell.q = None;
            cell.verdict = Some(Verdict::NotEnoughData);
            c.rows.set_cell(ri, k, cell);
        }
        let qs = fdr_bh(&ps.iter().map(|x| x.1).collect::<Vec<_>>())?;
        for ((ri, _), q) in ps.iter().zip(qs) {
            let base = c.rows.cell(*ri, 0).and_then(|x| x.samples).unwrap_or_default();
            if let Some(mut cell) = c.rows.cell(*ri, k) {
                let new = cell.samples.as_deref().unwrap_or_default();
                let e = evidence(&base, new, test, &rule);
                cell.q = Some(q);
                cell.verdict = Some(decide(cell.change.unwrap_or(f64::NAN), Some(q), &e, true, &rule));
                c.rows.set_cell(*ri, k, cell);
            }
        }
    }
    c.meta.verdicts = Some(VerdictMeta { test: name.into(), alpha: Some(alpha) });
    Ok(())
}

/// A bootstrap interval of one kernel's direction-aligned Gmean ratio.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GmeanCi {
    /// The Gmean ratio on the full samples (> 1 = better).
    pub estimate: f64,
    /// Lower bound.
    pub low: f64,
    /// Upper bound.
    pub high: f64,
}

fn mean_of(x: &[f64], higher: bool) -> f64 {
    let n = x.len() as f64;
    if higher {
        n / x.iter().map(|v| 1.0 / v).sum::<f64>()
    } else {
        x.iter().sum::<f64>() / n
    }
}

/// Percentile bootstrap of the Gmean ratio of kernel `k` against the baseline:
/// each resample redraws every operation's samples of both kernels with
/// replacement, takes the mean MMTests shows (hmean or amean) and the Gmean of
/// the per-operation ratios, direction-aligned. Seeded and thread-count
/// independent (one random stream per chunk of resamples).
pub fn bootstrap_gmean_ci(
    c: &Comparison,
    k: usize,
    level: f64,
    n_resamples: usize,
    seed: u64,
    threads: Option<usize>,
) -> Result<GmeanCi> {
    if k == 0 || k >= c.kernels.len() {
        return Err(Error::domain(format!("kernel index {k} is not a compared kernel (1..{})", c.kernels.len())));
    }
    if !(level > 0.0 && level < 1.0 && (10..=10_000_000).contains(&n_resamples)) {
        return Err(Error::domain("level must be within (0, 1) and n_resamples within 10..=10000000"));
    }
    let hi = higher(c);
    let mut pairs: Vec<(Vec<f64>, Vec<f64>)> = Vec::new();
    for r in ratio_rows(c)? {
        let (Some(b), Some(n)) =
            (r.cells.first().and_then(|x| x.samples.clone()), r.cells.get(k).and_then(|x| x.samples.clone()))
        else {
            continue;
        };
        let ok = |v: &[f64]| v.len() >= 2 && v.iter().all(|x| x.is_finite() && (!hi || *x > 0.0));
        if ok(&b) && ok(&n) {
            pairs.push((b.into_vec(), n.into_vec()));
        }
    }
    if pairs.is_empty() {
        return Err(Error::insufficient(
            "no operation has two or more usable samples per kernel (a table parsed from text has no samples)",
        ));
    }
    let g = |ps: &[(f64, f64)]| {
        let prod: f64 = ps.iter().map(|(b, n)| (n / b).ln()).sum::<f64>() / ps.len() as f64;
        let g = prod.exp();
        if hi {
            g
        } else {
            1.0 / g
        }
    };
    let full: Vec<(f64, f64)> = pairs.iter().map(|(b, n)| (mean_of(b, hi), mean_of(n, hi))).collect();
    let estimate = g(&full);
    const CHUNK: usize = 256;
    let chunks = n_resamples.div_ceil(CHUNK);
    let mut stats: Vec<f64> = parallel::install(threads, || {
        (0..chunks)
            .into_par_iter()
            .flat_map_iter(|ch| {
                let len = CHUNK.min(n_resamples - ch * CHUNK);
                let mut rng = Rng::new(seed, ch as u64);
                let pairs = &pairs;
                (0..len)
                    .map(|_| {
                        let ms: Vec<(f64, f64)> = pairs
                            .iter()
                            .map(|(b, n)| {
                                let rb: Vec<f64> = (0..b.len()).filter_map(|_| rng.choose(b)).collect();
                                let rn: Vec<f64> = (0..n.len()).filter_map(|_| rng.choose(n)).collect();
                                (mean_of(&rb, hi), mean_of(&rn, hi))
                            })
                            .collect();
                        g(&ms)
                    })
                    .collect::<Vec<f64>>()
            })
            .collect()
    })?;
    stats.sort_by(f64::total_cmp);
    // stats has n_resamples ≥ 10 values and 0 < q < 1, so lo and hi_i are in it
    let pick = |q: f64| {
        let last = stats.len().saturating_sub(1);
        let idx = last as f64 * q;
        let lo = idx.floor() as usize;
        let hi_i = (lo + 1).min(last);
        let f = idx - lo as f64;
        match (stats.get(lo), stats.get(hi_i)) {
            (Some(a), Some(b)) => a + (b - a) * f,
            _ => f64::NAN,
        }
    };
    let a = (1.0 - level) / 2.0;
    Ok(GmeanCi { estimate, low: pick(a), high: pick(1.0 - a) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::{Cell, ChangeKind, MmtestsMeta, Row};

    #[test]
    fn overview_labels_round_the_change_to_a_whole_percent() {
        assert_eq!(overview_label(1.0956), "10% better");
        assert_eq!(overview_label(0.9912), "1% worse");
        assert_eq!(overview_label(1.004), "no change");
        assert_eq!(overview_label(0.995), "1% worse"); // 0.5 % rounds away from zero
        assert_eq!(overview_label(1.0), "no change");
        assert_eq!(overview_label(f64::NAN), "n/a");
        assert_eq!(overview_label(f64::INFINITY), "n/a");
    }

    fn table(higher: bool) -> Comparison {
        let mut c = Comparison::new("mmtests", "x", vec!["a".into(), "b".into()]);
        c.meta.mmtests = Some(MmtestsMeta { preferred: Some(Direction::from_higher(higher)), ..Default::default() });
        let g = if higher { "Hmean" } else { "Amean" };
        for (name, b, n) in [("1", [10.0, 10.0, 10.0], [20.0, 20.0, 20.0]), ("2", [4.0, 4.0, 4.0], [2.0, 2.0, 2.0])] {
            c.rows.push(Row {
                group: g.into(),
                name: name.into(),
                direction: Direction::from_higher(higher),
                change_kind: ChangeKind::Improvement,
                unit: None,
                cells: vec![
                    Cell { value: Some(b[0]), samples: Some(b.into()), ..Default::default() },
                    Cell { value: Some(n[0]), samples: Some(n.into()), ..Default::default() },
                ],
            });
        }
        c
    }

    #[test]
    fn gmean_ratio_by_hand() {
        // ratios 2 and 0.5: Gmean 1 either way
        assert_eq!(gmean_ratio(&table(true)).unwrap(), vec![1.0, 1.0]);
        let mut c = table(false);
        let cell = Cell { value: Some(4.0), ..c.rows.cell(1, 1).unwrap() };
        c.rows.set_cell(1, 1, cell);
        // ratios 2 and 1 -> sqrt(2); lower is better -> 1/sqrt(2)
        let g = gmean_ratio(&c).unwrap();
        assert!((g[1] - 1.0 / 2f64.sqrt()).abs() < 1e-15);
    }

    #[test]
    fn constant_samples_give_a_point_interval() {
        let ci = bootstrap_gmean_ci(&table(true), 1, 0.95, 200, 1, Some(1)).unwrap();
        assert!((ci.estimate - 1.0).abs() < 1e-12 && (ci.low - 1.0).abs() < 1e-12 && (ci.high - 1.0).abs() < 1e-12);
        assert!(bootstrap_gmean_ci(&table(true), 0, 0.95, 200, 1, None).is_err());
    }
}
