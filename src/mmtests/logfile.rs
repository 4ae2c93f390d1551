//! Reading MMTests log files: plain, gzip (`.gz`) and xz (`.xz`), as lines.
//!
//! Logs are read as bytes and split on `\n`; bytes that are not UTF-8 become
//! U+FFFD (the parsers only look for ASCII text, as the Perl does). A file larger
//! than [`MAX_LOG_BYTES`] once decompressed is refused rather than exhausting memory.

use crate::error::{Error, Result};
use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

/// The largest decompressed log schedlab reads (1 GiB).
pub const MAX_LOG_BYTES: u64 = 1 << 30;

/// One log file read into lines, remembering its path for error messages.
#[derive(Debug, Clone)]
pub struct LogFile {
    /// Where the lines came from.
    pub path: PathBuf,
    /// The lines, without their `\n`.
    pub lines: Vec<String>,
}

impl LogFile {
    /// The path as text, for error messages.
    pub fn name(&self) -> String {
        self.path.display().to_string()
    }
}

/// Read `path`, decompressing by its extension (`.gz`, `.xz`, else plain).
pub fn read_log(path: &Path) -> Result<LogFile> {
    let file = File::open(path).map_err(|e| Error::io(path, &e))?;
    let reader = BufReader::new(file);
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let mut bytes = Vec::new();
    let limit = MAX_LOG_BYTES + 1;
    let res = if name.ends_with(".gz") {
        flate2::read::MultiGzDecoder::new(reader).take(limit).read_to_end(&mut bytes)
    } else if name.ends_with(".xz") {
        xz2::read::XzDecoder::new_multi_decoder(reader).take(limit).read_to_end(&mut bytes)
    } else {
        reader.take(limit).read_to_end(&mut bytes)
    };
    res.map_err(|e| Error::parse(Some(&path.display().to_string()), None, format!("cannot read or decompress: {e}")))?;
    if bytes.len() as u64 > MAX_LOG_BYTES {
        return Err(Error::parse(
            Some(&path.display().to_string()),
            None,
            format!("log is larger than {MAX_LOG_BYTES} bytes once decompressed"),
        ));
    }
    let text = String::from_utf8_lossy(&bytes);
    let mut lines: Vec<String> = text.split('\n').map(str::to_owned).collect();
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    Ok(LogFile { path: path.to_path_buf(), lines })
}

/// Names of the entries of `dir` (files and directories), sorted bytewise as
/// Perl's `glob` sorts them. A missing directory is an I/O error naming it.
pub fn list_dir(dir: &Path) -> Result<Vec<String>> {
    let rd = std::fs::read_dir(dir).map_err(|e| Error::io(dir, &e))?;
    let mut names = Vec::new();
    for ent in rd {
        let ent = ent.map_err(|e| Error::io(dir, &e))?;
        if let Some(n) = ent.file_name().to_str() {
            names.push(n.to_string());
        }
    }
    names.sort();
    Ok(names)
}

/// The names in `names` that start with `prefix` and end with `suffix`, each
/// with the middle part, in the order given (glob `prefix*suffix`).
pub fn glob_middle<'a>(names: &'a [String], prefix: &str, suffix: &str) -> Vec<(&'a str, &'a str)> {
    names
        .iter()
        .filter(|n| n.len() >= prefix.len() + suffix.len() && n.starts_with(prefix) && n.ends_with(suffix))
        .map(|n| (n.as_str(), &n[prefix.len()..n.len() - suffix.len()]))
        .collect()
}

/// Sort numerically as Perl's `sort { $a <=> $b }` on strings (numified, stable).
pub fn sort_numeric(v: &mut [String]) {
    v.sort_by(|a, b| {
        super::perlfmt::numify(a).partial_cmp(&super::perlfmt::numify(b)).unwrap_or(std::cmp::Ordering::Equal)
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

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
            let l = read_log(&dir.join(n)).unwrap();
            assert_eq!(l.lines, vec!["a line".to_string(), "second \u{fffd} line".to_string()], "{n}");
        }
        std::fs::write(dir.join("bad.gz"), b"not gzip").unwrap();
        assert!(matches!(read_log(&dir.join("bad.gz")), Err(Error::Parse { .. })));
        assert!(matches!(read_log(&dir.join("missing")), Err(Error::Io { not_found: true, .. })));
        let names = list_dir(&dir).unwrap();
        assert_eq!(glob_middle(&names, "x.", ".gz"), vec![("x.log.gz", "log")]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
