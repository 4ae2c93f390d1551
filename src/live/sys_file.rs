//! One kernel file (sysfs, tracefs, procfs) read or written as a recording does it:
//! the text trimmed of surrounding whitespace, a value written whole; every error
//! names the file.

use crate::error::{Error, Result};
use std::path::Path;

/// The text of `path` without leading and trailing whitespace.
pub fn read(path: impl AsRef<Path>) -> Result<String> {
    let path = path.as_ref();
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, &e))?;
    Ok(String::from_utf8_lossy(&bytes).trim().to_string())
}

/// The text of `path` trimmed, or None when the file does not exist.
pub fn read_if_exists(path: impl AsRef<Path>) -> Result<Option<String>> {
    let path = path.as_ref();
    if path.exists() {
        read(path).map(Some)
    } else {
        Ok(None)
    }
}

/// Write `value`'s text to `path` in one `write` (a tracefs or sysfs file takes a
/// value per write).
pub fn write(path: impl AsRef<Path>, value: impl std::fmt::Display) -> Result<()> {
    let path = path.as_ref();
    std::fs::write(path, value.to_string()).map_err(|e| Error::io(path, &e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_trimmed_and_names_a_missing_file() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("current_governor");
        write(&p, "menu\n").unwrap();
        assert_eq!(read(&p).unwrap(), "menu");
        assert_eq!(read_if_exists(d.path().join("none")).unwrap(), None);
        let e = read(d.path().join("none")).unwrap_err();
        assert!(matches!(e, Error::Io { not_found: true, .. }) && e.to_string().contains("none"));
    }
}
