//! Finding a commit's result root by a prefix of its hash under a directory, as
//! `lkp ncompare` names commits: the directories `<commit>/` holding a `matrix.json`
//! (or `matrix.json.gz`) anywhere below the directory given.

use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// The deepest directory level searched (lkp's result paths are
/// `<testcase>/<params>/<tbox>/<rootfs>/<kconfig>/<compiler>/<commit>`).
const MAX_DEPTH: usize = 12;

fn walk(dir: &Path, prefix: &str, depth: usize, found: &mut Vec<PathBuf>) -> Result<()> {
    let entries = std::fs::read_dir(dir).map_err(|e| Error::io(dir, &e))?;
    let mut dirs: Vec<PathBuf> = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| Error::io(dir, &e))?;
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            dirs.push(entry.path());
        }
    }
    dirs.sort();
    for d in dirs {
        let name = d.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let is_root = d.join("matrix.json").is_file() || d.join("matrix.json.gz").is_file();
        if is_root && name.to_ascii_lowercase().starts_with(prefix) {
            found.push(d);
        } else if depth < MAX_DEPTH {
            walk(&d, prefix, depth + 1, found)?;
        }
    }
    Ok(())
}

/// The result root under `dir` whose commit directory starts with `prefix` (hex, case
/// ignored, at least 4 characters). None found, or more than one, is an error naming
/// `dir` (and the candidates).
pub fn find_commit_root(dir: &Path, prefix: &str) -> Result<PathBuf> {
    let p = prefix.to_ascii_lowercase();
    if p.len() < 4 || !p.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(Error::domain(format!("'{prefix}' is not a commit prefix (4 or more hex digits)")));
    }
    let mut found = Vec::new();
    walk(dir, &p, 0, &mut found)?;
    match found.len() {
        1 => Ok(found.remove(0)),
        0 => Err(Error::domain(format!(
            "no result root (a directory with matrix.json) for commit {prefix} under {}",
            dir.display()
        ))),
        _ => {
            let list: Vec<String> = found.iter().map(|f| format!("  {}", f.display())).collect();
            Err(Error::domain(format!(
                "commit {prefix} is ambiguous under {}; candidates:\n{}",
                dir.display(),
                list.join("\n")
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn golden() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/lkp/golden")
    }

    #[test]
    fn prefixes_found_missing_and_ambiguous() {
        let a = find_commit_root(&golden().join("scenario_a_raw"), "A07630B8").unwrap();
        assert!(a.ends_with("gcc-7/a07630b8b2c16f82a2d7b5ecfa4a1c0a8e0c5a01"), "{}", a.display());
        let e = find_commit_root(&golden().join("scenario_a_raw"), "abcd").unwrap_err().to_string();
        assert!(e.contains("no result root") && e.contains("scenario_a_raw"), "{e}");
        // scenario_b_edge and scenario_b_edge2 both hold commit 1111…
        let e = find_commit_root(&golden(), "1111").unwrap_err().to_string();
        assert!(
            e.contains("ambiguous") && e.contains("scenario_b_edge/1111") && e.contains("scenario_b_edge2/1111"),
            "{e}"
        );
        assert!(find_commit_root(&golden(), "a07").is_err());
        assert!(find_commit_root(&golden(), "xyz1").is_err());
    }
}
