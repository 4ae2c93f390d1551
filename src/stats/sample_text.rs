//! Samples written as text, one or more numbers per line (a column copied from a
//! spreadsheet, `perf stat -r` values, a results file): numbers are separated by
//! whitespace or commas, `#` starts a comment, blank lines are skipped. A number
//! written with thousands separators (`1,234.5`, `12,345,678`: groups of three digits
//! after commas with no space) is refused with an error saying so, rather than read
//! as several samples; write `1234.5`, or `1, 234` for two samples.
//!
//! Files are read as a stream, line by line: memory is the samples themselves, at most
//! [`MAX_SAMPLES`] of them, and one line of at most [`MAX_LINE_BYTES`].

// Parsers of untrusted bytes: no unwrap, expect, indexing or string slicing that can panic on input.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

use crate::error::{Error, Result};
use std::io::{BufRead, Read};

/// The most samples one input may hold (2^24: 128 MiB of f64), so that a huge file
/// is refused instead of exhausting memory.
pub const MAX_SAMPLES: usize = 1 << 24;

/// The longest line read (64 MiB): a file without line breaks is refused at this point.
pub const MAX_LINE_BYTES: usize = 64 << 20;

/// Parse the numbers of `bytes`; `path` names the input in errors, which give the
/// 1-based line and the offending token. Non-UTF-8 bytes, non-numeric tokens,
/// NaN and infinities are refused.
pub fn parse_samples(bytes: &[u8], path: Option<&str>) -> Result<Vec<f64>> {
    read_samples_from(bytes, path)
}

/// [`parse_samples`] on a stream, read one line at a time.
pub fn read_samples_from(reader: impl BufRead, path: Option<&str>) -> Result<Vec<f64>> {
    read_at_most(reader, path, MAX_SAMPLES)
}

/// [`read_samples_from`] refusing more than `max_samples` samples (the tests use a small
/// limit: [`MAX_SAMPLES`] numbers take 20 s to parse in a debug build).
fn read_at_most(mut reader: impl BufRead, path: Option<&str>, max_samples: usize) -> Result<Vec<f64>> {
    let mut out = Vec::new();
    let mut buf = Vec::new();
    let mut line_no = 0usize;
    loop {
        buf.clear();
        line_no += 1;
        let n = reader
            .by_ref()
            .take(MAX_LINE_BYTES as u64 + 1)
            .read_until(b'\n', &mut buf)
            .map_err(|e| Error::parse(path, Some(line_no), format!("cannot read: {e}")))?;
        if n == 0 {
            break;
        }
        let raw = buf.strip_suffix(b"\n").unwrap_or(&buf);
        if raw.len() > MAX_LINE_BYTES {
            return Err(Error::parse(path, Some(line_no), format!("line longer than {MAX_LINE_BYTES} bytes")));
        }
        parse_line(raw, path, line_no, max_samples, &mut out)?;
    }
    Ok(out)
}

/// Whether `chunk` is digits grouped by thousands: 1-3 digits (a sign allowed), then
/// one or more `,ddd` groups, the last one optionally followed by a decimal part.
fn grouped(chunk: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let mut parts = chunk.trim_end_matches(',').split(',');
    let first = parts.next().unwrap_or("").trim_start_matches(['+', '-']);
    let rest: Vec<&str> = parts.collect();
    let Some((last, middle)) = rest.split_last() else { return false };
    let last = last.split_once('.').map_or(*last, |(int, frac)| if digits(frac) { int } else { "" });
    digits(first) && first.len() <= 3 && middle.iter().chain([&last]).all(|g| g.len() == 3 && digits(g))
}

fn parse_line(raw: &[u8], path: Option<&str>, line_no: usize, max_samples: usize, out: &mut Vec<f64>) -> Result<()> {
    let line = std::str::from_utf8(raw).map_err(|e| {
        Error::parse(path, Some(line_no), format!("not UTF-8 text (invalid byte at column {})", e.valid_up_to() + 1))
    })?;
    let content = line.split('#').next().unwrap_or("");
    if let Some(chunk) = content.split_whitespace().find(|c| grouped(c)) {
        return Err(Error::parse(
            path,
            Some(line_no),
            format!(
                "'{}' looks like a number with thousands separators; commas separate samples here: write the \
                 number without them, or put a space after each comma for separate samples",
                truncate(chunk)
            ),
        ));
    }
    for tok in content.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()) {
        let v: f64 = tok
            .parse()
            .map_err(|_| Error::parse(path, Some(line_no), format!("expected a number, got '{}'", truncate(tok))))?;
        if !v.is_finite() {
            return Err(Error::parse(
                path,
                Some(line_no),
                format!("expected a finite number, got '{}'", truncate(tok)),
            ));
        }
        if out.len() >= max_samples {
            return Err(Error::parse(
                path,
                Some(line_no),
                format!("more than {max_samples} samples, the most schedlab reads from one input"),
            ));
        }
        out.push(v);
    }
    Ok(())
}

/// Read and parse a samples file (see [`parse_samples`]), streaming it.
pub fn read_samples(path: &std::path::Path) -> Result<Vec<f64>> {
    let f = std::fs::File::open(path).map_err(|e| Error::io(path, &e))?;
    read_samples_from(std::io::BufReader::with_capacity(1 << 16, f), Some(&path.display().to_string()))
}

fn truncate(s: &str) -> String {
    if s.chars().count() > 40 {
        format!("{}...", s.chars().take(40).collect::<String>())
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_separators_are_refused_not_split() {
        for bad in ["1,234.5", "12,345,678", "-1,000", "5 1,234.50 6"] {
            let e = parse_samples(bad.as_bytes(), Some("s.txt")).unwrap_err().to_string();
            assert!(e.contains("thousands separators") && e.contains("s.txt:1"), "{bad}: {e}");
        }
        // separate samples: a space after the comma, or groups that are not of three digits
        assert_eq!(
            parse_samples(b"1, 234.5\n1,2,3\n4611,4640\n1,2345", None).unwrap(),
            [1.0, 234.5, 1.0, 2.0, 3.0, 4611.0, 4640.0, 1.0, 2345.0]
        );
    }

    #[test]
    fn numbers_comments_and_separators() {
        let v = parse_samples(b"# lps\n4626 4630\n\n4611,4640 # run 3,4\r\n-1e3\n", Some("a.txt")).unwrap();
        assert_eq!(v, vec![4626.0, 4630.0, 4611.0, 4640.0, -1000.0]);
        assert!(parse_samples(b"", None).unwrap().is_empty());
    }

    #[test]
    fn errors_name_the_line() {
        let e = parse_samples(b"1\n2 x3\n", Some("a.txt")).unwrap_err();
        assert_eq!(e.to_string(), "a.txt:2: expected a number, got 'x3'");
        let e = parse_samples(b"1\nnan\n", Some("a.txt")).unwrap_err();
        assert!(e.to_string().starts_with("a.txt:2:"));
        let e = parse_samples(b"1\n\xff\n", Some("a.txt")).unwrap_err();
        assert_eq!(e.to_string(), "a.txt:2: not UTF-8 text (invalid byte at column 1)");
    }

    #[test]
    fn too_many_samples_are_refused_at_the_line_that_passes_the_limit() {
        // 4 lines of 1024 zeros fill a limit of 4096; the fifth line passes it (the real
        // limit, MAX_SAMPLES, is checked on the release build by tests/test_memory.py)
        let line = vec!["0"; 1024].join(" ") + "\n";
        let reader = std::io::Cursor::new(line.repeat(5).into_bytes());
        let e = read_at_most(reader, Some("big.txt"), 4096).unwrap_err().to_string();
        assert_eq!(e, "big.txt:5: more than 4096 samples, the most schedlab reads from one input");
        let four = std::io::Cursor::new(line.repeat(4).into_bytes());
        assert_eq!(read_at_most(four, Some("big.txt"), 4096).map(|v| v.len()).ok(), Some(4096));
    }
}
