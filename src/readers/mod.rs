//! Readers of the result files benchmark tools write, each to the same tidy rows:
//! one [`Sample`] per measured value, named by its metric, with its unit and the
//! direction the tool implies (docs/readers.md).
//!
//! perf stat (text, `-x` CSV, `-j` JSON), fio JSON, hyperfine JSON,
//! pytest-benchmark JSON, pyperf JSON, google-benchmark JSON, the Phoronix Test
//! Suite's result XML, MMTests' JSON exports and Go's benchmark format;
//! [`Format::detect`] tells them
//! apart by their content, after undoing zstd or xz compression.

pub mod fio;
pub mod format;
pub mod go_bench;
pub mod google_benchmark;
pub mod groups;
pub mod hyperfine;
pub mod json;
pub mod mmtests_json;
pub mod perf_stat_csv;
pub mod perf_stat_json;
pub mod perf_stat_text;
pub mod pts;
pub mod pyperf;
pub mod pytest_benchmark;
pub mod samples;
pub mod started;

pub use format::{Format, FORMAT_NAMES};
pub use samples::{SampleRef, Samples};

use crate::error::{Error, Result};
use crate::table::Direction;
use std::borrow::Cow;

/// One measured value of a metric (an owned copy of a [`SampleRef`]; a file's
/// samples are held as [`Samples`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    /// The metric: a perf event, `job.read.iops`, a hyperfine command, a benchmark name.
    pub metric: String,
    /// The value, in `unit`.
    pub value: f64,
    /// The unit as the tool names it (`msec`, `s`, `ns`, `KiB/s`; empty for a count).
    pub unit: String,
    /// Which way is better, when the tool's field says so (times lower, rates higher).
    pub direction: Direction,
    /// The run or system the file names the value for (a PTS system, an MMTests
    /// kernel); empty when the file is one run.
    pub group: String,
}

/// One result file read: its format, its samples and when it says it was run.
#[derive(Debug, Clone, PartialEq)]
pub struct ResultFile {
    /// The format it was read as.
    pub format: Format,
    /// Its samples, at least one.
    pub samples: Samples,
    /// When the file says the run started ([`started::started`]), if it does.
    pub started: Option<started::Started>,
    /// The configuration every result shares (Go's `key: value` lines; empty for
    /// the other formats), in the order the keys first appear.
    pub config: Vec<(String, String)>,
    /// The units the file marks exact (Go's `Unit U assume=exact`; empty for the
    /// other formats).
    pub exact_units: Vec<String>,
}

/// The text of a result file's `bytes`: zstd or xz undone, then UTF-8; None when
/// the bytes are not UTF-8 text (the line of the first bad byte with it).
pub fn text_of<'a>(bytes: &'a [u8], path: Option<&str>) -> Result<std::result::Result<Cow<'a, str>, usize>> {
    let line_of = |b: &[u8], at: usize| b.get(..at).map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count()) + 1;
    Ok(match decompress(bytes, path)? {
        Some(d) => {
            String::from_utf8(d).map(Cow::Owned).map_err(|e| line_of(e.as_bytes(), e.utf8_error().valid_up_to()))
        }
        None => std::str::from_utf8(bytes).map(Cow::Borrowed).map_err(|e| line_of(bytes, e.valid_up_to())),
    })
}

/// The result file `text` in `format`, detected from the content when `None`
/// (then `Ok(None)` for a text no reader recognises); `path` names it in errors.
/// A file without any measured value is [`Error::InsufficientData`].
pub fn parse_text(text: &str, path: Option<&str>, format: Option<Format>) -> Result<Option<ResultFile>> {
    let Some(format) = format.or_else(|| Format::detect(text)) else { return Ok(None) };
    let mut info = go_bench::GoInfo::default();
    let mut samples = match format {
        Format::PerfStatText => perf_stat_text::parse(text, path)?,
        Format::PerfStatCsv => perf_stat_csv::parse(text, path)?,
        Format::PerfStatJson => perf_stat_json::parse(text, path)?,
        Format::Fio => fio::parse(text, path)?,
        Format::Hyperfine => hyperfine::parse(text, path)?,
        Format::PytestBenchmark => pytest_benchmark::parse(text, path)?,
        Format::Pyperf => pyperf::parse(text, path)?,
        Format::GoogleBenchmark => google_benchmark::parse(text, path)?,
        Format::Pts => pts::parse(text, path)?,
        Format::MmtestsJson => mmtests_json::parse(text, path)?,
        Format::GoBench => {
            let (s, i) = go_bench::parse(text, path)?;
            info = i;
            s
        }
    };
    if samples.is_empty() {
        return Err(Error::insufficient(format!(
            "{}: no measured value in this {} file",
            path.unwrap_or("<input>"),
            format.name()
        )));
    }
    samples.reconcile_units(path.unwrap_or("<input>"))?;
    samples.shrink_to_fit();
    Ok(Some(ResultFile {
        format,
        samples,
        started: started::started(text, format),
        config: info.config,
        exact_units: info.exact_units,
    }))
}

/// The samples of `bytes` in `format` (detected from the content when `None`);
/// `path` names the input in errors.
pub fn read(bytes: &[u8], path: Option<&str>, format: Option<Format>) -> Result<Vec<Sample>> {
    read_columns(bytes, path, format).map(|s| s.to_vec())
}

/// [`read`], the samples as columns.
pub fn read_columns(bytes: &[u8], path: Option<&str>, format: Option<Format>) -> Result<Samples> {
    let text = text_of(bytes, path)?.map_err(|line| Error::parse(path, Some(line), "not UTF-8 text"))?;
    match parse_text(&text, path, format)? {
        Some(r) => Ok(r.samples),
        None => Err(Error::parse(
            path,
            None,
            format!("not a result file schedlab recognises (expected one of: {})", FORMAT_NAMES.join(", ")),
        )),
    }
}

/// The largest result file read, compressed or not.
const LIMIT: u64 = 256 << 20;

/// `bytes` decompressed when they start as a zstd or xz stream (MMTests compresses
/// its JSON exports with one or the other), else `None`; at most [`LIMIT`] bytes.
fn decompress(bytes: &[u8], path: Option<&str>) -> Result<Option<Vec<u8>>> {
    use std::io::Read;
    let reader: Box<dyn Read + '_> = if bytes.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        Box::new(zstd::stream::read::Decoder::new(bytes).map_err(|e| Error::parse(path, None, format!("zstd: {e}")))?)
    } else if bytes.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0]) {
        Box::new(xz2::read::XzDecoder::new_multi_decoder(bytes))
    } else {
        return Ok(None);
    };
    let mut out = Vec::new();
    reader
        .take(LIMIT + 1)
        .read_to_end(&mut out)
        .map_err(|e| Error::parse(path, None, format!("not a whole compressed stream: {e}")))?;
    if out.len() as u64 > LIMIT {
        return Err(Error::parse(path, None, format!("larger than {LIMIT} bytes once decompressed")));
    }
    Ok(Some(out))
}

/// [`read`] of the file at `path` (at most 256 MiB).
pub fn read_file(path: &std::path::Path, format: Option<Format>) -> Result<Vec<Sample>> {
    read_file_columns(path, format).map(|s| s.to_vec())
}

/// The bytes of the file at `path` (at most [`LIMIT`]).
pub(crate) fn read_bytes(path: &std::path::Path) -> Result<Vec<u8>> {
    use std::io::Read;
    let f = std::fs::File::open(path).map_err(|e| Error::io(path, &e))?;
    let mut bytes = Vec::new();
    f.take(LIMIT + 1).read_to_end(&mut bytes).map_err(|e| Error::io(path, &e))?;
    if bytes.len() as u64 > LIMIT {
        return Err(Error::parse(Some(&path.display().to_string()), None, format!("larger than {LIMIT} bytes")));
    }
    Ok(bytes)
}

/// [`read_file`], the samples as columns.
pub fn read_file_columns(path: &std::path::Path, format: Option<Format>) -> Result<Samples> {
    let bytes = read_bytes(path)?;
    read_columns(&bytes, Some(&path.display().to_string()), format)
}
