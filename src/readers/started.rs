//! When a result file says its run started: perf stat's `# started on` header
//! (written with `-o FILE`, in the machine's local time without a zone) and fio's
//! `timestamp` (seconds since the epoch). The other formats name no date
//! (docs/readers.md §9).

// Parsers of untrusted bytes: no unwrap, expect, indexing or string slicing that can panic on input.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

use super::Format;
use crate::lkp::stats::parsers::days_from_civil;

/// A run's start as a file gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Started {
    /// Seconds since 1970-01-01 00:00 (perf's local time is counted as if it were UTC).
    pub seconds: i64,
    /// Where the date came from, as messages name it.
    pub source: &'static str,
}

/// What perf stat's header date is called in messages.
pub const PERF_SOURCE: &str = "perf stat's '# started on' date";
/// What fio's date is called in messages.
pub const FIO_SOURCE: &str = "fio's 'timestamp'";

/// The start of the earliest run `text` (a file in `format`) records, if it records one.
pub fn started(text: &str, format: Format) -> Option<Started> {
    let seconds = match format {
        Format::PerfStatText | Format::PerfStatCsv | Format::PerfStatJson => {
            text.lines().filter_map(|l| l.trim().strip_prefix("# started on ")).filter_map(ctime).min()?
        }
        Format::Fio => fio_timestamp(text)?,
        _ => return None,
    };
    let source = if format == Format::Fio { FIO_SOURCE } else { PERF_SOURCE };
    Some(Started { seconds, source })
}

const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/// C's `ctime` layout, `Wed Dec  2 01:42:45 2026`, as seconds.
fn ctime(s: &str) -> Option<i64> {
    let f: Vec<&str> = s.split_whitespace().collect();
    let [_, month, day, time, year] = f.as_slice() else { return None };
    let m = MONTHS.iter().position(|n| n == month)? as i64 + 1;
    let d: i64 = day.parse().ok().filter(|d| (1..=31).contains(d))?;
    let y: i64 = year.parse().ok()?;
    let hms: Vec<i64> = time.split(':').map(|p| p.parse().ok()).collect::<Option<_>>()?;
    let [h, mi, sec] = hms.as_slice() else { return None };
    if !(0..24).contains(h) || !(0..60).contains(mi) || !(0..=60).contains(sec) {
        return None;
    }
    Some(days_from_civil(y, m, d) * 86400 + h * 3600 + mi * 60 + sec)
}

/// fio's top-level `"timestamp" : N` (it comes before the jobs, whose own fields
/// are `job_runtime`, `elapsed`, ...).
fn fio_timestamp(text: &str) -> Option<i64> {
    let at = text.find("\"timestamp\"")?;
    let rest = text.get(at + "\"timestamp\"".len()..)?.trim_start().strip_prefix(':')?.trim_start();
    let digits: &str = rest.get(..rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len()))?;
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perf_header_date() {
        // 2026-12-02 01:42:45: 20789 days after 1970-01-01 (by hand: 56 years with 14 leap
        // days = 20454, then Jan..Nov 2026 = 334 days, then the 1st of December)
        let t = "# started on Wed Dec  2 01:42:45 2026\n\n1.41,msec,task-clock,1,100.00,,\n";
        let s = started(t, Format::PerfStatCsv).unwrap();
        assert_eq!(s.seconds, 20789 * 86400 + 3600 + 42 * 60 + 45);
        assert_eq!(s.source, PERF_SOURCE);
        // the earliest of appended runs
        let two = "# started on Wed Dec  2 01:42:46 2026\n# started on Wed Dec  2 01:42:45 2026\n";
        assert_eq!(started(two, Format::PerfStatCsv).unwrap().seconds, s.seconds);
        assert!(started("# started on Wed Foo  2 01:42:45 2026\n", Format::PerfStatCsv).is_none());
        assert!(started("1.41,msec,task-clock\n", Format::PerfStatCsv).is_none());
    }

    #[test]
    fn fio_and_formats_without_a_date() {
        let t = "{\n  \"fio version\" : \"fio-3.41\",\n  \"timestamp\" : 1796145552,\n  \"timestamp_ms\" : 1}";
        assert_eq!(started(t, Format::Fio).unwrap().seconds, 1796145552);
        assert!(started("{\"results\": []}", Format::Hyperfine).is_none());
    }
}
