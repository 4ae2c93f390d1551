//! Tar archives, plain or compressed with gzip or xz, read into a [`MemTree`].

use super::limits::{read_bounded, Limits};
use super::memory::MemTree;
use super::path::{file_path, normalize, resolve_link};
use crate::error::{Error, Result};
use std::io::{BufReader, Read};
use std::path::Path;

/// Read the tar archive at `path` (compression detected from its magic bytes).
pub fn read(path: &Path, limits: &Limits) -> Result<MemTree> {
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, &e))?;
    let name = path.display().to_string();
    let kind = super::detect(path)?;
    let reader: Box<dyn Read> = match kind {
        super::Kind::TarGz => Box::new(flate2::read::MultiGzDecoder::new(BufReader::new(file))),
        super::Kind::TarXz => Box::new(xz2::read::XzDecoder::new_multi_decoder(BufReader::new(file))),
        _ => Box::new(BufReader::new(file)),
    };
    read_from(reader, &name, limits)
}

/// Read a tar stream; `name` labels errors.
pub fn read_from<'a>(reader: Box<dyn Read + 'a>, name: &str, limits: &Limits) -> Result<MemTree> {
    // a failure between entries names the last entry read, so that the message
    // says where in the archive the damage starts
    let corrupt = |e: std::io::Error, last: &Option<String>| {
        let at = match last {
            Some(l) => format!("after entry '{l}'"),
            None => "at its first entry".to_string(),
        };
        Error::parse(Some(name), None, format!("corrupt or truncated archive {at}: {e}"))
    };
    let mut last: Option<String> = None;
    let mut archive = tar::Archive::new(reader);
    let mut tree = MemTree::new(name);
    tree.set_max_file_bytes(limits.max_entry_bytes);
    let mut links: Vec<(String, String)> = Vec::new();
    let (mut total, mut count) = (0u64, 0u64);
    for entry in archive.entries().map_err(|e| corrupt(e, &last))? {
        let mut entry = entry.map_err(|e| corrupt(e, &last))?;
        count += 1;
        if count > limits.max_entries {
            return Err(Error::parse(
                Some(name),
                None,
                format!("more than {} entries (limit); refusing the archive", limits.max_entries),
            ));
        }
        let raw = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
        last = Some(raw.clone());
        let rel = normalize(&raw, name)?;
        let kind = entry.header().entry_type();
        if kind.is_dir() {
            tree.add_dir(&rel);
        } else if kind.is_file() || kind == tar::EntryType::Continuous {
            let rel = file_path(&raw, name)?;
            // a tar header's size is the length of the data that follows it: an entry
            // declared too large is refused before decompressing any of it
            let size = entry.size();
            if size > limits.max_entry_bytes || total.saturating_add(size) > limits.max_total_bytes {
                return Err(Error::parse(Some(name), None, format!(
                    "entry '{raw}': {size} bytes, more than the limits of {} per entry and {} in total (decompression bomb?)",
                    limits.max_entry_bytes, limits.max_total_bytes
                )));
            }
            let left = limits.max_total_bytes.saturating_sub(total);
            let limit = limits.max_entry_bytes.min(left);
            let data = read_bounded(&mut entry, limit, name, &raw).map_err(|e| {
                if limit < limits.max_entry_bytes {
                    Error::parse(Some(name), None, format!(
                        "entry '{raw}': the archive decompresses to more than {} bytes in total (limit; decompression bomb?)",
                        limits.max_total_bytes
                    ))
                } else {
                    e
                }
            })?;
            total += data.len() as u64;
            tree.add_file(&rel, data);
        } else if kind.is_symlink() || kind.is_hard_link() {
            let rel = file_path(&raw, name)?;
            let target = entry.link_name_bytes().map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default();
            let resolved = if kind.is_symlink() { resolve_link(&rel, &target) } else { normalize(&target, name).ok() };
            match resolved {
                Some(t) => links.push((rel, t)),
                None => {
                    return Err(Error::parse(
                        Some(name),
                        None,
                        format!("entry '{raw}': link to '{target}' points outside the archive"),
                    ))
                }
            }
        }
        // other entry types (devices, fifos, pax headers) carry no results: skipped
    }
    // links inside the archive become copies of their targets (files only)
    for (link, target) in links {
        if let Ok(data) = super::tree::Tree::read(&tree, &target).map(|d| d.into_owned()) {
            total += data.len() as u64;
            if total > limits.max_total_bytes {
                return Err(Error::parse(
                    Some(name),
                    None,
                    format!(
                        "entry '{link}': the archive decompresses to more than {} bytes in total (limit)",
                        limits.max_total_bytes
                    ),
                ));
            }
            tree.add_file(&link, data);
        }
    }
    Ok(tree)
}
