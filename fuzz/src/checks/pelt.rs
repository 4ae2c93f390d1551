//! PELT task traces: the trace CSV and ftrace text.

use super::common::{bounded, line_count, parse_error};
use schedlab::import_notes::ImportOptions;
use schedlab::pelt::cpu_capacity::Platform;
use schedlab::pelt::driver::{count_rows, simulate_rows, Config};
use schedlab::pelt::ftrace::task_trace_from_ftrace;
use schedlab::pelt::trace::{parse_trace_csv, validate, Segment};

/// Most rows a target lets the driver compute (one per tick and event).
const MAX_ROWS: u64 = 20_000;

fn to_csv(segs: &[Segment]) -> String {
    // the `tick` column only when the reader marked ticks (a file with it gives its own)
    let ticks = segs.iter().any(|g| g.tick);
    let mut s = String::from(if ticks {
        "dur_ns,state,cpu_cap,freq_cap,cpu,tick\n"
    } else {
        "dur_ns,state,cpu_cap,freq_cap,cpu\n"
    });
    for g in segs {
        s.push_str(&format!("{},{},{},{},{}", g.dur_ns, g.state.letter(), g.cpu_cap, g.freq_cap, g.cpu));
        s.push_str(if !ticks {
            "\n"
        } else if g.tick {
            ",1\n"
        } else {
            ",0\n"
        });
    }
    s
}

/// A trace the readers accepted: valid for the driver, written as CSV it reads back
/// equal, and (when short enough) the driver replays it with monotonic time.
pub(crate) fn accepted(segs: &[Segment]) {
    validate(segs).unwrap_or_else(|e| panic!("a reader produced a trace the driver refuses: {e}"));
    let csv = to_csv(segs);
    let back =
        parse_trace_csv(csv.as_bytes(), None).unwrap_or_else(|e| panic!("trace CSV does not read back: {e}\n{csv}"));
    // the CSV has no column for the old runqueue's sync lag (an importer's finding)
    let plain: Vec<Segment> = segs.iter().map(|s| Segment { sync_lag_ns: None, ..*s }).collect();
    assert_eq!(back, plain);
    let cfg = Config::default();
    if count_rows(segs, &cfg) <= MAX_ROWS {
        let rows = simulate_rows(segs, &cfg).unwrap_or_else(|e| panic!("the driver refused a valid trace: {e}"));
        assert!(rows.windows(2).all(|w| w[0].t_ns <= w[1].t_ns), "time goes backwards");
    }
}

/// [`parse_trace_csv`]: errors name file, line and column; accepted traces are valid.
pub fn trace(data: &[u8]) {
    match parse_trace_csv(data, Some("task.csv")) {
        Ok(segs) => {
            bounded(segs.len() * 8, data.len(), "segments");
            accepted(&segs);
        }
        Err(e) => parse_error(&e, Some("task.csv"), line_count(data)),
    }
}

/// [`task_trace_from_ftrace`] for pid 42 (the seeds' task) or, when the input's
/// first line is `pid N`, pid N: errors name file and line; the trace is valid.
pub fn ftrace(data: &[u8]) {
    let pid = data
        .strip_prefix(b"pid ")
        .and_then(|r| r.split(|&b| b == b'\n').next())
        .and_then(|p| std::str::from_utf8(p).ok()?.trim().parse().ok())
        .unwrap_or(42);
    match task_trace_from_ftrace(
        data,
        pid,
        &Platform::default(),
        Some("trace.txt"),
        ImportOptions { strict: true, sort: false },
    ) {
        Ok(t) => {
            bounded(t.segments.len() * 8, data.len(), "segments");
            accepted(&t.segments);
        }
        Err(e) => parse_error(&e, Some("trace.txt"), line_count(data)),
    }
}
