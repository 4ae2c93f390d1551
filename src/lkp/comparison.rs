//! An lkp compare result as the shared [`Comparison`] model (tool "lkp"), with what the
//! robot leaves out: each row's direction ([`super::direction`]) and, per head, a verdict
//! from a Welch (default) or Mann–Whitney p-value on the per-run samples, beside the
//! robot's own range rule (`Cell::significant`). And back: the exact lkp text of such a
//! `Comparison`, so `Comparison.to_text()` equals the CLI's text.

use super::direction::direction;
use super::matrix::{Matrix, ResultRoot};
use super::ncompare::{compare_header, CompareResult, Options, RowPlan, StatRow};
use super::num::Num;
use super::render_text::render_rows;
use crate::error::Result;
use crate::table::{
    decide, evidence, Cell, ChangeKind, Comparison, Direction, LkpMeta, Row, Verdict, VerdictMeta, VerdictRule,
};
use std::borrow::Borrow;
use std::borrow::Cow;

pub use crate::stats::Test;

/// Group name of failure-count rows.
pub const FAIL_GROUP: &str = "fail:runs";

fn floats(v: &Option<Vec<Num>>) -> Vec<f64> {
    v.as_deref().map(|v| v.iter().map(|x| x.f()).collect()).unwrap_or_default()
}

fn row_to_table(r: &StatRow, test: Test, rule: &VerdictRule) -> Row {
    let dir = direction(&r.key);
    let sign = match dir {
        Direction::Higher => 1.0,
        Direction::Lower => -1.0,
        Direction::Unknown => 1.0,
    };
    let base_samples = r.values.first().map(floats).unwrap_or_default();
    let mut cells = Vec::with_capacity(r.values.len());
    for (i, v) in r.values.iter().enumerate() {
        let samples = floats(v);
        let mut c = Cell {
            n: Some(if r.failure { r.runs.get(i).copied().unwrap_or(0) as u64 } else { samples.len() as u64 }),
            samples: v.as_ref().map(|_| samples.clone().into_boxed_slice()),
            ..Default::default()
        };
        if r.failure {
            c.value = r.fails.get(i).copied();
        } else {
            c.value = r.avgs.get(i).copied();
            let sd = r.stddevs.get(i).copied().unwrap_or(-1.0);
            c.spread = if sd < 0.0 { None } else { r.rel_stddevs.get(i).copied() };
        }
        if i == 0 {
            c.verdict = Some(Verdict::Baseline);
        } else {
            let change = r.changes.get(i - 1).copied();
            c.change = change.filter(|x| x.is_finite());
            c.significant = r.robot.get(i - 1).copied();
            c.test = Some(test.into());
            c.p = test.verdict_p(&base_samples, &samples);
            let improvement = change.unwrap_or(f64::NAN) * sign;
            let e = evidence(&base_samples, &samples, test, rule);
            c.verdict = Some(decide(improvement, c.p, &e, dir != Direction::Unknown, rule));
        }
        cells.push(c);
    }
    Row {
        group: if r.failure { FAIL_GROUP.to_string() } else { String::new() },
        name: r.key.clone(),
        direction: dir,
        change_kind: if r.abs_change { ChangeKind::Absolute } else { ChangeKind::Percent },
        unit: None,
        cells,
    }
}

/// The [`Comparison`] of a compare result: rows in lkp's order (failure rows, group
/// `fail:runs`, first), cells with value (mean or fail count), spread (lkp's %stddev; the
/// SD itself where the mean is 0), change, the robot's rule as `significant`, p, verdict,
/// n and the samples; `meta` keeps the header axes so the text can be rebuilt exactly.
///
/// It takes the result by value and frees each compare row as soon as its table row is
/// made, so that the two never both hold every metric (the memory bound of docs/readers.md §10). Every
/// row runs a significance test on its samples: the loop polls [`crate::cancel`] and
/// returns `Error::Interrupted` on Ctrl-C.
pub fn to_comparison(mut res: CompareResult, test: Test, alpha: f64) -> Result<Comparison> {
    let mut rows: Vec<Option<StatRow>> = std::mem::take(&mut res.rows).into_iter().map(Some).collect();
    let failure: Vec<bool> = rows.iter().map(|r| r.as_ref().is_some_and(|r| r.failure)).collect();
    let n = rows.len();
    let name_bytes = rows.iter().flatten().map(|r| r.key.len()).sum();
    let samples = rows.iter().flatten().flat_map(|r| r.values.iter().flatten().map(Vec::len)).sum();
    table_of(
        res,
        test,
        alpha,
        (n, name_bytes, samples),
        |i| failure.get(i).copied().unwrap_or(false),
        |i| rows.get_mut(i).and_then(Option::take),
    )
}

/// The [`Comparison`] of comparing result roots, the first the base ([`to_comparison`]
/// of [`super::ncompare::compare_roots`]), each compare row made from the roots'
/// matrices only when its table row is: the compare rows are never all held at once
/// (the memory bound of docs/readers.md §10).
pub fn compare_to_comparison<R: Borrow<ResultRoot>>(
    roots: &[R],
    opt: Options,
    test: Test,
    alpha: f64,
) -> Result<Comparison> {
    let roots: Vec<&ResultRoot> = roots.iter().map(Borrow::borrow).collect();
    let header = compare_header(&roots, opt, &["commit".to_string()], false);
    let matrixes: Vec<&Matrix> = roots.iter().map(|r| &r.matrix).collect();
    let plan = RowPlan::new(&matrixes, opt)?;
    table_of(
        header,
        test,
        alpha,
        (plan.len(), plan.name_bytes(), plan.sample_count()),
        |i| plan.failure(i),
        |i| plan.row(i),
    )
}

/// The [`Comparison`] of a compare result `res` (its `rows` unused) whose `n` rows (of
/// `name_bytes` bytes of metric names and `samples` samples in all), in lkp's order,
/// are made by `row` (`failure` telling which are failure rows before they are made),
/// each turned into its table row and dropped.
fn table_of(
    res: CompareResult,
    test: Test,
    alpha: f64,
    (n, name_bytes, samples): (usize, usize, usize),
    failure: impl Fn(usize) -> bool,
    mut row: impl FnMut(usize) -> Option<StatRow>,
) -> Result<Comparison> {
    let benchmark = res
        .axes
        .first()
        .and_then(|a| a.iter().find(|(k, _)| k == "testcase"))
        .map(|(_, v)| v.clone())
        .unwrap_or_default();
    let mut c = Comparison::new("lkp", benchmark, res.commits.clone());
    let rule = VerdictRule { alpha, ..VerdictRule::default() };
    c.rows.reserve(n, n.saturating_mul(c.kernels.len()), name_bytes, samples);
    // failure rows first, each section in its own order
    for want_failure in [true, false] {
        for i in 0..n {
            crate::cancel::check_every(i)?;
            if failure(i) == want_failure {
                if let Some(r) = row(i) {
                    c.rows.push(row_to_table(&r, test, &rule));
                }
            }
        }
    }
    c.meta.lkp = Some(LkpMeta {
        axes: Some(res.axes),
        all_keys: res.options.all_keys,
        more: res.options.more,
        compare_keys: res.compare_keys,
        per_root_axes: res.per_root_axes,
        source: None,
    });
    c.meta.verdicts = Some(VerdictMeta { test: test.name().into(), alpha: Some(alpha) });
    Ok(c)
}

/// The exact lkp text of a `Comparison` made by [`to_comparison`] (possibly after a JSON
/// round trip).
pub fn render_comparison(c: &Comparison) -> Result<String> {
    c.validate()?;
    let none = LkpMeta::default();
    let lkp = c.meta.lkp.as_ref().unwrap_or(&none);
    let axes: Vec<Vec<(String, String)>> = match &lkp.axes {
        Some(a) => a.clone(),
        None => c.kernels.iter().map(|k| vec![("commit".to_string(), k.clone())]).collect(),
    };
    // each row made when its line is printed (not all held at once: docs/readers.md §10)
    let stat_row = |r: &Row| {
        let failure = r.group == FAIL_GROUP;
        let values: Vec<Option<Vec<Num>>> =
            r.cells.iter().map(|c| c.samples.as_ref().map(|s| s.iter().map(|x| Num::Float(*x)).collect())).collect();
        let get = |f: &dyn Fn(&Cell) -> Option<f64>, d: f64| -> Vec<f64> {
            r.cells.iter().map(|c| f(c).unwrap_or(d)).collect()
        };
        let avgs = get(&|c| c.value, 0.0);
        let rel: Vec<f64> = r
            .cells
            .iter()
            .zip(&avgs)
            .map(|(c, a)| c.spread.unwrap_or(if *a != 0.0 { -100.0 / a } else { -1.0 }))
            .collect();
        StatRow {
            key: r.name.clone(),
            failure,
            values,
            runs: r.cells.iter().map(|c| c.n.unwrap_or(0) as usize).collect(),
            fails: if failure { avgs.clone() } else { vec![] },
            avgs: if failure { vec![] } else { avgs.clone() },
            stddevs: vec![],
            rel_stddevs: if failure { vec![] } else { rel },
            changes: r.cells.iter().skip(1).map(|c| c.change.unwrap_or(f64::NAN)).collect(),
            abs_change: r.change_kind == ChangeKind::Absolute,
            robot: r.cells.iter().skip(1).map(|c| c.significant.unwrap_or(false)).collect(),
        }
    };
    let res = CompareResult {
        commits: c.kernels.clone(),
        axes,
        rows: Vec::new(),
        options: super::ncompare::Options { all_keys: lkp.all_keys, more: lkp.more, ..Default::default() },
        compare_keys: if lkp.compare_keys.is_empty() { vec!["commit".to_string()] } else { lkp.compare_keys.clone() },
        per_root_axes: lkp.per_root_axes,
    };
    let failure = |i: usize| c.rows.group(i) == Some(FAIL_GROUP);
    render_rows(&res, c.rows.len(), &failure, &mut |i| Ok(c.rows.get(i).map(|r| Cow::Owned(stat_row(&r)))))
}
