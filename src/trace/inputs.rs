//! The traces a group is given as: trace files, directories of them, or archives
//! (docs/trace-compare.md §1). A directory or an archive contributes its `*.dat` files
//! (at any depth, in path order), or, when it holds none, its `*.txt` and `*.trace`
//! files: a recording kept with its `trace-cmd report` text is one run, not two.

use crate::archive::{self, Limits, MemTree, Tree};
use crate::error::{Error, Result};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Where one trace is.
#[derive(Clone)]
pub enum TraceInput {
    /// A file on disk (read a piece at a time).
    File(PathBuf),
    /// A member of an archive held in memory.
    Member {
        /// The archive.
        tree: Arc<MemTree>,
        /// The member's path in it.
        rel: String,
    },
}

impl std::fmt::Debug for TraceInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.name())
    }
}

impl TraceInput {
    /// The trace's name in messages: its path, or `archive/member`.
    pub fn name(&self) -> String {
        match self {
            TraceInput::File(p) => p.display().to_string(),
            TraceInput::Member { tree, rel } => tree.display(rel),
        }
    }
}

/// The trace-file names a directory or an archive contributes, among `names` (paths).
fn chosen(names: Vec<String>) -> Vec<String> {
    let ends = |n: &str, exts: &[&str]| exts.iter().any(|e| n.to_ascii_lowercase().ends_with(e));
    let dat: Vec<String> = names.iter().filter(|n| ends(n, &[".dat"])).cloned().collect();
    if !dat.is_empty() {
        return dat;
    }
    names.into_iter().filter(|n| ends(n, &[".txt", ".trace"])).collect()
}

/// Every file of `tree` (relative paths, sorted).
fn files_of(tree: &dyn Tree) -> Result<Vec<String>> {
    let mut out = Vec::new();
    archive::tree::walk(tree, &mut |dir| {
        for name in tree.list(dir)? {
            let rel = archive::tree::join(dir, &name);
            if tree.is_file(&rel) {
                out.push(rel);
            }
        }
        Ok(true)
    })?;
    out.sort();
    Ok(out)
}

/// The traces at `path`: the file itself, or what a directory or an archive holds
/// (module docs); an error when a directory or an archive holds none.
pub fn expand(path: &Path, limits: &Limits) -> Result<Vec<TraceInput>> {
    let path = archive::without_trailing_slash(path);
    let meta = std::fs::metadata(path).map_err(|e| Error::io(path, &e))?;
    let name = path.display().to_string();
    let none = || {
        Error::parse(
            Some(&name),
            None,
            "holds no traces (expected *.dat files, or *.txt / *.trace text traces)".to_string(),
        )
    };
    if meta.is_dir() {
        let tree = archive::DirTree::new(path)?;
        let files = chosen(files_of(&tree)?);
        if files.is_empty() {
            return Err(none());
        }
        return Ok(files.into_iter().map(|rel| TraceInput::File(path.join(rel))).collect());
    }
    let mut head = [0u8; 262];
    let n = {
        use std::io::Read;
        let mut f = std::fs::File::open(path).map_err(|e| Error::io(path, &e))?;
        let mut n = 0;
        while let Some(rest) = head.get_mut(n..).filter(|r| !r.is_empty()) {
            match f.read(rest).map_err(|e| Error::io(path, &e))? {
                0 => break,
                k => n += k,
            }
        }
        n
    };
    let head = head.get(..n).unwrap_or_default();
    if crate::tracedat::is_tracedat(head) || archive::kind_of(head).is_none() {
        return Ok(vec![TraceInput::File(path.to_path_buf())]);
    }
    let tree = match archive::kind_of(head) {
        Some(archive::Kind::Zip) => archive::zipfile::read(path, limits)?,
        _ => archive::tarball::read(path, limits)?,
    };
    let tree = Arc::new(tree);
    let files = chosen(files_of(tree.as_ref())?);
    if files.is_empty() {
        return Err(none());
    }
    Ok(files.into_iter().map(|rel| TraceInput::Member { tree: Arc::clone(&tree), rel }).collect())
}

/// The traces of every path of a group, in order.
pub fn expand_all(paths: &[PathBuf], limits: &Limits) -> Result<Vec<TraceInput>> {
    let mut out = Vec::new();
    for p in paths {
        out.extend(expand(p, limits)?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dat_files_first_then_text() {
        let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(chosen(names(&["a/trace.dat", "a/report.txt", "pids.txt"])), ["a/trace.dat"]);
        assert_eq!(chosen(names(&["r1.txt", "r2.trace", "pids"])), ["r1.txt", "r2.trace"]);
    }
}
