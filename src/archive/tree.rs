//! [`Tree`]: the read-only file-system view every result reader goes through, so
//! that a directory and an archive are read by the same code.

use crate::error::Result;
use std::borrow::Cow;

/// A read-only tree of files addressed by relative `/`-separated paths.
pub trait Tree: Send + Sync {
    /// The directory or archive path, for messages.
    fn origin(&self) -> &str;
    /// The contents of the file at `rel`.
    fn read(&self, rel: &str) -> Result<Cow<'_, [u8]>>;
    /// Names directly under directory `rel` ("" = root), sorted, files and directories.
    fn list(&self, rel: &str) -> Result<Vec<String>>;
    /// Whether `rel` is a directory.
    fn is_dir(&self, rel: &str) -> bool;
    /// Whether `rel` is a regular file.
    fn is_file(&self, rel: &str) -> bool;
    /// The label to use for `rel` in error messages (`archive.tar.gz:work/log/x`).
    fn display(&self, rel: &str) -> String {
        if rel.is_empty() { self.origin().to_string() } else { format!("{}/{}", self.origin(), rel) }
    }
}

/// Join a directory and a name into a relative path.
pub fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() { name.to_string() } else { format!("{dir}/{name}") }
}
