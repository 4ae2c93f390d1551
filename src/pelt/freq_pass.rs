//! The frequency events of a trace.dat summarised before its import (docs/pelt.md §5.6):
//! each CPU id's first `cpu_frequency` event or `cpu_frequency_devlib` snapshot and its
//! highest frequency ([`FreqSummary`]), read one CPU buffer after the other rather than
//! merged by time, and only the `cpu_frequency` and `print` records decoded: the pass
//! costs a scan of the pages, not a second import.
//!
//! The merged order of the records is by timestamp, ties to the buffer the header lists
//! first, each buffer's records in their own order — when every buffer is in time order.
//! So each CPU id's first event is its earliest, ties to the earlier buffer, and the
//! first events are summarised in that order. A buffer whose timestamps go backwards
//! makes the merged order something else: the pass then stops and says so (`None`), and
//! the caller reads the merged records instead.

// Parsers of untrusted bytes: no unwrap, expect, indexing or string slicing that can panic on input.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

use super::cpu_capacity::{FreqEvent, FreqSummary};
use crate::error::Result;
use crate::tracedat::decode::{Decoder, Event};
use crate::tracedat::Trace;
use std::collections::HashMap;

/// The frequency summary of `trace`, `None` when a CPU buffer's timestamps go backwards
/// (the merged order is not the per-buffer one: read the merged records then). The
/// events' `line` is 0: a per-buffer pass has no merged record number, and a summary's
/// users read its events' time, CPU, frequency and kind.
pub fn tracedat_frequencies(trace: &Trace<'_>) -> Result<Option<FreqSummary>> {
    let decoder = Decoder::new(&trace.header.formats, &["cpu_frequency", "print"]);
    // by cpu id: the first event with its (buffer, place in it), and the highest kHz
    let mut first: HashMap<u32, (FreqEvent, usize, usize)> = HashMap::new();
    let mut max: HashMap<u32, u64> = HashMap::new();
    let mut prev: Option<(usize, u64)> = None;
    let mut in_order = true;
    trace.records_per_buffer(|buffer, place, ts, data| {
        if prev.is_some_and(|(b, t)| b == buffer && ts < t) {
            in_order = false;
            return Ok(false);
        }
        prev = Some((buffer, ts));
        // an unreadable record is the import's to report; this pass only collects
        let Ok(Some(Event::CpuFrequency { state, cpu_id, snapshot })) = decoder.decode(data) else { return Ok(true) };
        let Ok(cpu) = u32::try_from(cpu_id) else { return Ok(true) };
        let e = FreqEvent { ts, line: 0, cpu, khz: state, snapshot };
        let m = max.entry(cpu).or_insert(state);
        *m = (*m).max(state);
        // buffers are read in the header's order: an equal time in a later one is later
        match first.get(&cpu) {
            Some((f, _, _)) if f.ts <= ts => {}
            _ => {
                first.insert(cpu, (e, buffer, place));
            }
        }
        Ok(true)
    })?;
    if !in_order {
        return Ok(None);
    }
    let mut firsts: Vec<(FreqEvent, usize, usize)> = first.into_values().collect();
    firsts.sort_by_key(|&(e, buffer, place)| (e.ts, buffer, place));
    let mut summary = FreqSummary::default();
    for (e, _, _) in &firsts {
        summary.add(e);
    }
    // every id has its first event now: these only raise its maximum
    for (e, _, _) in &firsts {
        if let Some(&khz) = max.get(&e.cpu) {
            summary.add(&FreqEvent { khz, ..*e });
        }
    }
    Ok(Some(summary))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import_notes::{ImportNotes, ImportOptions};
    use crate::pelt::task_events::{read_tracedat, Detail, TaskEvent};

    /// The summary of the merged records (every record decoded, the CPUs merged by
    /// time), with the events' record numbers dropped as the per-buffer pass has none.
    fn merged(trace: &Trace<'_>) -> FreqSummary {
        let mut s = FreqSummary::default();
        let mut notes = ImportNotes::default();
        read_tracedat(trace, 0, Detail::Segments, None, ImportOptions::default(), &mut notes, &mut |e| {
            if let TaskEvent::Frequency(f) = e.event {
                s.add(&FreqEvent { line: 0, ..f });
            }
            Ok(())
        })
        .unwrap();
        s
    }

    #[test]
    fn the_per_buffer_pass_finds_what_the_merged_records_give() {
        // real recordings with cpu_frequency events or devlib snapshots: LISA's Juno
        // trace (zstd and zlib, version 7), this machine's 6.18 ones (version 6)
        for f in [
            "tests/data/traces/lisa-sched_load/trace-zstd.dat",
            "tests/data/traces/lisa-sched_load/trace-zlib.dat",
            "tests/data/traces/tracedat-6.18/trace-v6.dat",
            "tests/data/traces/lost-overwrite-6.18/trace-v6.dat",
        ] {
            let bytes = std::fs::read(f).unwrap();
            let slice = bytes.as_slice();
            let trace = Trace::open(&slice, Some(f)).unwrap();
            let want = merged(&trace);
            assert_eq!(tracedat_frequencies(&trace).unwrap(), Some(want.clone()), "{f}");
            if f.contains("lisa") {
                assert!(!want.is_empty(), "{f}: the Juno trace has frequency events");
            }
        }
    }
}
