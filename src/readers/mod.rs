//! Readers of the result files benchmark tools write, each to the same tidy rows:
//! one [`Sample`] per measured value, named by its metric, with its unit and the
//! direction the tool implies (docs/readers.md).
//!
//! perf stat (text, `-x` CSV, `-j` JSON), fio JSON, hyperfine JSON,
//! pytest-benchmark JSON, pyperf JSON and google-benchmark JSON; [`Format::detect`]
//! tells them apart by their content.

pub mod fio;
pub mod format;
pub mod google_benchmark;
pub mod hyperfine;
pub mod json;
pub mod perf_stat_csv;
pub mod perf_stat_json;
pub mod perf_stat_text;
pub mod pyperf;
pub mod pytest_benchmark;

pub use format::{Format, FORMAT_NAMES};

use crate::error::{Error, Result};
use crate::table::Direction;

/// One measured value of a metric.
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
}

impl Sample {
    fn new(metric: impl Into<String>, value: f64, unit: impl Into<String>, direction: Direction) -> Self {
        Sample { metric: metric.into(), value, unit: unit.into(), direction }
    }
}

/// The samples of `bytes` in `format` (detected from the content when `None`);
/// `path` names the input in errors.
pub fn read(bytes: &[u8], path: Option<&str>, format: Option<Format>) -> Result<Vec<Sample>> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let line = bytes.get(..e.valid_up_to()).map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count()) + 1;
        Error::parse(path, Some(line), "not UTF-8 text")
    })?;
    let format = match format {
        Some(f) => f,
        None => Format::detect(text).ok_or_else(|| {
            Error::parse(
                path,
                None,
                format!("not a result file schedlab recognises (expected one of: {})", FORMAT_NAMES.join(", ")),
            )
        })?,
    };
    let samples = match format {
        Format::PerfStatText => perf_stat_text::parse(text, path)?,
        Format::PerfStatCsv => perf_stat_csv::parse(text, path)?,
        Format::PerfStatJson => perf_stat_json::parse(text, path)?,
        Format::Fio => fio::parse(text, path)?,
        Format::Hyperfine => hyperfine::parse(text, path)?,
        Format::PytestBenchmark => pytest_benchmark::parse(text, path)?,
        Format::Pyperf => pyperf::parse(text, path)?,
        Format::GoogleBenchmark => google_benchmark::parse(text, path)?,
    };
    if samples.is_empty() {
        return Err(Error::insufficient(format!(
            "{}: no measured value in this {} file",
            path.unwrap_or("<input>"),
            format.name()
        )));
    }
    Ok(samples)
}

/// [`read`] of the file at `path` (at most 256 MiB).
pub fn read_file(path: &std::path::Path, format: Option<Format>) -> Result<Vec<Sample>> {
    use std::io::Read;
    const LIMIT: u64 = 256 << 20;
    let name = path.display().to_string();
    let f = std::fs::File::open(path).map_err(|e| Error::io(path, &e))?;
    let mut bytes = Vec::new();
    f.take(LIMIT + 1).read_to_end(&mut bytes).map_err(|e| Error::io(path, &e))?;
    if bytes.len() as u64 > LIMIT {
        return Err(Error::parse(Some(&name), None, format!("larger than {LIMIT} bytes")));
    }
    read(&bytes, Some(&name), format)
}
