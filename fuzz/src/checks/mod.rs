//! One function per fuzz target. Each takes the fuzzer's bytes, runs one entry
//! point that reads bytes, and asserts more than "no crash":
//!
//! - an `Err` is the typed [`schedlab::Error`] a caller can act on: a `Parse` error
//!   naming the input (path) and, where it gives a line, a line that exists
//!   ([`common::parse_error`]); never `Internal` (a caught panic);
//! - the table formats survive parse → render → parse with the same data, and the
//!   second rendering is byte-identical to the first ([`tables`]);
//! - readers whose output feeds a simulator or a statistic only ever produce values
//!   that the strict checker of that input accepts ([`idle`], [`pelt`]);
//! - outputs are bounded by the input (no allocation driven by a number read from it).
//!
//! Infinite loops are caught by libFuzzer's `-timeout`; memory blow-ups by `-rss_limit_mb`
//! and `-malloc_limit_mb` (see fuzz/README.md).

pub mod archive;
pub mod common;
pub mod idle;
pub mod lkp;
pub mod mmtests;
pub mod pelt;
pub mod readers;
pub mod stats;
pub mod tables;
pub mod tracedat;
pub mod tree;

/// Every target: (name, body). The fuzz_targets/<name>.rs binaries call the body;
/// tests/it/fuzz_replay.rs runs it over fuzz/seeds, the globs of fuzz/seeds.txt and
/// tests/data/fuzz-regressions/<name>.
pub const TARGETS: &[(&str, fn(&[u8]))] = &[
    ("samples", stats::samples),
    ("results", readers::results),
    ("amd", tables::amd),
    ("comparison_json", tables::comparison_json),
    ("mmtests_text", tables::mmtests_text),
    ("lkp_report", tables::lkp_report),
    ("mmtests_sockperf", mmtests::sockperf),
    ("mmtests_netperf", mmtests::netperf),
    ("mmtests_dbench", mmtests::dbench),
    ("mmtests_hackbench", mmtests::hackbench),
    ("mmtests_schbench", mmtests::schbench),
    ("lkp_matrix", lkp::matrix),
    ("lkp_stats_json", lkp::stats_json),
    ("lkp_raw", lkp::raw),
    ("lkp_jobyaml", lkp::jobyaml),
    ("idle_trace", idle::trace),
    ("idle_states", idle::states),
    ("idle_sysfs", idle::sysfs),
    ("idle_ftrace", idle::ftrace),
    ("pelt_trace", pelt::trace),
    ("pelt_ftrace", pelt::ftrace),
    ("tracedat", tracedat::tracedat),
    ("archive", archive::archive),
];
