//! An input that must be text (a trace CSV, ftrace text), read as a stream: a binary
//! or endless input is refused as soon as it shows itself, with at most one line's
//! worth of it in memory (docs/tracing.md §4).
//!
//! [`TextInput`] wraps a reader and fails a read that meets a NUL byte (no text format
//! here holds one: `/dev/zero`, a trace.dat or an archive does at once) or a line
//! longer than [`MAX_LINE_BYTES`] (an endless line would otherwise be gathered whole
//! by the line or CSV reader above it). [`binary_kind`] names the binary formats a user
//! gives by mistake from their first bytes.

use std::io::Read;

/// The longest line a text input may have (ftrace lines and trace CSV rows are a few
/// hundred bytes).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// A reader that fails on a NUL byte or an over-long line (see the module docs). Its
/// errors are [`std::io::ErrorKind::InvalidData`] with a message naming the line.
pub struct TextInput<R> {
    inner: R,
    /// 1-based line of the next byte.
    line: u64,
    /// Bytes since the last newline.
    in_line: usize,
}

impl<R: Read> TextInput<R> {
    /// Wrap `inner`, positioned at the start of its text.
    pub fn new(inner: R) -> Self {
        TextInput { inner, line: 1, in_line: 0 }
    }
}

/// The index of the first NUL byte in `b` and the number of newlines before it (or in
/// all of `b`), in one pass that the compiler vectorises over 64-byte blocks.
fn scan(b: &[u8]) -> (Option<usize>, u64) {
    let mut lines = 0u64;
    let mut blocks = b.chunks_exact(64);
    let mut at = 0usize;
    for block in blocks.by_ref() {
        let nul = block.iter().fold(false, |a, &c| a | (c == 0));
        if nul {
            let i = block.iter().position(|&c| c == 0).unwrap_or(0);
            lines += block.iter().take(i).filter(|&&c| c == b'\n').count() as u64;
            return (Some(at + i), lines);
        }
        lines += block.iter().fold(0u64, |n, &c| n + u64::from(c == b'\n'));
        at += 64;
    }
    for (i, &c) in blocks.remainder().iter().enumerate() {
        if c == 0 {
            return (Some(at + i), lines);
        }
        lines += u64::from(c == b'\n');
    }
    (None, lines)
}

impl<R: Read> Read for TextInput<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        let chunk = buf.get(..n).unwrap_or(&[]);
        let (nul, newlines) = scan(chunk);
        if let Some(i) = nul {
            let before = chunk.get(..i).unwrap_or(&[]);
            let column = before.iter().rposition(|&c| c == b'\n').map_or(self.in_line + i, |j| i - j - 1) + 1;
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("binary data (a NUL byte at line {}, column {column}): not text", self.line + newlines),
            ));
        }
        self.in_line = match chunk.iter().rposition(|&c| c == b'\n') {
            Some(j) => n - j - 1,
            None => self.in_line + n,
        };
        self.line += newlines;
        if self.in_line > MAX_LINE_BYTES {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("line {} is longer than {MAX_LINE_BYTES} bytes: not a line of text", self.line),
            ));
        }
        Ok(n)
    }
}

/// What a binary input is, from its first bytes, when it is one of the formats a user
/// may give in place of text: `"a trace.dat"`, `"gzip-compressed data"`, ... (`None`
/// for anything else).
pub fn binary_kind(first: &[u8]) -> Option<&'static str> {
    const KINDS: [(&[u8], &str); 7] = [
        (b"\x17\x08Dtracing", "a trace.dat"),
        (b"\x1f\x8b", "gzip-compressed data"),
        (b"\xfd7zXZ\x00", "xz-compressed data"),
        (b"\x28\xb5\x2f\xfd", "zstd-compressed data"),
        (b"BZh", "bzip2-compressed data"),
        (b"PK\x03\x04", "a zip archive"),
        (b"\x7fELF", "an ELF executable"),
    ];
    KINDS.iter().find(|(magic, _)| first.starts_with(magic)).map(|(_, kind)| *kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(bytes: &[u8], chunk: usize) -> std::io::Result<Vec<u8>> {
        // a reader that hands out `chunk` bytes at a time, as a pipe does
        struct Chunked<'a>(&'a [u8], usize);
        impl Read for Chunked<'_> {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                let n = self.0.len().min(self.1).min(buf.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let mut out = Vec::new();
        TextInput::new(Chunked(bytes, chunk)).read_to_end(&mut out)?;
        Ok(out)
    }

    #[test]
    fn text_passes_and_a_nul_is_refused_where_it_is() {
        let text = "a,b\n1,2\n".repeat(100);
        for chunk in [1, 7, 64, 1000] {
            assert_eq!(read_all(text.as_bytes(), chunk).unwrap(), text.as_bytes());
        }
        let mut bad = text.clone().into_bytes();
        bad.extend_from_slice(b"12\x0034\n");
        for chunk in [1, 5, 64, 4096] {
            let e = read_all(&bad, chunk).unwrap_err();
            assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
            assert_eq!(e.to_string(), "binary data (a NUL byte at line 201, column 3): not text", "chunk {chunk}");
        }
        // /dev/zero: refused at its first byte
        let e = read_all(&[0u8; 100], 100).unwrap_err();
        assert_eq!(e.to_string(), "binary data (a NUL byte at line 1, column 1): not text");
    }

    #[test]
    fn an_endless_line_is_refused_after_the_limit() {
        let long = vec![b'x'; MAX_LINE_BYTES + 10];
        let e = read_all(&long, 8192).unwrap_err();
        assert_eq!(e.to_string(), format!("line 1 is longer than {MAX_LINE_BYTES} bytes: not a line of text"));
        // long files of short lines are fine
        let many = "1,2,3\n".repeat(MAX_LINE_BYTES / 3);
        assert_eq!(read_all(many.as_bytes(), 65536).unwrap().len(), many.len());
    }

    #[test]
    fn binary_formats_are_named() {
        assert_eq!(binary_kind(b"\x17\x08Dtracing6\0"), Some("a trace.dat"));
        assert_eq!(binary_kind(b"\x1f\x8b\x08\0"), Some("gzip-compressed data"));
        assert_eq!(binary_kind(b"sleep_length_ns,"), None);
    }
}
