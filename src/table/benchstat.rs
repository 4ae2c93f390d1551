//! A comparison in the layout of Go's benchstat (golang.org/x/perf/cmd/benchstat):
//! per row and kernel the median of the per-run samples `± p%`, the half-width of the
//! distribution-free 95% interval of the median from order statistics
//! ([`crate::stats::median_ci`]), then for the compared kernels the change of the
//! medians, or `~` where the comparison's own decision is no change, with the p of the
//! comparison's test and the runs; a `geomean` row; footnotes for intervals that too few
//! runs leave unbounded. Numbers are scaled with SI prefixes to four significant
//! digits, as benchstat's `benchunit` does. docs/tables.md §4 gives the rules.

use super::cell_test::CellTest;
use super::comparison::{Cell, Comparison, Row};
use super::verdict::Verdict;
use crate::error::{Error, Result};
use crate::stats::{median_ci, median_orders};

/// Confidence level of the interval of the median (benchstat's default).
pub const CONFIDENCE: f64 = 0.95;

/// The SI prefixes benchstat scales by, largest first, with their powers of ten.
const SI: [(&str, i32); 8] = [("T", 12), ("G", 9), ("M", 6), ("k", 3), ("", 0), ("m", -3), ("µ", -6), ("n", -9)];
/// The IEC prefixes of byte units, largest first, with their powers of two.
const IEC: [(&str, i32); 5] = [("Ti", 40), ("Gi", 30), ("Mi", 20), ("Ki", 10), ("", 0)];

/// Whether benchstat scales a unit by powers of two: `B`, `MB` or `bytes` in its
/// numerator (as benchunit's `ClassOf`).
fn binary_unit(unit: &str) -> bool {
    let numerator = unit.split('/').next().unwrap_or("");
    numerator.split(|c: char| !c.is_alphanumeric()).any(|t| matches!(t, "B" | "MB" | "bytes"))
}

/// How a group of numbers is printed: decimals, divisor and prefix.
struct Scale {
    decimals: usize,
    factor: f64,
    prefix: &'static str,
}

impl Scale {
    /// benchunit's `CommonScale`: the prefix and decimals that print the smallest
    /// non-zero magnitude of `values` with four significant digits (more decimals, up
    /// to ten, below the smallest prefix).
    fn common(values: &[f64], binary: bool) -> Scale {
        let min = values.iter().map(|v| v.abs()).filter(|v| *v != 0.0 && v.is_finite()).fold(f64::INFINITY, f64::min);
        if !min.is_finite() {
            return Scale { decimals: 3, factor: 1.0, prefix: "" };
        }
        let number = |s: String| s.parse::<f64>().unwrap_or(f64::INFINITY);
        // (factor, prefix, the thresholds of 99.995, 9.9995 and .99995 of that prefix)
        let factors: Vec<(f64, &'static str, [f64; 3])> = if binary {
            IEC.iter().map(|(p, e)| (2f64.powi(*e), *p, [99.995, 9.9995, 0.99995].map(|t| t * 2f64.powi(*e)))).collect()
        } else {
            SI.iter()
                .map(|(p, e)| {
                    let t = [format!("99.995e{e}"), format!("9.9995e{e}"), format!(".99995e{e}")].map(number);
                    (10f64.powi(*e), *p, t)
                })
                .collect()
        };
        for (factor, prefix, [t100, t10, t1]) in &factors {
            let decimals = if min >= *t100 {
                1
            } else if min >= *t10 {
                2
            } else if min >= *t1 {
                3
            } else {
                continue;
            };
            return Scale { decimals, factor: *factor, prefix };
        }
        let (factor, prefix) = factors.last().map_or((1.0, ""), |(f, p, _)| (*f, *p));
        let v = min / factor;
        let decimals = (1..=8).find(|i| v >= number(format!("9.9995e-{i}"))).map_or(10, |i| i + 2);
        Scale { decimals, factor, prefix }
    }

    fn format(&self, v: f64) -> String {
        format!("{:.*}{}", self.decimals, v / self.factor, self.prefix)
    }
}

/// What one cell shows: the median and the interval's half-width in percent.
struct Summary {
    center: f64,
    range: String,
    bounded: bool,
}

/// −1, 0 or 1 (0 for either zero, unlike `f64::signum`).
fn sign(x: f64) -> i8 {
    if x > 0.0 {
        1
    } else if x < 0.0 {
        -1
    } else {
        0
    }
}

fn summarize(cell: &Cell) -> Option<Summary> {
    let s = cell.samples.as_deref().filter(|s| !s.is_empty())?;
    let ci = median_ci(s, CONFIDENCE).ok()?;
    let c = ci.median;
    let bounded = ci.lo.is_finite() && ci.hi.is_finite();
    let range = if !bounded {
        "∞".to_string()
    } else if sign(c) != sign(ci.lo) || sign(c) != sign(ci.hi) {
        "?".to_string()
    } else if c == 0.0 {
        "0%".to_string()
    } else {
        format!("{:.0}%", 100.0 * (ci.hi / c - 1.0).max(1.0 - ci.lo / c))
    };
    Some(Summary { center: c, range, bounded })
}

/// The fewest runs that bound the interval at [`CONFIDENCE`] (benchstat looks up to 50).
fn runs_for_interval() -> String {
    match (2..=50).find(|n| median_orders(*n, CONFIDENCE).is_ok_and(|o| o.lo > 0 && o.hi <= *n)) {
        Some(n) => format!(">= {n}"),
        None => "> 50".to_string(),
    }
}

/// Whether the comparison decided a change in this cell: its verdict, else the tool's
/// own significance marker.
fn changed(cell: &Cell) -> bool {
    match cell.verdict {
        Some(v) => matches!(v, Verdict::Better | Verdict::Worse | Verdict::Changed),
        None => cell.significant == Some(true),
    }
}

/// The delta of the medians as benchstat prints it: `~` without a change, else the
/// signed percent increase (`?` against a zero baseline).
fn delta(cell: &Cell, base: f64, new: f64) -> String {
    if !changed(cell) {
        "~".to_string()
    } else if base == new {
        "0.00%".to_string()
    } else if base == 0.0 {
        "?".to_string()
    } else {
        format!("{:+.2}%", (new / base - 1.0) * 100.0)
    }
}

/// `(p=0.002 n=10)`, `(n=5+6)` when the sides differ in runs; no p where the test gave none.
fn p_and_n(cell: &Cell, n_base: usize, n_new: usize) -> String {
    let p = cell.p.filter(|p| p.is_finite() && *p != 0.0).map(|p| format!("p={p:.3} ")).unwrap_or_default();
    if n_base == n_new {
        format!("({p}n={n_base})")
    } else {
        format!("({p}n={n_base}+{n_new})")
    }
}

const SUPERSCRIPTS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];

fn superscript(i: usize) -> String {
    i.to_string().bytes().map(|b| SUPERSCRIPTS.get(usize::from(b - b'0')).copied().unwrap_or('?')).collect()
}

/// Footnotes numbered in order of first use, each message once.
#[derive(Default)]
struct Notes(Vec<String>);

impl Notes {
    fn mark(&mut self, msg: String) -> String {
        let i = match self.0.iter().position(|m| *m == msg) {
            Some(i) => i,
            None => {
                self.0.push(msg);
                self.0.len() - 1
            }
        };
        superscript(i + 1)
    }
}

/// The row shown for each name: the first whose baseline has samples, replaced by a
/// later one of the same name whose compared cells carry a p (MMTests repeats an
/// operation's samples in every statistic's row; the tested row decides).
fn shown_rows(c: &Comparison) -> Vec<Row> {
    let mut out: Vec<Row> = Vec::new();
    let tested = |r: &Row| r.cells.iter().skip(1).any(|x| x.p.is_some());
    for r in &c.rows {
        if r.cells.first().and_then(|x| x.samples.as_ref()).is_none_or(|s| s.is_empty()) {
            continue;
        }
        match out.iter().position(|o| o.name == r.name) {
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

/// One line of a table as its columns: the label, then per kernel the median, the
/// range and its note, and for compared kernels the delta, `(p n)` and its note.
type Line = Vec<String>;

fn geomean(xs: &[f64]) -> Option<f64> {
    (!xs.is_empty() && xs.iter().all(|x| *x > 0.0))
        .then(|| (xs.iter().map(|x| x.ln()).sum::<f64>() / xs.len() as f64).exp())
}

fn table_lines(rows: &[&Row], kernels: usize, binary: bool, notes: &mut Notes) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut centers: Vec<Vec<f64>> = vec![Vec::new(); kernels];
    let mut ratios: Vec<Vec<f64>> = vec![Vec::new(); kernels];
    let mut present: Vec<Vec<bool>> = vec![Vec::new(); kernels];
    for r in rows {
        let sums: Vec<Option<Summary>> = r.cells.iter().map(summarize).collect();
        let scale = Scale::common(&sums.iter().flatten().map(|s| s.center).collect::<Vec<_>>(), binary);
        let base = sums.first().and_then(|s| s.as_ref());
        let n_base = r.cells.first().and_then(|x| x.samples.as_ref()).map_or(0, |s| s.len());
        let mut line = vec![r.name.clone()];
        for k in 0..kernels {
            let (cell, sum) = match (r.cells.get(k), sums.get(k).and_then(|s| s.as_ref())) {
                (Some(cell), Some(sum)) => (cell, sum),
                _ => {
                    if let Some(p) = present.get_mut(k) {
                        p.push(false);
                    }
                    line.extend(std::iter::repeat_n(String::new(), if k == 0 { 3 } else { 6 }));
                    continue;
                }
            };
            if let Some(p) = present.get_mut(k) {
                p.push(true);
            }
            line.push(scale.format(sum.center));
            line.push(sum.range.clone());
            line.push(if sum.bounded {
                String::new()
            } else {
                notes
                    .mark(format!("need {} samples for confidence interval at level {CONFIDENCE}", runs_for_interval()))
            });
            if let Some(cs) = centers.get_mut(k) {
                cs.push(sum.center);
            }
            if k > 0 {
                if let Some(b) = base {
                    let n_new = cell.samples.as_ref().map_or(0, |s| s.len());
                    line.push(delta(cell, b.center, sum.center));
                    line.push(p_and_n(cell, n_base, n_new));
                    line.push(String::new());
                    if let Some(rs) = ratios.get_mut(k) {
                        rs.push(sum.center / b.center);
                    }
                } else {
                    line.extend(std::iter::repeat_n(String::new(), 3));
                }
            }
        }
        lines.push(line);
    }
    if rows.len() > 1 {
        let mut line = vec!["geomean".to_string()];
        for k in 0..kernels {
            let mut foot = Vec::new();
            if k > 0 && present.get(k) != present.first() {
                foot.push(notes.mark("benchmark set differs from baseline; geomeans may not be comparable".into()));
            }
            let g = centers.get(k).and_then(|c| geomean(c));
            if g.is_none() {
                foot.push(notes.mark("summaries must be >0 to compute geomean".into()));
            }
            line.push(g.map(|g| Scale::common(&[g], binary).format(g)).unwrap_or_default());
            line.push(String::new());
            if k == 0 {
                line.push(foot.join(" "));
                continue;
            }
            line.push(String::new());
            let r = ratios.get(k).and_then(|r| geomean(r));
            if r.is_none() && g.is_some() {
                foot.push(notes.mark("ratios must be >0 to compute geomean".into()));
            }
            line.push(r.map_or("?".to_string(), |r| format!("{:+.2}%", (r - 1.0) * 100.0)));
            line.push(String::new());
            line.push(foot.join(" "));
        }
        lines.push(line);
    }
    lines
}

fn width(s: &str) -> usize {
    s.chars().count()
}

fn pad_left(s: &str, w: usize) -> String {
    format!("{}{s}", " ".repeat(w.saturating_sub(width(s))))
}

fn pad_right(s: &str, w: usize) -> String {
    format!("{s}{}", " ".repeat(w.saturating_sub(width(s))))
}

fn centre(s: &str, w: usize) -> String {
    let room = w.saturating_sub(width(s));
    format!("{}{s}{}", " ".repeat(room / 2), " ".repeat(room - room / 2))
}

/// The text of one table (the rows of one unit), header included.
fn render_table(c: &Comparison, unit: &str, lines: &[Line]) -> String {
    let cols = lines.first().map_or(0, |l| l.len());
    let mut w = vec![0usize; cols];
    for l in lines {
        for (i, s) in l.iter().enumerate() {
            if let Some(x) = w.get_mut(i) {
                *x = (*x).max(width(s));
            }
        }
    }
    let col = |i: usize| w.get(i).copied().unwrap_or(0);
    // a kernel's block: median " ± " range note, then "  " delta " " (p n) note
    let start = |k: usize| if k == 0 { 1 } else { 4 + (k - 1) * 6 };
    let centre_w = |k: usize| col(start(k)) + 3 + col(start(k) + 1) + note_w(col(start(k) + 2));
    let delta_w = |k: usize| 2 + col(start(k) + 3) + 1 + col(start(k) + 4) + note_w(col(start(k) + 5));
    let mut block = Vec::with_capacity(c.kernels.len());
    for (k, name) in c.kernels.iter().enumerate() {
        let mut cw = centre_w(k).max(width(unit));
        let mut dw = if k == 0 { 0 } else { delta_w(k).max(width("  vs base")) };
        let need = width(name);
        if cw + dw < need {
            if k == 0 {
                cw = need;
            } else {
                dw = need - cw;
            }
        }
        block.push((cw, dw));
    }
    let label_w = col(0);
    let mut out = String::new();
    let head = |out: &mut String, cellf: &dyn Fn(usize, usize, usize) -> String| {
        out.push_str(&" ".repeat(label_w));
        for (k, (cw, dw)) in block.iter().enumerate() {
            out.push_str(" │ ");
            out.push_str(&cellf(k, *cw, *dw));
        }
        out.push_str(" │\n");
    };
    head(&mut out, &|k, cw, dw| centre(c.kernels.get(k).map_or("", |s| s.as_str()), cw + dw));
    head(&mut out, &|k, cw, dw| {
        if k == 0 {
            centre(unit, cw)
        } else {
            format!("{}{}", centre(unit, cw), pad_right("  vs base", dw))
        }
    });
    for l in lines {
        let get = |i: usize| l.get(i).map_or("", |s| s.as_str());
        let mut text = pad_right(get(0), label_w);
        for (k, (cw, dw)) in block.iter().enumerate() {
            let s = start(k);
            let mut b = String::new();
            if !get(s).is_empty() {
                b.push_str(&pad_left(get(s), col(s)));
                if get(s + 1).is_empty() {
                    b.push_str(&" ".repeat(3 + col(s + 1)));
                } else {
                    b.push_str(" ± ");
                    b.push_str(&pad_left(get(s + 1), col(s + 1)));
                }
            } else {
                b.push_str(&" ".repeat(col(s) + 3 + col(s + 1)));
            }
            b.push_str(&pad_right(&note(get(s + 2)), note_w(col(s + 2))));
            let mut b = pad_left(&b, *cw);
            if k > 0 {
                let d = format!(
                    "  {} {}{}",
                    pad_left(get(s + 3), col(s + 3)),
                    pad_right(get(s + 4), col(s + 4)),
                    pad_right(&note(get(s + 5)), note_w(col(s + 5)))
                );
                b.push_str(&pad_right(&d, *dw));
            }
            text.push_str("   ");
            text.push_str(&b);
        }
        out.push_str(text.trim_end());
        out.push('\n');
    }
    out
}

fn note_w(w: usize) -> usize {
    if w == 0 {
        0
    } else {
        w + 1
    }
}

fn note(s: &str) -> String {
    if s.is_empty() {
        String::new()
    } else {
        format!(" {s}")
    }
}

/// The benchstat view of `c`: one table per unit (rows without a unit under `value`),
/// the rows whose baseline has per-run samples, then the numbered footnotes and a line
/// naming the interval and the test. An error when no row has samples (a table read
/// from pasted text).
pub fn render(c: &Comparison) -> Result<String> {
    let rows = shown_rows(c);
    if rows.is_empty() {
        return Err(Error::insufficient(
            "the benchstat view needs per-run samples, and no row of this comparison has them",
        ));
    }
    let mut units: Vec<&str> = Vec::new();
    for r in &rows {
        let u = r.unit.as_deref().unwrap_or("value");
        if !units.contains(&u) {
            units.push(u);
        }
    }
    let mut notes = Notes::default();
    let mut out = String::new();
    for (i, u) in units.iter().enumerate() {
        let of_unit: Vec<&Row> = rows.iter().filter(|r| r.unit.as_deref().unwrap_or("value") == *u).collect();
        let lines = table_lines(&of_unit, c.kernels.len(), binary_unit(u), &mut notes);
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&render_table(c, u, &lines));
    }
    for (i, msg) in notes.0.iter().enumerate() {
        out.push_str(&format!("{} {msg}\n", superscript(i + 1)));
    }
    let tests: Vec<&str> = {
        let mut t: Vec<&str> = Vec::new();
        for r in &rows {
            for cell in r.cells.iter().skip(1) {
                if let Some(name) = cell.test.map(CellTest::name).filter(|n| !t.contains(n)) {
                    t.push(name);
                }
            }
        }
        t
    };
    let decided = if tests.is_empty() { "the table's own marker".to_string() } else { tests.join(", ") };
    out.push_str(&format!(
        "median ± distribution-free {:.0}% interval of the median (order statistics); vs base: change of the \
         medians where {decided} finds a change, ~ otherwise\n",
        CONFIDENCE * 100.0
    ));
    Ok(out)
}
