//! [`MemTree`]: an archive's files held in memory after a bounded read.

use super::tree::Tree;
use crate::error::{Error, Result};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

/// Files (path → bytes) and the directories that contain them.
#[derive(Debug, Default, Clone)]
pub struct MemTree {
    origin: String,
    files: BTreeMap<String, Vec<u8>>,
    dirs: BTreeSet<String>,
}

impl MemTree {
    /// An empty tree named after its archive.
    pub fn new(origin: impl Into<String>) -> Self {
        let mut dirs = BTreeSet::new();
        dirs.insert(String::new());
        MemTree { origin: origin.into(), files: BTreeMap::new(), dirs }
    }

    /// Add a directory (and its parents).
    pub fn add_dir(&mut self, rel: &str) {
        let mut cur = String::new();
        for part in rel.split('/').filter(|p| !p.is_empty()) {
            if !cur.is_empty() {
                cur.push('/');
            }
            cur.push_str(part);
            self.dirs.insert(cur.clone());
        }
    }

    /// Add a file (its parent directories too). A later entry of the same name
    /// replaces an earlier one, as extracting the archive would.
    pub fn add_file(&mut self, rel: &str, data: Vec<u8>) {
        if let Some((parent, _)) = rel.rsplit_once('/') {
            self.add_dir(parent);
        }
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
        if !self.dirs.contains(rel) {
            return Err(Error::Io {
                path: self.display(rel),
                msg: "no such directory in the archive".to_string(),
                not_found: true,
            });
        }
        let prefix = if rel.is_empty() { String::new() } else { format!("{rel}/") };
        let mut out = BTreeSet::new();
        let direct = |p: &str| p.strip_prefix(&prefix).filter(|r| !r.is_empty() && !r.contains('/')).map(str::to_string);
        out.extend(self.files.keys().filter_map(|p| direct(p)));
        out.extend(self.dirs.iter().filter_map(|p| direct(p)));
        Ok(out.into_iter().collect())
    }

    fn is_dir(&self, rel: &str) -> bool {
        self.dirs.contains(rel)
    }

    fn is_file(&self, rel: &str) -> bool {
        self.files.contains_key(rel)
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
        assert!(t.is_dir("work/log/k1/iter-0") && t.is_file("work/log/k2/y"));
        assert_eq!(&*t.read("work/log/k2/y").unwrap(), b"2");
        let e = t.read("nope").unwrap_err().to_string();
        assert!(e.starts_with("a.tar/nope"), "{e}");
    }
}
