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
    /// The label to use for `rel` in error messages (`archive.tar.gz/work/log/x`).
    fn display(&self, rel: &str) -> String {
        if rel.is_empty() {
            self.origin().to_string()
        } else {
            format!("{}/{}", self.origin(), rel)
        }
    }
    /// The most bytes a reader may decompress from one file of this tree (a `.gz`
    /// log inside an archive): the archive's per-entry limit, else 1 GiB.
    fn max_file_bytes(&self) -> u64 {
        DEFAULT_MAX_FILE_BYTES
    }
}

/// The per-file bound of a [`Tree`] that sets none (256 MiB, as an archive's entries
/// by default: far above any MMTests log or lkp result file, and what one file may
/// cost in memory before its parser's own structures).
pub const DEFAULT_MAX_FILE_BYTES: u64 = 256 << 20;

/// The bound on one trace file (idle and PELT trace CSVs, ftrace text): 1 GiB.
pub const MAX_TRACE_FILE_BYTES: u64 = 1 << 30;

/// Join a directory and a name into a relative path.
pub fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

/// Deepest directory level [`walk`] descends to (the root is level 0).
pub const WALK_MAX_DEPTH: usize = 16;
/// Most directories [`walk`] visits before refusing the tree.
pub const WALK_MAX_DIRS: usize = 200_000;

/// Visit the directories of `tree` depth first in sorted (bytewise) order, the
/// root ("") first. `visit(rel)` returns whether to descend into `rel`'s
/// subdirectories. Levels below [`WALK_MAX_DEPTH`] are not visited (this also ends
/// symbolic-link loops of a directory on disk); more than [`WALK_MAX_DIRS`]
/// directories is an error naming the tree.
pub fn walk(tree: &dyn Tree, visit: &mut dyn FnMut(&str) -> Result<bool>) -> Result<()> {
    let mut stack: Vec<(String, usize)> = vec![(String::new(), 0)];
    let mut seen = 0usize;
    while let Some((dir, depth)) = stack.pop() {
        seen += 1;
        if seen > WALK_MAX_DIRS {
            return Err(crate::error::Error::parse(
                Some(tree.origin()),
                None,
                format!("more than {WALK_MAX_DIRS} directories; refusing to search it for results"),
            ));
        }
        if !visit(&dir)? || depth >= WALK_MAX_DEPTH {
            continue;
        }
        let Ok(names) = tree.list(&dir) else { continue };
        for name in names.iter().rev() {
            let child = join(&dir, name);
            if tree.is_dir(&child) {
                stack.push((child, depth + 1));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::MemTree;

    #[test]
    fn walk_is_sorted_depth_first_and_can_prune() {
        let mut t = MemTree::new("t");
        for f in ["b/x/f", "a/y/f", "a/z/g", "c"] {
            t.add_file(f, vec![]);
        }
        let mut seen = Vec::new();
        walk(&t, &mut |d: &str| {
            seen.push(d.to_string());
            Ok(d != "a/y")
        })
        .unwrap();
        assert_eq!(seen, ["", "a", "a/y", "a/z", "b", "b/x"]);
    }
}
