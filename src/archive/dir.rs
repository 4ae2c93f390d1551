//! [`DirTree`]: a real directory read lazily through [`Tree`].

use super::tree::{Tree, DEFAULT_MAX_FILE_BYTES};
use crate::error::{Error, Result};
use std::borrow::Cow;
use std::io::Read;
use std::path::{Path, PathBuf};

/// A directory on disk.
#[derive(Debug, Clone)]
pub struct DirTree {
    root: PathBuf,
    origin: String,
}

impl DirTree {
    /// Open `root`, which must be a directory.
    pub fn new(root: &Path) -> Result<Self> {
        let meta = std::fs::metadata(root).map_err(|e| Error::io(root, &e))?;
        if !meta.is_dir() {
            return Err(Error::Io {
                path: root.display().to_string(),
                msg: "not a directory".into(),
                not_found: false,
            });
        }
        Ok(Self::at(root))
    }

    /// `root` as a tree without checking that it exists: every access then fails
    /// with the I/O error (and path) that reading `root/rel` directly gives, which
    /// keeps the messages of readers that took a `&Path` before they took a [`Tree`].
    pub fn at(root: &Path) -> Self {
        DirTree { root: root.to_path_buf(), origin: root.display().to_string() }
    }

    /// The directory holding the file `path` as a tree, and the file's name in it: how
    /// a reader of trees reads one file given by its path.
    pub fn of_file(path: &Path) -> (Self, String) {
        let parent = path.parent().unwrap_or(Path::new(""));
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        (DirTree::at(parent), name)
    }

    /// The directory this tree reads.
    pub fn root(&self) -> &Path {
        &self.root
    }

    fn full(&self, rel: &str) -> Result<PathBuf> {
        if rel.split('/').any(|c| c == "..") || rel.starts_with('/') {
            return Err(Error::domain(format!("path '{rel}' leaves {}", self.origin)));
        }
        Ok(if rel.is_empty() { self.root.clone() } else { self.root.join(rel) })
    }
}

/// Read the file at `path`, refusing one larger than `limit` bytes with a parse error
/// naming it and the limit: a file whose size says so is refused before a byte is read
/// (so a 2 GiB file costs nothing), and one that grows while read (a pipe, /proc) once
/// `limit` bytes are in.
pub fn read_file(path: &Path, limit: u64) -> Result<Vec<u8>> {
    let mut f = open_file(path, limit)?;
    let mut buf = Vec::with_capacity(usize::try_from(f.declared).unwrap_or(0));
    f.read_to_end(&mut buf).map_err(|e| limited_error(path, &e))?;
    Ok(buf)
}

/// The file at `path` opened for a streaming read of at most `limit` bytes: refused
/// at once when its size says it is larger (a parse error naming it and the limit);
/// a read past `limit` bytes fails with an [`std::io::ErrorKind::InvalidData`] error
/// saying so ([`limited_error`] turns it into the same parse error).
pub fn open_file(path: &Path, limit: u64) -> Result<LimitedFile> {
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, &e))?;
    let declared = file.metadata().map(|m| if m.is_file() { m.len() } else { 0 }).unwrap_or(0);
    if declared > limit {
        return Err(too_big(path, &format!("{declared} bytes, larger than the limit of {limit} bytes {PER_FILE}")));
    }
    Ok(LimitedFile { file, declared, limit, read: 0 })
}

/// A file read through [`open_file`].
pub struct LimitedFile {
    file: std::fs::File,
    declared: u64,
    limit: u64,
    read: u64,
}

impl Read for LimitedFile {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.file.read(buf)?;
        self.read += n as u64;
        if self.read > self.limit {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("it is larger than the limit of {} bytes {PER_FILE}", self.limit),
            ));
        }
        Ok(n)
    }
}

const PER_FILE: &str = "schedlab reads from one file";

fn too_big(path: &Path, msg: &str) -> Error {
    Error::parse(Some(&path.display().to_string()), None, msg)
}

/// The error of a failed read of a [`LimitedFile`]: the size limit as a parse error,
/// anything else as the I/O error naming `path`.
pub fn limited_error(path: &Path, e: &std::io::Error) -> Error {
    if e.kind() == std::io::ErrorKind::InvalidData {
        too_big(path, &e.to_string())
    } else {
        Error::io(path, e)
    }
}

impl Tree for DirTree {
    fn origin(&self) -> &str {
        &self.origin
    }

    /// The file's bytes; a file larger than [`DEFAULT_MAX_FILE_BYTES`] is refused
    /// (a parse error naming it) rather than read into memory ([`read_file`]).
    fn read(&self, rel: &str) -> Result<Cow<'_, [u8]>> {
        let p = self.full(rel)?;
        read_file(&p, DEFAULT_MAX_FILE_BYTES).map(Cow::Owned)
    }

    /// Entry names, sorted bytewise; names that are not UTF-8 cannot be addressed
    /// by a `&str` path and are left out.
    fn list(&self, rel: &str) -> Result<Vec<String>> {
        let p = self.full(rel)?;
        let rd = std::fs::read_dir(&p).map_err(|e| Error::io(&p, &e))?;
        let mut out = Vec::new();
        for entry in rd {
            let entry = entry.map_err(|e| Error::io(&p, &e))?;
            if let Some(name) = entry.file_name().to_str() {
                out.push(name.to_string());
            }
        }
        out.sort();
        Ok(out)
    }

    fn is_dir(&self, rel: &str) -> bool {
        self.full(rel).map(|p| p.is_dir()).unwrap_or(false)
    }

    fn is_file(&self, rel: &str) -> bool {
        self.full(rel).map(|p| p.is_file()).unwrap_or(false)
    }

    fn display(&self, rel: &str) -> String {
        if rel.is_empty() {
            self.origin.clone()
        } else {
            self.root.join(rel).display().to_string()
        }
    }
}
