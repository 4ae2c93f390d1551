//! Bounds on what reading an archive may cost, and the reader that enforces them.

use crate::error::{Error, Result};
use std::io::Read;

/// Bounds applied while reading an archive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Total decompressed bytes of all entries kept.
    pub max_total_bytes: u64,
    /// Decompressed bytes of any one entry.
    pub max_entry_bytes: u64,
    /// Number of entries (files, directories and links).
    pub max_entries: u64,
}

impl Default for Limits {
    /// 1 GiB in total, 256 MiB per entry, 200,000 entries: far above a real
    /// MMTests or lkp result archive, far below what a decompression bomb asks for.
    fn default() -> Self {
        Limits { max_total_bytes: 1 << 30, max_entry_bytes: 256 << 20, max_entries: 200_000 }
    }
}

/// Read all of `reader` (one entry) into memory, refusing more than `limit` bytes.
/// `what` names the archive and entry in the error.
pub fn read_bounded(reader: &mut dyn Read, limit: u64, archive: &str, entry: &str) -> Result<Vec<u8>> {
    let mut buf = Vec::new();
    let mut taken = reader.take(limit.saturating_add(1));
    taken.read_to_end(&mut buf).map_err(|e| {
        Error::parse(
            Some(archive),
            None,
            format!("entry '{entry}': cannot decompress: {e} (truncated or corrupt archive?)"),
        )
    })?;
    if buf.len() as u64 > limit {
        return Err(Error::parse(
            Some(archive),
            None,
            format!("entry '{entry}': larger than the limit of {limit} bytes (decompression bomb?)"),
        ));
    }
    Ok(buf)
}
