//! Reading MMTests log files: plain, gzip (`.gz`) and xz (`.xz`), as lines.
//!
//! Logs are read as bytes and split on `\n`; bytes that are not UTF-8 become
//! U+FFFD (the parsers only look for ASCII text, as the Perl does). A file larger
//! than [`MAX_LOG_BYTES`] once decompressed is refused rather than exhausting memory.
//! Files are reached through a [`Tree`] ([`LogDir`]), so a log directory inside a
//! tar or zip archive is read exactly like one on disk.

use crate::archive::{DirTree, Tree};
use crate::error::{Error, Result};
use std::io::Read;
use std::path::{Path, PathBuf};

/// The largest decompressed log schedlab reads (256 MiB, the per-file bound of a tree).
pub const MAX_LOG_BYTES: u64 = crate::archive::tree::DEFAULT_MAX_FILE_BYTES;

/// One log file read as text, remembering its path for error messages. The text is
/// kept whole and [`LogFile::lines`] splits it lazily: a log of many short lines costs
/// its own size, not a string per line.
#[derive(Debug, Clone)]
pub struct LogFile {
    /// Where the lines came from.
    pub path: PathBuf,
    /// The whole text (bytes that are not UTF-8 became U+FFFD).
    pub text: String,
}

impl LogFile {
    /// The lines, without their `\n` (a final `\n` ends the last line, it does not
    /// start an empty one).
    pub fn lines(&self) -> impl Iterator<Item = &str> + Clone + '_ {
        let body = self.text.strip_suffix('\n').unwrap_or(&self.text);
        // "" has no lines (split would give one empty one)
        body.split('\n').take(if self.text.is_empty() { 0 } else { usize::MAX })
    }

    /// The path as text, for error messages.
    pub fn name(&self) -> String {
        self.path.display().to_string()
    }
}

/// Read the log at `rel` of `tree`, decompressing by its extension (`.gz`, `.xz`,
/// else plain), at most `min(MAX_LOG_BYTES, tree.max_file_bytes())` bytes.
pub fn read_log(tree: &dyn Tree, rel: &str) -> Result<LogFile> {
    let shown = tree.display(rel);
    let raw = tree.read(rel)?;
    let name = rel.rsplit('/').next().unwrap_or(rel);
    let max = MAX_LOG_BYTES.min(tree.max_file_bytes());
    let limit = max.saturating_add(1);
    let mut decoded = Vec::new();
    let res = if name.ends_with(".gz") {
        flate2::read::MultiGzDecoder::new(&raw[..]).take(limit).read_to_end(&mut decoded).map(|_| ())
    } else if name.ends_with(".xz") {
        xz2::read::XzDecoder::new_multi_decoder(&raw[..]).take(limit).read_to_end(&mut decoded).map(|_| ())
    } else {
        Ok(())
    };
    res.map_err(|e| Error::parse(Some(&shown), None, format!("cannot read or decompress: {e}")))?;
    let bytes: Vec<u8> = if name.ends_with(".gz") || name.ends_with(".xz") { decoded } else { raw.into_owned() };
    if bytes.len() as u64 > max {
        return Err(Error::parse(
            Some(&shown),
            None,
            format!("log is larger than the limit of {max} bytes once decompressed (decompression bomb?)"),
        ));
    }
    // valid UTF-8 (the usual case) is taken over without a copy
    let text = String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    Ok(LogFile { path: PathBuf::from(shown), text })
}

/// Names of the entries of `dir` (files and directories), sorted bytewise as
/// Perl's `glob` sorts them. A missing directory is an I/O error naming it.
pub fn list_dir(dir: &Path) -> Result<Vec<String>> {
    DirTree::at(dir).list("")
}

/// One log directory (one iteration of one run) inside a [`Tree`]: what an
/// extractor reads.
#[derive(Clone, Copy)]
pub struct LogDir<'a> {
    /// The tree holding the logs.
    pub tree: &'a dyn Tree,
    /// The directory, relative to the tree's root.
    pub rel: &'a str,
}

impl<'a> LogDir<'a> {
    /// The directory `rel` of `tree`.
    pub fn new(tree: &'a dyn Tree, rel: &'a str) -> Self {
        LogDir { tree, rel }
    }

    /// The path of `name` in this directory, relative to the tree's root.
    pub fn join(&self, name: &str) -> String {
        crate::archive::tree::join(self.rel, name)
    }

    /// Entry names of the directory, sorted bytewise (Perl's `glob` order).
    pub fn list(&self) -> Result<Vec<String>> {
        self.tree.list(self.rel)
    }

    /// Read the log `name` of this directory ([`read_log_in`]).
    pub fn read(&self, name: &str) -> Result<LogFile> {
        read_log(self.tree, &self.join(name))
    }

    /// MMTests' `open_log`: `name` without `.gz`/`.xz`, then `<base>.gz`, else `<base>.xz`,
    /// else `<base>`; `None` when none exists (the Perl's handle is then undefined).
    pub fn open_log(&self, name: &str) -> Result<Option<LogFile>> {
        let base = name.strip_suffix(".gz").or_else(|| name.strip_suffix(".xz")).unwrap_or(name);
        for ext in [".gz", ".xz", ""] {
            let c = format!("{base}{ext}");
            if self.is_file(&c) {
                return self.read(&c).map(Some);
            }
        }
        Ok(None)
    }

    /// Whether `name` is a regular file of this directory.
    pub fn is_file(&self, name: &str) -> bool {
        self.tree.is_file(&self.join(name))
    }

    /// The directory as shown in messages.
    pub fn display(&self) -> String {
        self.tree.display(self.rel)
    }
}

/// The names in `names` that start with `prefix` and end with `suffix`, each
/// with the middle part, in the order given (glob `prefix*suffix`).
pub fn glob_middle<'a>(names: &'a [String], prefix: &str, suffix: &str) -> Vec<(&'a str, &'a str)> {
    names.iter().filter_map(|n| Some((n.as_str(), n.strip_prefix(prefix)?.strip_suffix(suffix)?))).collect()
}

/// Sort numerically as Perl's `sort { $a <=> $b }` on strings (numified, stable).
pub fn sort_numeric(v: &mut [String]) {
    v.sort_by(|a, b| crate::order::nan_last(super::perlfmt::numify(a), super::perlfmt::numify(b)));
}

/// The iterations of the files `<prefix>-<I>[-...]<suffix>` among `names`, as a
/// shellpack lists them (`ls <prefix>-*<suffix> | cut -d- -f2 | sort -n`), in numeric order.
pub fn iterations(names: &[String], prefix: &str, suffix: &str) -> Vec<String> {
    let mut v: Vec<String> = names
        .iter()
        .filter_map(|n| n.strip_prefix(prefix)?.strip_prefix('-')?.strip_suffix(suffix))
        .map(|m| m.split('-').next().unwrap_or_default().to_string())
        .collect();
    sort_numeric(&mut v);
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn lines_as_perl_reads_them() {
        let f = |t: &str| {
            LogFile { path: PathBuf::new(), text: t.to_string() }.lines().map(str::to_owned).collect::<Vec<_>>()
        };
        assert!(f("").is_empty());
        assert_eq!(f("a"), ["a"]);
        assert_eq!(f("a\n"), ["a"]);
        assert_eq!(f("a\n\n"), ["a", ""]);
        assert_eq!(f("\n"), [""]);
        assert_eq!(f("a\nb"), ["a", "b"]);
    }

    #[test]
    fn reads_plain_gz_and_xz() {
        let dir = std::env::temp_dir().join(format!("schedlab-logfile-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let text = b"a line\nsecond \xff line\n";
        std::fs::write(dir.join("x.log"), text).unwrap();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(text).unwrap();
        std::fs::write(dir.join("x.log.gz"), gz.finish().unwrap()).unwrap();
        let mut xz = xz2::write::XzEncoder::new(Vec::new(), 1);
        xz.write_all(text).unwrap();
        std::fs::write(dir.join("x.log.xz"), xz.finish().unwrap()).unwrap();
        for n in ["x.log", "x.log.gz", "x.log.xz"] {
            let (t, name) = DirTree::of_file(&dir.join(n));
            let l = read_log(&t, &name).unwrap();
            assert_eq!(l.lines().collect::<Vec<_>>(), ["a line", "second \u{fffd} line"], "{n}");
        }
        std::fs::write(dir.join("bad.gz"), b"not gzip").unwrap();
        let t = DirTree::at(&dir);
        assert!(matches!(read_log(&t, "bad.gz"), Err(Error::Parse { .. })));
        assert!(matches!(read_log(&t, "missing"), Err(Error::Io { not_found: true, .. })));
        let names = list_dir(&dir).unwrap();
        assert_eq!(glob_middle(&names, "x.", ".gz"), vec![("x.log.gz", "log")]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
