//! Groups of traces compared: each trace one run, each of its metrics one sample; every
//! metric of every group against the baseline group decided by the project's verdict
//! machine ([`crate::table::assess_many`]: Welch or Mann-Whitney, Benjamini–Hochberg
//! across every metric and group, equivalence, runs needed), as one [`Comparison`]
//! with the biggest changes first (docs/trace-compare.md §6).

use super::metrics::{metrics, state_name, states_of, Metric};
use super::summary::TraceSummary;
use crate::error::{Error, Result};
use crate::table::verdict::{decide, Evidence};
use crate::table::{
    assess_many, Cell, ChangeKind, Comparison, Direction, Row, Rows, Test, Verdict, VerdictMeta, VerdictRule,
};
use std::collections::HashMap;

/// Warnings kept in the comparison's meta.
const MAX_NOTES: usize = 40;
/// Inconclusive rows whose runs needed the meta names.
const MAX_RUNS_NEEDED: usize = 10;

/// One group of traces: its name and each trace's summary.
#[derive(Debug, Clone)]
pub struct Group {
    /// The group's name (a kernel, a setting).
    pub name: String,
    /// Its traces, one run each.
    pub traces: Vec<TraceSummary>,
    /// The governor the group's kernel ran (a what-if label, `menu 6.18`), when known:
    /// its replays split the change of the idle-state mix (docs/trace-compare.md §3.5).
    pub governor: Option<String>,
}

/// How groups are compared.
#[derive(Debug, Clone)]
pub struct CompareOptions {
    /// The difference test.
    pub test: Test,
    /// The verdict thresholds.
    pub rule: VerdictRule,
    /// Threads for the tests.
    pub threads: Option<usize>,
}

impl Default for CompareOptions {
    fn default() -> Self {
        CompareOptions { test: Test::Welch, rule: VerdictRule::default(), threads: None }
    }
}

/// One row to decide: where, what, and the samples of each group.
struct Series {
    scope: String,
    name: String,
    unit: &'static str,
    direction: Direction,
    samples: Vec<Vec<f64>>,
}

/// The rows of `groups`' metrics, in first-seen order.
fn series_of(groups: &[Group]) -> Vec<Series> {
    let mut at: HashMap<(String, String), usize> = HashMap::new();
    let mut out: Vec<Series> = Vec::new();
    let n_states = groups.iter().flat_map(|g| &g.traces).map(states_of).max().unwrap_or(0);
    for (gi, g) in groups.iter().enumerate() {
        for t in &g.traces {
            for Metric { scope, name, unit, direction, value } in metrics(t, n_states) {
                let key = (scope, name);
                let i = *at.entry(key.clone()).or_insert_with(|| {
                    out.push(Series {
                        scope: key.0.clone(),
                        name: key.1.clone(),
                        unit,
                        direction,
                        samples: vec![Vec::new(); groups.len()],
                    });
                    out.len() - 1
                });
                if let Some(s) = out.get_mut(i).and_then(|s| s.samples.get_mut(gi)) {
                    s.push(value);
                }
            }
        }
    }
    out
}

/// The governor split rows: for each group with its own governor other than the
/// baseline's, the group's traces replayed through the baseline's governor (baseline
/// column) and through its own (its column).
fn split_rows(groups: &[Group]) -> Vec<Series> {
    let mut out = Vec::new();
    let Some(base_gov) = groups.first().and_then(|g| g.governor.clone()) else { return out };
    for (gi, g) in groups.iter().enumerate().skip(1) {
        let Some(own) = g.governor.clone().filter(|o| *o != base_gov) else { continue };
        let n = g.traces.iter().flat_map(|t| &t.whatif).map(|w| w.usage.len()).max().unwrap_or(0);
        for k in 0..n {
            let mut samples = vec![Vec::new(); groups.len()];
            for t in &g.traces {
                let share = |label: &str| {
                    t.whatif.iter().find(|w| w.label == label).and_then(|w| {
                        let total: u64 = w.usage.iter().sum();
                        (total > 0).then(|| w.usage.get(k).copied().unwrap_or(0) as f64 * 100.0 / total as f64)
                    })
                };
                if let (Some(b), Some(o)) = (share(&base_gov), share(&own)) {
                    if let Some(s) = samples.first_mut() {
                        s.push(b);
                    }
                    if let Some(s) = samples.get_mut(gi) {
                        s.push(o);
                    }
                }
            }
            let name = g.traces.first().map_or_else(|| format!("state{k}"), |t| state_name(t, k));
            out.push(Series {
                scope: format!("governor {base_gov} -> {own} on {}", g.name),
                name: format!("{name} entries %"),
                unit: "%",
                direction: Direction::Unknown,
                samples,
            });
        }
    }
    out
}

/// How strongly a row's cells changed, for the order: significant first, then the
/// largest |change| (a change from a zero baseline first of all).
fn rank(row: &Row) -> (u8, f64) {
    let cells = row.cells.iter().skip(1);
    let class = cells
        .clone()
        .filter_map(|c| c.verdict)
        .map(|v| match v {
            Verdict::Worse | Verdict::Better | Verdict::Changed => 0,
            Verdict::Inconclusive => 1,
            Verdict::Equivalent => 2,
            _ => 3,
        })
        .min()
        .unwrap_or(4);
    let size = cells
        .map(|c| match (c.change, row.cells.first().and_then(|b| b.value), c.value) {
            (Some(ch), _, _) if ch.is_finite() => ch.abs(),
            (_, Some(b), Some(n)) if b == 0.0 && n != 0.0 => f64::INFINITY,
            _ => 0.0,
        })
        .fold(0.0, f64::max);
    (class, size)
}

/// The comparison of `groups` (the first is the baseline): see the module docs.
pub fn compare(groups: &[Group], opts: &CompareOptions) -> Result<Comparison> {
    if groups.len() < 2 {
        return Err(Error::domain(format!("give at least two groups of traces to compare, got {}", groups.len())));
    }
    if let Some(g) = groups.iter().find(|g| g.traces.is_empty()) {
        return Err(Error::domain(format!("group '{}' has no traces", g.name)));
    }
    let mut series = series_of(groups);
    series.extend(split_rows(groups));
    let mut pairs: Vec<(&[f64], &[f64])> = Vec::new();
    let mut dirs = Vec::new();
    let mut at = Vec::new();
    for (si, s) in series.iter().enumerate() {
        let Some(base) = s.samples.first().filter(|b| !b.is_empty()) else { continue };
        for (gi, new) in s.samples.iter().enumerate().skip(1).filter(|(_, n)| !n.is_empty()) {
            pairs.push((base, new));
            dirs.push(s.direction);
            at.push((si, gi));
        }
    }
    let decided = assess_many(&pairs, &dirs, opts.test, &opts.rule, opts.threads)?;
    let mut rows: Vec<Row> = series
        .iter()
        .map(|s| Row {
            group: s.scope.clone(),
            name: s.name.clone(),
            direction: s.direction,
            change_kind: ChangeKind::Improvement,
            unit: (!s.unit.is_empty()).then(|| s.unit.to_string()),
            cells: s
                .samples
                .iter()
                .map(|v| Cell {
                    value: crate::stats::amean(v).ok(),
                    n: Some(v.len() as u64),
                    samples: (!v.is_empty()).then(|| v.clone().into_boxed_slice()),
                    ..Cell::default()
                })
                .collect(),
        })
        .collect();
    let mut warnings: Vec<String> = Vec::new();
    let mut more: Vec<String> = Vec::new();
    for ((si, gi), a) in at.into_iter().zip(decided) {
        let Some(row) = rows.get_mut(si) else { continue };
        let direction = row.direction;
        let label = format!("{} {}", row.group, row.name);
        let Some(cell) = row.cells.get_mut(gi) else { continue };
        let mut verdict = a.verdict;
        if a.change.is_none() && a.mean_base == Some(0.0) && a.mean_new.is_some_and(|m| m != 0.0) {
            // from zero: an infinite percent change, decided as such
            let up = a.mean_new.is_some_and(|m| m > 0.0);
            let better = if direction == Direction::Lower { !up } else { up };
            let e = Evidence {
                n_base: a.n_base,
                n_new: a.n_new,
                p: a.p,
                p_equivalent: a.p_equivalent,
                power: a.power,
                runs_needed: a.runs_needed,
                warnings: Vec::new(),
            };
            let pct = if better { f64::INFINITY } else { f64::NEG_INFINITY };
            verdict = decide(pct, a.q, &e, direction != Direction::Unknown, &opts.rule);
        }
        if verdict == Verdict::Inconclusive && more.len() < MAX_RUNS_NEEDED {
            if let (Some(need), Some(add)) = (a.runs_needed, a.more_runs.filter(|&m| m > 0)) {
                let group = groups.get(gi).map_or("", |g| g.name.as_str());
                more.push(format!(
                    "runs needed: {label} in {group}: {need} runs a side to tell a change of the margin ({add} more)"
                ));
            }
        }
        cell.change = a.change;
        cell.p = a.p;
        cell.q = a.q;
        cell.test = Some(opts.test.into());
        cell.verdict = Some(verdict);
        for w in a.warnings {
            if !warnings.contains(&w) {
                warnings.push(w);
            }
        }
    }
    rows.sort_by(|a, b| {
        let (ca, sa) = rank(a);
        let (cb, sb) = rank(b);
        ca.cmp(&cb).then(sb.partial_cmp(&sa).unwrap_or(std::cmp::Ordering::Equal))
    });
    let mut c = Comparison::new("trace", "trace compare", groups.iter().map(|g| g.name.clone()).collect());
    c.rows = Rows::from(rows);
    c.meta.verdicts = Some(VerdictMeta { test: opts.test.name().to_string(), alpha: Some(opts.rule.alpha) });
    for g in groups {
        for t in &g.traces {
            for n in &t.notes {
                if warnings.len() >= MAX_NOTES {
                    break;
                }
                warnings.push(format!("{}: {}: {n}", g.name, t.path));
            }
        }
    }
    warnings.extend(more);
    c.meta.warnings = warnings;
    Ok(c)
}

/// The exit code of a comparison as `schedlab batch` gives it (docs/batch.md): 1 when a
/// compared cell fails under `fail_on`, else (with `fail_on` inconclusive) 3 when one
/// is inconclusive, else 0. (An input that cannot be read is exit code 2, an error.)
pub fn exit_code(c: &Comparison, fail_on: crate::batch::FailOn) -> i32 {
    let verdicts = || c.rows.iter().flat_map(|r| r.cells.into_iter().skip(1).filter_map(|x| x.verdict));
    if verdicts().any(|v| crate::batch::document::fails(v, fail_on)) {
        1
    } else if fail_on == crate::batch::FailOn::Inconclusive && verdicts().any(|v| v == Verdict::Inconclusive) {
        3
    } else {
        0
    }
}
