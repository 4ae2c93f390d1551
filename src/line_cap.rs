//! A reader that refuses a line longer than a bound: a streamed text input (a trace CSV
//! replayed a chunk at a time) keeps its memory bounded whatever it holds (`/dev/zero`,
//! a binary file, a line that never ends), since a parser holds a whole line at once.

use std::io::Read;

/// `inner` read through, failing with an [`std::io::ErrorKind::InvalidData`] error (which
/// the CSV readers report as a parse error) once a line passes `max` bytes.
pub struct LineCap<R> {
    inner: R,
    max: usize,
    /// Bytes since the last line end.
    run: usize,
    /// Line ends seen.
    lines: usize,
}

impl<R> LineCap<R> {
    /// `inner` with lines of at most `max` bytes.
    pub fn new(inner: R, max: usize) -> Self {
        LineCap { inner, max, run: 0, lines: 0 }
    }
}

impl<R: Read> Read for LineCap<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        for &b in buf.get(..n).unwrap_or_default() {
            if b == b'\n' {
                self.run = 0;
                self.lines += 1;
            } else {
                self.run += 1;
                if self.run > self.max {
                    return Err(std::io::Error::new(
                        std::io::ErrorKind::InvalidData,
                        format!(
                            "line {} is longer than {} bytes: not a text file of lines (a binary or endless input?)",
                            self.lines + 1,
                            self.max
                        ),
                    ));
                }
            }
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_line_is_refused_short_ones_pass() {
        let mut ok = String::new();
        LineCap::new("ab\ncd\n".as_bytes(), 2).read_to_string(&mut ok).unwrap();
        assert_eq!(ok, "ab\ncd\n");
        let e = LineCap::new(std::io::repeat(0).take(100), 10).read_to_end(&mut Vec::new()).unwrap_err();
        assert!(e.to_string().starts_with("line 1 is longer than 10 bytes"), "{e}");
    }
}
