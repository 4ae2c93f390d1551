//! trace.dat files (trace-cmd's binary format).

use super::common::{bounded, parse_error};
use schedlab::tracedat;

/// [`tracedat::to_text`]: an error is a parse error naming the file; the text is bounded
/// by the input and every line reads back as an event line (`[CPU] S.NNNNNNNNN: name:`).
pub fn tracedat(data: &[u8]) {
    match tracedat::to_text(data, Some("trace.dat"), &[]) {
        Ok(text) => {
            bounded(text.len(), data.len(), "trace.dat text");
            for line in text.lines() {
                let (_, rest) = line.split_once("] ").unwrap_or_else(|| panic!("no CPU in '{line}'"));
                let ts = rest.split(": ").next().unwrap_or("");
                let (s, ns) = ts.split_once('.').unwrap_or_else(|| panic!("no timestamp in '{line}'"));
                assert!(s.parse::<u64>().is_ok() && ns.len() == 9, "bad timestamp in '{line}'");
            }
        }
        Err(e) => parse_error(&e, Some("trace.dat"), 0),
    }
}
