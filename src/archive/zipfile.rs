//! Zip archives read into a [`MemTree`].

use super::limits::{read_bounded, Limits};
use super::memory::MemTree;
use super::path::{file_path, normalize};
use crate::error::{Error, Result};
use std::io::{BufReader, Read, Seek};
use std::path::Path;

/// Read the zip archive at `path`. Sizes are bounded by what is actually
/// decompressed, not by what the (forgeable) central directory claims.
pub fn read(path: &Path, limits: &Limits) -> Result<MemTree> {
    let name = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, &e))?;
    read_from(BufReader::new(file), &name, limits)
}

/// Read a zip archive from any seekable reader (a file, bytes in memory); `name`
/// labels errors.
pub fn read_from<R: Read + Seek>(reader: R, name: &str, limits: &Limits) -> Result<MemTree> {
    let name = name.to_string();
    let corrupt = |e: zip::result::ZipError| Error::parse(Some(&name), None, format!("corrupt zip archive: {e}"));
    let mut archive = zip::ZipArchive::new(reader)
        .map_err(|e| Error::parse(Some(&name), None, format!("central directory: corrupt zip archive: {e}")))?;
    if archive.len() as u64 > limits.max_entries {
        return Err(Error::parse(
            Some(&name),
            None,
            format!("{} entries, more than the limit of {}; refusing the archive", archive.len(), limits.max_entries),
        ));
    }
    // what the central directory declares can be refused before inflating anything
    // (the actual bytes are bounded again below, in case it lies)
    let mut declared = 0u64;
    for i in 0..archive.len() {
        let entry = archive.by_index_raw(i).map_err(|e| {
            Error::parse(Some(&name), None, format!("entry #{i} of the central directory: corrupt zip archive: {e}"))
        })?;
        let raw = entry.name().map_err(corrupt)?.into_owned();
        declared = declared.saturating_add(entry.size());
        if entry.size() > limits.max_entry_bytes || declared > limits.max_total_bytes {
            return Err(Error::parse(
                Some(&name),
                None,
                format!(
                    "entry '{raw}': the central directory declares {} bytes for it and {declared} up to it, more than the limits of {} per entry and {} in total (decompression bomb?)",
                    entry.size(),
                    limits.max_entry_bytes,
                    limits.max_total_bytes
                ),
            ));
        }
    }
    let mut tree = MemTree::new(name.clone());
    tree.set_max_file_bytes(limits.max_entry_bytes);
    let mut total = 0u64;
    for i in 0..archive.len() {
        let mut entry = archive.by_index(i).map_err(|e| {
            Error::parse(Some(&name), None, format!("entry #{i} of the central directory: corrupt zip archive: {e}"))
        })?;
        let raw = entry.name().map_err(corrupt)?.into_owned();
        let rel = normalize(&raw, &name)?;
        if entry.is_symlink() {
            return Err(Error::parse(
                Some(&name),
                None,
                format!("entry '{raw}': symbolic links are not accepted in zip archives"),
            ));
        }
        if entry.is_dir() {
            tree.add_dir(&rel);
            continue;
        }
        let rel = file_path(&raw, &name)?;
        let left = limits.max_total_bytes.saturating_sub(total);
        let limit = limits.max_entry_bytes.min(left);
        let data = read_bounded(&mut entry, limit, &name, &raw).map_err(|e| {
            if limit < limits.max_entry_bytes && e.to_string().contains("larger than the limit") {
                Error::parse(Some(&name), None, format!(
                    "entry '{raw}': the archive decompresses to more than {} bytes in total (limit; decompression bomb?)",
                    limits.max_total_bytes
                ))
            } else {
                e
            }
        })?;
        total += data.len() as u64;
        tree.add_file(&rel, data);
    }
    Ok(tree)
}
