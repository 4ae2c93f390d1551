//! trace.dat, the file `trace-cmd record`/`extract` writes, read natively (file versions
//! 6 and 7, docs/tracing.md §3): the idle and PELT importers decode its records straight
//! from the ring-buffer pages into their events, and a file is read a few pages (or one
//! compressed chunk) per CPU at a time, so its size does not bound what can be imported.
//!
//! - [`bytes`]: bounds-checked reads at offsets of a file or of bytes in memory.
//! - [`header`]: the file's metadata (formats, kallsyms, cmdlines, where each CPU's pages are).
//! - [`compress`]: version 7's zlib and zstd blocks.
//! - [`format`]: event formats (fields, offsets, sizes, print fmt).
//! - [`ring`]: the ring-buffer pages of one CPU as records.
//! - [`decode`]: a record as the event the importers read.
//! - [`sniff`]: what an input without the magic is when it is not text either.
//!
//! [`Trace::records`] merges the CPUs' records by time (ties in CPU order).

// Parsers of untrusted bytes: no unwrap, expect, indexing or string slicing that can panic on input.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

pub mod bytes;
pub mod compress;
pub mod decode;
pub mod format;
pub mod header;
pub mod ring;
pub mod sniff;

use crate::error::Result;
use bytes::{FileSource, Source};
pub use header::is_tracedat;

/// One record in time order: its number (1-based, counting every record of the
/// buffer read, all CPUs merged), CPU, timestamp (trace clock, ns) and data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Record<'r> {
    /// 1-based position in time order: what notes and errors call its line.
    pub number: usize,
    /// The CPU whose buffer held it.
    pub cpu: u32,
    /// Trace clock, ns.
    pub ts: u64,
    /// The record, starting with `common_type`.
    pub data: &'r [u8],
}

/// Events a CPU's buffer lost before one of its records: the ring buffer flagged the
/// page that record starts (docs/tracing.md §3.1), as `trace-cmd report` prints
/// `CPU:N [LOST M EVENTS]` before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lost {
    /// The CPU whose buffer lost them.
    pub cpu: u32,
    /// The timestamp of the first record after the loss (trace clock, ns).
    pub ts: u64,
    /// How many, when the page stored the number.
    pub count: Option<u64>,
    /// The number of the record after the loss (its [`Record::number`]).
    pub before_record: usize,
}

/// What [`Trace::each`] reads, in time order: a record, or a loss just before the next
/// record of that CPU.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Item<'r> {
    /// A record.
    Record(Record<'r>),
    /// Events lost before the CPU's next record.
    Lost(Lost),
}

/// An opened trace.dat: its metadata, and its records read on demand.
pub struct Trace<'a> {
    /// The metadata.
    pub header: header::Header,
    src: &'a dyn Source,
    path: Option<&'a str>,
}

impl<'a> Trace<'a> {
    /// Read the metadata of the trace.dat `src` (named `path` in errors).
    pub fn open(src: &'a dyn Source, path: Option<&'a str>) -> Result<Self> {
        Ok(Trace { header: header::parse(src, path)?, src, path })
    }

    /// Call `f` on every record in time order (ties in CPU order), reading each CPU's
    /// pages a piece at a time.
    pub fn records(&self, mut f: impl FnMut(Record<'_>) -> Result<()>) -> Result<()> {
        self.each(|item| match item {
            Item::Record(r) => f(r),
            Item::Lost(_) => Ok(()),
        })
    }

    /// [`Trace::records`] with the losses the pages flag, each just before the first
    /// record read after it on its CPU.
    pub fn each(&self, mut f: impl FnMut(Item<'_>) -> Result<()>) -> Result<()> {
        let h = &self.header;
        let mut cpus = Vec::with_capacity(h.cpus.len());
        for &d in &h.cpus {
            cpus.push(ring::CpuRecords::new(self.src, d, h.page_size, h.page, h.cpu_codec, self.path)?);
        }
        let mut number = 0usize;
        loop {
            let mut best: Option<(u64, usize)> = None;
            for (i, c) in cpus.iter().enumerate() {
                if let Some(head) = c.head {
                    if best.is_none_or(|(ts, _)| head.ts < ts) {
                        best = Some((head.ts, i));
                    }
                }
            }
            let Some((ts, c)) = best.and_then(|(ts, i)| Some((ts, cpus.get_mut(i)?))) else { return Ok(()) };
            crate::cancel::check_every(number)?;
            number += 1;
            if let Some(count) = c.lost_before() {
                f(Item::Lost(Lost { cpu: c.cpu(), ts, count, before_record: number }))?;
            }
            f(Item::Record(Record { number, cpu: c.cpu(), ts, data: c.data() }))?;
            c.advance()?;
        }
    }

    /// Call `f` on every record of each CPU buffer in turn, in the header's order of the
    /// buffers and each buffer's own order, without merging them by time: `f` gets the
    /// buffer's index, the record's place in it (0-based), its timestamp and data, and
    /// returns false to stop. One buffer's pages are read at a time.
    pub fn records_per_buffer(&self, mut f: impl FnMut(usize, usize, u64, &[u8]) -> Result<bool>) -> Result<()> {
        let h = &self.header;
        let mut n = 0usize;
        for (i, &d) in h.cpus.iter().enumerate() {
            let mut c = ring::CpuRecords::new(self.src, d, h.page_size, h.page, h.cpu_codec, self.path)?;
            let mut place = 0usize;
            while let Some(head) = c.head {
                crate::cancel::check_every(n)?;
                n += 1;
                if !f(i, place, head.ts, c.data())? {
                    return Ok(());
                }
                place += 1;
                c.advance()?;
            }
        }
        Ok(())
    }

    /// The name of a record's event (`None` for an ID without a format).
    pub fn event_name(&self, data: &[u8]) -> Option<&str> {
        let id = data.get(..2).map(|b| bytes::le(b) as u16)?;
        self.header.formats.get(&id).map(|f| f.name.as_str())
    }

    /// The number of records of each event in the buffer, by name (records of an ID
    /// without a format counted as `#ID`), sorted by name.
    pub fn event_counts(&self) -> Result<Vec<(String, u64)>> {
        let mut by_id: std::collections::BTreeMap<u16, u64> = std::collections::BTreeMap::new();
        self.records(|r| {
            let id = r.data.get(..2).map_or(u16::MAX, |b| bytes::le(b) as u16);
            *by_id.entry(id).or_default() += 1;
            Ok(())
        })?;
        let mut out: Vec<(String, u64)> = by_id
            .into_iter()
            .map(|(id, n)| (self.header.formats.get(&id).map_or_else(|| format!("#{id}"), |f| f.name.clone()), n))
            .collect();
        out.sort();
        Ok(out)
    }

    /// The note an importer adds when its input was this trace.dat.
    pub fn note(&self) -> String {
        let h = &self.header;
        format!(
            "read as trace.dat (version {}{}, buffer '{}'): line numbers are record numbers, every record of the buffer counted in time order",
            h.version,
            if h.cpu_codec == compress::Codec::None { String::new() } else { format!(", {}", h.cpu_codec.name()) },
            h.buffer
        )
    }
}

/// The file at `path` opened for reading at offsets if it is a trace.dat, `None` if it
/// is not (read it as text then). A FIFO, a pipe or a device is `None` without being
/// opened: it can be read once only, and this open would take the bytes of a FIFO's
/// writer from the caller's own open, which would then wait for a writer that is gone.
pub fn open_file(path: &std::path::Path) -> Result<Option<FileSource>> {
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        return Ok(None);
    }
    let f = FileSource::open(path)?;
    let mut magic = [0u8; header::MAGIC.len()];
    Ok((f.size() >= magic.len() as u64 && f.read_at(0, &mut magic).is_ok() && is_tracedat(&magic)).then_some(f))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fifo_is_not_opened_to_look_for_a_trace_dat() {
        // opening a FIFO for reading waits for a writer, and takes its bytes: open_file
        // must answer without opening it (a hang guard, not a time bound)
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("trace");
        let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let (tx, rx) = std::sync::mpsc::channel();
        let path = fifo.clone();
        std::thread::spawn(move || tx.send(open_file(&path).map(|f| f.is_none())));
        match rx.recv_timeout(std::time::Duration::from_secs(60)) {
            Ok(answer) => assert_eq!(answer.ok(), Some(true)),
            Err(_) => {
                // unblock the open that is waiting for a writer, then fail
                drop(std::fs::OpenOptions::new().write(true).open(&fifo));
                panic!("open_file opened the FIFO: it waited for a writer");
            }
        }
    }
}
