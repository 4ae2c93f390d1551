//! A comparison as a tidy table: one record per (row, kernel) with every cell field
//! but the samples, in [`COLUMNS`] order. `to_pandas()` builds its DataFrame from
//! these columns and `to_csv()` writes them as pandas' `to_csv(index=False)` would.

use super::cell_test::CellTest;
use super::comparison::Comparison;
use crate::cfmt::py_float_repr;
use crate::error::Result;

/// The columns of the tidy table, in order.
pub const COLUMNS: [&str; 14] = [
    "group",
    "name",
    "kernel",
    "direction",
    "change_kind",
    "value",
    "spread",
    "change",
    "significant",
    "p",
    "q",
    "test",
    "verdict",
    "n",
];

/// The tidy table as columns (absent and non-finite numbers are None).
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Tidy {
    /// The row's group (statistic) per record.
    pub group: Vec<String>,
    /// The row's name per record.
    pub name: Vec<String>,
    /// The kernel per record.
    pub kernel: Vec<String>,
    /// The row's direction ("higher", "lower", "unknown").
    pub direction: Vec<&'static str>,
    /// The row's change kind ("improvement", "percent", "absolute").
    pub change_kind: Vec<&'static str>,
    /// The cell's value.
    pub value: Vec<Option<f64>>,
    /// The cell's spread.
    pub spread: Vec<Option<f64>>,
    /// The cell's change.
    pub change: Vec<Option<f64>>,
    /// The tool's significance marker.
    pub significant: Vec<Option<bool>>,
    /// p-value.
    pub p: Vec<Option<f64>>,
    /// BH q-value.
    pub q: Vec<Option<f64>>,
    /// The test's name.
    pub test: Vec<Option<&'static str>>,
    /// The verdict's name.
    pub verdict: Vec<Option<&'static str>>,
    /// Number of samples.
    pub n: Vec<Option<u64>>,
}

fn finite(x: Option<f64>) -> Option<f64> {
    x.filter(|v| v.is_finite())
}

/// The tidy columns of `c`. Polls [`crate::cancel`] every 4096 rows.
pub fn tidy(c: &Comparison) -> Result<Tidy> {
    let mut t = Tidy::default();
    for (ri, r) in c.rows.iter().enumerate() {
        crate::cancel::check_every(ri)?;
        for (k, cell) in c.kernels.iter().zip(&r.cells) {
            t.group.push(r.group.clone());
            t.name.push(r.name.clone());
            t.kernel.push(k.clone());
            t.direction.push(r.direction.name());
            t.change_kind.push(r.change_kind.name());
            t.value.push(finite(cell.value));
            t.spread.push(finite(cell.spread));
            t.change.push(finite(cell.change));
            t.significant.push(cell.significant);
            t.p.push(finite(cell.p));
            t.q.push(finite(cell.q));
            t.test.push(cell.test.map(CellTest::name));
            t.verdict.push(cell.verdict.map(|v| v.name()));
            t.n.push(cell.n);
        }
    }
    Ok(t)
}

/// One CSV field as Python's csv module writes it (QUOTE_MINIMAL): quoted when it holds
/// a comma, a quote, CR or LF, with quotes doubled.
fn field(out: &mut String, s: &str) {
    if s.contains([',', '"', '\r', '\n']) {
        out.push('"');
        out.push_str(&s.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(s);
    }
}

/// The tidy table as pandas' `DataFrame.to_csv(index=False)` writes it: a header of
/// [`COLUMNS`], floats as Python's `repr` (`4626.0`, `1e-09`), an integer column as
/// integers unless a value is missing (then pandas holds floats: `4.0`), booleans as
/// `True`/`False`, missing values empty, LF line ends.
pub fn to_csv(c: &Comparison) -> Result<String> {
    let t = tidy(c)?;
    let num = |x: Option<f64>| x.map(py_float_repr).unwrap_or_default();
    let n_has_gap = t.n.iter().any(Option::is_none);
    let mut out = COLUMNS.join(",");
    out.push('\n');
    for i in 0..t.group.len() {
        crate::cancel::check_every(i)?;
        let n = match t.n.get(i).copied().flatten() {
            Some(n) if n_has_gap => py_float_repr(n as f64),
            Some(n) => n.to_string(),
            None => String::new(),
        };
        let sig = match t.significant.get(i).copied().flatten() {
            Some(true) => "True",
            Some(false) => "False",
            None => "",
        };
        let fields: [String; 14] = [
            t.group.get(i).cloned().unwrap_or_default(),
            t.name.get(i).cloned().unwrap_or_default(),
            t.kernel.get(i).cloned().unwrap_or_default(),
            t.direction.get(i).copied().unwrap_or_default().to_string(),
            t.change_kind.get(i).copied().unwrap_or_default().to_string(),
            num(t.value.get(i).copied().flatten()),
            num(t.spread.get(i).copied().flatten()),
            num(t.change.get(i).copied().flatten()),
            sig.to_string(),
            num(t.p.get(i).copied().flatten()),
            num(t.q.get(i).copied().flatten()),
            t.test.get(i).copied().flatten().unwrap_or_default().to_string(),
            t.verdict.get(i).copied().flatten().unwrap_or_default().to_string(),
            n,
        ];
        for (j, f) in fields.iter().enumerate() {
            if j > 0 {
                out.push(',');
            }
            field(&mut out, f);
        }
        out.push('\n');
    }
    Ok(out)
}
