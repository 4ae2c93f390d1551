//! benchstat's tables from Go benchmark results, split by projections (golang.org/x/perf
//! `cmd/benchstat` and its `benchtab`; docs/benchstat.md §7): results are filtered
//! (`-filter`), each measurement goes to the table of its `-table` key and unit, the
//! row of its `-row` key and the column of its `-col` key; the first column is the
//! baseline. A cell whose results differ in a key no projection names (nor `-ignore`)
//! is noted "benchmarks vary in KEY". Printed as benchstat's text (the table keys that
//! change above each table) or its CSV (warnings apart, with the cell they belong to).

use super::benchproc::{Filter, Key, Labelled, ProjectionParser};
use super::benchstat::{render_table, row_cells, summarize_col, Table, ALPHA, CONFIDENCE};
use crate::cfmt::go_fmt_v;
use crate::error::{Error, Result};
use crate::readers::go_bench::GoResults;
use std::collections::HashMap;

/// benchstat's output formats (`-format`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum OutputFormat {
    /// Plain text tables, warnings as footnotes.
    Text,
    /// Comma-separated values, warnings apart.
    Csv,
}

impl crate::choice::Choice for OutputFormat {
    const WHAT: &'static str = "format";
    const ALL: &'static [Self] = &[OutputFormat::Text, OutputFormat::Csv];
    fn name(self) -> &'static str {
        match self {
            OutputFormat::Text => "text",
            OutputFormat::Csv => "csv",
        }
    }
}

/// How results are split and tested: benchstat's flags and their defaults.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// `-table`: what splits results into tables (each also split by unit).
    pub table: String,
    /// `-row`: what splits a table into rows.
    pub row: String,
    /// `-col`: what splits a table into columns (the first is the baseline).
    pub col: String,
    /// `-ignore`: keys whose variation is not reported.
    pub ignore: String,
    /// `-filter`: which results (or measurements, by `.unit`) are used.
    pub filter: String,
    /// `-alpha`: a change is reported when p < alpha.
    pub alpha: f64,
    /// `-confidence`: the level of the interval of the median.
    pub confidence: f64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            table: ".config".into(),
            row: ".fullname".into(),
            col: ".file".into(),
            ignore: String::new(),
            filter: "*".into(),
            alpha: ALPHA,
            confidence: CONFIDENCE,
        }
    }
}

/// One input: its label (benchstat's `.file`) and its results.
#[derive(Debug, Clone)]
pub struct Input {
    /// The label (the path as given, or `LABEL` of `LABEL=PATH`).
    pub label: String,
    /// Its results.
    pub results: GoResults,
}

/// The inputs benchstat's command line names (`PATH` or `LABEL=PATH`, benchfmt's
/// `Files` with labels allowed), read as Go benchmark files: a path given more than
/// once without a label is labelled `PATH#N`, N counting from 0.
pub fn read_inputs(args: &[String]) -> Result<Vec<Input>> {
    let split: Vec<(String, String, bool)> = args
        .iter()
        .map(|a| match a.split_once('=') {
            Some((label, path)) => (label.to_string(), path.to_string(), true),
            None => (a.clone(), a.clone(), false),
        })
        .collect();
    let mut seen: HashMap<&str, usize> = HashMap::new();
    let mut out = Vec::new();
    for (label, path, labelled) in &split {
        crate::cancel::check()?;
        let count = split.iter().filter(|(_, p, _)| p == path).count();
        let n = seen.entry(path.as_str()).or_insert(0);
        let label = if *labelled || count == 1 { label.clone() } else { format!("{path}#{n}") };
        *n += 1;
        let bytes = crate::readers::read_bytes(std::path::Path::new(path))?;
        let text = crate::readers::text_of(&bytes, Some(path))?
            .map_err(|line| Error::parse(Some(path), Some(line), "not UTF-8 text"))?;
        out.push(Input { label, results: crate::readers::go_bench::results(&text, Some(path))? });
    }
    Ok(out)
}

/// One built table: its key (the `-table` fields' values, the unit last), its
/// columns' keys and the table itself.
struct Built {
    key: Key,
    cols: Vec<Key>,
    table: Table,
}

/// benchstat's tables of some inputs (benchtab's `Tables`).
pub struct Tables {
    /// The `-table` projection's field names, `.unit` last.
    fields: Vec<String>,
    tables: Vec<Built>,
}

/// A cell being filled: its values and the distinct residue keys of its results.
#[derive(Default)]
struct Acc {
    values: Vec<f64>,
    residues: Vec<Key>,
}

/// One table being filled: its rows and columns as seen, its cells.
#[derive(Default)]
struct TableAcc {
    rows: Vec<Key>,
    cols: Vec<Key>,
    cells: HashMap<(Key, Key), Acc>,
}

/// benchproc's `NonSingularFields`: the fields in which `keys` differ.
fn non_singular(names: &[String], keys: &[Key]) -> Vec<String> {
    let Some(first) = keys.first() else { return Vec::new() };
    names
        .iter()
        .enumerate()
        .filter(|(i, _)| keys.iter().any(|k| k.get(*i) != first.get(*i)))
        .map(|(_, n)| n.clone())
        .collect()
}

/// A key as benchproc's `StringValues`: its non-empty values, space-separated.
fn string_values(k: &Key) -> String {
    k.iter().filter(|v| !v.is_empty()).cloned().collect::<Vec<_>>().join(" ")
}

/// Split `inputs` into benchstat's tables as `opts` says (benchstat's `Builder`).
pub fn build(inputs: &[Input], opts: &Options) -> Result<Tables> {
    if !(0.0..=1.0).contains(&opts.alpha) {
        return Err(Error::domain("-alpha must be in range [0, 1]"));
    }
    if !(0.0..=1.0).contains(&opts.confidence) {
        return Err(Error::domain("-confidence must be in range [0, 1]"));
    }
    let named = |flag: &str, e: Error| Error::parse(None, None, format!("parsing {flag}: {e}"));
    let mut filters = vec![Filter::parse(&opts.filter).map_err(|e| named("-filter", e))?];
    let mut parser = ProjectionParser::default();
    let mut table_p = parser.parse_with_unit(&opts.table, &mut filters).map_err(|e| named("-table", e))?;
    let mut row_p = parser.parse(&opts.row, &mut filters).map_err(|e| named("-row", e))?;
    let mut col_p = parser.parse(&opts.col, &mut filters).map_err(|e| named("-col", e))?;
    parser.parse(&opts.ignore, &mut filters).map_err(|e| named("-ignore", e))?;
    let mut residue = parser.residue();
    parser.finish(&mut [&mut table_p, &mut row_p, &mut col_p, &mut residue]);
    let mut exact: Vec<&str> = Vec::new();
    // the measurements each result keeps, and the configuration keys in order
    let mut kept: Vec<(Labelled<'_>, Vec<bool>)> = Vec::new();
    for input in inputs {
        for (i, r) in input.results.results.iter().enumerate() {
            crate::cancel::check_every(i)?;
            let l = Labelled { file: &input.label, result: r };
            let mut keep = vec![true; r.values.len()];
            for f in &filters {
                for (k, x) in keep.iter_mut().zip(f.keep(l)) {
                    *k &= x;
                }
            }
            if !keep.iter().any(|k| *k) {
                continue;
            }
            for p in [&mut table_p, &mut row_p, &mut col_p, &mut residue] {
                p.observe_config(l);
            }
            kept.push((l, keep));
        }
        for u in &input.results.exact_units {
            if !exact.contains(&u.as_str()) {
                exact.push(u);
            }
        }
    }
    let mut tables: Vec<(Key, TableAcc)> = Vec::new();
    let mut index: HashMap<Key, usize> = HashMap::new();
    for (i, (l, keep)) in kept.iter().enumerate() {
        crate::cancel::check_every(i)?;
        let row = row_p.project(*l, "");
        let col = col_p.project(*l, "");
        let res = residue.project(*l, "");
        for (v, _) in l.result.values.iter().zip(keep).filter(|(_, k)| **k) {
            let tk = table_p.project(*l, &v.unit);
            let at = *index.entry(tk.clone()).or_insert_with(|| {
                tables.push((tk, TableAcc::default()));
                tables.len() - 1
            });
            let Some((_, t)) = tables.get_mut(at) else { continue };
            let cell = t.cells.entry((row.clone(), col.clone())).or_insert_with(|| {
                if !t.rows.contains(&row) {
                    t.rows.push(row.clone());
                }
                if !t.cols.contains(&col) {
                    t.cols.push(col.clone());
                }
                Acc::default()
            });
            cell.values.push(v.value);
            if !cell.residues.contains(&res) {
                cell.residues.push(res.clone());
            }
        }
    }
    tables.sort_by(|a, b| table_p.cmp(&a.0, &b.0));
    let residue_names = residue.field_names();
    let mut out = Vec::new();
    for (key, mut t) in tables {
        crate::cancel::check()?;
        t.rows.sort_by(|a, b| row_p.cmp(a, b));
        t.cols.sort_by(|a, b| col_p.cmp(a, b));
        let unit = key.last().cloned().unwrap_or_default();
        let is_exact = exact.contains(&unit.as_str());
        let mut rows = Vec::new();
        for row in &t.rows {
            let mut values = Vec::new();
            let mut warnings = Vec::new();
            for col in &t.cols {
                let cell = t.cells.remove(&(row.clone(), col.clone()));
                let vary = cell.as_ref().map(|c| non_singular(&residue_names, &c.residues)).unwrap_or_default();
                warnings.push(if vary.is_empty() {
                    Vec::new()
                } else {
                    vec![format!("benchmarks vary in {}", vary.join(", "))]
                });
                values.push(cell.map(|c| c.values));
            }
            rows.push((string_values(row), row_cells(values, warnings, is_exact, opts.alpha, opts.confidence)?));
        }
        out.push(Built { key, cols: t.cols, table: Table { unit, rows } });
    }
    Ok(Tables { fields: table_p.field_names(), tables: out })
}

impl Tables {
    /// The lines naming what changed in the table key before table `i` (all of it
    /// before the first), `.unit` left out (benchtab's `printTables`).
    fn key_lines(&self, i: usize) -> Vec<String> {
        let mut out = Vec::new();
        let Some(t) = self.tables.get(i) else { return out };
        let prev = i.checked_sub(1).and_then(|p| self.tables.get(p));
        for (f, name) in self.fields.iter().enumerate() {
            if name == ".unit" {
                continue;
            }
            let val = t.key.get(f).map_or("", String::as_str);
            if prev.is_none_or(|p| p.key.get(f).map_or("", String::as_str) != val) {
                out.push(format!("{name}: {val}"));
            }
        }
        out
    }

    /// benchstat's text output (`-format text`).
    pub fn text(&self) -> String {
        let mut out = String::new();
        for (i, t) in self.tables.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            for l in self.key_lines(i) {
                out.push_str(&l);
                out.push('\n');
            }
            out.push_str(&render_table(&t.cols, &t.table));
        }
        out
    }

    /// The output in `format`: (what benchstat prints on stdout, its warnings on
    /// stderr: none for text, where they are footnotes).
    pub fn render(&self, format: OutputFormat) -> (String, String) {
        match format {
            OutputFormat::Text => (self.text(), String::new()),
            OutputFormat::Csv => self.csv(),
        }
    }

    /// benchstat's CSV output (`-format csv`) and its warnings, each prefixed with
    /// the spreadsheet cell it belongs to (`B6: ...`).
    pub fn csv(&self) -> (String, String) {
        let mut w = CsvOut::default();
        for (i, t) in self.tables.iter().enumerate() {
            if i > 0 {
                w.record(&[String::new()]);
            }
            for l in self.key_lines(i) {
                w.record(&[l]);
            }
            table_csv(&mut w, &t.cols, &t.table);
        }
        (w.out, w.warnings)
    }
}

/// A CSV writer as Go's `encoding/csv` writes, counting its records (1-based rows).
#[derive(Default)]
struct CsvOut {
    out: String,
    warnings: String,
    records: usize,
}

impl CsvOut {
    /// Go's `fieldNeedsQuotes`.
    fn needs_quotes(f: &str) -> bool {
        if f.is_empty() {
            return false;
        }
        f == r"\." || f.contains(['\n', '\r', '"', ',']) || f.chars().next().is_some_and(char::is_whitespace)
    }

    fn record(&mut self, fields: &[String]) {
        for (i, f) in fields.iter().enumerate() {
            if i > 0 {
                self.out.push(',');
            }
            if Self::needs_quotes(f) {
                self.out.push('"');
                self.out.push_str(&f.replace('"', "\"\""));
                self.out.push('"');
            } else {
                self.out.push_str(f);
            }
        }
        self.out.push('\n');
        self.records += 1;
    }

    /// Warnings about the cell at column `col` (0-based) of the next record, named as
    /// benchtab names it (its column letters are its own: 1 is `B`, 26 `BA`).
    fn warn(&mut self, col: usize, msgs: &[String]) {
        let mut name = Vec::new();
        let mut x = col;
        while x > 0 {
            name.push(b'A' + (x % 26) as u8);
            x /= 26;
        }
        if name.is_empty() {
            name.push(b'A');
        }
        name.reverse();
        let name = String::from_utf8_lossy(&name);
        for m in msgs {
            self.warnings.push_str(&format!("{name}{}: {m}\n", self.records + 1));
        }
    }
}

/// Where column `k`'s block starts in CSV: after the label, the baseline's center
/// and interval, then center, interval, delta and p of each other column.
fn start(k: usize) -> usize {
    if k == 0 {
        1
    } else {
        3 + (k - 1) * 4
    }
}

/// One table in CSV (benchtab's `Table.ToCSV`): a header record per column field, the
/// unit record, a record per row, the geomean record.
fn table_csv(w: &mut CsvOut, cols: &[Key], t: &Table) {
    let clear_to = |row: &mut Vec<String>, col: usize| {
        while row.len() < col {
            row.push(String::new());
        }
    };
    let depth = cols.first().map_or(0, Vec::len);
    for f in 0..depth {
        let mut row = Vec::new();
        for (k, c) in cols.iter().enumerate() {
            clear_to(&mut row, start(k));
            row.push(c.get(f).cloned().unwrap_or_default());
        }
        clear_to(&mut row, start(cols.len()));
        w.record(&row);
    }
    let mut row = Vec::new();
    for k in 0..cols.len() {
        clear_to(&mut row, start(k));
        row.push(t.unit.clone());
        row.push("CI".into());
        if k > 0 {
            row.push("vs base".into());
            row.push("P".into());
        }
    }
    w.record(&row);
    for (name, cells) in &t.rows {
        let mut row = vec![name.clone()];
        let base = cells.first().and_then(|b| b.as_ref());
        for (k, cell) in cells.iter().enumerate() {
            let Some(cell) = cell else { continue };
            clear_to(&mut row, start(k));
            w.warn(row.len(), &cell.summary.warnings);
            row.push(go_fmt_v(cell.summary.center));
            row.push(cell.summary.range());
            if let (true, Some(b), Some(cmp)) = (k > 0, base, &cell.compared) {
                w.warn(row.len(), &cmp.warnings);
                row.push(cmp.delta(b.summary.center, cell.summary.center));
                row.push(cmp.text());
            }
        }
        w.record(&row);
    }
    let mut row = vec!["geomean".to_string()];
    for k in 0..cols.len() {
        let s = summarize_col(t, k);
        clear_to(&mut row, start(k));
        w.warn(row.len(), &s.warnings);
        if let Some(v) = s.summary {
            row.push(go_fmt_v(v));
        }
        if k > 0 {
            clear_to(&mut row, start(k) + 2);
            row.push(match s.ratio {
                Some(r) => format!("{:+.2}%", (r - 1.0) * 100.0),
                None => "?".into(),
            });
        }
    }
    clear_to(&mut row, start(cols.len()));
    w.record(&row);
}
