//! Bounds-checked little-endian reads at byte offsets of a trace.dat: the file is read
//! at offsets ([`Source`]: a file read piece by piece, never whole, or bytes in memory),
//! and every read past the end is an error naming the file and the offset, never a panic.

use crate::error::{Error, Result};

/// Where a trace.dat's bytes come from.
pub trait Source {
    /// The size in bytes.
    fn size(&self) -> u64;
    /// Fill `buf` from byte `offset` on (an error if the source ends first).
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> std::io::Result<()>;
}

impl Source for &[u8] {
    fn size(&self) -> u64 {
        self.len() as u64
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
        let from = usize::try_from(offset).ok();
        let part = from.and_then(|f| self.get(f..f.checked_add(buf.len())?));
        let Some(part) = part else { return Err(std::io::ErrorKind::UnexpectedEof.into()) };
        buf.copy_from_slice(part);
        Ok(())
    }
}

/// A file read at offsets: only the pieces asked for are in memory.
#[derive(Debug)]
pub struct FileSource {
    file: std::sync::Mutex<std::fs::File>,
    size: u64,
}

impl FileSource {
    /// Open `path` for reading.
    pub fn open(path: &std::path::Path) -> Result<Self> {
        let file = std::fs::File::open(path).map_err(|e| Error::io(path, &e))?;
        let size = file.metadata().map_err(|e| Error::io(path, &e))?.len();
        Ok(FileSource { file: std::sync::Mutex::new(file), size })
    }
}

impl Source for FileSource {
    fn size(&self) -> u64 {
        self.size
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
        use std::io::{Read, Seek, SeekFrom};
        let mut f = self.file.lock().map_err(|_| std::io::Error::other("the file's lock was poisoned"))?;
        f.seek(SeekFrom::Start(offset))?;
        f.read_exact(buf)
    }
}

/// A read position in a [`Source`]; `path` names the file and `place` what is read
/// (`"byte"` in the file, or a decompressed section) in errors.
#[derive(Clone, Copy)]
pub struct Cursor<'a> {
    /// The bytes.
    pub src: &'a dyn Source,
    /// The next byte to read.
    pub pos: u64,
    /// The file's name, for errors.
    pub path: Option<&'a str>,
    /// What `pos` counts in (`byte`, `section at byte 37 (zstd), decompressed byte`).
    pub place: &'a str,
}

impl<'a> Cursor<'a> {
    /// A cursor at `pos` of the file `src`.
    pub fn new(src: &'a dyn Source, pos: u64, path: Option<&'a str>) -> Self {
        Cursor { src, pos, path, place: "byte" }
    }

    /// An error at the current offset.
    pub fn err(&self, msg: impl std::fmt::Display) -> Error {
        Error::parse(self.path, None, format!("trace.dat {} {}: {msg}", self.place, self.pos))
    }

    /// The bytes left.
    pub fn left(&self) -> u64 {
        self.src.size().saturating_sub(self.pos)
    }

    /// Fill `buf` from the current offset on.
    pub fn fill(&mut self, buf: &mut [u8]) -> Result<()> {
        let n = buf.len() as u64;
        if n > self.left() {
            return Err(self.err(format!("{n} bytes expected, the data ends at {}", self.src.size())));
        }
        self.src.read_at(self.pos, buf).map_err(|e| self.err(format!("read failed: {e}")))?;
        self.pos += n;
        Ok(())
    }

    /// The next `n` bytes (checked against the size before anything is allocated).
    pub fn take(&mut self, n: u64) -> Result<Vec<u8>> {
        if n > self.left() {
            return Err(self.err(format!("{n} bytes expected, the data ends at {}", self.src.size())));
        }
        let mut v = vec![0u8; usize::try_from(n).map_err(|_| self.err(format!("{n} bytes")))?];
        self.fill(&mut v)?;
        Ok(v)
    }

    /// Step over `n` bytes (an error if the data ends first).
    pub fn skip(&mut self, n: u64) -> Result<()> {
        if n > self.left() {
            return Err(self.err(format!("{n} bytes expected, the data ends at {}", self.src.size())));
        }
        self.pos += n;
        Ok(())
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N]> {
        let mut b = [0u8; N];
        self.fill(&mut b)?;
        Ok(b)
    }

    /// A byte.
    pub fn u8(&mut self) -> Result<u8> {
        let [b] = self.array::<1>()?;
        Ok(b)
    }

    /// A little-endian u16.
    pub fn u16(&mut self) -> Result<u16> {
        Ok(u16::from_le_bytes(self.array()?))
    }

    /// A little-endian u32.
    pub fn u32(&mut self) -> Result<u32> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    /// A little-endian u64.
    pub fn u64(&mut self) -> Result<u64> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    /// A NUL-terminated string (without the NUL), at most 4096 bytes.
    pub fn cstr(&mut self) -> Result<String> {
        let start = *self;
        let mut out = Vec::new();
        let mut chunk = [0u8; 64];
        loop {
            let n = chunk.len().min(usize::try_from(self.left()).unwrap_or(usize::MAX));
            let Some(part) = chunk.get_mut(..n).filter(|p| !p.is_empty()) else {
                return Err(start.err("a NUL-terminated string runs past the end"));
            };
            self.fill(part)?;
            match part.iter().position(|&b| b == 0) {
                Some(i) => {
                    out.extend(part.iter().take(i));
                    self.pos -= (n - i - 1) as u64;
                    break;
                }
                None => out.extend_from_slice(part),
            }
            if out.len() > 4096 {
                return Err(start.err("a string longer than 4096 bytes"));
            }
        }
        String::from_utf8(out).map_err(|_| start.err("a string is not UTF-8"))
    }

    /// `n` bytes as text (lossy: format files and kallsyms are ASCII).
    pub fn text(&mut self, n: u64) -> Result<String> {
        Ok(String::from_utf8_lossy(&self.take(n)?).into_owned())
    }
}

/// Up to 8 bytes as a little-endian unsigned number.
#[inline]
pub fn le(b: &[u8]) -> u64 {
    // one load of 8 bytes where the slice has them (a field of a record), a copy else
    match b.first_chunk::<8>() {
        Some(w) => u64::from_le_bytes(*w),
        None => {
            let mut w = [0u8; 8];
            if let Some(to) = w.get_mut(..b.len()) {
                to.copy_from_slice(b);
            }
            u64::from_le_bytes(w)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_refuses_past_the_end() {
        let data: &[u8] = b"\x01\x02\x03\x04ab\0\x05";
        let mut r = Cursor::new(&data, 0, Some("t.dat"));
        assert_eq!(r.u16().unwrap(), 0x0201);
        assert_eq!(r.take(2).unwrap(), b"\x03\x04");
        assert_eq!(r.cstr().unwrap(), "ab");
        assert_eq!(r.pos, 7);
        assert_eq!(r.u32().unwrap_err().to_string(), "t.dat: trace.dat byte 7: 4 bytes expected, the data ends at 8");
        assert_eq!(r.u8().unwrap(), 5);
        assert!(r.cstr().unwrap_err().to_string().contains("runs past the end"));
        assert!(r.take(u64::MAX).is_err());
        assert_eq!(le(&[0x78, 0x56, 0x34, 0x12]), 0x1234_5678);
    }
}
