//! The CSV dialect of schedlab's own tabular inputs (idle traces, idle-state tables,
//! PELT task traces), read with the `csv` crate as a stream: one header line naming
//! the columns, comma-separated fields (RFC 4180 quoting allowed, so a header written
//! by a spreadsheet as `"dur_ns","state"` reads the same), a UTF-8 byte-order mark
//! before the header ignored, `\n` or `\r\n` line ends, blank lines and lines starting
//! with `#` ignored, spaces around fields trimmed. Columns are found by header name
//! (ASCII case ignored), so their order is free and extra columns are ignored. Every
//! error names the file, the 1-based line and, when it is about one field, the column.
//! Rows are read one at a time into a reused record: memory stays that of the caller's
//! output, whatever the input's size.

// Parsers of untrusted bytes: no unwrap, expect, indexing or string slicing that can panic on input.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

use std::io::Read;

use crate::error::{Error, Result};

/// What a caller reads: the noun for an empty input ("input", "trace"), the columns
/// that must be in the header and the ones that may be.
pub struct Spec<'s> {
    /// Names the input in "empty {what}: ..." .
    pub what: &'s str,
    /// Columns the header must have (an error names the first one missing).
    pub required: &'s [&'s str],
    /// Columns the header may have.
    pub optional: &'s [&'s str],
}

/// A CSV input positioned after its header.
pub struct Table<'p, R: Read> {
    reader: csv::Reader<R>,
    path: Option<&'p str>,
    names: Vec<String>,
    /// For each wanted column (`required` then `optional`), its index in the header.
    index: Vec<Option<usize>>,
    record: csv::ByteRecord,
}

/// One data row: its 1-based line number and the fields of the wanted columns.
pub struct Row<'t> {
    /// 1-based line number in the input.
    pub line: usize,
    path: Option<&'t str>,
    record: &'t csv::ByteRecord,
    index: &'t [Option<usize>],
}

impl<'t> Row<'t> {
    /// The field of wanted column `k` (as ordered in `required` then `optional`);
    /// `None` for an optional column absent from the header.
    pub fn get(&self, k: usize) -> Option<&'t str> {
        let i = self.index.get(k).copied().flatten()?;
        // every field was checked to be UTF-8 when the row was read
        self.record.get(i).and_then(|f| std::str::from_utf8(f).ok())
    }

    /// Parse wanted column `k` as a decimal integer; an absent optional column is `None`.
    pub fn int(&self, k: usize, column: &str) -> Result<Option<i64>> {
        self.get(k).map(|f| int(f, self.path, self.line, column)).transpose()
    }
}

/// The 1-based line of the record just read. The `csv` crate gives a record the
/// position where the previous one ended, before the blank lines it skips; the
/// reader's position after the record is one past its line when the record ended
/// with a line end. So the line is the later of the two (only a last line without a
/// line end, after blank lines, reads one early).
fn line_of<R: Read>(record: &csv::ByteRecord, reader: &csv::Reader<R>) -> usize {
    let start = record.position().map_or(1, csv::Position::line);
    let end = reader.position().line().saturating_sub(1);
    usize::try_from(start.max(end)).unwrap_or(usize::MAX)
}

/// Whether a record is a blank line or a comment (`#` first, after spaces).
fn skipped(record: &csv::ByteRecord) -> bool {
    match record.get(0) {
        None => true,
        Some(first) => (record.len() == 1 && first.is_empty()) || first.first() == Some(&b'#'),
    }
}

fn csv_error(path: Option<&str>, e: &csv::Error) -> Error {
    let line = e.position().map(|p| usize::try_from(p.line()).unwrap_or(usize::MAX));
    match e.kind() {
        // a size limit (crate::archive::dir::open_file) is a parse error, the rest I/O
        csv::ErrorKind::Io(io) if io.kind() == std::io::ErrorKind::InvalidData => {
            Error::parse(path, None, io.to_string())
        }
        csv::ErrorKind::Io(io) => Error::io(path.unwrap_or("<input>"), io),
        _ => Error::parse(path, line, format!("not readable as CSV: {e}")),
    }
}

/// Check that every field of `record` is UTF-8; the error gives the byte's column
/// in the line (exact for unquoted fields).
fn check_utf8(record: &csv::ByteRecord, path: Option<&str>, line: usize) -> Result<()> {
    let mut col = 0usize;
    for field in record {
        if let Err(e) = std::str::from_utf8(field) {
            return Err(Error::parse(
                path,
                Some(line),
                format!("not UTF-8 text (invalid byte at column {})", col + e.valid_up_to() + 1),
            ));
        }
        col += field.len() + 1;
    }
    Ok(())
}

impl<'p, R: Read> Table<'p, R> {
    /// Read the header of `input` and find the columns of `spec`.
    pub fn open(input: R, path: Option<&'p str>, spec: &Spec<'_>) -> Result<Self> {
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .trim(csv::Trim::All)
            .comment(Some(b'#'))
            // `\n` ends a record (a `\r` before it is trimmed), so that lines count as in an editor
            .terminator(csv::Terminator::Any(b'\n'))
            .from_reader(input);
        let mut record = csv::ByteRecord::new();
        let header_line = loop {
            if !reader.read_byte_record(&mut record).map_err(|e| csv_error(path, &e))? {
                return Err(Error::parse(
                    path,
                    None,
                    format!("empty {}: expected a header line with the columns {}", spec.what, spec.required.join(",")),
                ));
            }
            if !skipped(&record) {
                break line_of(&record, &reader);
            }
        };
        check_utf8(&record, path, header_line)?;
        let names: Vec<String> = record.iter().map(|f| String::from_utf8_lossy(f).into_owned()).collect();
        for (i, n) in names.iter().enumerate().filter(|(_, n)| !n.is_empty()) {
            if names.iter().take(i).any(|m| m.eq_ignore_ascii_case(n)) {
                return Err(Error::parse_col(path, Some(header_line), n, "column named twice in the header"));
            }
        }
        let find = |want: &str| names.iter().position(|n| n.eq_ignore_ascii_case(want));
        let mut index = Vec::with_capacity(spec.required.len() + spec.optional.len());
        for want in spec.required {
            match find(want) {
                Some(i) => index.push(Some(i)),
                None => {
                    return Err(Error::parse_col(
                        path,
                        Some(header_line),
                        *want,
                        format!("missing column '{want}' in the header (expected {})", spec.required.join(",")),
                    ))
                }
            }
        }
        index.extend(spec.optional.iter().map(|want| find(want)));
        Ok(Table { reader, path, names, index, record })
    }

    /// The input, as read so far.
    pub fn input(&self) -> &R {
        self.reader.get_ref()
    }

    /// Whether the header has wanted column `k` (as ordered in `required` then `optional`).
    pub fn has(&self, k: usize) -> bool {
        self.index.get(k).is_some_and(Option::is_some)
    }

    /// The next data row, `None` at the end. A row with fewer fields than the header
    /// is reported at the first column it lacks (a truncated file).
    pub fn next_row(&mut self) -> Result<Option<Row<'_>>> {
        loop {
            if !self.reader.read_byte_record(&mut self.record).map_err(|e| csv_error(self.path, &e))? {
                return Ok(None);
            }
            if !skipped(&self.record) {
                break;
            }
        }
        let line = line_of(&self.record, &self.reader);
        crate::cancel::check_every(line)?;
        check_utf8(&self.record, self.path, line)?;
        let (n, ncols) = (self.record.len(), self.names.len());
        if n < ncols {
            let missing = self.names.get(n).map_or("?", String::as_str);
            return Err(Error::parse_col(
                self.path,
                Some(line),
                missing,
                format!("missing value: the row has {n} of the {ncols} fields of the header (truncated?)"),
            ));
        }
        if n > ncols {
            return Err(Error::parse(
                self.path,
                Some(line),
                format!("expected {ncols} comma-separated fields as in the header, got {n}"),
            ));
        }
        Ok(Some(Row { line, path: self.path, record: &self.record, index: &self.index }))
    }
}

/// A field shortened to 40 characters for a message.
pub fn short(s: &str) -> String {
    if s.chars().count() > 40 {
        format!("{}...", s.chars().take(40).collect::<String>())
    } else {
        s.to_string()
    }
}

/// Parse a decimal integer field; the error names file, line and column.
pub fn int(field: &str, path: Option<&str>, line: usize, column: &str) -> Result<i64> {
    field
        .parse::<i64>()
        .map_err(|_| Error::parse_col(path, Some(line), column, format!("expected an integer, got '{}'", short(field))))
}

/// Parse a decimal floating-point field (finite).
pub fn float(field: &str, path: Option<&str>, line: usize, column: &str) -> Result<f64> {
    match field.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => {
            Err(Error::parse_col(path, Some(line), column, format!("expected a finite number, got '{}'", short(field))))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(bytes: &[u8], required: &[&str], optional: &[&str]) -> Result<Vec<(usize, Vec<Option<String>>)>> {
        let spec = Spec { what: "input", required, optional };
        let mut t = Table::open(bytes, Some("f.csv"), &spec)?;
        let k = required.len() + optional.len();
        let mut out = Vec::new();
        while let Some(r) = t.next_row()? {
            out.push((r.line, (0..k).map(|i| r.get(i).map(str::to_owned)).collect()));
        }
        Ok(out)
    }

    #[test]
    fn columns_by_name_in_any_order() {
        let t = rows(b"# c\nb,a,x\n\n2,1,9\r\n  \n4,3,9\n", &["a", "b"], &["y", "x"]).unwrap();
        let s = |v: &str| Some(v.to_owned());
        assert_eq!(t, vec![(4, vec![s("1"), s("2"), None, s("9")]), (6, vec![s("3"), s("4"), None, s("9")])]);
    }

    #[test]
    fn quoted_header_and_byte_order_mark() {
        // as a spreadsheet saves it: a BOM, quoted names, CRLF
        let t = rows(b"\xef\xbb\xbf\"b\",\"a\"\r\n\"2\",1\r\n", &["a", "b"], &[]).unwrap();
        assert_eq!(t, vec![(2, vec![Some("1".into()), Some("2".into())])]);
    }

    #[test]
    fn errors_name_file_line_and_column() {
        let e = rows(b"a,c\n1,2\n", &["a", "b"], &[]).unwrap_err();
        assert_eq!(e.to_string(), "f.csv:1: column 'b': missing column 'b' in the header (expected a,b)");
        let e = rows(b"a,b\n1,2\n3\n", &["a", "b"], &[]).unwrap_err();
        assert!(e.to_string().starts_with("f.csv:3: column 'b': missing value"), "{e}");
        let e = rows(b"a,b\n1,2,3\n", &["a", "b"], &[]).unwrap_err();
        assert_eq!(e.to_string(), "f.csv:2: expected 2 comma-separated fields as in the header, got 3");
        let e = rows(b"a,b\n1,\xff\n", &["a", "b"], &[]).unwrap_err();
        assert_eq!(e.to_string(), "f.csv:2: not UTF-8 text (invalid byte at column 3)");
        let e = rows(b"\n# only a comment\n", &["a"], &[]).unwrap_err();
        assert!(e.to_string().starts_with("f.csv: empty input"), "{e}");
        let e = rows(b"a,A\n1,2\n", &["a"], &[]).unwrap_err();
        assert_eq!(e.to_string(), "f.csv:1: column 'A': column named twice in the header");
        let e = int("1.5", Some("f.csv"), 7, "wake_ns").unwrap_err();
        assert_eq!(e.to_string(), "f.csv:7: column 'wake_ns': expected an integer, got '1.5'");
    }
}
