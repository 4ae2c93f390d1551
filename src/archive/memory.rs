//! [`MemTree`]: an archive's files held in memory after a bounded read.

use super::tree::{Tree, DEFAULT_MAX_FILE_BYTES};
use crate::error::{Error, Result};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

/// Files (path → bytes) and the directories that contain them.
#[derive(Debug, Clone)]
pub struct MemTree {
    origin: String,
    files: BTreeMap<String, Vec<u8>>,
    /// directory → the names directly in it (files and directories), so that a
    /// listing costs what it returns, not the size of the archive
    dirs: BTreeMap<String, BTreeSet<String>>,
    max_file_bytes: u64,
}

impl Default for MemTree {
    /// An empty tree with no origin name.
    fn default() -> Self {
        MemTree::new("")
    }
}

impl MemTree {
    /// An empty tree named after its archive.
    pub fn new(origin: impl Into<String>) -> Self {
        let mut dirs = BTreeMap::new();
        dirs.insert(String::new(), BTreeSet::new());
        MemTree { origin: origin.into(), files: BTreeMap::new(), dirs, max_file_bytes: DEFAULT_MAX_FILE_BYTES }
    }

    /// Bound what a reader may decompress from one file of this tree (a `.gz` log
    /// inside the archive) to `n` bytes: the archive's per-entry limit.
    pub fn set_max_file_bytes(&mut self, n: u64) {
        self.max_file_bytes = n;
    }

    /// Add a directory (and its parents).
    pub fn add_dir(&mut self, rel: &str) {
        let mut cur = String::new();
        for part in rel.split('/').filter(|p| !p.is_empty()) {
            self.dirs.entry(cur.clone()).or_default().insert(part.to_string());
            if !cur.is_empty() {
                cur.push('/');
            }
            cur.push_str(part);
            self.dirs.entry(cur.clone()).or_default();
        }
    }

    /// Add a file (its parent directories too). A later entry of the same name
    /// replaces an earlier one, as extracting the archive would.
    pub fn add_file(&mut self, rel: &str, data: Vec<u8>) {
        let (parent, name) = rel.rsplit_once('/').unwrap_or(("", rel));
        self.add_dir(parent);
        self.dirs.entry(parent.to_string()).or_default().insert(name.to_string());
        self.files.insert(rel.to_string(), data);
    }

    /// Number of files.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether the tree has no files.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// All file paths with their sizes, sorted.
    pub fn files(&self) -> impl Iterator<Item = (&str, usize)> {
        self.files.iter().map(|(k, v)| (k.as_str(), v.len()))
    }
}

impl Tree for MemTree {
    fn origin(&self) -> &str {
        &self.origin
    }

    fn read(&self, rel: &str) -> Result<Cow<'_, [u8]>> {
        self.files.get(rel).map(|v| Cow::Borrowed(v.as_slice())).ok_or_else(|| Error::Io {
            path: self.display(rel),
            msg: "no such file in the archive".to_string(),
            not_found: true,
        })
    }

    fn list(&self, rel: &str) -> Result<Vec<String>> {
        match self.dirs.get(rel) {
            Some(names) => Ok(names.iter().cloned().collect()),
            None => Err(Error::Io {
                path: self.display(rel),
                msg: "no such directory in the archive".to_string(),
                not_found: true,
            }),
        }
    }

    fn is_dir(&self, rel: &str) -> bool {
        self.dirs.contains_key(rel)
    }

    fn is_file(&self, rel: &str) -> bool {
        self.files.contains_key(rel)
    }

    fn max_file_bytes(&self) -> u64 {
        self.max_file_bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listing() {
        let mut t = MemTree::new("a.tar");
        t.add_file("work/log/k1/iter-0/x", b"1".to_vec());
        t.add_file("work/log/k2/y", b"2".to_vec());
        assert_eq!(t.list("").unwrap(), vec!["work"]);
        assert_eq!(t.list("work/log").unwrap(), vec!["k1", "k2"]);
        assert_eq!(t.list("work/log/k2").unwrap(), vec!["y"]);
        assert!(t.list("work/log/k2/y").is_err() && !t.is_dir("work/log/k2/y"));
        assert!(t.is_dir("work/log/k1/iter-0") && t.is_file("work/log/k2/y"));
        assert_eq!(&*t.read("work/log/k2/y").unwrap(), b"2");
        let e = t.read("nope").unwrap_err().to_string();
        assert!(e.starts_with("a.tar/nope"), "{e}");
    }
}
