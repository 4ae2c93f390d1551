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
//!
//! A table of integers (an idle trace) is read faster by [`Table::next_int_row`]: a data
//! line that is only integer fields (an optional sign and up to 18 digits each, as many
//! as the header has columns, `\n` or `\r\n` at its end) is parsed in place from one
//! reused buffer; the first line that is anything else (a quote, a space, a comment, a
//! field that is not such an integer, a last line without its line end) hands the
//! rest of the input to the `csv` reader above, so its errors and its reading are
//! those of the general dialect.

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
    source: Source<R>,
    path: Option<&'p str>,
    names: Vec<String>,
    /// For each wanted column (`required` then `optional`), its index in the header.
    index: Vec<Option<usize>>,
    /// For each header column, the wanted column it is (the inverse of `index`).
    wanted: Vec<Option<usize>>,
    record: csv::ByteRecord,
    /// The values of the wanted columns of the last line parsed in place.
    values: Vec<Option<i64>>,
}

/// Where the rows come from: lines parsed in place, or the `csv` reader (from the
/// header on when the header needed it, or from the first line that is not integers).
enum Source<R: Read> {
    Fast(Lines<R>),
    Csv {
        reader: csv::Reader<Lines<R>>,
        /// Lines read before the `csv` reader took over (its line numbers start at 1).
        lines_before: usize,
    },
    /// Only while the source changes hands.
    Gone,
}

/// The size of each read of the input (the `csv` reader's own buffer size), so that an
/// input error shows at the same row whichever reader meets it.
const READ_BYTES: usize = 8 << 10;

/// The input behind one reused buffer; reads from it stop after a line end while
/// `one_line` is set (the header: so that the `csv` reader holds nothing past it).
struct Lines<R> {
    inner: R,
    buf: Vec<u8>,
    /// Unread bytes are `buf[start..end]`.
    start: usize,
    end: usize,
    /// Bytes handed out by [`Read::read`] (the header's reading checks it).
    handed: u64,
    /// Lines parsed in place so far, the header's included.
    lines: u64,
    one_line: bool,
    eof: bool,
}

impl<R: Read> Lines<R> {
    fn new(inner: R) -> Self {
        Lines { inner, buf: vec![0; READ_BYTES], start: 0, end: 0, handed: 0, lines: 0, one_line: true, eof: false }
    }

    /// Move the unread bytes to the start and read more after them (one read);
    /// false at the end of the input.
    fn refill(&mut self) -> std::io::Result<bool> {
        if self.eof {
            return Ok(false);
        }
        self.buf.copy_within(self.start..self.end, 0);
        self.end -= self.start;
        self.start = 0;
        if self.buf.len() - self.end < READ_BYTES {
            self.buf.resize(self.end + READ_BYTES, 0);
        }
        let n = loop {
            match self.inner.read(self.buf.get_mut(self.end..).unwrap_or_default()) {
                Ok(n) => break n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {
                    crate::cancel::check().map_err(|_| std::io::Error::from(std::io::ErrorKind::Interrupted))?;
                }
                Err(e) => return Err(e),
            }
        };
        self.end += n;
        self.eof = n == 0;
        Ok(n > 0)
    }
}

impl<R: Read> Read for Lines<R> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if self.start == self.end {
            if !self.one_line && !self.eof {
                // nothing buffered: straight from the input
                let n = self.inner.read(out)?;
                self.handed += n as u64;
                return Ok(n);
            }
            self.start = 0;
            self.end = 0;
            if !self.refill()? {
                return Ok(0);
            }
        }
        let avail = self.buf.get(self.start..self.end).unwrap_or_default();
        let mut n = avail.len().min(out.len());
        if self.one_line {
            if let Some(i) = avail.iter().take(n).position(|&c| c == b'\n') {
                n = i + 1;
            }
        }
        if let (Some(dst), Some(src)) = (out.get_mut(..n), avail.get(..n)) {
            dst.copy_from_slice(src);
        }
        self.start += n;
        self.handed += n as u64;
        Ok(n)
    }
}

/// A data row of a table of integers ([`Table::next_int_row`]): parsed in place, or
/// read by the `csv` reader.
pub enum IntRow<'t> {
    /// The wanted columns' values (`None` for an optional column the header lacks).
    Parsed {
        /// 1-based line number in the input.
        line: usize,
        /// One per wanted column.
        values: &'t [Option<i64>],
    },
    /// A row the `csv` reader read.
    Fields(Row<'t>),
}

impl IntRow<'_> {
    /// 1-based line number in the input.
    pub fn line(&self) -> usize {
        match self {
            IntRow::Parsed { line, .. } => *line,
            IntRow::Fields(row) => row.line,
        }
    }

    /// Wanted column `k` as an integer, as [`Row::int`] gives it.
    #[inline]
    pub fn int(&self, k: usize, column: &str) -> Result<Option<i64>> {
        match self {
            IntRow::Parsed { values, .. } => Ok(values.get(k).copied().flatten()),
            IntRow::Fields(row) => row.int(k, column),
        }
    }
}

/// The longest integer field parsed in place: 18 digits cannot overflow an `i64`.
const MAX_DIGITS: usize = 18;

/// Parse one line of integer fields at the start of `bytes` into `values` (through
/// `wanted`, a header column's wanted column). Returns the length of the line with its
/// line end, `Some(None)` when the line does not end in `bytes`, `None` when it is not a
/// line of `wanted.len()` integer fields.
#[inline]
fn parse_int_line(bytes: &[u8], wanted: &[Option<usize>], values: &mut [Option<i64>]) -> Option<Option<usize>> {
    let mut at = 0usize;
    let mut col = 0usize;
    loop {
        let mut neg = false;
        match bytes.get(at) {
            Some(b'-') => {
                neg = true;
                at += 1;
            }
            Some(b'+') => at += 1,
            Some(_) => {}
            None => return Some(None),
        }
        let first = at;
        let mut v: i64 = 0;
        let mut c = bytes.get(at).copied();
        while let Some(d @ b'0'..=b'9') = c {
            v = v * 10 + i64::from(d - b'0');
            at += 1;
            c = bytes.get(at).copied();
        }
        let digits = at - first;
        if digits == 0 || digits > MAX_DIGITS {
            return if c.is_none() && digits <= MAX_DIGITS { Some(None) } else { None };
        }
        if let Some(Some(k)) = wanted.get(col) {
            if let Some(slot) = values.get_mut(*k) {
                *slot = Some(if neg { -v } else { v });
            }
        }
        col += 1;
        match c {
            Some(b',') => {
                if col >= wanted.len() {
                    return None;
                }
                at += 1;
            }
            Some(b'\n') => return (col == wanted.len()).then_some(Some(at + 1)),
            Some(b'\r') => {
                return match bytes.get(at + 1) {
                    Some(b'\n') => (col == wanted.len()).then_some(Some(at + 2)),
                    Some(_) => None,
                    None => Some(None),
                }
            }
            Some(_) => return None,
            None => return Some(None),
        }
    }
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

/// The `csv` reader of this dialect.
fn csv_reader<R: Read>(input: R) -> csv::Reader<R> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .comment(Some(b'#'))
        // `\n` ends a record (a `\r` before it is trimmed), so that lines count as in an editor
        .terminator(csv::Terminator::Any(b'\n'))
        .buffer_capacity(READ_BYTES)
        .from_reader(input)
}

impl<'p, R: Read> Table<'p, R> {
    /// Read the header of `input` and find the columns of `spec`.
    pub fn open(input: R, path: Option<&'p str>, spec: &Spec<'_>) -> Result<Self> {
        let mut reader = csv_reader(Lines::new(input));
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
        let mut wanted = vec![None; names.len()];
        for (k, i) in index.iter().enumerate() {
            if let Some(slot) = i.and_then(|i| wanted.get_mut(i)) {
                *slot = Some(k);
            }
        }
        // the header's line end was the last byte handed to the `csv` reader: the rest
        // of the input is still in `Lines`, which the rows can be parsed from in place
        let source = if reader.position().byte() == reader.get_ref().handed
            && reader.position().line() == header_line as u64 + 1
        {
            let mut lines = reader.into_inner();
            lines.one_line = false;
            lines.lines = header_line as u64;
            Source::Fast(lines)
        } else {
            reader.get_mut().one_line = false;
            Source::Csv { reader, lines_before: 0 }
        };
        let values = vec![None; index.len()];
        Ok(Table { source, path, names, index, wanted, record, values })
    }

    /// The input, as read so far.
    pub fn input(&self) -> &R {
        match &self.source {
            Source::Fast(lines) => &lines.inner,
            Source::Csv { reader, .. } => &reader.get_ref().inner,
            Source::Gone => unreachable!("the source is only gone while it changes hands"),
        }
    }

    /// Whether the header has wanted column `k` (as ordered in `required` then `optional`).
    pub fn has(&self, k: usize) -> bool {
        self.index.get(k).is_some_and(Option::is_some)
    }

    /// From here on, rows are read by the `csv` reader.
    fn hand_to_csv(&mut self) {
        if !matches!(self.source, Source::Fast(_)) {
            return;
        }
        if let Source::Fast(lines) = std::mem::replace(&mut self.source, Source::Gone) {
            let lines_before = usize::try_from(lines.lines).unwrap_or(usize::MAX);
            self.source = Source::Csv { reader: csv_reader(lines), lines_before };
        }
    }

    /// The next data row, `None` at the end. A row with fewer fields than the header
    /// is reported at the first column it lacks (a truncated file).
    pub fn next_row(&mut self) -> Result<Option<Row<'_>>> {
        self.hand_to_csv();
        let Source::Csv { reader, lines_before } = &mut self.source else {
            unreachable!("hand_to_csv leaves the csv reader")
        };
        loop {
            if !reader.read_byte_record(&mut self.record).map_err(|e| csv_error(self.path, &e))? {
                return Ok(None);
            }
            if !skipped(&self.record) {
                break;
            }
        }
        let line = line_of(&self.record, reader) + *lines_before;
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

    /// The next data row of a table of integers, `None` at the end: parsed in place
    /// while the lines are only integers (see the module docs), else [`Table::next_row`]'s.
    #[inline]
    pub fn next_int_row(&mut self) -> Result<Option<IntRow<'_>>> {
        if let Source::Fast(lines) = &mut self.source {
            loop {
                let bytes = lines.buf.get(lines.start..lines.end).unwrap_or_default();
                match parse_int_line(bytes, &self.wanted, &mut self.values) {
                    Some(Some(len)) => {
                        lines.start += len;
                        lines.lines += 1;
                        let line = usize::try_from(lines.lines).unwrap_or(usize::MAX);
                        crate::cancel::check_every(line)?;
                        return Ok(Some(IntRow::Parsed { line, values: &self.values }));
                    }
                    // the line goes on past the buffer: read more unless it is already too long to be integers
                    Some(None)
                        if bytes.len() <= self.wanted.len() * (MAX_DIGITS + 2) + 1
                            && lines.refill().map_err(|e| io_error(self.path, e))? =>
                    {
                        continue
                    }
                    _ => break,
                }
            }
        }
        Ok(self.next_row()?.map(IntRow::Fields))
    }
}

/// An input error met while reading rows in place, as [`csv_error`] names it (an
/// interrupted read that a stop request ended is the stop).
fn io_error(path: Option<&str>, io: std::io::Error) -> Error {
    if io.kind() == std::io::ErrorKind::Interrupted {
        return Error::Interrupted;
    }
    if io.kind() == std::io::ErrorKind::InvalidData {
        return Error::parse(path, None, io.to_string());
    }
    Error::io(path.unwrap_or("<input>"), &io)
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

    /// Each row's line and wanted values, and how the reading ended.
    type Rows = (Vec<(usize, Vec<Option<i64>>)>, String);

    /// Every row of `bytes` read by `next` (the wanted columns' values as `int` gives
    /// them, or the first error).
    fn rows_by(
        bytes: &[u8],
        required: &[&str],
        optional: &[&str],
        next: impl Fn(&mut Table<&[u8]>) -> Result<Option<(usize, Vec<Option<i64>>)>>,
    ) -> Rows {
        let spec = Spec { what: "input", required, optional };
        let mut t = match Table::open(bytes, Some("f.csv"), &spec) {
            Ok(t) => t,
            Err(e) => return (Vec::new(), e.to_string()),
        };
        let mut out = Vec::new();
        loop {
            match next(&mut t) {
                Ok(Some(row)) => out.push(row),
                Ok(None) => return (out, "end".into()),
                Err(e) => return (out, e.to_string()),
            }
        }
    }

    const COLS: [&str; 4] = ["a", "b", "c", "d"];

    /// Every row of `bytes` through [`Table::next_int_row`] (the in-place reader).
    fn int_rows(bytes: &[u8], required: &[&str], optional: &[&str]) -> Rows {
        let k = required.len() + optional.len();
        rows_by(bytes, required, optional, |t| {
            Ok(t.next_int_row()?
                .map(|r| (r.line(), (0..k).map(|i| r.int(i, COLS[i]).unwrap_or(Some(i64::MIN))).collect())))
        })
    }

    /// The same rows through [`Table::next_row`] (the general reader).
    fn general_rows(bytes: &[u8], required: &[&str], optional: &[&str]) -> Rows {
        let k = required.len() + optional.len();
        rows_by(bytes, required, optional, |t| {
            Ok(t.next_row()?.map(|r| (r.line, (0..k).map(|i| r.int(i, COLS[i]).unwrap_or(Some(i64::MIN))).collect())))
        })
    }

    #[test]
    fn integer_rows_in_place_read_as_the_csv_reader_reads_them() {
        let long: String = (0..3000).map(|i| format!("{i},-{},+{}\n", i * 7, i % 5)).collect();
        let inputs: Vec<Vec<u8>> = vec![
            b"a,b,c\n1,2,3\n-4,+5,6\r\n".to_vec(),
            b"# c\n\nc,a,b\n1,2,3\n".to_vec(),
            // the header after a comment and a blank line, rows then a comment, a blank line, spaces
            b"# c\n\na,b,c\n1,2,3\n# x\n\n 4 , 5,6\n7,8,9\n".to_vec(),
            // a BOM and a quoted header
            b"\xef\xbb\xbf\"a\",\"b\",c\r\n1,2,3\r\n".to_vec(),
            // a quoted field, and a field that is no integer
            b"a,b,c\n1,2,3\n\"4\",5,6\n7,x,9\n".to_vec(),
            b"a,b,c\n1,2,3\n4,1.5,6\n".to_vec(),
            b"a,b,c\n1,2,3\n4,-,6\n".to_vec(),
            b"a,b,c\n1,2,3\n4,,6\n".to_vec(),
            // truncated, too long, a last line without its end, 19 and 20 digits
            b"a,b,c\n1,2,3\n4,5\n".to_vec(),
            b"a,b,c\n1,2,3\n4,5,6,7\n".to_vec(),
            b"a,b,c\n1,2,3\n\n\n4,5,6".to_vec(),
            b"a,b,c\n1,2,3\n4,5,9223372036854775807\n4,5,99999999999999999999\n".to_vec(),
            b"a,b,c\n1,2,3\n4\r5,6\n".to_vec(),
            b"a,b,c\n".to_vec(),
            b"a,b\n1,2\n".to_vec(),
            format!("a,b,c\n{long}").into_bytes(),
            format!("a,b,c\n{long}1,2,x\n{long}").into_bytes(),
            format!("c,b,a\n{long}1,2\n").into_bytes(),
        ];
        for bytes in &inputs {
            for (req, opt) in [(&["a", "b"][..], &["c", "d"][..]), (&["a", "b", "c"][..], &[][..])] {
                let fast = int_rows(bytes, req, opt);
                assert_eq!(fast, general_rows(bytes, req, opt), "{}", String::from_utf8_lossy(bytes));
            }
        }
        // the integer lines after the header are parsed in place
        let spec = Spec { what: "input", required: &["a"], optional: &[] };
        let mut t = Table::open(&b"# x\na,b\n1,2\n"[..], None, &spec).unwrap();
        assert!(matches!(t.next_int_row().unwrap(), Some(IntRow::Parsed { line: 3, .. })));
        let mut t = Table::open(&b"\xef\xbb\xbfa,b\r\n1,2\r\n"[..], None, &spec).unwrap();
        assert!(matches!(t.next_int_row().unwrap(), Some(IntRow::Parsed { line: 2, .. })));
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
