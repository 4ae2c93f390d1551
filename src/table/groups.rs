//! Groups of samples (a baseline and the groups compared with it, many metrics) as one
//! [`Comparison`]: a row per metric, a cell per group holding its samples, the mean
//! and, for the compared groups, the decision of [`assess_many`] (Benjamini–Hochberg
//! across every metric and group: one family). What `schedlab stats` renders in its
//! benchstat view (docs/tables.md §4).

use super::assess::assess_many;
use super::comparison::{Cell, ChangeKind, Comparison, Direction, Row};
use super::verdict::{Test, VerdictRule};
use crate::error::{Error, Result};

/// One metric's samples in every group.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupMetric {
    /// The metric's name.
    pub name: String,
    /// Its unit (None: a plain number).
    pub unit: Option<String>,
    /// Which way is better.
    pub direction: Direction,
    /// The samples of each group, the baseline's first (empty where a group lacks it).
    pub samples: Vec<Vec<f64>>,
}

/// The comparison of `groups` (the first is the baseline) over `metrics`, labelled
/// with `tool`; each compared cell decided with `test` and `rule` on at most `threads`
/// threads. A metric without samples in the baseline is a row without compared cells.
pub fn compare_groups(
    tool: &str,
    groups: &[String],
    metrics: &[GroupMetric],
    test: Test,
    rule: &VerdictRule,
    threads: Option<usize>,
) -> Result<Comparison> {
    if groups.len() < 2 {
        return Err(Error::domain(format!("give at least two groups to compare, got {}", groups.len())));
    }
    let mut pairs: Vec<(&[f64], &[f64])> = Vec::new();
    let mut dirs: Vec<Direction> = Vec::new();
    let mut at: Vec<(usize, usize)> = Vec::new();
    for (mi, m) in metrics.iter().enumerate() {
        if m.samples.len() != groups.len() {
            return Err(Error::domain(format!(
                "metric '{}' has samples of {} groups, not {}",
                m.name,
                m.samples.len(),
                groups.len()
            )));
        }
        let Some(base) = m.samples.first().filter(|b| !b.is_empty()) else { continue };
        for (gi, new) in m.samples.iter().enumerate().skip(1).filter(|(_, s)| !s.is_empty()) {
            pairs.push((base, new));
            dirs.push(m.direction);
            at.push((mi, gi));
        }
    }
    let decided = assess_many(&pairs, &dirs, test, rule, threads)?;
    let mut c = Comparison::new(tool, "", groups.to_vec());
    c.rows = metrics
        .iter()
        .map(|m| Row {
            group: String::new(),
            name: m.name.clone(),
            direction: m.direction,
            change_kind: ChangeKind::Improvement,
            unit: m.unit.clone(),
            cells: m
                .samples
                .iter()
                .map(|s| Cell {
                    value: crate::stats::amean(s).ok(),
                    n: Some(s.len() as u64),
                    samples: Some(s.clone().into_boxed_slice()),
                    ..Cell::default()
                })
                .collect(),
        })
        .collect();
    for ((mi, gi), a) in at.into_iter().zip(decided) {
        if let Some(mut cell) = c.rows.cell(mi, gi) {
            cell.change = a.change;
            cell.p = a.p;
            cell.q = a.q;
            cell.test = Some(test.into());
            cell.verdict = Some(a.verdict);
            c.rows.set_cell(mi, gi, cell);
        }
    }
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::benchstat;

    #[test]
    fn rows_per_metric_cells_per_group() {
        // a latency 10% longer in "new", a count unchanged
        let m = |name: &str, unit: Option<&str>, d, b: Vec<f64>, n: Vec<f64>| GroupMetric {
            name: name.into(),
            unit: unit.map(Into::into),
            direction: d,
            samples: vec![b, n],
        };
        let metrics = [
            m(
                "lat",
                Some("ns"),
                Direction::Lower,
                vec![100.0, 101.0, 99.0, 100.5, 99.5],
                vec![110.0, 111.1, 108.9, 110.55, 109.45],
            ),
            m("faults", None, Direction::Unknown, vec![5.0, 5.0, 5.0], vec![5.0, 5.0, 5.0]),
        ];
        let groups = vec!["base".to_string(), "new".to_string()];
        let c = compare_groups("stats", &groups, &metrics, Test::Welch, &VerdictRule::default(), Some(1)).unwrap();
        assert_eq!(c.rows.len(), 2);
        assert_eq!(c.rows.get(0).unwrap().cells[1].verdict.map(|v| v.name()), Some("worse"));
        assert_eq!(c.rows.get(0).unwrap().cells[0].value, Some(100.0));
        let text = benchstat::render(&c).unwrap();
        // the medians 100 and 110 (by hand), +10.00% of the medians, and `~` for the count
        assert!(text.contains("+10.00%") && text.contains('~'), "{text}");
        assert!(compare_groups("stats", &groups[..1], &metrics, Test::Welch, &VerdictRule::default(), None).is_err());
    }
}
