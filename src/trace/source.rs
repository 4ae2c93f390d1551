//! One trace read as a stream of [`Event`]s and [`Loss`]es in time order, whatever its
//! format: a trace.dat read a few pages per CPU at a time ([`crate::tracedat`]), or text
//! read a line at a time (docs/trace-compare.md §2). Nothing of the trace is held
//! beyond the current pages or line.

use super::dat::DatDecoder;
use super::event::{Event, Loss};
use super::text::{parse_line, Line};
use crate::error::{Error, Result};
use crate::import_notes::{ImportNotes, ImportOptions};
use crate::pelt::ftrace::PrevStateBits;
use crate::tracedat::bytes::Source;
use crate::tracedat::Trace;
use std::io::BufRead;

/// What a reader hands on: an event, or a loss of events before the next one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Item {
    /// An event.
    Event(Event),
    /// Events of a CPU were lost before this point.
    Loss(Loss),
}

/// How a trace was read, for the notes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Read {
    /// `trace.dat version 7 (zstd)`, `text`.
    pub format: String,
    /// The last timestamp of any event line or record (the end of the trace), ns.
    pub end_ns: Option<u64>,
    /// The first one.
    pub start_ns: Option<u64>,
}

/// perf's own file (`perf record`): not read; `perf script` prints it as text.
const PERF_MAGIC: &[u8; 8] = b"PERFILE2";

/// Read the trace.dat `src` (named `path`), handing each record of the events read and
/// each loss to `f`.
pub fn read_tracedat(
    src: &dyn Source,
    path: Option<&str>,
    opts: ImportOptions,
    notes: &mut ImportNotes,
    mut f: impl FnMut(Item) -> Result<()>,
) -> Result<Read> {
    let trace = Trace::open(src, path)?;
    let h = &trace.header;
    let format = format!(
        "trace.dat version {}{}",
        h.version,
        if h.cpu_codec == crate::tracedat::compress::Codec::None {
            String::new()
        } else {
            format!(" ({})", h.cpu_codec.name())
        }
    );
    let decoder = DatDecoder::new(&h.formats);
    if !decoder.prev_state_bits().from_format {
        notes.assume(crate::pelt::ftrace::numeric_state_note(decoder.prev_state_bits()));
    }
    let mut read = Read { format, end_ns: None, start_ns: None };
    trace.each(|item| match item {
        crate::tracedat::Item::Lost(l) => {
            f(Item::Loss(Loss { cpu: l.cpu, ts: l.ts, line: l.before_record, count: l.count }))
        }
        crate::tracedat::Item::Record(r) => {
            read.start_ns.get_or_insert(r.ts);
            read.end_ns = Some(r.ts);
            match decoder.decode(r.data, r.ts, r.cpu, r.number) {
                Ok(Some(e)) => f(Item::Event(e)),
                Ok(None) => Ok(()),
                Err(msg) => notes.malformed(opts, Error::parse(path, Some(r.number), msg)),
            }
        }
    })?;
    Ok(read)
}

/// Read text (`input`, named `path`) a line at a time; see [`read_tracedat`].
pub fn read_text(
    input: &mut dyn BufRead,
    path: Option<&str>,
    opts: ImportOptions,
    notes: &mut ImportNotes,
    mut f: impl FnMut(Item) -> Result<()>,
) -> Result<Read> {
    let bits = PrevStateBits::default();
    let mut read = Read { format: "text".into(), end_ns: None, start_ns: None };
    let mut buf = Vec::new();
    let mut line = 0usize;
    let mut pending: Vec<(u32, Option<u64>, usize)> = Vec::new();
    let mut numeric = false;
    loop {
        buf.clear();
        let n = input.read_until(b'\n', &mut buf).map_err(|e| Error::io(path.unwrap_or("<input>"), &e))?;
        if n == 0 {
            break;
        }
        line += 1;
        crate::cancel::check_every(line)?;
        let raw = buf.strip_suffix(b"\n").unwrap_or(&buf);
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        let text = match std::str::from_utf8(raw) {
            Ok(t) => t,
            Err(e) => {
                let msg = format!("not UTF-8 text (invalid byte at column {})", e.valid_up_to() + 1);
                notes.malformed(opts, Error::parse(path, Some(line), msg))?;
                continue;
            }
        };
        let parsed = match parse_line(text, line, &bits) {
            Ok(p) => p,
            Err(msg) => {
                notes.malformed(opts, Error::parse(path, Some(line), msg))?;
                continue;
            }
        };
        let ts = match parsed {
            Line::Blank => continue,
            Line::Lost { cpu, count } => {
                pending.push((cpu, count, line));
                continue;
            }
            Line::Event(e) => e.ts,
            Line::Other { ts } => ts,
        };
        if let Some(prev) = read.end_ns.filter(|&p| ts < p) {
            return Err(Error::parse(
                path,
                Some(line),
                format!("timestamp {ts} ns goes backwards (previous {prev} ns); sort the trace by time"),
            ));
        }
        read.start_ns.get_or_insert(ts);
        read.end_ns = Some(ts);
        for (cpu, count, at) in pending.drain(..) {
            f(Item::Loss(Loss { cpu, ts, line: at, count }))?;
        }
        if let Line::Event(e) = parsed {
            if let super::event::Kind::Switch { prev_state, .. } = e.kind {
                numeric |= prev_state.raw.is_some();
            }
            f(Item::Event(e))?;
        }
    }
    if let Some(ts) = read.end_ns {
        for (cpu, count, at) in pending.drain(..) {
            f(Item::Loss(Loss { cpu, ts, line: at, count }))?;
        }
    }
    if numeric {
        notes.assume(crate::pelt::ftrace::numeric_state_note(&bits));
    }
    Ok(read)
}

/// Read the trace at `path` (a trace.dat or text; see the module docs).
pub fn read_path(
    path: &std::path::Path,
    opts: ImportOptions,
    notes: &mut ImportNotes,
    f: impl FnMut(Item) -> Result<()>,
) -> Result<Read> {
    let name = path.display().to_string();
    if let Some(file) = crate::tracedat::open_file(path)? {
        return read_tracedat(&file, Some(&name), opts, notes, f);
    }
    let file = std::fs::File::open(path).map_err(|e| Error::io(&name, &e))?;
    let mut input = std::io::BufReader::with_capacity(1 << 16, file);
    refuse_perf_data(input.fill_buf().map_err(|e| Error::io(&name, &e))?, &name)?;
    read_text(&mut input, Some(&name), opts, notes, f)
}

/// Read a trace held in memory (an archive member named `name`).
pub fn read_bytes(
    bytes: &[u8],
    name: &str,
    opts: ImportOptions,
    notes: &mut ImportNotes,
    f: impl FnMut(Item) -> Result<()>,
) -> Result<Read> {
    if crate::tracedat::is_tracedat(bytes) {
        return read_tracedat(&bytes, Some(name), opts, notes, f);
    }
    refuse_perf_data(bytes, name)?;
    read_text(&mut &*bytes, Some(name), opts, notes, f)
}

fn refuse_perf_data(head: &[u8], name: &str) -> Result<()> {
    if head.starts_with(PERF_MAGIC) {
        return Err(Error::parse(
            Some(name),
            None,
            "a perf.data file is not read: give `perf script --ns` output of it (or a trace.dat)",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loss_lands_on_the_next_event_and_order_is_checked() {
        let text = "cpus=2\nCPU:1 [LOST 7 EVENTS]\n  x-1 [001] 5.000001: cpu_idle: state=1 cpu_id=1\n  x-1 [000] 5.000002: hrtimer_cancel: hrtimer=0x1\n";
        let mut got = Vec::new();
        let mut notes = ImportNotes::default();
        let r = read_text(&mut text.as_bytes(), Some("t"), ImportOptions::default(), &mut notes, |i| {
            got.push(i);
            Ok(())
        })
        .unwrap();
        assert_eq!(got[0], Item::Loss(Loss { cpu: 1, ts: 5_000_001_000, line: 2, count: Some(7) }));
        assert!(matches!(got[1], Item::Event(_)));
        assert_eq!((r.start_ns, r.end_ns), (Some(5_000_001_000), Some(5_000_002_000)));
        let back = "  x-1 [001] 5.000001: cpu_idle: state=1 cpu_id=1\n  x-1 [000] 4.0: cpu_idle: state=1 cpu_id=0\n";
        let e = read_text(&mut back.as_bytes(), Some("t"), ImportOptions::default(), &mut notes, |_| Ok(()));
        assert!(e.unwrap_err().to_string().starts_with("t:2: timestamp 4000000000 ns goes backwards"));
        let e = read_bytes(b"PERFILE2....", "perf.data", ImportOptions::default(), &mut notes, |_| Ok(()));
        assert!(e.unwrap_err().to_string().contains("perf script"));
    }
}
