//! Samples written as text, one or more numbers per line (a column copied from a
//! spreadsheet, `perf stat -r` values, a results file): numbers are separated by
//! whitespace or commas, `#` starts a comment, blank lines are skipped.

use crate::error::{Error, Result};

/// Parse the numbers of `bytes`; `path` names the input in errors, which give the
/// 1-based line and the offending token. Non-UTF-8 bytes, non-numeric tokens,
/// NaN and infinities are refused.
pub fn parse_samples(bytes: &[u8], path: Option<&str>) -> Result<Vec<f64>> {
    let mut out = Vec::new();
    for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let line_no = i + 1;
        let line = std::str::from_utf8(raw).map_err(|e| {
            Error::parse(path, Some(line_no), format!("not UTF-8 text (invalid byte at column {})", e.valid_up_to() + 1))
        })?;
        let content = line.split('#').next().unwrap_or("");
        for tok in content.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()) {
            let v: f64 = tok.parse().map_err(|_| {
                Error::parse(path, Some(line_no), format!("expected a number, got '{}'", truncate(tok)))
            })?;
            if !v.is_finite() {
                return Err(Error::parse(path, Some(line_no), format!("expected a finite number, got '{}'", truncate(tok))));
            }
            out.push(v);
        }
    }
    Ok(out)
}

/// Read and parse a samples file (see [`parse_samples`]).
pub fn read_samples(path: &std::path::Path) -> Result<Vec<f64>> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, &e))?;
    parse_samples(&bytes, Some(&path.display().to_string()))
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
}
