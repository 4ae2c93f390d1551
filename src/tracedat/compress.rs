//! The compression of a version 7 trace.dat (docs/tracing.md §3): the algorithm named in
//! the file's header (`none`, `zlib`, `zstd`), and a compressed block as trace-cmd writes
//! it: u32 compressed size, u32 uncompressed size, then the compressed bytes (a zlib
//! stream, or a zstd frame).

use super::bytes::Cursor;
use crate::error::Result;
use std::io::Read;

/// A decompressed block larger than this is refused (trace-cmd writes sections of a few
/// MB and CPU data in chunks of a few pages).
pub const MAX_BLOCK_BYTES: u32 = 1 << 28;

/// The algorithm of a version 7 file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Codec {
    /// Not compressed.
    None,
    /// zlib (`compress2`/`uncompress` streams).
    Zlib,
    /// Zstandard frames.
    Zstd,
}

impl Codec {
    /// The algorithm called `name` in the file header; `None` if not read here.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "none" | "" => Some(Codec::None),
            "zlib" => Some(Codec::Zlib),
            "zstd" => Some(Codec::Zstd),
            _ => None,
        }
    }

    /// Its name as the file header gives it.
    pub fn name(self) -> &'static str {
        match self {
            Codec::None => "none",
            Codec::Zlib => "zlib",
            Codec::Zstd => "zstd",
        }
    }

    /// Read the compressed block at `c` (advanced past it) into `out` (cleared first).
    pub fn block(self, c: &mut Cursor<'_>, out: &mut Vec<u8>) -> Result<()> {
        let at = *c;
        let zsize = c.u32()?;
        let size = c.u32()?;
        if size > MAX_BLOCK_BYTES {
            return Err(at.err(format!("a compressed block of {size} bytes (at most {MAX_BLOCK_BYTES} expected)")));
        }
        let input = c.take(u64::from(zsize))?;
        out.clear();
        let want = size as usize;
        // grow with what the data really expands to, not with the size it claims
        out.reserve(want.min(input.len().saturating_mul(32)).min(1 << 24));
        let got = match self {
            Codec::None => {
                out.extend_from_slice(&input);
                Ok(out.len())
            }
            Codec::Zlib => flate2::read::ZlibDecoder::new(input.as_slice()).take(u64::from(size) + 1).read_to_end(out),
            Codec::Zstd => zstd::stream::read::Decoder::with_buffer(input.as_slice())
                .and_then(|d| d.take(u64::from(size) + 1).read_to_end(out)),
        };
        match got {
            Ok(n) if n == want => Ok(()),
            Ok(n) => Err(at.err(format!(
                "a {} block of {zsize} bytes gives {n} bytes, not the {size} its header says",
                self.name()
            ))),
            Err(e) => Err(at.err(format!("a {} block of {zsize} bytes does not decompress: {e}", self.name()))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn block(zdata: &[u8], size: u32) -> Vec<u8> {
        let mut b = (zdata.len() as u32).to_le_bytes().to_vec();
        b.extend(size.to_le_bytes());
        b.extend(zdata);
        b
    }

    #[test]
    fn zlib_and_zstd_blocks() {
        let text = b"field: u64 timestamp; offset:0; size:8; signed:0;\n".repeat(20);
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        z.write_all(&text).unwrap();
        let zl = block(&z.finish().unwrap(), text.len() as u32);
        let zs = block(&zstd::bulk::compress(&text, 3).unwrap(), text.len() as u32);
        let mut out = Vec::new();
        for (codec, data) in [(Codec::Zlib, &zl), (Codec::Zstd, &zs)] {
            let data = data.as_slice();
            let mut c = Cursor::new(&data, 0, Some("t.dat"));
            codec.block(&mut c, &mut out).unwrap();
            assert_eq!(out, text);
            assert_eq!(c.pos, data.len() as u64);
        }
        // a wrong uncompressed size, garbage, an absurd size: errors at the block
        let short = block(&zstd::bulk::compress(&text, 3).unwrap(), 10);
        let short = short.as_slice();
        let e = Codec::Zstd.block(&mut Cursor::new(&short, 0, Some("t.dat")), &mut out).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "t.dat: trace.dat byte 0: a zstd block of {} bytes gives 11 bytes, not the 10 its header says",
                short.len() - 8
            )
        );
        let bad = block(b"not zlib at all", 100);
        let bad = bad.as_slice();
        let e = Codec::Zlib.block(&mut Cursor::new(&bad, 0, None), &mut out).unwrap_err().to_string();
        assert!(e.contains("does not decompress"), "{e}");
        let huge = block(b"x", u32::MAX);
        let huge = huge.as_slice();
        assert!(Codec::Zstd.block(&mut Cursor::new(&huge, 0, None), &mut out).is_err());
        assert_eq!(Codec::from_name("lz4"), None);
    }
}
