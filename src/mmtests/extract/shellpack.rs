//! MMTests head's shellpack protocol: a shellpack's `parse-results` prints one tab-separated
//! row per sample, `metric factorA factorB interval value extra`, and the generic
//! `ExtractShellpack.pm` turns each row into a sample of the operation
//! `<metric>[-<factorA>][-<factorB>]` (a factor of `_` or "" is left out). The layouts of
//! [`super::spec::Layout`] that read head logs build these rows the way their shell scripts
//! do, sort them as the script's `sort` does, then hand them to [`emit`].

use super::{Ctx, Samples};
use crate::mmtests::summarise::subheading_matches;
use std::cmp::Ordering;

/// One row `parse-results` prints.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The metric (`User`, `usecs-op`, ...).
    pub metric: String,
    /// factorA (`_` when unused).
    pub a: String,
    /// factorB (`_` when unused).
    pub b: String,
    /// The interval (sample number).
    pub interval: String,
    /// The value as text.
    pub value: String,
}

impl Row {
    /// The line as the script prints it (`extra` is always `_` in the layouts read here).
    fn line(&self) -> String {
        format!("{}\t{}\t{}\t{}\t{}\t_", self.metric, self.a, self.b, self.interval, self.value)
    }

    /// ExtractShellpack's operation name.
    pub fn label(&self) -> String {
        let mut label = self.metric.clone();
        for f in [&self.a, &self.b] {
            if !f.is_empty() && f != "_" {
                label.push('-');
                label.push_str(f);
            }
        }
        label
    }
}

/// `sort -n`'s value of a key: a leading number (blanks skipped, an optional `-`, digits
/// and one `.`), 0 when there is none.
pub fn sort_n(s: &str) -> f64 {
    let t = s.trim_start_matches([' ', '\t']);
    let mut end = 0;
    let mut dot = false;
    for (i, c) in t.char_indices() {
        let ok = c.is_ascii_digit() || (i == 0 && c == '-') || (c == '.' && !dot);
        if !ok {
            break;
        }
        dot |= c == '.';
        end = i + c.len_utf8();
    }
    t.get(..end).and_then(|n| n.parse().ok()).unwrap_or(0.0)
}

/// A `sort` key of the scripts: `-kN,N` (text) or `-kN,Nn` (numeric) over the row's fields
/// metric (1), factorA (2), factorB (3), interval (4).
#[derive(Debug, Clone, Copy)]
pub enum Key {
    /// `-k1,1`: the metric as bytes.
    Metric,
    /// `-k2,2n`.
    A,
    /// `-k3,3n`.
    B,
    /// `-k4,4n`.
    Interval,
}

/// Sort `rows` by `keys` as GNU `sort` does in the C locale: key by key, then the whole
/// line as bytes (sort's last resort).
pub fn sort_rows(rows: &mut [Row], keys: &[Key]) {
    let mut keyed: Vec<(Row, String)> = rows.iter().map(|r| (r.clone(), r.line())).collect();
    keyed.sort_by(|(x, lx), (y, ly)| {
        keys.iter()
            .map(|k| match k {
                Key::Metric => x.metric.as_bytes().cmp(y.metric.as_bytes()),
                Key::A => num_cmp(&x.a, &y.a),
                Key::B => num_cmp(&x.b, &y.b),
                Key::Interval => num_cmp(&x.interval, &y.interval),
            })
            .find(|o| *o != Ordering::Equal)
            .unwrap_or(Ordering::Equal)
            .then_with(|| lx.as_bytes().cmp(ly.as_bytes()))
    });
    for (slot, (r, _)) in rows.iter_mut().zip(keyed) {
        *slot = r;
    }
}

fn num_cmp(x: &str, y: &str) -> Ordering {
    crate::order::nan_last(sort_n(x), sort_n(y))
}

/// ExtractShellpack's `extractReport` over the rows in order: each row is a sample of its
/// label (`--sub-heading` keeps the labels it matches anywhere); a value or an interval
/// that is not a number registers the operation without a sample.
pub fn emit(ctx: &Ctx, rows: &[Row], out: &mut Samples) {
    for r in rows {
        let label = r.label();
        if !ctx.subheading.is_empty() && !subheading_matches(&ctx.subheading, &label, false) {
            continue;
        }
        if crate::mmtests::perlfmt::looks_like_number(&r.interval) {
            out.add_text(&label, &r.value);
        } else {
            out.register(&label);
        }
    }
}

/// ExtractShellpack's `_RatioOperations`: the label of each row whose `extra` starts with `R`
/// (`--sub-heading` does not filter them), once each in first-seen order.
pub fn mark_ratio<'a>(out: &mut Samples, rows: impl IntoIterator<Item = &'a Row>) {
    for r in rows {
        let label = r.label();
        if !out.ratio_operations().is_some_and(|have| have.contains(&label)) {
            out.push_ratio_op(&label);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(m: &str, a: &str, b: &str, i: &str) -> Row {
        Row { metric: m.into(), a: a.into(), b: b.into(), interval: i.into(), value: "1".into() }
    }

    #[test]
    fn labels_and_sort() {
        assert_eq!(row("ops", "_", "_", "1").label(), "ops");
        assert_eq!(row("burns/sec", "futex", "4", "1").label(), "burns/sec-futex-4");
        assert_eq!(row("User", "", "_", "1").label(), "User");
        // sort -k1,1 -k2,2n -k3,3n -k4,4n (GNU sort prints the same): names are all 0 for -n
        let mut v = vec![
            row("b", "sem", "2", "1"),
            row("b", "futex", "4", "1"),
            row("b", "futex", "2", "10"),
            row("b", "futex", "2", "9"),
        ];
        sort_rows(&mut v, &[Key::Metric, Key::A, Key::B, Key::Interval]);
        let got: Vec<String> = v.iter().map(|r| format!("{}-{}-{}", r.a, r.b, r.interval)).collect();
        assert_eq!(got, ["sem-2-1", "futex-2-9", "futex-2-10", "futex-4-1"]);
        assert_eq!(sort_n("1.2.3"), 1.2);
        assert_eq!(sort_n("_"), 0.0);
        assert_eq!(sort_n("-4x"), -4.0);
    }
}
