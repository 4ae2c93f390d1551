//! Result trees from directories and archives, read without unpacking to disk.
//!
//! Labs keep results as directories or as `.tar`, `.tar.gz`/`.tgz`, `.tar.xz` and
//! `.zip` files. [`open`] turns any of them into a [`Tree`], the small read-only
//! file-system view the result readers use. Archives come from strangers, so
//! reading one is bounded ([`Limits`]: total decompressed bytes, bytes per entry,
//! entry count) and every entry path is checked ([`path::normalize`]): absolute
//! paths, `..` escapes and links pointing outside the archive are refused with an
//! error naming the archive and the entry; nothing is ever written to disk.

// Parsers of untrusted bytes: no unwrap, expect, indexing or string slicing that can panic on input.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

pub mod dir;
pub mod limits;
pub mod memory;
pub mod path;
pub mod tarball;
pub mod tree;
pub mod zipfile;

pub use dir::DirTree;
pub use limits::Limits;
pub use memory::MemTree;

/// The file names of the archives read ([`Kind`]), longest first where one ends another.
pub const NAME_SUFFIXES: [&str; 6] = [".tar.gz", ".tgz", ".tar.xz", ".txz", ".tar", ".zip"];

/// `name` without its archive suffix ([`NAME_SUFFIXES`], compared case-insensitively),
/// None when it has none or nothing is left.
pub fn name_stem(name: &str) -> Option<&str> {
    let lower = name.to_ascii_lowercase();
    NAME_SUFFIXES.iter().find(|ext| lower.ends_with(*ext)).and_then(|ext| {
        let stem = name.get(..name.len() - ext.len())?;
        (!stem.is_empty()).then_some(stem)
    })
}
pub use tree::Tree;

use crate::error::{Error, Result};
use std::path::Path;

/// What kind of container a path is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A plain directory.
    Dir,
    /// An uncompressed tar archive.
    Tar,
    /// A gzip-compressed tar archive (`.tar.gz`, `.tgz`).
    TarGz,
    /// An xz-compressed tar archive (`.tar.xz`, `.txz`).
    TarXz,
    /// A zip archive.
    Zip,
}

/// Decide the kind of `path`: a directory, else by the file's magic bytes
/// (gzip 1f 8b, xz fd 37 7a 58 5a 00, zip 50 4b 03 04 / 50 4b 05 06, tar "ustar" at 257).
pub fn detect(path: &Path) -> Result<Kind> {
    let meta = std::fs::metadata(path).map_err(|e| Error::io(path, &e))?;
    if meta.is_dir() {
        return Ok(Kind::Dir);
    }
    use std::io::Read;
    let mut head = [0u8; 262];
    let mut f = std::fs::File::open(path).map_err(|e| Error::io(path, &e))?;
    let mut n = 0;
    while let Some(rest) = head.get_mut(n..).filter(|rest| !rest.is_empty()) {
        match f.read(rest) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) => return Err(Error::io(path, &e)),
        }
    }
    let name = path.display().to_string();
    kind_of(head.get(..n).unwrap_or_default()).ok_or_else(|| {
        Error::parse(Some(&name), None, "not a directory or a supported archive (expected tar, tar.gz, tar.xz or zip)")
    })
}

/// The archive kind of a file starting with `head` (at least its first 262 bytes
/// when there are that many), by magic bytes; None for anything else.
pub fn kind_of(head: &[u8]) -> Option<Kind> {
    if head.starts_with(&[0x1f, 0x8b]) {
        Some(Kind::TarGz)
    } else if head.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0x00]) {
        Some(Kind::TarXz)
    } else if head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06") {
        Some(Kind::Zip)
    } else if head.get(257..262) == Some(b"ustar") {
        Some(Kind::Tar)
    } else {
        None
    }
}

/// Read an archive held in memory (kind by magic bytes, as [`detect`]), bounded by
/// `limits`; `name` labels errors.
pub fn read_bytes(bytes: &[u8], name: &str, limits: &Limits) -> Result<MemTree> {
    let kind = kind_of(bytes).ok_or_else(|| {
        Error::parse(Some(name), None, "not a supported archive (expected tar, tar.gz, tar.xz or zip)")
    })?;
    match kind {
        Kind::Zip => zipfile::read_from(std::io::Cursor::new(bytes), name, limits),
        Kind::TarGz => tarball::read_from(Box::new(flate2::read::MultiGzDecoder::new(bytes)), name, limits),
        Kind::TarXz => tarball::read_from(Box::new(xz2::read::XzDecoder::new_multi_decoder(bytes)), name, limits),
        Kind::Tar | Kind::Dir => tarball::read_from(Box::new(bytes), name, limits),
    }
}

/// A path that names a directory inside an archive, `results.tar.gz/work/log.b`: the
/// archive (the nearest ancestor that is a file with an archive's name) and the
/// directory inside it, `/`-separated. None when the path exists on disk or no
/// ancestor is such a file.
pub fn inner_path(path: &Path) -> Option<(std::path::PathBuf, String)> {
    if path.exists() {
        return None;
    }
    let archive = path.ancestors().skip(1).find(|a| a.is_file() || a.is_dir())?;
    let named = archive.file_name().is_some_and(|n| name_stem(&n.to_string_lossy()).is_some());
    if !archive.is_file() || !named {
        return None;
    }
    let inner = path.strip_prefix(archive).ok()?;
    let parts: Vec<String> = inner.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    Some((archive.to_path_buf(), parts.join("/")))
}

/// `path` without the trailing slashes a shell's completion leaves after an archive's
/// name (`lab.tar.gz/`) when what remains is a file; `path` itself otherwise. A file
/// named with a trailing slash does not exist for the system (`ENOTDIR`), so without
/// this the archive would be reported missing.
pub fn without_trailing_slash(path: &Path) -> &Path {
    let s = path.as_os_str().as_encoded_bytes();
    if !s.ends_with(b"/") || s.iter().all(|&b| b == b'/') {
        return path;
    }
    let trimmed = Path::new(path.components().as_path().as_os_str());
    if trimmed.is_file() {
        trimmed
    } else {
        path
    }
}

/// Open a directory or an archive as a [`Tree`], bounded by `limits` for archives.
pub fn open(path: &Path, limits: &Limits) -> Result<Box<dyn Tree>> {
    Ok(match detect(path)? {
        Kind::Dir => Box::new(DirTree::new(path)?),
        Kind::Tar | Kind::TarGz | Kind::TarXz => Box::new(tarball::read(path, limits)?),
        Kind::Zip => Box::new(zipfile::read(path, limits)?),
    })
}

#[cfg(test)]
mod name_tests {
    use super::*;

    #[test]
    fn a_directory_inside_an_archive() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("r.tar.gz");
        std::fs::write(&a, b"").unwrap();
        assert_eq!(inner_path(&a.join("work/log.b")), Some((a.clone(), "work/log.b".to_string())));
        assert_eq!(inner_path(&a), None); // exists
        let slash = std::path::PathBuf::from(format!("{}/", a.display()));
        assert_eq!(without_trailing_slash(&slash), a.as_path());
        assert_eq!(without_trailing_slash(dir.path()), dir.path());
        assert_eq!(without_trailing_slash(Path::new("/")), Path::new("/"));
        assert_eq!(inner_path(&dir.path().join("nothing/work")), None);
        let plain = dir.path().join("notes.txt");
        std::fs::write(&plain, b"").unwrap();
        assert_eq!(inner_path(&plain.join("x")), None); // not an archive's name
    }

    #[test]
    fn archive_names_lose_their_suffix() {
        assert_eq!(name_stem("runs.tar.gz"), Some("runs"));
        assert_eq!(name_stem("v6.8.TGZ"), Some("v6.8"));
        assert_eq!(name_stem("a.txz"), Some("a"));
        assert_eq!(name_stem("b.zip"), Some("b"));
        assert_eq!((name_stem(".tar.gz"), name_stem("log.gz"), name_stem("x.json")), (None, None, None));
    }
}
