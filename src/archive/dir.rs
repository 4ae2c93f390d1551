//! [`DirTree`]: a real directory read lazily through [`Tree`].

use super::tree::Tree;
use crate::error::{Error, Result};
use std::borrow::Cow;
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
            return Err(Error::Io { path: root.display().to_string(), msg: "not a directory".into(), not_found: false });
        }
        Ok(DirTree { root: root.to_path_buf(), origin: root.display().to_string() })
    }

    fn full(&self, rel: &str) -> Result<PathBuf> {
        if rel.split('/').any(|c| c == "..") || rel.starts_with('/') {
            return Err(Error::domain(format!("path '{rel}' leaves {}", self.origin)));
        }
        Ok(if rel.is_empty() { self.root.clone() } else { self.root.join(rel) })
    }
}

impl Tree for DirTree {
    fn origin(&self) -> &str {
        &self.origin
    }

    fn read(&self, rel: &str) -> Result<Cow<'_, [u8]>> {
        let p = self.full(rel)?;
        std::fs::read(&p).map(Cow::Owned).map_err(|e| Error::io(&p, &e))
    }

    fn list(&self, rel: &str) -> Result<Vec<String>> {
        let p = self.full(rel)?;
        let rd = std::fs::read_dir(&p).map_err(|e| Error::io(&p, &e))?;
        let mut out = Vec::new();
        for entry in rd {
            let entry = entry.map_err(|e| Error::io(&p, &e))?;
            out.push(entry.file_name().to_string_lossy().into_owned());
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
        self.root.join(rel).display().to_string()
    }
}
