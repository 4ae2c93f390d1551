//! A comparison in the layout of Go's benchstat (golang.org/x/perf/cmd/benchstat),
//! printing benchstat's own numbers from the per-run samples (docs/benchstat.md):
//! one table per unit, per row and kernel the median `± p%` (the half-width of the
//! distribution-free interval of the median from order statistics), then for the
//! compared kernels the change of the medians, or `~` when benchstat's Mann–Whitney
//! test (the exact U distribution with ties, [`mann_whitney_ties`]) gives p > α, with
//! that p and the runs; a `geomean` row; footnotes. A unit marked exact
//! (`benchfmt.exact_units`) shows the value and no test, as benchstat's
//! `assume=exact`. The configuration the runs share (`benchfmt.config`) heads the
//! output. The comparison's own test and verdicts are not used: this view is
//! benchstat's.

use super::comparison::{Cell, Comparison, Row};
use super::text_grid::{Align, Grid};
use crate::benchunit::{binary, scale, Scale};
use crate::cfmt::go_fmt_v;
use crate::error::{Error, Result};
use crate::stats::mann_whitney_min_p;
use crate::stats::mann_whitney_ties::{mann_whitney_ties, Alternative};
use crate::stats::median_orders;

/// Confidence level of the interval of the median (benchstat's default).
pub const CONFIDENCE: f64 = 0.95;
/// The level below which a difference is reported (benchstat's default `-alpha`).
pub const ALPHA: f64 = 0.05;

/// go-moremath's `Sample.Quantile` (R8) of sorted `xs` at `q` (0 < q < 1), in its
/// floating-point operations: the median benchstat prints.
fn quantile_r8(xs: &[f64], q: f64) -> f64 {
    let n = xs.len() as f64;
    let h = 1.0 / 3.0 + q * (n + 1.0 / 3.0);
    let k = h.trunc();
    let frac = h - k;
    let k = k as usize;
    let (Some(first), Some(last)) = (xs.first(), xs.last()) else { return f64::NAN };
    if k == 0 {
        return *first;
    } else if k >= xs.len() {
        return *last;
    }
    let (a, b) = (xs.get(k - 1).copied().unwrap_or(f64::NAN), xs.get(k).copied().unwrap_or(f64::NAN));
    a + frac * (b - a)
}

/// A cell's summary: its center, interval and warnings (benchmath's `Summary`).
pub(super) struct Summary {
    pub(super) center: f64,
    lo: f64,
    hi: f64,
    pub(super) warnings: Vec<String>,
}

impl Summary {
    /// benchmath's `PctRangeString`.
    pub(super) fn range(&self) -> String {
        if self.lo.is_infinite() || self.hi.is_infinite() {
            return "∞".into();
        }
        let sign = |x: f64| {
            if x == 0.0 {
                0
            } else if x < 0.0 {
                -1
            } else {
                1
            }
        };
        if sign(self.center) != sign(self.lo) || sign(self.center) != sign(self.hi) {
            return "?".into();
        }
        if self.center == 0.0 {
            return "0%".into();
        }
        format!("{:.0}%", 100.0 * (self.hi / self.center - 1.0).max(1.0 - self.lo / self.center))
    }
}

/// benchmath's `medianSamples`: the fewest runs that bound the interval at `confidence`.
fn runs_for_interval(confidence: f64) -> (&'static str, usize) {
    match (2..=50).find(|n| median_orders(*n, confidence).is_ok_and(|o| o.lo > 0 && o.hi <= *n)) {
        Some(n) => (">=", n),
        None => (">", 50),
    }
}

/// benchmath's `AssumeNothing.Summary`: the median and its interval.
fn summary_nothing(xs: &[f64], confidence: f64) -> Summary {
    let center = quantile_r8(xs, 0.5);
    let (lo, hi) = match median_orders(xs.len(), confidence) {
        Ok(o) => {
            let lo = o.lo.checked_sub(1).and_then(|i| xs.get(i)).copied().unwrap_or(f64::NEG_INFINITY);
            let hi = o.hi.checked_sub(1).and_then(|i| xs.get(i)).copied().unwrap_or(f64::INFINITY);
            (lo, hi)
        }
        Err(_) => (f64::NEG_INFINITY, f64::INFINITY),
    };
    let mut warnings = Vec::new();
    if lo.is_infinite() || hi.is_infinite() {
        let (op, need) = runs_for_interval(confidence);
        warnings.push(format!("need {op} {need} samples for confidence interval at level {}", go_fmt_v(confidence)));
    }
    Summary { center, lo, hi, warnings }
}

/// benchmath's `AssumeExact.Summary`: the most common value, warned about when the
/// values differ.
fn summary_exact(xs: &[f64]) -> Summary {
    let (first, last) = (xs.first().copied().unwrap_or(f64::NAN), xs.last().copied().unwrap_or(f64::NAN));
    let (mut val, mut count) = (first, 1);
    let (mut mode, mut mode_count) = (val, count);
    for &v in xs.iter().skip(1) {
        if v == val {
            count += 1;
            if count > mode_count {
                (mode, mode_count) = (val, count);
            }
        } else {
            (val, count) = (v, 1);
        }
    }
    let mut warnings = Vec::new();
    if mode_count != xs.len() {
        warnings.push(format!(
            "exact distribution expected, but values range from {} to {}",
            go_fmt_v(first),
            go_fmt_v(last)
        ));
    }
    Summary { center: mode, lo: first, hi: last, warnings }
}

/// A cell's comparison with its baseline (benchmath's `Comparison`).
pub(super) struct Compared {
    p: f64,
    n1: usize,
    n2: usize,
    alpha: f64,
    pub(super) warnings: Vec<String>,
}

impl Compared {
    /// benchmath's `Comparison.String`: `p=0.PPP n=N` (no p when it is 0: exact).
    pub(super) fn text(&self) -> String {
        let p = if self.p != 0.0 { format!("p={:.3} ", self.p) } else { String::new() };
        if self.n1 == self.n2 {
            format!("{p}n={}", self.n1)
        } else {
            format!("{p}n={}+{}", self.n1, self.n2)
        }
    }

    /// benchmath's `FormatDelta`: `~` when p > α, else the change of the centers.
    pub(super) fn delta(&self, old: f64, new: f64) -> String {
        if self.p > self.alpha {
            "~".into()
        } else if old == new {
            "0.00%".into()
        } else if old == 0.0 {
            "?".into()
        } else {
            format!("{:+.2}%", ((new / old) - 1.0) * 100.0)
        }
    }
}

/// benchmath's `uTestSamples`: the fewest runs a side with which the U test can reach
/// `alpha` (its table goes to 9 runs).
fn runs_for_test(alpha: f64) -> (&'static str, usize) {
    match (1..=9u64).find(|&n| mann_whitney_min_p(n, n) <= alpha) {
        Some(n) => (">=", n as usize),
        None => (">", 10),
    }
}

/// benchmath's `AssumeNothing.Compare`: the U test of the baseline against the cell.
fn compare_nothing(base: &[f64], new: &[f64], alpha: f64) -> Result<Compared> {
    let (n1, n2) = (base.len(), new.len());
    let mut c = match mann_whitney_ties(base, new, Alternative::Differs)? {
        Ok(t) => Compared { p: t.p, n1, n2, alpha, warnings: Vec::new() },
        Err(why) => Compared { p: 1.0, n1, n2, alpha, warnings: vec![why.message().to_string()] },
    };
    if c.p > c.alpha {
        let (op, n) = runs_for_test(c.alpha);
        if c.n1 < n && c.n2 < n {
            c.warnings.push(format!("need {op} {n} samples to detect a difference at alpha level {}", go_fmt_v(alpha)));
        }
    }
    Ok(c)
}

/// One cell of a benchstat table.
pub(super) struct TabCell {
    values: Vec<f64>,
    pub(super) summary: Summary,
    pub(super) compared: Option<Compared>,
}

/// The cells of one row from each column's values (None: no results there), each
/// summarised, the later ones compared with the first (benchtab's `summarizeCell`);
/// `warnings` (per column) go first in a cell's notes.
pub(super) fn row_cells(
    values: Vec<Option<Vec<f64>>>,
    mut warnings: Vec<Vec<String>>,
    exact: bool,
    alpha: f64,
    confidence: f64,
) -> Result<Vec<Option<TabCell>>> {
    let mut cells: Vec<Option<TabCell>> = Vec::new();
    for (k, v) in values.into_iter().enumerate() {
        cells.push(v.filter(|v| !v.is_empty()).map(|mut values| {
            values.sort_by(f64::total_cmp);
            let mut summary = if exact { summary_exact(&values) } else { summary_nothing(&values, confidence) };
            if let Some(w) = warnings.get_mut(k).filter(|w| !w.is_empty()) {
                w.append(&mut summary.warnings);
                summary.warnings = std::mem::take(w);
            }
            TabCell { values, summary, compared: None }
        }));
    }
    let base: Option<Vec<f64>> = cells.first().and_then(|x| x.as_ref()).map(|x| x.values.clone());
    if let Some(base) = base {
        for cell in cells.iter_mut().skip(1).flatten() {
            cell.compared = Some(if exact {
                Compared { p: 0.0, n1: base.len(), n2: cell.values.len(), alpha: 0.0, warnings: Vec::new() }
            } else {
                compare_nothing(&base, &cell.values, alpha)?
            });
        }
    }
    Ok(cells)
}

/// go-moremath's `GeoMean` (a running mean of the logs; NaN unless every value is > 0).
pub(super) fn geomean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return f64::NAN;
    }
    let mut m = 0.0;
    for (i, &x) in xs.iter().enumerate() {
        if x <= 0.0 {
            return f64::NAN;
        }
        m += (libm::log(x) - m) / (i + 1) as f64;
    }
    libm::exp(m)
}

/// A column's geomean row (benchtab's `TableSummary`).
pub(super) struct ColSummary {
    pub(super) summary: Option<f64>,
    pub(super) ratio: Option<f64>,
    pub(super) warnings: Vec<String>,
}

/// One benchstat table: a unit, its rows (name and a cell per column).
pub(super) struct Table {
    pub(super) unit: String,
    pub(super) rows: Vec<(String, Vec<Option<TabCell>>)>,
}

/// The name a row shows: its own, without a trailing ` UNIT` (a Go metric is named
/// `NAME UNIT`, and the table is the unit's).
fn shown_name<'a>(name: &'a str, unit: &str) -> &'a str {
    name.strip_suffix(unit).and_then(|n| n.strip_suffix(' ')).filter(|n| !n.is_empty()).unwrap_or(name)
}

/// The rows shown: those where some kernel has samples, each name and unit once —
/// the first, replaced by a later one of the same name whose compared cells carry a
/// p (MMTests repeats an operation's samples in every statistic's row; the tested
/// row decides).
fn shown_rows(c: &Comparison) -> Vec<Row> {
    let mut out: Vec<Row> = Vec::new();
    let has = |x: &Cell| x.samples.as_ref().is_some_and(|s| !s.is_empty());
    let tested = |r: &Row| r.cells.iter().skip(1).any(|x| x.p.is_some());
    for r in &c.rows {
        if !r.cells.iter().any(has) {
            continue;
        }
        match out.iter().position(|o| o.name == r.name && o.unit == r.unit) {
            Some(i) => {
                if out.get(i).is_some_and(|o| !tested(o)) && tested(&r) {
                    if let Some(slot) = out.get_mut(i) {
                        *slot = r;
                    }
                }
            }
            None => out.push(r),
        }
    }
    out
}

/// The tables of `c`: one per unit in the order units first appear, each unit's rows
/// in the order their names first appear (benchstat's observation order).
fn tables(c: &Comparison, alpha: f64) -> Result<Vec<Table>> {
    let rows = shown_rows(c);
    let unit_of = |r: &Row| r.unit.clone().unwrap_or_else(|| "value".into());
    let mut names: Vec<String> = Vec::new();
    for r in &rows {
        let n = shown_name(&r.name, &unit_of(r)).to_string();
        if !names.contains(&n) {
            names.push(n);
        }
    }
    let mut units: Vec<String> = Vec::new();
    for r in &rows {
        let u = unit_of(r);
        if !units.contains(&u) {
            units.push(u);
        }
    }
    let mut out = Vec::new();
    for unit in units {
        let exact = c.meta.exact_units.contains(&unit);
        let mut of_unit: Vec<&Row> = rows.iter().filter(|r| unit_of(r) == unit).collect();
        of_unit.sort_by_key(|r| names.iter().position(|n| n == shown_name(&r.name, &unit)));
        let mut trows = Vec::new();
        for r in of_unit {
            // each row's exact U distribution can take a millisecond: Ctrl-C is polled
            crate::cancel::check()?;
            let values = (0..c.kernels.len())
                .map(|k| r.cells.get(k).and_then(|x| x.samples.as_deref()).map(<[f64]>::to_vec))
                .collect();
            let cells = row_cells(values, Vec::new(), exact, alpha, CONFIDENCE)?;
            trows.push((shown_name(&r.name, &unit).to_string(), cells));
        }
        out.push(Table { unit, rows: trows });
    }
    Ok(out)
}

/// benchtab's `summarizeCol`: the geomean of a column's centers, and of its ratios
/// to the baseline.
pub(super) fn summarize_col(t: &Table, col: usize) -> ColSummary {
    let n_base = t.rows.iter().filter(|(_, cells)| cells.first().is_some_and(Option::is_some)).count();
    let is_base = col == 0;
    let (mut summaries, mut ratios) = (Vec::new(), Vec::new());
    let mut bad_ratio = false;
    for (_, cells) in &t.rows {
        let Some(Some(cell)) = cells.get(col) else { continue };
        summaries.push(cell.summary.center);
        let base = if is_base { None } else { cells.first().and_then(|b| b.as_ref()) };
        if let Some(b) = base {
            let (a, b) = (cell.summary.center, b.summary.center);
            if a == b {
                ratios.push(1.0);
            } else if b == 0.0 {
                bad_ratio = true;
                ratios.push(0.0);
            } else {
                ratios.push(a / b);
            }
        }
    }
    let mut s = ColSummary { summary: None, ratio: None, warnings: Vec::new() };
    if !is_base && n_base != ratios.len() {
        s.warnings.push("benchmark set differs from baseline; geomeans may not be comparable".into());
    }
    let gm = geomean(&summaries);
    if gm.is_nan() {
        s.warnings.push("summaries must be >0 to compute geomean".into());
    } else {
        s.summary = Some(gm);
    }
    if !is_base && !bad_ratio {
        let gm = geomean(&ratios);
        if gm.is_nan() {
            s.warnings.push("ratios must be >0 to compute geomean".into());
        } else {
            s.ratio = Some(gm);
        }
    }
    s
}

const SUPERSCRIPTS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];

pub(super) fn superscript(i: usize) -> String {
    i.to_string().bytes().map(|b| SUPERSCRIPTS.get(usize::from(b - b'0')).copied().unwrap_or('?')).collect()
}

/// The footnotes of one table, numbered in order of first use, each message once.
#[derive(Default)]
struct Notes(Vec<String>);

impl Notes {
    /// The marks of `msgs`, space-separated (placed as a cell even when empty).
    fn marks(&mut self, msgs: &[&String]) -> String {
        let mut marks = Vec::new();
        for m in msgs {
            let i = match self.0.iter().position(|x| x == *m) {
                Some(i) => i,
                None => {
                    self.0.push((*m).clone());
                    self.0.len() - 1
                }
            };
            marks.push(superscript(i + 1));
        }
        marks.join(" ")
    }
}

/// The columns of a kernel's block start at: label 0, the baseline's median,
/// interval and note 1–3, each other kernel's median, interval, note, delta, `(p n)`
/// and note after (benchtab's `startCol`).
pub(super) fn start_col(k: usize) -> usize {
    if k == 0 {
        1
    } else {
        4 + (k - 1) * 6
    }
}

/// The header levels of columns named by `cols` (each column's value of each
/// field): per field, the runs of adjacent columns sharing the values so far, as
/// (first column, columns, value) (benchproc's `KeyHeader`).
fn header_levels(cols: &[Vec<String>]) -> Vec<Vec<(usize, usize, String)>> {
    let depth = cols.iter().map(Vec::len).max().unwrap_or(0);
    let mut levels: Vec<Vec<(usize, usize, String)>> = Vec::new();
    for level in 0..depth {
        let mut nodes: Vec<(usize, usize, String)> = Vec::new();
        for (i, c) in cols.iter().enumerate() {
            let val = c.get(level).cloned().unwrap_or_default();
            let same_parent = i > 0
                && cols.get(i - 1).is_some_and(|p| (0..level).all(|l| p.get(l) == c.get(l)))
                && nodes.last().is_some_and(|n| n.2 == val);
            match nodes.last_mut() {
                Some(n) if same_parent => n.1 += 1,
                _ => nodes.push((i, 1, val)),
            }
        }
        levels.push(nodes);
    }
    levels
}

/// The text of one table (benchtab's `Table.ToText`), its footnotes after it; `cols`
/// names each column by its projected values (one level of header per value).
pub(super) fn render_table(cols: &[Vec<String>], t: &Table) -> String {
    let mut g = Grid::default();
    let mut notes = Notes::default();
    let r_edge = start_col(cols.len() + 1);
    for level in header_levels(cols) {
        g.row();
        for (start, len, name) in level {
            let (l, r) = (start_col(start), start_col(start + len));
            g.col(l).span(r - l, &name, Align::Center, Some(" │ "));
        }
        g.col(r_edge).cell("", Align::Left, Some(" │"));
    }
    g.row();
    for k in 0..cols.len() {
        let l = start_col(k);
        g.col(l);
        g.span(3, &t.unit, Align::Center, Some(" │ "));
        if k > 0 {
            g.span(3, "vs base", Align::Left, Some("  "));
        }
        for j in l + 1..g.cur_col() {
            g.set_shrink(j);
        }
    }
    g.col(r_edge).cell("", Align::Left, Some(" │"));
    let class = binary(&t.unit);
    for (name, cells) in &t.rows {
        g.row();
        g.cell(name, Align::Left, None);
        let centers: Vec<f64> = cells.iter().flatten().map(|c| c.summary.center).collect();
        let sc = Scale::common(&centers, class);
        let base = cells.first().and_then(|b| b.as_ref());
        for (k, cell) in cells.iter().enumerate() {
            let Some(cell) = cell else { continue };
            g.col(start_col(k));
            g.cell(&sc.format(cell.summary.center), Align::Right, None);
            g.cell(&cell.summary.range(), Align::Right, Some(" ± "));
            let m = notes.marks(&cell.summary.warnings.iter().collect::<Vec<_>>());
            g.cell(&m, Align::Left, None);
            if let (true, Some(b), Some(cmp)) = (k > 0, base, &cell.compared) {
                g.cell(&cmp.delta(b.summary.center, cell.summary.center), Align::Right, None);
                g.cell(&format!("({})", cmp.text()), Align::Left, None);
                let m = notes.marks(&cmp.warnings.iter().collect::<Vec<_>>());
                g.cell(&m, Align::Left, None);
            }
        }
    }
    if t.rows.len() > 1 {
        g.row();
        g.cell("geomean", Align::Left, None);
        for k in 0..cols.len() {
            let s = summarize_col(t, k);
            if let Some(v) = s.summary {
                g.col(start_col(k));
                g.cell(&scale(v, class), Align::Right, None);
            }
            if k > 0 {
                g.col(start_col(k) + 3);
                match s.ratio {
                    Some(r) => g.cell(&format!("{:+.2}%", (r - 1.0) * 100.0), Align::Right, None),
                    None => g.cell("?", Align::Left, None),
                };
            }
            g.col(start_col(k + 1) - 1);
            let m = notes.marks(&s.warnings.iter().collect::<Vec<_>>());
            g.cell(&m, Align::Left, None);
        }
    }
    let mut out = g.render();
    for (i, msg) in notes.0.iter().enumerate() {
        out.push_str(&format!("{} {msg}\n", superscript(i + 1)));
    }
    out
}

/// The benchstat view of `c` (docs/benchstat.md): the configuration the runs share,
/// then one table per unit over the rows with per-run samples, each followed by its
/// footnotes. α is the comparison's recorded level, else benchstat's 0.05. An error
/// when no row has samples (a table read from pasted text).
pub fn render(c: &Comparison) -> Result<String> {
    let alpha = c.meta.verdicts.as_ref().and_then(|v| v.alpha).unwrap_or(ALPHA);
    let tables = tables(c, alpha)?;
    if tables.is_empty() {
        return Err(Error::insufficient(
            "the benchstat view needs per-run samples, and no row of this comparison has them",
        ));
    }
    let mut out = String::new();
    for (k, v) in &c.meta.config {
        out.push_str(&format!("{k}: {v}\n"));
    }
    for (i, t) in tables.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let cols: Vec<Vec<String>> = c.kernels.iter().map(|k| vec![k.clone()]).collect();
        out.push_str(&render_table(&cols, t));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r8_median_as_go_moremath() {
        // go-moremath's Sample.Quantile(0.5), printed by Go 1.19 (fmt %v, shortest digits)
        let cases: &[(&[f64], f64)] = &[
            (&[1.0, 2.0, 3.0, 4.0], 2.5),
            (&[5.0], 5.0),
            (&[1.0, 2.0, 10.0], 2.0),
            (&[1.0, 2.0, 3.0, 4.0, 5.0], 3.0),
            (&[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0], 0.55),
            (&[44.1, 44.3, 44.4, 44.5, 44.6], 44.4),
        ];
        for (xs, want) in cases {
            assert_eq!(quantile_r8(xs, 0.5), *want, "{xs:?}");
        }
    }

    #[test]
    fn test_warnings_and_runs_needed() {
        // benchmath's uTestMinP table: 4 runs a side reach 0.05 (2/C(8,4) = 0.029)
        assert_eq!(runs_for_test(0.05), (">=", 4));
        assert_eq!(runs_for_test(1e-6), (">", 10));
        assert_eq!(runs_for_interval(CONFIDENCE), (">=", 6));
        assert_eq!(shown_name("Encode-8 sec/op", "sec/op"), "Encode-8");
        assert_eq!(shown_name("sec/op", "sec/op"), "sec/op");
    }
}
