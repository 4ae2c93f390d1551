//! The result file formats the readers know, by name and by content.

use crate::error::{Error, Result};

/// A result file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `perf stat` as it prints to a terminal.
    PerfStatText,
    /// `perf stat -x SEP` (CSV; with `-I`, one line per interval).
    PerfStatCsv,
    /// `perf stat -j` (one JSON object a line).
    PerfStatJson,
    /// `fio --output-format=json`.
    Fio,
    /// `hyperfine --export-json`.
    Hyperfine,
    /// `pytest --benchmark-json` (pytest-benchmark).
    PytestBenchmark,
    /// pyperf's JSON (`python -m pyperf ... -o FILE`).
    Pyperf,
    /// `--benchmark_out_format=json` of google-benchmark.
    GoogleBenchmark,
    /// The Phoronix Test Suite's result file (`composite.xml`).
    Pts,
    /// MMTests' JSON exports (`extract-mmtests.pl --print-json`, `compare-mmtests.pl --json-export`).
    MmtestsJson,
    /// Go's benchmark format (`go test -bench` output, what benchstat reads).
    GoBench,
}

/// The format names, as [`Format::parse`] takes them.
pub const FORMAT_NAMES: [&str; 11] = [
    "perf-stat",
    "perf-stat-csv",
    "perf-stat-json",
    "fio",
    "hyperfine",
    "pytest-benchmark",
    "pyperf",
    "google-benchmark",
    "pts",
    "mmtests-json",
    "go-bench",
];

const ALL: [Format; 11] = [
    Format::PerfStatText,
    Format::PerfStatCsv,
    Format::PerfStatJson,
    Format::Fio,
    Format::Hyperfine,
    Format::PytestBenchmark,
    Format::Pyperf,
    Format::GoogleBenchmark,
    Format::Pts,
    Format::MmtestsJson,
    Format::GoBench,
];

impl Format {
    /// The format's name (one of [`FORMAT_NAMES`]).
    pub fn name(self) -> &'static str {
        let i = ALL.iter().position(|&f| f == self).unwrap_or(0);
        FORMAT_NAMES.get(i).copied().unwrap_or("perf-stat")
    }

    /// The format named `s`.
    pub fn parse(s: &str) -> Result<Self> {
        FORMAT_NAMES
            .iter()
            .position(|&n| n == s)
            .and_then(|i| ALL.get(i).copied())
            .ok_or_else(|| Error::domain(format!("unknown result format '{s}' (known: {})", FORMAT_NAMES.join(", "))))
    }

    /// The format of `text`, from what each tool writes first or always.
    pub fn detect(text: &str) -> Option<Self> {
        let head: String = text.chars().take(4096).collect();
        if head.contains("\"fio version\"") {
            return Some(Format::Fio);
        }
        if head.contains("\"counter-value\"") {
            return Some(Format::PerfStatJson);
        }
        if head.contains("Performance counter stats for") {
            return Some(Format::PerfStatText);
        }
        if head.contains("<PhoronixTestSuite>") {
            return Some(Format::Pts);
        }
        // Perl's JSON writer, compact: the modules' fields all start with '_'
        let compact: String = head.chars().filter(|c| !c.is_whitespace()).take(4).collect();
        if compact.starts_with("{\"_") || compact.starts_with("[{\"_") {
            return Some(Format::MmtestsJson);
        }
        if head.trim_start().starts_with('{') {
            if head.contains("\"machine_info\"") {
                return Some(Format::PytestBenchmark);
            }
            if head.contains("\"context\"") && head.contains("\"benchmarks\"") {
                return Some(Format::GoogleBenchmark);
            }
            if head.contains("\"results\"") && head.contains("\"command\"") {
                return Some(Format::Hyperfine);
            }
            if head.contains("\"benchmarks\"") && head.contains("\"runs\"") {
                return Some(Format::Pyperf);
            }
            return None;
        }
        if head.lines().any(super::go_bench::is_result_line) {
            return Some(Format::GoBench);
        }
        let first = head.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with('#'))?;
        let looks_csv = first.starts_with(|c: char| c.is_ascii_digit() || c == '<') && first.contains([',', ';', '\t']);
        looks_csv.then_some(Format::PerfStatCsv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for f in ALL {
            assert_eq!(Format::parse(f.name()).unwrap(), f);
        }
        assert!(Format::parse("csv").is_err());
    }
}
