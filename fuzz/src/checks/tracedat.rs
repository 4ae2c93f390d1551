//! trace.dat files (trace-cmd's binary format, versions 6 and 7).

use super::common::{bounded, parse_error};
use schedlab::idle::ftrace as idle_ftrace;
use schedlab::import_notes::ImportOptions;
use schedlab::pelt::cpu_capacity::Platform;
use schedlab::pelt::ftrace::task_trace_from_ftrace;
use schedlab::tracedat::decode::{Decoder, Event};
use schedlab::tracedat::Trace;

const PATH: Option<&str> = Some("trace.dat");

/// [`Trace::open`] and [`Trace::records`] with every event decoded, then both importers
/// on the same bytes: an error is a parse error naming the file (at a record number that
/// exists, when it names one); records are numbered 1, 2, ... and each fits in a page;
/// what the importers return passes the strict checks of their results.
pub fn tracedat(data: &[u8]) {
    let t = match Trace::open(&data, PATH) {
        Ok(t) => t,
        Err(e) => return parse_error(&e, PATH, 0),
    };
    let all = ["sched_switch", "sched_wakeup", "sched_wakeup_new", "cpu_idle", "hrtimer_start", "hrtimer_cancel"];
    let decoder = Decoder::new(&t.header.formats, &[&all[..], &["hrtimer_expire_entry", "tick_stop"]].concat());
    let mut n = 0;
    let mut pid = None;
    let read = t.records(|r| {
        n += 1;
        assert_eq!(r.number, n, "records out of sequence");
        assert!(
            r.data.len() <= t.header.page_size,
            "a record of {} bytes in a page of {}",
            r.data.len(),
            t.header.page_size
        );
        if let Ok(Some(Event::Switch { next_pid, .. })) = decoder.decode(r.data) {
            pid = pid.or(u32::try_from(next_pid).ok());
        }
        Ok(())
    });
    if let Err(e) = read {
        return parse_error(&e, PATH, n);
    }
    let strict = ImportOptions { strict: true, sort: false };
    match task_trace_from_ftrace(data, pid.unwrap_or(42), &Platform::default(), PATH, strict) {
        Ok(t) => {
            bounded(t.segments.len(), n, "segments of a task");
            super::pelt::accepted(&t.segments);
        }
        Err(e) => parse_error(&e, PATH, n),
    }
    match idle_ftrace::parse(data, PATH, 250, strict) {
        Ok(import) => {
            bounded(import.cpus.iter().map(|c| c.periods.len()).sum(), n, "idle periods");
            super::idle::accepted(&import.cpus);
        }
        Err(e) => parse_error(&e, PATH, n),
    }
}
