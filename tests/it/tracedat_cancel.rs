//! Ctrl-C during a trace.dat import: the record loop shared by the PELT and idle
//! importers (`tracedat::Trace::records`) polls the stop request
//! (src/cancel.rs), so a stop request ends either import with `Error::Interrupted`,
//! and the next import runs normally. The stop is this thread's test hook
//! (`cancel::StopAfter`), so the tests beside it run on. (A trace.dat decodes at ~200 MB/s here, too fast to
//! interrupt from Python on an input the tests can afford: tests/test_hostile_interrupt.py.)

use schedlab::cancel;
use schedlab::error::Error;
use schedlab::idle::ftrace as idle_ftrace;
use schedlab::import_notes::ImportOptions;
use schedlab::pelt::cpu_capacity::Platform;
use schedlab::pelt::ftrace::read_ftrace;
use std::path::Path;

const PELT_DAT: &str = "tests/data/traces/tracedat-6.18/trace-v6.dat";
const IDLE_DAT: &str = "tests/data/traces/lisa-sched_load/trace-zlib.dat";

#[test]
fn a_stop_request_ends_both_trace_dat_imports_and_the_next_runs() {
    let opts = ImportOptions::default();
    let stop = cancel::StopAfter::checks(0);
    let pelt = read_ftrace(Path::new(PELT_DAT), 30985, &Platform::default(), opts);
    let idle = idle_ftrace::read(Path::new(IDLE_DAT), 250, opts);
    drop(stop);
    assert_eq!(pelt.err(), Some(Error::Interrupted));
    assert_eq!(idle.err(), Some(Error::Interrupted));
    // pids.txt: periodic=30985; LISA's Juno trace has six CPUs (tests/it/tracedat_real.rs)
    assert!(!read_ftrace(Path::new(PELT_DAT), 30985, &Platform::default(), opts).unwrap().segments.is_empty());
    assert_eq!(idle_ftrace::read(Path::new(IDLE_DAT), 250, opts).unwrap().cpus.len(), 6);
}
