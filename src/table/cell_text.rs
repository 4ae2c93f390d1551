//! The text of one cell in the generic views (markdown, HTML): the value in the
//! tool's decimals where the table records them, and the change in brackets with a
//! `*` when the cell is significant. docs/tables.md shows the rules with examples.

use super::comparison::{Cell, ChangeKind, Comparison, Row};
use super::verdict::Verdict;
use crate::cfmt::c_fmt_g;

/// A value as the generic views print it: the tool's own decimals where the table's
/// meta records them ([`crate::table::Meta::value_precision`]), else two decimals, with
/// four significant digits (C's `%.4g`) below 1 and from 10⁷ up.
pub fn value_text(v: f64, c: &Comparison) -> String {
    if let Some(p) = c.meta.value_precision() {
        return format!("{v:.p$}");
    }
    let a = v.abs();
    if a >= 1e7 || (a > 0.0 && a < 1.0) {
        c_fmt_g(v, 4)
    } else {
        format!("{v:.2}")
    }
}

/// The text of cell `i` (0 = baseline) of `row`: `-` when it has no value; else the
/// value, and for the other kernels ` (+1.23%)` (no `%` for an absolute change)
/// followed by `*` when the tool marked it significant or the verdict is a change.
pub fn cell_text(c: &Comparison, row: &Row, cell: &Cell, i: usize) -> String {
    let Some(v) = cell.value.filter(|v| v.is_finite()) else {
        return "-".into();
    };
    let mut s = value_text(v, c);
    if let Some(change) = cell.change.filter(|x| x.is_finite()).filter(|_| i > 0) {
        let unit = if row.change_kind == ChangeKind::Absolute { "" } else { "%" };
        let changed = matches!(cell.verdict, Some(Verdict::Better | Verdict::Worse | Verdict::Changed));
        let mark = if cell.significant == Some(true) || changed { "*" } else { "" };
        s.push_str(&format!(" ({change:+.2}{unit}){mark}"));
    }
    s
}

/// The statistics behind a cell's verdict as words, `welch p=0.0123 q=0.0456` (the
/// test, then p and q in three significant digits, as C's `%.3g`); `None` when the
/// cell records none of them.
pub fn stat_words(cell: &Cell) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(t) = cell.test {
        parts.push(t.name().to_string());
    }
    if let Some(p) = cell.p.filter(|p| p.is_finite()) {
        parts.push(format!("p={}", c_fmt_g(p, 3)));
    }
    if let Some(q) = cell.q.filter(|q| q.is_finite()) {
        parts.push(format!("q={}", c_fmt_g(q, 3)));
    }
    (!parts.is_empty()).then(|| parts.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(meta: &[(&str, &str)]) -> Comparison {
        let mut c = Comparison::new("schedlab", "", vec!["a".into(), "b".into()]);
        let map = meta.iter().map(|(k, v)| (k.to_string(), serde_json::Value::from(*v))).collect();
        c.meta = crate::table::Meta::from_map(map).unwrap();
        c
    }

    #[test]
    fn values_as_python_formats_them() {
        // Python: f"{4626.0:.2f}" '4626.00'; f"{0.012345:.4g}" '0.01235' and f"{0.012344:.4g}"
        // '0.01234' (rounded on the binary value); f"{12345678.0:.4g}" '1.235e+07'; f"{5.5:.3f}" '5.500'
        let c = table(&[]);
        assert_eq!(value_text(4626.0, &c), "4626.00");
        assert_eq!(value_text(0.012345, &c), "0.01235");
        assert_eq!(value_text(0.012344, &c), "0.01234");
        assert_eq!(value_text(12345678.0, &c), "1.235e+07");
        assert_eq!(value_text(0.0, &c), "0.00");
        assert_eq!(value_text(5.5, &table(&[("mmtests.precision", "3")])), "5.500");
        // a precision that is not a count is refused when the table is read (meta.rs)
        let bad = [("precision".to_string(), serde_json::Value::from("x"))].into_iter().collect();
        assert!(crate::table::Meta::from_map(bad).is_err());
    }

    #[test]
    fn change_and_marker() {
        let c = table(&[]);
        let row = Row { name: "lps".into(), change_kind: ChangeKind::Improvement, ..Default::default() };
        let cell =
            Cell { value: Some(4167.0), change: Some(-9.92), verdict: Some(Verdict::Worse), ..Default::default() };
        assert_eq!(cell_text(&c, &row, &cell, 1), "4167.00 (-9.92%)*");
        assert_eq!(cell_text(&c, &row, &cell, 0), "4167.00");
        let abs = Row { change_kind: ChangeKind::Absolute, ..row };
        let quiet = Cell { verdict: Some(Verdict::Noise), ..cell };
        assert_eq!(cell_text(&c, &abs, &quiet, 1), "4167.00 (-9.92)");
        assert_eq!(cell_text(&c, &abs, &Cell::default(), 1), "-");
    }
}
