//! AMD's normalised comparison tables, as posted on LKML by AMD's performance team:
//!
//! ```text
//! ==================================================================
//! Test          : hackbench
//! Units         : Normalized time in seconds
//! Interpretation: Lower is better
//! Statistic     : AMean
//! ==================================================================
//! Case: tip[pct imp](CV) vanilla[pct imp](CV)
//!     1-groups 1.00 [ -0.00](13.74) 0.92 [  7.68]( 6.04)
//! ```
//!
//! Each cell is the statistic normalised to the first kernel, the percent
//! improvement (positive = better for either direction) and the coefficient of
//! variation in percent. [`parse`] reads the aligned form and the
//! whitespace-collapsed form mail archives keep; [`render`] writes the aligned form
//! (row name `%12s`, cells ` %.2f [%6.2f](%5.2f)`).

use super::comparison::{Cell, ChangeKind, Comparison, Direction, Row};
use super::meta::Meta;
use crate::cancel;
use crate::error::{Error, Result};

const RULE: &str = "==================================================================";

fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let (k, v) = line.split_once(':')?;
    (k.trim() == key).then(|| v.trim())
}

/// One `v [pct](cv)` cell parsed from the end of `s`; returns the cell and the rest.
fn take_cell_from_end(s: &str) -> Option<(f64, f64, f64, &str)> {
    let (s, cv) = s.trim_end().strip_suffix(')')?.rsplit_once('(')?;
    let cv: f64 = cv.trim().parse().ok()?;
    let (s, pct) = s.trim_end().strip_suffix(']')?.rsplit_once('[')?;
    let pct: f64 = pct.trim().parse().ok()?;
    let s = s.trim_end();
    // after the last whitespace character, which may be wider than a byte (a no-break
    // space from a mail client is two); the rest is trimmed by the caller
    let (rest, value) = s.rsplit_once(char::is_whitespace).unwrap_or(("", s));
    let value: f64 = value.parse().ok()?;
    Some((value, pct, cv, rest))
}

/// Parse every table block of `text` into comparisons (tool "amd").
pub fn parse(text: &str) -> Result<Vec<Comparison>> {
    let text = crate::mail_quote::unquote(text);
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let err = |line: usize, msg: String| Error::parse(Some("<amd table>"), Some(line + 1), msg);
    while let Some(&line) = lines.get(i) {
        cancel::check_every(i)?;
        // a block starts at "Test : name" (a column header "Test: k[pct imp](CV)" is not one)
        let Some(test) = field(line, "Test").filter(|_| !line.contains("[pct imp]")) else {
            i += 1;
            continue;
        };
        let start = i;
        let mut meta = Meta::default();
        let (mut units, mut interp, mut statistic) = (None, None, None);
        i += 1;
        while let Some(&line) = lines.get(i).filter(|l| !l.trim_start().starts_with("===")) {
            if let Some(v) = field(line, "Units") {
                units = Some(v.to_string());
            } else if let Some(v) = field(line, "Interpretation") {
                interp = Some(v.to_string());
            } else if let Some(v) = field(line, "Statistic") {
                statistic = Some(v.to_string());
            }
            i += 1;
        }
        i += 1; // the closing rule
        let interp = interp.ok_or_else(|| err(start, format!("table '{test}': no 'Interpretation' line")))?;
        let direction = match interp.to_ascii_lowercase() {
            s if s.starts_with("lower") => Direction::Lower,
            s if s.starts_with("higher") => Direction::Higher,
            _ => {
                return Err(err(
                    start,
                    format!("table '{test}': expected 'Lower is better' or 'Higher is better', got '{interp}'"),
                ))
            }
        };
        let statistic = statistic.unwrap_or_else(|| "AMean".to_string());
        // kept for a table without rows, whose rows cannot say it
        meta.interpretation = Some(direction);
        while lines.get(i).is_some_and(|l| l.trim().is_empty()) {
            i += 1;
        }
        // at the end of the input the error names its last line, not one past it
        let header = *lines.get(i).ok_or_else(|| {
            err(lines.len().saturating_sub(1), format!("table '{test}': no column header before the end"))
        })?;
        let (label, cols) = header.split_once(':').ok_or_else(|| {
            err(i, format!("expected a column header like 'Case: tip[pct imp](CV) ...', got '{}'", header.trim()))
        })?;
        let kernels: Vec<String> = cols
            .split("(CV)")
            .map(str::trim)
            .filter(|k| !k.is_empty())
            .map(|k| k.strip_suffix("[pct imp]").unwrap_or(k).trim().to_string())
            .collect();
        if kernels.is_empty() {
            return Err(err(i, "the column header names no kernels".into()));
        }
        meta.label = Some(label.trim().to_string());
        meta.units.clone_from(&units);
        meta.statistic = Some(statistic.clone());
        let mut c = Comparison::new("amd", test, kernels.clone());
        c.meta = meta;
        i += 1;
        while let Some(&line) = lines.get(i).filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with("===")) {
            cancel::check_every(i)?;
            let mut rest = line;
            let mut cells = Vec::with_capacity(kernels.len());
            for _ in 0..kernels.len() {
                let (v, pct, cv, r) = take_cell_from_end(rest).ok_or_else(|| {
                    err(
                        i,
                        format!("expected {} cells like '0.92 [ 7.68]( 6.04)', got '{}'", kernels.len(), line.trim()),
                    )
                })?;
                cells.push(Cell { value: Some(v), change: Some(pct), spread: Some(cv), ..Default::default() });
                rest = r;
            }
            cells.reverse();
            let name = rest.trim();
            if name.is_empty() {
                return Err(err(i, "a row has no name before its cells".into()));
            }
            c.rows.push(Row {
                group: statistic.clone(),
                name: name.to_string(),
                direction,
                change_kind: ChangeKind::Improvement,
                unit: units.clone(),
                cells,
            });
            i += 1;
        }
        out.push(c);
    }
    Ok(out)
}

fn fmt2(v: Option<f64>) -> String {
    v.map(|v| format!("{v:.2}")).unwrap_or_else(|| "NaN".into())
}

/// Render a comparison in AMD's aligned layout. Values and changes are printed
/// as stored: use [`normalise`] first for a table of raw values.
pub fn render(c: &Comparison) -> Result<String> {
    c.validate()?;
    let direction = c.rows.first().map(|r| r.direction).or(c.meta.interpretation).unwrap_or(Direction::Unknown);
    let interp = match direction {
        Direction::Lower => "Lower is better",
        Direction::Higher => "Higher is better",
        Direction::Unknown => {
            return Err(Error::domain("an AMD table needs a known direction (higher or lower is better)"))
        }
    };
    let get = |v: &Option<String>, d: &str| v.clone().unwrap_or_else(|| d.to_string());
    let mut s = String::new();
    s.push_str(RULE);
    s.push('\n');
    s.push_str(&format!("Test          : {}\n", c.benchmark));
    s.push_str(&format!("Units         : {}\n", get(&c.meta.units, "Normalized")));
    s.push_str(&format!("Interpretation: {interp}\n"));
    s.push_str(&format!("Statistic     : {}\n", get(&c.meta.statistic, "AMean")));
    s.push_str(RULE);
    s.push('\n');
    s.push_str(&get(&c.meta.label, "Case"));
    s.push(':');
    for k in &c.kernels {
        s.push_str(&format!(" {k}[pct imp](CV)"));
    }
    s.push('\n');
    for (i, r) in c.rows.iter().enumerate() {
        cancel::check_every(i)?;
        s.push_str(&format!("{:>12}", r.name));
        for cell in &r.cells {
            let pct = cell.change.map(|v| format!("{v:6.2}")).unwrap_or_else(|| format!("{:>6}", "NaN"));
            let cv = cell.spread.map(|v| format!("{v:5.2}")).unwrap_or_else(|| format!("{:>5}", "NaN"));
            s.push_str(&format!(" {} [{pct}]({cv})", fmt2(cell.value)));
        }
        s.push('\n');
    }
    Ok(s)
}

/// AMD's normalisation of a comparison of raw values: each value divided by the
/// baseline's, the improvement (v−1)·100 when higher is better and (1−v)·100 when
/// lower is better, and the spread turned into a coefficient of variation in
/// percent when `spread_is_stddev` (spread·100/value).
pub fn normalise(c: &Comparison, spread_is_stddev: bool) -> Result<Comparison> {
    c.validate()?;
    let mut out = Comparison::new("amd", c.benchmark.clone(), c.kernels.clone());
    out.meta = c.meta.clone();
    for (i, r) in c.rows.iter().enumerate() {
        cancel::check_every(i)?;
        let base = r.cells.first().and_then(|x| x.value).filter(|b| *b != 0.0);
        let cells = r
            .cells
            .iter()
            .map(|cell| {
                let v = match (cell.value, base) {
                    (Some(v), Some(b)) => Some(v / b),
                    _ => None,
                };
                let change = v.map(|v| match r.direction {
                    Direction::Lower => -(v - 1.0) * 100.0,
                    _ => (v - 1.0) * 100.0,
                });
                let cv = match (cell.spread, cell.value) {
                    (Some(sd), Some(x)) if spread_is_stddev && x != 0.0 => Some(sd * 100.0 / x),
                    (s, _) if !spread_is_stddev => s,
                    _ => None,
                };
                Cell { value: v, change, spread: cv, n: cell.n, ..Default::default() }
            })
            .collect();
        out.rows.push(Row { change_kind: ChangeKind::Improvement, cells, ..r.clone() });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const COLLAPSED: &str = "==================================================================
Test          : hackbench
Units         : Normalized time in seconds
Interpretation: Lower is better
Statistic     : AMean
==================================================================
Case: tip[pct imp](CV) vanilla[pct imp](CV)
    1-groups 1.00 [ -0.00](13.74) 0.92 [ 7.68]( 6.04)
   16-groups 1.00 [ -0.00]( 1.10) 0.97 [ 3.01]( 1.62)
";

    #[test]
    fn parse_render_parse() {
        let t = parse(COLLAPSED).unwrap();
        assert_eq!(t.len(), 1);
        let c = &t[0];
        assert_eq!(c.kernels, vec!["tip", "vanilla"]);
        assert_eq!(c.rows.get(0).unwrap().name, "1-groups");
        assert_eq!(c.rows.get(0).unwrap().cells[1].value, Some(0.92));
        assert_eq!(c.rows.get(0).unwrap().cells[1].change, Some(7.68));
        assert_eq!(c.rows.get(0).unwrap().cells[1].spread, Some(6.04));
        let text = render(c).unwrap();
        assert!(text.contains("    1-groups 1.00 [ -0.00](13.74) 0.92 [  7.68]( 6.04)\n"), "{text}");
        assert_eq!(&parse(&text).unwrap()[0], c);
    }

    #[test]
    fn a_table_without_rows_keeps_its_interpretation() {
        // fuzz regression amd/table-without-rows: the direction came from the first row only
        let t = "Test          : x\nInterpretation: Lower is better\n====\nCase: a[pct imp](CV) b[pct imp](CV)\n";
        let c = &parse(t).unwrap()[0];
        assert!(c.rows.is_empty());
        let text = render(c).unwrap();
        assert!(text.contains("Interpretation: Lower is better\n"), "{text}");
        assert_eq!(&parse(&text).unwrap()[0].kernels, &c.kernels);
    }

    #[test]
    fn numeric_row_names_and_errors() {
        let t = "Test          : tbench\nInterpretation: Higher is better\nStatistic     : AMean\n====\nClients: tip[pct imp](CV)\n           1 1.00 [ 0.00]( 0.82)\n";
        let c = &parse(t).unwrap()[0];
        assert_eq!((c.rows.get(0).unwrap().name.as_str(), c.rows.get(0).unwrap().cells[0].value), ("1", Some(1.0)));
        let bad = t.replace("( 0.82)", "(x)");
        let e = parse(&bad).unwrap_err().to_string();
        assert!(e.contains(":6:") && e.contains("expected 1 cells"), "{e}");
    }

    #[test]
    fn normalise_by_hand() {
        let mut c = Comparison::new("schedlab", "hackbench", vec!["a".into(), "b".into()]);
        c.rows.push(Row {
            name: "1-groups".into(),
            direction: Direction::Lower,
            cells: vec![
                Cell { value: Some(2.0), spread: Some(0.2), ..Default::default() },
                Cell { value: Some(1.5), spread: Some(0.3), ..Default::default() },
            ],
            ..Default::default()
        });
        let n = normalise(&c, true).unwrap();
        // 1.5/2 = 0.75 -> (1 - 0.75)·100 = 25% better; CV = 0.3·100/1.5 = 20
        assert_eq!(n.rows.get(0).unwrap().cells[1].value, Some(0.75));
        assert_eq!(n.rows.get(0).unwrap().cells[1].change, Some(25.0));
        assert_eq!(n.rows.get(0).unwrap().cells[1].spread, Some(20.0));
        assert_eq!(n.rows.get(0).unwrap().cells[0].spread, Some(10.0));
    }
}
