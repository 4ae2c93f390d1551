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
    pub fn each(&self, f: impl FnMut(Item<'_>) -> Result<()>) -> Result<()> {
        let h = &self.header;
        let pages = self.pages(h.cpus.len());
        let mut cpus = Vec::with_capacity(h.cpus.len());
        for &d in &h.cpus {
            cpus.push(ring::CpuRecords::new(self.src, d, pages, self.path)?);
        }
        merge(cpus, f)
    }

    /// How this trace's pages are read, `readers` CPUs side by side.
    fn pages(&self, readers: usize) -> ring::Pages {
        let h = &self.header;
        ring::Pages::new(h.page_size, h.page, h.cpu_codec, readers)
    }

    /// Call `f` on every record of each CPU buffer in turn, in the header's order of the
    /// buffers and each buffer's own order, without merging them by time: `f` gets the
    /// buffer's index, the record's place in it (0-based), its timestamp and data, and
    /// returns false to stop. One buffer's pages are read at a time.
    pub fn records_per_buffer(&self, mut f: impl FnMut(usize, usize, u64, &[u8]) -> Result<bool>) -> Result<()> {
        let h = &self.header;
        let mut n = 0usize;
        let pages = self.pages(1);
        for (i, &d) in h.cpus.iter().enumerate() {
            let mut c = ring::CpuRecords::new(self.src, d, pages, self.path)?;
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

/// Call `f` on the records of `cpus` in time order (ties in their order), each CPU's
/// losses just before its next record.
fn merge(mut cpus: Vec<ring::CpuRecords<'_>>, mut f: impl FnMut(Item<'_>) -> Result<()>) -> Result<()> {
    let mut number = 0usize;
    // The CPU with the earliest head gives records until its head passes `until`, the
    // last time at which it still comes first (the other CPUs' heads do not move
    // meanwhile): one comparison a record, whatever the number of CPUs.
    while let Some((i, until)) = earliest(&cpus) {
        let Some(c) = cpus.get_mut(i) else { return Ok(()) };
        while let Some(head) = c.head.filter(|hd| hd.ts <= until) {
            crate::cancel::check_every(number)?;
            number += 1;
            if let Some(count) = c.lost_before() {
                f(Item::Lost(Lost { cpu: c.cpu(), ts: head.ts, count, before_record: number }))?;
            }
            f(Item::Record(Record { number, cpu: c.cpu(), ts: head.ts, data: c.data() }))?;
            c.advance()?;
        }
    }
    Ok(())
}

/// The CPU whose head comes first in time order (the earliest timestamp, ties to the
/// first CPU) and the latest timestamp up to which its records still come first: before
/// every later CPU's head, strictly before every earlier CPU's. `None` when every CPU is
/// read.
fn earliest(cpus: &[ring::CpuRecords<'_>]) -> Option<(usize, u64)> {
    // the two smallest (time, CPU) keys: the second bounds the first's run (any other
    // CPU's key is larger, and so is its bound)
    let mut first: Option<(u64, usize)> = None;
    let mut second: Option<(u64, usize)> = None;
    for (i, c) in cpus.iter().enumerate() {
        let Some(head) = c.head else { continue };
        let key = (head.ts, i);
        if first.is_none_or(|f| key < f) {
            second = first;
            first = Some(key);
        } else if second.is_none_or(|s| key < s) {
            second = Some(key);
        }
    }
    let (_, best) = first?;
    // an earlier CPU wins a tie: `best`'s head must be strictly before it
    let until = second.map_or(u64::MAX, |(ts, i)| if i < best { ts.saturating_sub(1) } else { ts });
    Some((best, until))
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

    /// One page per CPU of 4-byte records at `ts` (the page's timestamp the first, then
    /// each record's delta), page size 64.
    fn page(ts: &[u64]) -> Vec<u8> {
        let mut p = vec![0u8; 64];
        p[0..8].copy_from_slice(&ts[0].to_le_bytes());
        p[8..16].copy_from_slice(&(ts.len() as u64 * 8).to_le_bytes());
        let mut prev = ts[0];
        for (i, &t) in ts.iter().enumerate() {
            let at = 16 + i * 8;
            p[at..at + 4].copy_from_slice(&(1 | ((t - prev) as u32) << 5).to_le_bytes());
            p[at + 4..at + 8].copy_from_slice(&(i as u32).to_le_bytes());
            prev = t;
        }
        p
    }

    #[test]
    fn records_merge_in_time_order_ties_to_the_first_cpu() {
        // three CPUs with ties within and across them, runs of one CPU and alternations
        let times: [&[u64]; 3] = [&[1, 5, 5, 9, 12], &[5, 6, 9, 9, 10, 11], &[0, 5, 13]];
        let file: Vec<u8> = times.iter().flat_map(|t| page(t)).collect();
        let bytes = file.as_slice();
        let layout = header::PageHeader { timestamp: (0, 8), commit: (8, 8), data: 16 };
        let pages = ring::Pages::new(64, layout, compress::Codec::None, 3);
        let cpus = (0..3)
            .map(|c| {
                let data = header::CpuData { cpu: c as u32 + 10, offset: c as u64 * 64, size: 64 };
                ring::CpuRecords::new(&bytes, data, pages, None).unwrap()
            })
            .collect();
        let mut got = Vec::new();
        merge(cpus, |item| {
            let Item::Record(r) = item else { panic!("no loss here") };
            got.push((r.number, r.ts, r.cpu, r.data[0]));
            Ok(())
        })
        .unwrap();
        // by hand: every record, sorted by time, ties by CPU, each CPU's own order kept
        let mut want: Vec<(u64, u32, u8)> = times
            .iter()
            .enumerate()
            .flat_map(|(c, t)| t.iter().enumerate().map(move |(i, &ts)| (ts, c as u32 + 10, i as u8)))
            .collect();
        want.sort();
        let want: Vec<_> = want.into_iter().enumerate().map(|(n, (ts, cpu, i))| (n + 1, ts, cpu, i)).collect();
        assert_eq!(got, want);
    }

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
