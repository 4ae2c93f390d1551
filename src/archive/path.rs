//! Entry paths inside archives: normalised, and refused when they could escape.

use crate::error::{Error, Result};

/// Normalise an archive entry name to a relative `a/b/c` path.
///
/// Leading `./` and repeated or trailing `/` are dropped. An absolute path, a
/// Windows drive or backslash path, a `..` component that climbs out of the root,
/// or a NUL byte is refused: those are how archives write outside their
/// directory (`../../etc/passwd`). Returns "" for the root itself.
pub fn normalize(name: &str, archive: &str) -> Result<String> {
    let refuse = |why: &str| Error::parse(Some(archive), None, format!("entry '{name}': {why}"));
    if name.contains('\0') {
        return Err(refuse("NUL byte in the name"));
    }
    if name.starts_with('/') || name.starts_with('\\') {
        return Err(refuse("absolute path"));
    }
    if name.as_bytes().get(1) == Some(&b':') {
        return Err(refuse("drive-letter path"));
    }
    if name.contains('\\') {
        return Err(refuse("backslash in the name"));
    }
    let mut parts: Vec<&str> = Vec::new();
    for comp in name.split('/') {
        match comp {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    return Err(refuse("path escapes the archive root ('..')"));
                }
            }
            c => parts.push(c),
        }
    }
    Ok(parts.join("/"))
}

/// A file entry's [`normalize`]d path, refusing a name that normalises to the archive
/// root itself (`""`, `"."`, `"a/.."`), which can name a directory but not a file.
pub fn file_path(name: &str, archive: &str) -> Result<String> {
    let rel = normalize(name, archive)?;
    if rel.is_empty() {
        return Err(Error::parse(Some(archive), None, format!("entry '{name}': a file entry names the archive root")));
    }
    Ok(rel)
}

/// Resolve a link target relative to the link's directory; None if it escapes.
pub fn resolve_link(link_path: &str, target: &str) -> Option<String> {
    if target.starts_with('/') || target.contains('\0') || target.contains('\\') {
        return None;
    }
    let mut parts: Vec<&str> = link_path.split('/').collect();
    parts.pop(); // the link's own name
    for comp in target.split('/') {
        match comp {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            c => parts.push(c),
        }
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_names() {
        assert_eq!(normalize("./work/log/a.txt", "x.tar").unwrap(), "work/log/a.txt");
        assert_eq!(normalize("work//log/", "x.tar").unwrap(), "work/log");
        assert_eq!(normalize("a/b/../c", "x.tar").unwrap(), "a/c");
    }

    #[test]
    fn escapes_are_refused_with_the_entry_named() {
        let e = normalize("../../etc/passwd", "evil.tar").unwrap_err().to_string();
        assert_eq!(e, "evil.tar: entry '../../etc/passwd': path escapes the archive root ('..')");
        assert!(normalize("/etc/passwd", "e").is_err());
        assert!(normalize("a/../../b", "e").is_err());
        assert!(normalize("C:/x", "e").is_err());
        assert!(normalize("a\\..\\b", "e").is_err());
    }

    #[test]
    fn a_file_cannot_be_the_root() {
        for name in ["", ".", "a/..", "./"] {
            assert_eq!(normalize(name, "x.zip").unwrap(), "");
            let e = file_path(name, "x.zip").unwrap_err().to_string();
            assert_eq!(e, format!("x.zip: entry '{name}': a file entry names the archive root"));
        }
        assert_eq!(file_path("./a/b", "x.zip").unwrap(), "a/b");
    }

    #[test]
    fn links() {
        assert_eq!(resolve_link("a/b/link", "../c").as_deref(), Some("a/c"));
        assert_eq!(resolve_link("a/link", "../../etc/passwd"), None);
        assert_eq!(resolve_link("link", "/etc/passwd"), None);
    }
}
