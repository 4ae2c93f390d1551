//! The plain CSV dialect of schedlab's idle inputs (state tables, idle traces):
//! one header line naming the columns, comma-separated fields without quoting,
//! `\n` or `\r\n` line ends, blank lines and lines starting with `#` ignored.
//! Columns are found by header name, so their order is free and extra columns
//! are ignored. Every error names the file, the 1-based line and the column.

// Parsers of untrusted bytes: no unwrap, expect, indexing or string slicing that can panic on input.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

use crate::error::{Error, Result};

/// One data row: its 1-based line number and the fields of the wanted columns.
pub struct Row<'a> {
    /// 1-based line number in the input.
    pub line: usize,
    fields: Vec<Option<&'a str>>,
}

impl<'a> Row<'a> {
    /// The field of wanted column `k` (as ordered in `required` then `optional`);
    /// `None` for an optional column absent from the header.
    pub fn get(&self, k: usize) -> Option<&'a str> {
        self.fields.get(k).copied().flatten()
    }
}

/// A parsed table: the wanted columns' rows.
pub struct Table<'a> {
    /// Which optional columns the header has, in the order they were asked for.
    #[cfg_attr(not(test), allow(dead_code))]
    pub has_optional: Vec<bool>,
    /// The data rows.
    pub rows: Vec<Row<'a>>,
}

fn utf8_line<'a>(raw: &'a [u8], path: Option<&str>, line: usize) -> Result<&'a str> {
    let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
    std::str::from_utf8(raw).map_err(|e| {
        Error::parse(path, Some(line), format!("not UTF-8 text (invalid byte at column {})", e.valid_up_to() + 1))
    })
}

/// Parse `bytes`: find the `required` columns (an error names the first one missing)
/// and the `optional` ones, and split every data row. A row with fewer fields than
/// the header is reported at the first column it lacks (a truncated file).
pub fn parse<'a>(bytes: &'a [u8], path: Option<&'a str>, required: &[&str], optional: &[&str]) -> Result<Table<'a>> {
    let mut lines = bytes.split(|&b| b == b'\n').enumerate().map(|(i, raw)| (i + 1, raw));
    let mut header: Option<(usize, Vec<&str>)> = None;
    for (line, raw) in lines.by_ref() {
        let text = utf8_line(raw, path, line)?;
        let t = text.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        header = Some((line, text.split(',').map(str::trim).collect()));
        break;
    }
    let Some((header_line, names)) = header else {
        return Err(Error::parse(
            path,
            None,
            format!("empty input: expected a header line with the columns {}", required.join(",")),
        ));
    };
    let find = |want: &str| names.iter().position(|n| n.eq_ignore_ascii_case(want));
    let mut index: Vec<Option<usize>> = Vec::with_capacity(required.len() + optional.len());
    for want in required {
        match find(want) {
            Some(i) => index.push(Some(i)),
            None => {
                return Err(Error::parse_col(
                    path,
                    Some(header_line),
                    *want,
                    format!("missing column '{want}' in the header (expected {})", required.join(",")),
                ))
            }
        }
    }
    let mut has_optional = Vec::with_capacity(optional.len());
    for want in optional {
        let i = find(want);
        has_optional.push(i.is_some());
        index.push(i);
    }
    let ncols = names.len();
    let mut rows = Vec::new();
    for (line, raw) in lines {
        crate::cancel::check_every(line)?;
        let text = utf8_line(raw, path, line)?;
        let t = text.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = text.split(',').map(str::trim).collect();
        if fields.len() < ncols {
            let missing = names.get(fields.len()).copied().unwrap_or("?");
            return Err(Error::parse_col(
                path,
                Some(line),
                missing,
                format!("missing value: the row has {} of the {ncols} fields of the header (truncated?)", fields.len()),
            ));
        }
        if fields.len() > ncols {
            return Err(Error::parse(
                path,
                Some(line),
                format!("the row has {} fields but the header has {ncols}", fields.len()),
            ));
        }
        let picked = index.iter().map(|i| i.and_then(|i| fields.get(i).copied())).collect();
        rows.push(Row { line, fields: picked });
    }
    Ok(Table { has_optional, rows })
}

fn shorten(s: &str) -> String {
    if s.chars().count() > 40 {
        format!("{}...", s.chars().take(40).collect::<String>())
    } else {
        s.to_string()
    }
}

/// Parse a decimal integer field; the error names file, line and column.
pub fn int(field: &str, path: Option<&str>, line: usize, column: &str) -> Result<i64> {
    field.parse::<i64>().map_err(|_| {
        Error::parse_col(path, Some(line), column, format!("expected an integer, got '{}'", shorten(field)))
    })
}

/// Parse a decimal floating-point field (finite).
pub fn float(field: &str, path: Option<&str>, line: usize, column: &str) -> Result<f64> {
    match field.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(Error::parse_col(
            path,
            Some(line),
            column,
            format!("expected a finite number, got '{}'", shorten(field)),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_by_name_in_any_order() {
        let t = parse(b"# c\nb,a,x\n\n2,1,9\r\n4,3,9\n", Some("f.csv"), &["a", "b"], &["y", "x"]).unwrap();
        assert_eq!(t.has_optional, vec![false, true]);
        assert_eq!(t.rows.len(), 2);
        assert_eq!((t.rows[0].line, t.rows[0].get(0), t.rows[0].get(1)), (4, Some("1"), Some("2")));
        assert_eq!((t.rows[1].get(2), t.rows[1].get(3)), (None, Some("9")));
    }

    #[test]
    fn errors_name_file_line_and_column() {
        let e = parse(b"a,c\n1,2\n", Some("f.csv"), &["a", "b"], &[]).err().unwrap();
        assert_eq!(e.to_string(), "f.csv:1: column 'b': missing column 'b' in the header (expected a,b)");
        let e = parse(b"a,b\n1,2\n3\n", Some("f.csv"), &["a", "b"], &[]).err().unwrap();
        assert!(e.to_string().starts_with("f.csv:3: column 'b': missing value"), "{e}");
        let e = parse(b"a,b\n1,\xff\n", Some("f.csv"), &["a", "b"], &[]).err().unwrap();
        assert_eq!(e.to_string(), "f.csv:2: not UTF-8 text (invalid byte at column 3)");
        let e = parse(b"\n# only a comment\n", Some("f.csv"), &["a"], &[]).err().unwrap();
        assert!(e.to_string().starts_with("f.csv: empty input"), "{e}");
        let e = int("1.5", Some("f.csv"), 7, "wake_ns").err().unwrap();
        assert_eq!(e.to_string(), "f.csv:7: column 'wake_ns': expected an integer, got '1.5'");
    }
}
