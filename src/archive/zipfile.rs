//! Zip archives read into a [`MemTree`].

use super::limits::{read_bounded, Limits};
use super::memory::MemTree;
use super::path::normalize;
use crate::error::{Error, Result};
use std::io::BufReader;
use std::path::Path;

/// Read the zip archive at `path`. Sizes are bounded by what is actually
/// decompressed, not by what the (forgeable) central directory claims.
pub fn read(path: &Path, limits: &Limits) -> Result<MemTree> {
    let name = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, &e))?;
    let corrupt = |e: zip::result::ZipError| Error::parse(Some(&name), None, format!("corrupt zip archive: {e}"));
    let mut archive = zip::ZipArchive::new(BufReader::new(file)).map_err(corrupt)?;
    if archive.len() as u64 > limits.max_entries {
        return Err(Error::parse(
            Some(&name),
            None,
            format!("{} entries, more than the limit of {}; refusing the archive", archive.len(), limits.max_entries),
        ));
    }
    let mut tree = MemTree::new(name.clone());
    let mut total = 0u64;
    for i in 0..archive.len() {
        let mut entry = archive.by_index(i).map_err(corrupt)?;
        let raw = entry.name().map_err(corrupt)?.into_owned();
        let rel = normalize(&raw, &name)?;
        if entry.is_symlink() {
            return Err(Error::parse(Some(&name), None, format!("entry '{raw}': symbolic links are not accepted in zip archives")));
        }
        if entry.is_dir() {
            tree.add_dir(&rel);
            continue;
        }
        let left = limits.max_total_bytes.saturating_sub(total);
        let limit = limits.max_entry_bytes.min(left);
        let data = read_bounded(&mut entry, limit, &name, &raw)?;
        total += data.len() as u64;
        tree.add_file(&rel, data);
    }
    Ok(tree)
}
