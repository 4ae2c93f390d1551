//! One CPU of an ftrace trace or trace.dat replayed as it is imported: the importer
//! ([`super::ftrace_import`]) hands the CPU's idle periods to the replay
//! ([`super::replay`]) as soon as each is complete, and the golden-format CSV
//! ([`super::golden_csv`]) is written as the replay runs, so a trace of any length is
//! replayed in memory that does not grow with it (docs/tracing.md §2.1).
//!
//! The CPU replayed is the one asked for, or the trace's first CPU with idle periods:
//! finding it reads the trace once more (a file is read twice; a FIFO or a pipe, which
//! cannot be read twice, is read whole into memory, within the trace file limit).

use super::ftrace::{parse_into, read_into};
use super::ftrace_cpu::Row;
use super::ftrace_import::{CpuEnd, RowSink};
use super::golden_csv::GoldenCsv;
use super::governor::{Governor, Spec};
use super::replay::{with_replay, Replay, ReplayFn, Step};
use super::states::StateTable;
use crate::error::{Error, Result};
use crate::import_notes::{ImportNotes, ImportOptions};
use std::path::Path;

/// What a streamed ftrace replay did besides its CSV.
#[derive(Debug, Clone, PartialEq)]
pub struct FtraceReplay {
    /// The CPU replayed.
    pub cpu: u32,
    /// Its idle periods replayed (CSV rows).
    pub periods: usize,
    /// What the import skipped and assumed.
    pub notes: ImportNotes,
}

/// The trace to import: a file read as it goes, or bytes in memory.
#[derive(Clone, Copy)]
enum Source<'a> {
    File(&'a Path),
    Bytes(&'a [u8], &'a str),
}

impl Source<'_> {
    fn import<K: RowSink>(self, hz: u32, opts: ImportOptions, sink: K) -> Result<(K, Vec<CpuEnd>, ImportNotes)> {
        match self {
            Source::File(p) => read_into(p, hz, opts, sink),
            Source::Bytes(b, name) => parse_into(b, Some(name), hz, opts, sink),
        }
    }
}

/// The replay of one CPU's rows, written as CSV as they come.
struct CsvRows<G: Governor, W: std::io::Write> {
    cpu: u32,
    replay: Replay<G>,
    csv: GoldenCsv<W>,
    state: Vec<i64>,
    step: usize,
}

impl<G: Governor, W: std::io::Write> RowSink for CsvRows<G, W> {
    #[inline]
    fn row(&mut self, cpu: u32, r: &Row) -> Result<()> {
        if cpu != self.cpu {
            return Ok(());
        }
        let d = self.replay.step(&r.period);
        self.state.clear();
        Step::write_columns(&self.replay, &mut self.state);
        self.csv.row(self.step, &r.period, &d, &self.state)?;
        self.step += 1;
        Ok(())
    }
}

/// [`with_replay`]'s function: the import of `source` into the replay of CPU `cpu`.
struct StreamFtrace<'s, W: std::io::Write> {
    source: Source<'s>,
    cpu: u32,
    hz: u32,
    opts: ImportOptions,
    out: W,
    name: &'s str,
    trace_name: &'s str,
}

impl<W: std::io::Write> ReplayFn<(W, FtraceReplay)> for StreamFtrace<'_, W> {
    fn call<G: Governor + 'static>(self, replay: Replay<G>) -> Result<(W, FtraceReplay)> {
        // the header is held in the CSV's buffer until the first rows or the end: nothing
        // is written for a CPU the trace turns out not to have
        let csv = GoldenCsv::new(self.out, self.name, &Step::columns(&replay));
        let rows = CsvRows { cpu: self.cpu, replay, csv, state: Vec::with_capacity(64), step: 0 };
        let (rows, ends, notes) = self.source.import(self.hz, self.opts, rows)?;
        if !ends.iter().any(|e| e.cpu == self.cpu) {
            return Err(no_cpu(self.trace_name, self.cpu, &ends));
        }
        let periods = rows.step;
        Ok((rows.csv.finish()?, FtraceReplay { cpu: self.cpu, periods, notes }))
    }
}

/// The error for a CPU without idle periods, listing those the trace has.
fn no_cpu(trace: &str, cpu: u32, ends: &[CpuEnd]) -> Error {
    let cpus: Vec<String> = ends.iter().map(|e| e.cpu.to_string()).collect();
    Error::domain(format!("{trace}: no idle periods of CPU {cpu} (CPUs: [{}])", cpus.join(", ")))
}

/// The first CPU with idle periods (or with one dropped) of `source`.
fn first_cpu(source: Source<'_>, hz: u32, opts: ImportOptions, trace: &str) -> Result<u32> {
    let (_, ends, _) = source.import(hz, opts, |_: u32, _: &Row| Ok(()))?;
    ends.first().map(|e| e.cpu).ok_or_else(|| Error::domain(format!("{trace}: no idle periods")))
}

/// Replay CPU `cpu` (by default the trace's first) of the ftrace text or trace.dat at
/// `trace` through `spec` at `hz` (also the traced kernel's CONFIG_HZ) on the state
/// table at `states` ([`StateTable::load`]), and write the golden-format CSV to `out`
/// (called `name` in write errors) as the trace is imported and replayed (see the
/// module docs). Returns the output and what the replay did, with the import's notes.
#[allow(clippy::too_many_arguments)]
pub fn simulate_ftrace_file<W: std::io::Write>(
    spec: Spec,
    hz: u32,
    states: &Path,
    trace: &Path,
    cpu: Option<u32>,
    opts: ImportOptions,
    out: W,
    name: &str,
) -> Result<(W, FtraceReplay)> {
    let table = StateTable::load(states)?;
    let trace_name = trace.display().to_string();
    let trace_name = trace_name.as_str();
    let file = Source::File(trace);
    // a path that cannot be read is named by the import itself
    let regular = std::fs::metadata(trace).map_or(true, |m| m.is_file());
    if let Some(cpu) = cpu {
        return with_replay(spec, &table, hz, StreamFtrace { source: file, cpu, hz, opts, out, name, trace_name });
    }
    if regular {
        let cpu = first_cpu(file, hz, opts, trace_name)?;
        return with_replay(spec, &table, hz, StreamFtrace { source: file, cpu, hz, opts, out, name, trace_name });
    }
    // a FIFO or a pipe is read once: held in memory to be imported twice
    let bytes = crate::archive::dir::read_file(trace, crate::archive::tree::MAX_TRACE_FILE_BYTES)?;
    let source = Source::Bytes(&bytes, trace_name);
    let cpu = first_cpu(source, hz, opts, trace_name)?;
    with_replay(spec, &table, hz, StreamFtrace { source, cpu, hz, opts, out, name, trace_name })
}
