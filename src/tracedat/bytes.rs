//! Bounds-checked little-endian reads at byte offsets of a trace.dat file: every read
//! past the end is an error naming the file and the offset, never a panic.

use crate::error::{Error, Result};

/// A byte slice read from `pos` on; `path` names the file in errors.
#[derive(Debug, Clone, Copy)]
pub struct Reader<'a> {
    /// The whole file.
    pub data: &'a [u8],
    /// The next byte to read.
    pub pos: usize,
    /// The file's name, for errors.
    pub path: Option<&'a str>,
}

impl<'a> Reader<'a> {
    /// A reader at offset 0.
    pub fn new(data: &'a [u8], path: Option<&'a str>) -> Self {
        Reader { data, pos: 0, path }
    }

    /// An error at the current offset.
    pub fn err(&self, msg: impl std::fmt::Display) -> Error {
        Error::parse(self.path, None, format!("trace.dat byte {}: {msg}", self.pos))
    }

    /// The next `n` bytes.
    pub fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.data.len());
        let Some(s) = end.and_then(|e| self.data.get(self.pos..e)) else {
            return Err(self.err(format!("{n} bytes expected, the file ends at {}", self.data.len())));
        };
        self.pos += n;
        Ok(s)
    }

    /// A little-endian u16.
    pub fn u16(&mut self) -> Result<u16> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b.first().copied().unwrap_or(0), b.get(1).copied().unwrap_or(0)]))
    }

    /// A little-endian u32.
    pub fn u32(&mut self) -> Result<u32> {
        Ok(le(self.take(4)?) as u32)
    }

    /// A little-endian u64.
    pub fn u64(&mut self) -> Result<u64> {
        Ok(le(self.take(8)?))
    }

    /// A NUL-terminated string (without the NUL).
    pub fn cstr(&mut self) -> Result<&'a str> {
        let rest = self.data.get(self.pos..).unwrap_or(&[]);
        let Some(n) = rest.iter().position(|&b| b == 0) else {
            return Err(self.err("a NUL-terminated string runs past the end of the file"));
        };
        let s = self.take(n)?;
        self.pos += 1;
        std::str::from_utf8(s).map_err(|_| self.err("a string is not UTF-8"))
    }

    /// `n` bytes as UTF-8 text (lossy: format files are ASCII).
    pub fn text(&mut self, n: u64) -> Result<String> {
        let n = usize::try_from(n).map_err(|_| self.err(format!("a section of {n} bytes")))?;
        Ok(String::from_utf8_lossy(self.take(n)?).into_owned())
    }
}

/// Up to 8 bytes as a little-endian unsigned number.
pub fn le(b: &[u8]) -> u64 {
    b.iter().take(8).rev().fold(0u64, |v, &x| v << 8 | u64::from(x))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_refuses_past_the_end() {
        let mut r = Reader::new(b"\x01\x02\x03\x04ab\0\x05", Some("t.dat"));
        assert_eq!(r.u16().unwrap(), 0x0201);
        assert_eq!(r.take(2).unwrap(), b"\x03\x04");
        assert_eq!(r.cstr().unwrap(), "ab");
        assert_eq!(r.u32().unwrap_err().to_string(), "t.dat: trace.dat byte 7: 4 bytes expected, the file ends at 8");
        assert_eq!(le(&[0x78, 0x56, 0x34, 0x12]), 0x1234_5678);
    }
}
