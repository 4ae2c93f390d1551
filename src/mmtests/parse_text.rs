//! Parse compare-mmtests.pl tables as they are pasted in mail back into a
//! [`Comparison`]: the aligned form and whitespace-collapsed forms, kernel names
//! on one or two header lines, any summary rows (Min, Hmean, Amean, BAmean-95, ...),
//! `( x%)` and `* x%*` cells, and `--print-ratio` tables (`Ratio op v (p%) (±ns)`,
//! Dmean/Dmin/Dmax/Gmean rows). Title lines, `=====`/`-----` rules, `machine:` and
//! `HIGHER/LOWER is better` lines around the table are understood or skipped.

use crate::error::{Error, Result};
use crate::table::{Cell, CellTest, ChangeKind, Comparison, Direction, MmtestsLayout, MmtestsMeta, Row, Rows, Verdict};

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Num(f64, usize),
    Open,
    Close,
    Star,
    Pct,
    Sec,
    Word(String),
}

fn number(s: &str) -> Option<f64> {
    match s {
        "NaN" | "nan" | "-NaN" => Some(f64::NAN),
        "Inf" | "+Inf" | "inf" => Some(f64::INFINITY),
        "-Inf" | "-inf" => Some(f64::NEG_INFINITY),
        _ => {
            let ok = s.bytes().any(|b| b.is_ascii_digit())
                && s.bytes().all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'e' | b'E'));
            if ok {
                s.parse().ok()
            } else {
                None
            }
        }
    }
}

/// Two or more `%.2f` numbers (or `NaN`/`Inf`, signed) written without a space
/// between them, as MMTests prints the columns past its formatted ones when a value
/// fills its field; None unless the whole word is such numbers.
fn split_fused(w: &str) -> Option<Vec<f64>> {
    let mut out = Vec::new();
    let mut s = w;
    while !s.is_empty() {
        let sign = usize::from(s.starts_with(['-', '+']));
        let body = s.get(sign..)?;
        let len = if body.starts_with("NaN") || body.starts_with("Inf") {
            3
        } else {
            let int = body.bytes().take_while(u8::is_ascii_digit).count();
            let frac = body.get(int + 1..)?.bytes().take_while(u8::is_ascii_digit).count();
            if int == 0 || body.as_bytes().get(int) != Some(&b'.') || frac < 2 {
                return None;
            }
            int + 3
        };
        let (piece, rest) = s.split_at_checked(sign + len)?;
        out.push(number(piece)?);
        s = rest;
    }
    (out.len() >= 2).then_some(out)
}

fn decimals(s: &str) -> usize {
    s.split_once('.').map(|(_, f)| f.bytes().take_while(u8::is_ascii_digit).count()).unwrap_or(0)
}

/// Tokens of the cell part of a row.
fn tokens(s: &str) -> Vec<Tok> {
    let mut out = Vec::new();
    let mut word = String::new();
    let flush = |w: &mut String, out: &mut Vec<Tok>| {
        if w.is_empty() {
            return;
        }
        // "NaNs" / "+0.00s" inside "(...)": a number followed by the seconds unit
        if let Some(stripped) = w.strip_suffix('s') {
            if let Some(v) = number(stripped) {
                out.push(Tok::Num(v, decimals(stripped)));
                out.push(Tok::Sec);
                w.clear();
                return;
            }
        }
        match number(w) {
            Some(v) => out.push(Tok::Num(v, decimals(w))),
            None => match split_fused(w) {
                // MMTests' unformatted columns are %{FL}.2f fields side by side: a
                // value as wide as the field touches its neighbour ("5200000.00-519999900.00")
                Some(vs) => out.extend(vs.into_iter().map(|v| Tok::Num(v, 2))),
                None => out.push(Tok::Word(w.clone())),
            },
        }
        w.clear();
    };
    for ch in s.chars() {
        match ch {
            '(' | ')' | '*' | '%' => {
                flush(&mut word, &mut out);
                out.push(match ch {
                    '(' => Tok::Open,
                    ')' => Tok::Close,
                    '*' => Tok::Star,
                    _ => Tok::Pct,
                });
            }
            c if c.is_whitespace() => flush(&mut word, &mut out),
            c => word.push(c),
        }
    }
    flush(&mut word, &mut out);
    out
}

#[derive(Debug, Clone)]
struct Parsed {
    value: f64,
    decimals: usize,
    change: Option<f64>,
    star: bool,
    norm: Option<Option<f64>>,
}

/// What a row's cells look like.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RowKind {
    /// A statistic row: `v ( p%)` / `v * p%*`, then `v p` pairs past the formatted runs.
    Table,
    /// `Ratio op`: `v (p%) (ns)`, then `v p n` triples past the formatted runs.
    Ratio,
    /// Dmean/Dmin/Dmax/Gmean: bare values.
    Bare,
}

/// Cells of a table row: `v ( p%)` / `v * p%*`, ratio rows `v (p%) (ns)`, or
/// bare values (Dmean/Gmean rows). compare-mmtests.pl formats only its first few runs
/// (ratio operations + 1; MMTests 2018 also statistics + 2) this way and prints the others as bare
/// `%.2f` fields: `v p` per run in a table, `v p n` in a ratio table. None if the
/// tokens are not a row.
fn cells(toks: &[Tok], kind: RowKind) -> Option<(Vec<Parsed>, usize)> {
    let mut out = cells_as_printed(toks)?;
    let formatted = |c: &Parsed| c.change.is_some() || c.norm.is_some();
    if kind == RowKind::Bare && out.iter().any(formatted) {
        // Dmean/Dmin/Dmax/Gmean print values only: a change here is a mangled row
        return None;
    }
    let first_bare = out.iter().position(|c| !formatted(c));
    let formatted_runs = first_bare.unwrap_or(out.len());
    if kind == RowKind::Ratio && formatted_runs == 0 {
        // compare-mmtests.pl formats at least the baseline of a Ratio row
        return None;
    }
    if let (Some(fb), RowKind::Table | RowKind::Ratio) = (first_bare, kind) {
        if fb > 0 {
            let tail = out.split_off(fb);
            let group = if kind == RowKind::Ratio { 3 } else { 2 };
            if tail.iter().any(formatted) || tail.len() % group != 0 {
                return None;
            }
            for ch in tail.chunks(group) {
                let (Some(v), Some(p)) = (ch.first(), ch.get(1)) else { return None };
                let norm = ch.get(2).map(|n| if n.value.is_nan() { None } else { Some(n.value) });
                out.push(Parsed { value: v.value, decimals: v.decimals, change: Some(p.value), star: false, norm });
            }
        }
    }
    Some((out, formatted_runs))
}

fn cells_as_printed(toks: &[Tok]) -> Option<Vec<Parsed>> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(tok) = toks.get(i) {
        let Tok::Num(v, d) = *tok else { return None };
        i += 1;
        let mut cell = Parsed { value: v, decimals: d, change: None, star: false, norm: None };
        match (toks.get(i), toks.get(i + 1), toks.get(i + 2), toks.get(i + 3)) {
            (Some(Tok::Open), Some(Tok::Num(p, _)), Some(Tok::Pct), Some(Tok::Close)) => {
                cell.change = Some(*p);
                i += 4;
            }
            (Some(Tok::Star), Some(Tok::Num(p, _)), Some(Tok::Pct), Some(Tok::Star)) => {
                cell.change = Some(*p);
                cell.star = true;
                i += 4;
            }
            _ => {}
        }
        if let (Some(Tok::Open), Some(Tok::Num(n, _)), Some(Tok::Sec), Some(Tok::Close)) =
            (toks.get(i), toks.get(i + 1), toks.get(i + 2), toks.get(i + 3))
        {
            cell.norm = Some(if n.is_nan() { None } else { Some(*n) });
            i += 4;
        }
        out.push(cell);
    }
    if out.is_empty() {
        None
    } else {
        Some(out)
    }
}

struct DataRow {
    line: usize,
    group: String,
    name: String,
    cells: Vec<Parsed>,
    ratio: bool,
    /// How many leading cells were printed formatted (`v (p%) (ns)` / `v ( p%)`).
    formatted: usize,
}

fn data_row(lineno: usize, line: &str) -> Option<DataRow> {
    let mut it = line.split_whitespace();
    let group = it.next()?.to_string();
    let name = it.next()?.to_string();
    if number(&group).is_some() {
        return None;
    }
    let (_, rest) = line.split_once(group.as_str())?;
    let (_, cells_text) = rest.split_once(name.as_str())?;
    let toks = tokens(cells_text);
    let kind = match group.as_str() {
        "Ratio" => RowKind::Ratio,
        g if super::render_text::bare_values(g) => RowKind::Bare,
        _ => RowKind::Table,
    };
    let (cells, formatted) = cells(&toks, kind)?;
    let ratio = kind != RowKind::Table;
    Some(DataRow { line: lineno, group, name, cells, ratio, formatted })
}

/// A line starting with a statistic MMTests prints and a number: meant as a row.
fn looks_like_stat_row(line: &str) -> bool {
    let mut it = line.split_whitespace();
    let (Some(first), Some(_)) = (it.next(), it.next()) else { return false };
    let stat = matches!(
        first,
        "Ratio" | "Dmean" | "Dmin" | "Dmax" | "Gmean" | "Min" | "Max" | "Amean" | "Hmean" | "Stddev" | "CoeffVar"
    ) || ["BAmean-", "BHmean-", "HStddev", "HCoeffVar", "SubAmean", "SubmeanCI"]
        .iter()
        .any(|p| first.starts_with(p));
    // any number after the operation: a stray mark before the first value ("Ratio
    // time-1 ! 1.0000 ...") must not turn the row into a header line
    stat && it.any(|t| number(t).is_some() || split_fused(t).is_some())
}

fn is_rule(line: &str) -> bool {
    // control characters are blanks here as in header_tokens: a line of `===` among
    // them is a rule either way, never a kernel name's first part
    let t = line.trim_matches(|c: char| c.is_whitespace() || c.is_control());
    !t.is_empty() && t.bytes().all(|b| b == b'-' || b == b'=')
}

/// Join two header parts as compare-mmtests.pl split them (see
/// [`super::render_text::split_name`]).
fn join_name(a: &str, b: &str) -> String {
    if b.len() == a.len() + 1 && b.starts_with(a) && !a.contains('-') {
        b.to_string()
    } else if b.is_empty() && ends_in_rc(a) {
        // "6.10-rc3" splits into ("6.10-rc3", ""): the -rc shift took the whole name
        a.to_string()
    } else if b.is_empty() {
        format!("{a}-")
    } else {
        // after an -rc<digit> cut compare-mmtests.pl drops one character, '-' in
        // "6.10-rc3-x"; where its window finds the "-rc<digit>" later in the name
        // ("6.9-c-rc1" prints "6.9-c-r" and "1") the dropped character is whichever
        // makes the name print as it did
        let joined = |x: char| format!("{a}{x}{b}");
        let same = |n: &String| super::render_text::split_name(n) == (a.to_string(), b.to_string());
        ['-', 'c', 'r'].into_iter().chain('0'..='9').map(joined).find(same).unwrap_or_else(|| joined('-'))
    }
}

/// Whether `a` is a name cut after an `-rc<digit>` at its first `-`, as
/// [`super::render_text::split_name`] cuts `6.10-rc3`.
fn ends_in_rc(a: &str) -> bool {
    a.split_once('-').is_some_and(|(_, rest)| {
        rest.len() == 3 && rest.starts_with("rc") && rest.as_bytes().get(2).is_some_and(u8::is_ascii_digit)
    })
}

/// (token, end column) of a header line (control characters separate like spaces: no
/// kernel name holds one).
fn header_tokens(line: &str) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    // end columns count characters, as the renderer pads names (a name with a
    // two-byte letter must not shift the inferred column width); s and i come from
    // char_indices: char boundaries, so get() always succeeds
    for (col, (i, c)) in line.char_indices().enumerate() {
        if c.is_whitespace() || c.is_control() {
            if let Some(t) = start.take().and_then(|s| line.get(s..i)) {
                out.push((t.to_string(), col));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(t) = start.and_then(|s| line.get(s..)) {
        out.push((t.to_string(), line.chars().count()));
    }
    out
}

fn kernel_names(lines: &[&str], k: usize) -> Vec<String> {
    let l2 = lines.last().map(|l| header_tokens(l)).unwrap_or_default();
    let line1 = lines.len().checked_sub(2).and_then(|i| lines.get(i));
    let l1 = line1.map(|l| header_tokens(l)).unwrap_or_default();
    let l1_ok = l1.len() == k && !line1.is_some_and(|l| l.contains(':'));
    if l1_ok && l2.len() == k {
        return l1.iter().zip(&l2).map(|(a, b)| join_name(&a.0, &b.0)).collect();
    }
    if l1_ok {
        // second parts aligned under the first ones; missing = empty
        return l1
            .iter()
            .map(|(a, end)| {
                let b = l2.iter().find(|(_, e)| e == end).map(|(t, _)| t.as_str()).unwrap_or("");
                join_name(a, b)
            })
            .collect();
    }
    if l2.len() == k {
        // an empty first line (see parse_compare): every name's first part is empty
        let dash = if line1.is_some_and(|l| l.is_empty()) { "-" } else { "" };
        return l2.into_iter().map(|(t, _)| format!("{dash}{t}")).collect();
    }
    (0..k).map(|i| if i == 0 { "baseline".to_string() } else { format!("kernel{i}") }).collect()
}

/// A parsed row as a table row: the cells' verdicts from MMTests' markers, the
/// direction left for the caller (it depends on the whole table).
fn table_row(r: DataRow) -> Row {
    // (MMTests marks only the kernels compared with the baseline: a star pasted on the
    // baseline's column is kept as its own marker, not a verdict row's)
    let marked_row = r.group.get(1..5) == Some("mean") || r.cells.iter().skip(1).any(|c| c.star);
    let cells = r
        .cells
        .iter()
        .enumerate()
        .map(|(i, p)| {
            // NaN is "no value" in the data model (and null in JSON)
            let mut cell = Cell {
                value: Some(p.value).filter(|v| !v.is_nan()),
                change: p.change.filter(|v| !v.is_nan()),
                ..Default::default()
            };
            if r.ratio {
                cell.spread = p.norm.flatten();
            } else if marked_row {
                if i == 0 {
                    cell.verdict = Some(Verdict::Baseline);
                } else {
                    cell.significant = Some(p.star);
                    cell.test = Some(CellTest::Mmtests);
                    let ch = p.change.unwrap_or(0.0);
                    cell.verdict = Some(match (p.star, ch > 0.0, ch < 0.0) {
                        (false, _, _) => Verdict::Noise,
                        (true, true, _) => Verdict::Better,
                        (true, _, true) => Verdict::Worse,
                        _ => Verdict::Changed,
                    });
                }
            } else if p.star {
                cell.significant = Some(true);
            }
            cell
        })
        .collect();
    Row {
        group: r.group,
        name: r.name,
        direction: Direction::Unknown,
        change_kind: ChangeKind::Improvement,
        unit: None,
        cells,
    }
}

/// What the whole table's settings need of its rows, gathered as each row is read (the
/// rows themselves go straight into the comparison: the memory bound of docs/readers.md §10).
#[derive(Default)]
struct Seen {
    /// The first row: its line, group, operation and cell count.
    first: Option<(usize, String, String, usize)>,
    /// The most decimals of any value.
    prec: Option<usize>,
    /// Any Ratio row, and the line of the first row that is neither Ratio nor bare.
    ratio: bool,
    not_ratio_line: Option<(usize, String)>,
    /// The most runs a Ratio row printed formatted, and whether one printed normalised values.
    formatted: usize,
    norm: bool,
}

impl Seen {
    fn add(&mut self, r: &DataRow) {
        if self.first.is_none() {
            self.first = Some((r.line, r.group.clone(), r.name.clone(), r.cells.len()));
        }
        let prec = r.cells.iter().map(|c| c.decimals).max();
        self.prec = self.prec.max(prec);
        if r.group == "Ratio" {
            self.ratio = true;
            self.formatted = self.formatted.max(r.formatted);
            self.norm |= r.cells.iter().any(|c| c.norm.flatten().is_some());
        } else if !super::render_text::bare_values(&r.group) && self.not_ratio_line.is_none() {
            self.not_ratio_line = Some((r.line, r.group.clone()));
        }
    }
}

/// Parse the first compare table of `text` (aligned or whitespace-collapsed).
/// `source` names the text in error messages.
pub fn parse_compare(text: &str, source: &str) -> Result<Comparison> {
    let text = crate::mail_quote::unquote(text);
    // the lines above the first row, and that row's line
    let mut above: Vec<&str> = Vec::new();
    let mut first_line = "";
    // the rows go straight into the comparison's column store (the memory bound of docs/readers.md §10)
    let mut rows = Rows::new();
    let mut seen = Seen::default();
    for (i, l) in text.lines().map(|l| l.trim_end_matches('\r')).enumerate() {
        crate::cancel::check_every(i)?;
        if let Some(r) = data_row(i + 1, l) {
            if let Some((line, _, _, k)) = &seen.first {
                if r.cells.len() != *k {
                    return Err(Error::parse(
                        Some(source),
                        Some(i + 1),
                        format!("row has {} kernel cells, the table's first row (line {line}) has {k}", r.cells.len(),),
                    ));
                }
            } else {
                first_line = l;
            }
            seen.add(&r);
            rows.push(table_row(r));
        } else if seen.first.is_none() && looks_like_stat_row(l) {
            // a row that cannot be read must not pass for a header line (its kernels
            // would be renamed and the row lost)
            return Err(Error::parse(Some(source), Some(i + 1), format!("cannot read this table row: '{}'", l.trim())));
        } else if seen.first.is_none() {
            above.push(l);
        } else if !l.trim().is_empty() && !is_rule(l) {
            let looks_like_row = l.contains('%') || l.contains("Ratio");
            if looks_like_row {
                return Err(Error::parse(
                    Some(source),
                    Some(i + 1),
                    format!("cannot read this table row: '{}'", l.trim()),
                ));
            }
            break;
        }
    }
    let Some((_, first_group, first_name, k)) = seen.first.take() else {
        return Err(Error::parse(
            Some(source),
            None,
            "no compare-mmtests.pl table rows found (expected lines like 'Hmean  send-64  421.71 (   0.00%) ...')",
        ));
    };
    let above = above.as_slice();
    let header: Vec<&str> = above.iter().copied().filter(|l| !l.trim().is_empty() && !is_rule(l)).collect();
    let mut name_lines = header.clone();
    // compare-mmtests.pl prints the second header line as spaces when every name's
    // second part is empty ("6.9-" splits into "6.9" and ""): a line of spaces right
    // under the names, above the rows, is that line (a blank line pasted in mail is
    // usually empty, and is not taken for it)
    // (and likewise the first line when every first part is empty: names "-x")
    let spaces = |l: &str| !l.is_empty() && l.trim().is_empty();
    let words = |l: &str| !l.trim().is_empty() && !is_rule(l);
    match above {
        [.., names, second] if spaces(second) && words(names) => name_lines.push(""),
        [.., first, names] if spaces(first) && words(names) => {
            name_lines.pop();
            name_lines.extend(["", names]);
        }
        _ => {}
    }
    let kernels = kernel_names(&name_lines, k);
    let mut c = Comparison::new("mmtests", "", kernels);
    // title (a line followed by =====), machine, direction
    for w in above.windows(2) {
        if let [title, rule] = w {
            if rule.trim().starts_with("===") && !title.trim().is_empty() {
                c.benchmark = title.trim().to_ascii_lowercase();
            }
        }
    }
    for l in above {
        if let Some(m) = l.trim().strip_prefix("machine:") {
            c.meta.machine = Some(m.trim().to_string());
        }
    }
    let mut pref = if contains_ignore_case(&text, "HIGHER IS BETTER") {
        Some(true)
    } else if contains_ignore_case(&text, "LOWER IS BETTER") {
        Some(false)
    } else {
        None
    };
    if pref.is_none() {
        if let Some(i) = rows.groups().position(|g| g == "Gmean" || g == "Dmean") {
            pref = Some(rows.name(i) == Some("Higher"));
        }
    }
    if pref.is_none()
        && rows.groups().any(|g| g.starts_with("Hmean") || g.starts_with("BHmean") || g.starts_with("HStddev"))
    {
        pref = Some(true);
    }
    if pref.is_none() {
        pref = infer_direction(&rows);
    }
    let higher = pref.unwrap_or(false);
    let ratio_layout = seen.ratio;
    if ratio_layout {
        // a --print-ratio table holds Ratio rows and their Dmean/Dmin/Dmax/Gmean summary
        if let Some((line, group)) = &seen.not_ratio_line {
            return Err(Error::parse(
                Some(source),
                Some(*line),
                format!("a '{group}' row in a --print-ratio table (expected Ratio, Dmean, Dmin, Dmax or Gmean rows)"),
            ));
        }
    }
    let prec = seen.prec.unwrap_or(2);
    let widths = infer_widths(first_line, (&first_group, &first_name, k), ratio_layout, &header);
    let fl = widths.map(|w| w.0).unwrap_or(12);
    let mean_group = if higher { "Hmean" } else { "Amean" };
    for i in 0..rows.len() {
        let always_lower = rows
            .group(i)
            .is_some_and(|g| ["Stddev", "CoeffVar", "HStddev", "HCoeffVar", "SubAmeanCI", "SubmeanCI"].contains(&g));
        rows.set_direction(i, if always_lower { Direction::Lower } else { Direction::from_higher(higher) });
    }
    c.rows = rows;
    let ratio_group = (!ratio_layout).then(|| {
        if c.rows.groups().any(|g| g == mean_group) {
            mean_group.to_string()
        } else {
            c.rows.groups().find(|g| g.get(1..5) == Some("mean")).map(str::to_string).unwrap_or_default()
        }
    });
    c.meta.mmtests = Some(MmtestsMeta {
        layout: if ratio_layout { MmtestsLayout::Ratio } else { MmtestsLayout::Table },
        parsed: true,
        formatted_runs: ratio_layout.then_some(seen.formatted),
        field_length: Some(fl),
        precision: Some(prec),
        preferred: Some(Direction::from_higher(higher)),
        norm: ratio_layout.then_some(seen.norm),
        ratio_group,
        label_width: widths.map(|w| w.1),
        op_width: widths.map(|w| w.2),
        ..Default::default()
    });
    c.validate()?;
    Ok(c)
}

/// Whether `text` contains the upper-case ASCII `needle` in any case (without an
/// upper-cased copy of the whole text).
fn contains_ignore_case(text: &str, needle: &str) -> bool {
    let n = needle.as_bytes();
    text.as_bytes().windows(n.len()).any(|w| w.eq_ignore_ascii_case(n))
}

/// Higher/Lower from the percentages of mean rows: which of (v/b − 1)·100 and
/// (1 − v/b)·100 the printed change matches.
/// (A NaN value or change is None in the rows: such a cell says nothing.)
fn infer_direction(rows: &Rows) -> Option<bool> {
    let (mut hi, mut lo) = (0, 0);
    for (i, g) in rows.groups().enumerate() {
        if ["Stddev", "CoeffVar", "HStddev", "HCoeffVar"].contains(&g) {
            continue;
        }
        let Some(Some(b)) = rows.cell(i, 0).map(|c| c.value) else { continue };
        for c in (1..rows.cell_count(i)).filter_map(|j| rows.cell(i, j)) {
            let (Some(p), Some(v)) = (c.change, c.value) else { continue };
            if b == 0.0 || v == b || !b.is_finite() || !v.is_finite() {
                continue;
            }
            let h = (v / b - 1.0) * 100.0;
            let l = (1.0 - v / b) * 100.0;
            if (h - p).abs() < 0.006 && (l - p).abs() >= 0.006 {
                hi += 1;
            } else if (l - p).abs() < 0.006 && (h - p).abs() >= 0.006 {
                lo += 1;
            }
        }
    }
    if hi > lo {
        Some(true)
    } else if lo > hi {
        Some(false)
    } else {
        None
    }
}

/// Column widths of an aligned table: (`_FieldLength`, label width, op width).
/// FL comes from the spacing of the header columns (FL + 11), the label width
/// from where the operation starts; None for whitespace-collapsed text. `line` is the
/// first row's line, `first` its (group, operation, cell count).
fn infer_widths(line: &str, first: (&str, &str, usize), ratio: bool, header: &[&str]) -> Option<(usize, usize, usize)> {
    let (group, name, k) = first;
    // the names' last line with one name per kernel (a second line with names missing
    // or extra words says nothing about the spacing)
    let toks = header.iter().rev().take(2).map(|l| header_tokens(l)).find(|t| t.len() == k)?;
    let [(_, end0), (_, end1), ..] = toks.as_slice() else { return None };
    let fl = end1.checked_sub(*end0)?.checked_sub(11)?;
    // columns count characters, as the header's and as the renderer pads (a label with
    // a two-byte letter must not widen its column by one)
    let cols = |s: &str| s.chars().count();
    // the end column of the first value: where the first word of `rest` (a tail of line) ends
    let first_cell_after =
        |rest: &str| Some(cols(line) - cols(rest.trim_start()) + cols(rest.split_whitespace().next()?));
    if ratio {
        let (_, rest) = line.split_once(format!("Ratio {name}").as_str())?;
        let label_total = first_cell_after(rest)?.checked_sub(fl)?;
        return Some((fl, label_total, 0));
    }
    let (_, after_group) = line.split_once(group)?;
    let (_, after_name) = after_group.split_once(name)?;
    let label_total = first_cell_after(after_name)?.checked_sub(fl)?;
    let name_start = cols(line) - cols(after_group.trim_start());
    let l1 = name_start.checked_sub(1)?;
    let l2 = label_total.checked_sub(l1 + 1)?;
    if l1 < cols(group) || l2 < cols(name) {
        None
    } else {
        Some((fl, l1, l2))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALIGNED: &str = "                                       6.8                    6.9
                                   vanilla                patched
Min       send-64        413.42 (   0.00%)      399.73 (  -3.31%)
Hmean     send-64        421.71 (   0.00%)      409.46 *  -2.90%*
";

    #[test]
    fn aligned_round_trip() {
        let c = parse_compare(ALIGNED, "<test>").unwrap();
        assert_eq!(c.kernels, vec!["6.8-vanilla".to_string(), "6.9-patched".to_string()]);
        assert_eq!(c.rows.len(), 2);
        assert_eq!(c.rows.get(1).unwrap().cells[1].change, Some(-2.90));
        assert_eq!(c.rows.get(1).unwrap().cells[1].significant, Some(true));
        assert_eq!(c.meta.mmtests.as_ref().and_then(|m| m.field_length), Some(12));
        assert_eq!(super::super::render_text::render(&c).unwrap(), ALIGNED);
    }

    /// compare-mmtests.pl (MMTests 93946ac6) `--print-ratio` output of
    /// tests/data/mmtests/fuzz case12: runs past the second are bare `%.2f` fields
    /// that touch when a value fills its field.
    const RATIO_TAIL: &str = "                             v                     v2                     v3                     v4
                            v1                      x                      y                      z
Ratio 2      1.0000 (0.00%) (NaNs)4963602.6545 (-496360165.45%) (NaNs)  5200000.00-519999900.00         NaN     6445.73  -644472.73         NaN
Gmean Lower      1.0000                 4963602.6545                   5200000.00                             6445.73                        
";

    #[test]
    fn unformatted_runs_are_read_not_lost() {
        let c = parse_compare(RATIO_TAIL, "<oracle>").unwrap();
        assert_eq!(c.kernels, ["v1", "v2-x", "v3-y", "v4-z"]);
        assert_eq!(c.rows.len(), 2);
        let r = &c.rows.get(0).unwrap();
        assert_eq!((r.group.as_str(), r.name.as_str()), ("Ratio", "2"));
        assert_eq!(r.cells[2].value, Some(5200000.00));
        assert_eq!(r.cells[2].change, Some(-519999900.00));
        assert_eq!(r.cells[2].spread, None);
        assert_eq!((r.cells[3].value, r.cells[3].change), (Some(6445.73), Some(-644472.73)));
        assert_eq!(c.rows.get(1).unwrap().cells[3].value, Some(6445.73));
        assert_eq!(super::super::render_text::render(&c).unwrap(), RATIO_TAIL);
        // a table row MMTests prints past its formatted runs: `v p` pairs
        let t = "a b c\nx y z\nAmean 1 10.00 ( 0.00%) 9.00 ( 10.00%) 8.00 20.00\n";
        let c = parse_compare(t, "<t>").unwrap();
        assert_eq!(
            (c.rows.get(0).unwrap().cells[2].value, c.rows.get(0).unwrap().cells[2].change),
            (Some(8.0), Some(20.0))
        );
        // an unreadable row before the first readable one is an error, not a header line
        let bad = RATIO_TAIL.replace("-519999900.00", "-5199x9900.00");
        let e = parse_compare(&bad, "<oracle>").unwrap_err().to_string();
        assert!(e.starts_with("<oracle>:3: cannot read this table row"), "{e}");
        assert_eq!(split_fused("5200000.00-519999900.00"), Some(vec![5200000.0, -519999900.0]));
        // a -rc name that fills its first header part is printed with an empty second part
        // a second header line of spaces: every name's second part is empty
        let dashed =
            "              bas          tes\n                              \nAmean 1 10.00 ( 0.00%) 9.00 ( 10.00%)\n";
        assert_eq!(parse_compare(dashed, "<t>").unwrap().kernels, ["bas-", "tes-"]);
        let leading = "                    \n              bas          tes\nAmean 1 10.00 ( 0.00%) 9.00 ( 10.00%)\n";
        assert_eq!(parse_compare(leading, "<t>").unwrap().kernels, ["-bas", "-tes"]);
        let trimmed = "              bas          tes\n\nAmean 1 10.00 ( 0.00%) 9.00 ( 10.00%)\n";
        assert_eq!(parse_compare(trimmed, "<t>").unwrap().kernels, ["bas", "tes"]);
        // a ratio table holds only Ratio rows and their summaries
        let mixed = "Ratio send-64 1.00 (0.00%) (+0.00s) 0.95 (-4.59%) (-3.45s)\nRatiomm 4 1.00 1.07\n";
        let e = parse_compare(mixed, "<t>").unwrap_err().to_string();
        assert_eq!(
            e,
            "<t>:2: a 'Ratiomm' row in a --print-ratio table (expected Ratio, Dmean, Dmin, Dmax or Gmean rows)"
        );
        // a Gmean row with a change is not one compare-mmtests.pl prints
        let gmean =
            "Ratio send-64 1.00 (0.00%) (+0.00s) 0.95 (-4.59%) (-3.45s)\nGmean Higher 1.00 0.96 (-4.37%) (-2.43s)\n";
        let e = parse_compare(gmean, "<t>").unwrap_err().to_string();
        assert!(e.starts_with("<t>:2: cannot read this table row: 'Gmean Higher"), "{e}");
        // a row with a stray mark before its values is an error, not a header line
        let marked = "                 6.8          6.9\n             vanilla      patched\nRatio time-1 ! 1.0000 (0.00%) 0.5000 (50.00%)\nRatio time-8 1.0000 (0.00%) 0.5000 (50.00%)\n";
        let e = parse_compare(marked, "<t>").unwrap_err().to_string();
        assert!(e.starts_with("<t>:3: cannot read this table row: 'Ratio time-1 !"), "{e}");
        let rc = "                                   6.9               6.10-rc3\n                               vanilla                       \nAmean 1 10.00 ( 0.00%) 9.00 ( 10.00%)\n";
        assert_eq!(parse_compare(rc, "<t>").unwrap().kernels, ["6.9-vanilla", "6.10-rc3"]);
        // NaN is no value: through JSON (null) it still prints NaN, not MMTests' 0.00 for
        // a missing value (fuzz regression mmtests_text/nan-cells)
        let nan = "a b\nc d\nAmean 1 10.00 ( 0.00%) NaN ( NaN%)\n";
        let c = parse_compare(nan, "<t>").unwrap();
        assert_eq!((c.rows.get(0).unwrap().cells[1].value, c.rows.get(0).unwrap().cells[1].change), (None, None));
        let back = crate::table::Comparison::from_json(&c.to_json().unwrap()).unwrap();
        let text = super::super::render_text::render(&back).unwrap();
        assert!(text.ends_with("Amean 1       10.00 (   0.00%)         NaN (    NaN%)\n"), "{text}");
        let v = split_fused("1.00NaN").unwrap();
        assert!(v.len() == 2 && v[0] == 1.0 && v[1].is_nan());
        assert_eq!(split_fused("1.0"), None);
        assert_eq!(split_fused("12.345"), None);
    }

    #[test]
    fn collapsed_and_errors() {
        let t = "4.18.0 4.18.0\nvanilla teo\nHmean 14 70.34 ( 0.00%) 69.80 * -0.76%*\nHmean 100 499.24 ( 0.00%) 494.26 *-1.00%*\n";
        let c = parse_compare(t, "<mail>").unwrap();
        assert_eq!(c.kernels, vec!["4.18.0-vanilla".to_string(), "4.18.0-teo".to_string()]);
        assert_eq!(c.rows.get(1).unwrap().cells[1].value, Some(494.26));
        assert_eq!(c.rows.get(1).unwrap().cells[1].change, Some(-1.00));
        let bad = "a b\nHmean 14 70.34 ( 0.00%) 69.80 * -0.76%*\nHmean 100 499.24 ( 0.00%)\n";
        let e = parse_compare(bad, "<mail>").unwrap_err().to_string();
        assert!(e.contains("<mail>:3"), "{e}");
        assert!(parse_compare("hello\n", "<x>").is_err());
    }
}
