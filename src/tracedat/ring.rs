//! The kernel's ring-buffer pages as trace.dat stores them per CPU
//! (`kernel/trace/ring_buffer.c`): a page header (timestamp, commit = data size) and
//! events, each a 32-bit header `type_len:5 | time_delta:27` followed by its data.
//!
//! The commit word's top bits say that events were lost before the page (the reader
//! fell behind, or an overwriting buffer dropped its oldest pages): bit 31
//! (`RB_MISSED_EVENTS`) that some were, bit 30 (`RB_MISSED_STORED`) that their number is
//! stored as a word (the commit field's size) right after the page's data.
//!
//! `type_len` 1–28: a record of `4·type_len` bytes; 0: the record's length + 4 is in the
//! next word; 29: padding (`time_delta` 0: the rest of the page; else a discarded event
//! whose length is in the next word); 30: a time extend (`delta + (next word << 27)`);
//! 31: an absolute time stamp (`delta | next word << 27`). Every event's delta adds to the
//! running timestamp, which starts at the page's.

use super::bytes::{le, Cursor, Source};
use super::compress::Codec;
use super::header::{CpuData, PageHeader};
use crate::error::{Error, Result};

/// The bits of `commit` that hold the data size (the top bits flag missed events).
const COMMIT_MASK: u64 = (1 << 27) - 1;
/// `RB_MISSED_EVENTS`: events were lost before this page.
const MISSED_EVENTS: u64 = 1 << 31;
/// `RB_MISSED_STORED`: their number follows the page's data.
const MISSED_STORED: u64 = 1 << 30;
/// The bytes of uncompressed pages read at a time over all the CPUs read side by side:
/// their read buffers together stay within a core's L2 cache (512 KiB on this project's
/// machines), where the kernel's copy into them does not evict what is being decoded.
/// With 256 KiB per CPU, two CPUs' buffers spent 0.28 s of system time a GB in that copy
/// against 0.09 s with 64 KiB each (docs/tracing.md §3.2).
const READ_BUDGET: usize = 128 << 10;
/// Pages read at a time per CPU, at least (many CPUs) and at most (one CPU).
const MIN_PAGES_PER_READ: usize = 4;
const MAX_PAGES_PER_READ: usize = 64;

/// How a trace.dat stores one CPU's pages, and how many of them are read at a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pages {
    /// The ring buffer's page size.
    pub size: usize,
    /// Where a page's timestamp, commit and data are.
    pub header: PageHeader,
    /// How the pages are stored.
    pub codec: Codec,
    /// Uncompressed pages read at a time.
    pub per_read: usize,
}

impl Pages {
    /// The pages of a trace of `size`-byte pages laid out as `header`, stored as
    /// `codec`, with `readers` CPUs read side by side (their read buffers share
    /// [`READ_BUDGET`]).
    pub fn new(size: usize, header: PageHeader, codec: Codec, readers: usize) -> Self {
        let per_read = (READ_BUDGET / readers.max(1) / size.max(1)).clamp(MIN_PAGES_PER_READ, MAX_PAGES_PER_READ);
        Pages { size, header, codec, per_read }
    }
}

/// The record under a [`CpuRecords`]: its timestamp and where its data is in the
/// buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Head {
    /// Trace clock, ns.
    pub ts: u64,
    start: usize,
    len: usize,
}

/// The records of one CPU's pages in order, read from the file a piece at a time: a
/// few pages, or one compressed chunk.
pub struct CpuRecords<'a> {
    cpu: u32,
    src: &'a dyn Source,
    path: Option<&'a str>,
    pages: Pages,
    /// The next file offset to read and the end of the CPU's data.
    next: u64,
    end: u64,
    /// Compressed chunks not read yet (`None`: the count is not read yet).
    chunks_left: Option<u32>,
    /// Whole pages; `origin` the file offset they (or their chunk) came from.
    buf: Vec<u8>,
    origin: u64,
    /// Start of the current page in `buf` (valid when `open`).
    page: usize,
    open: bool,
    /// Next event and the end of the page's data (in `buf`).
    pos: usize,
    page_end: usize,
    ts: u64,
    /// The current record, `None` after the last one.
    pub head: Option<Head>,
    /// Events were lost before the current record (its page is the first read after
    /// them): their number when the page stored it.
    lost: Option<Option<u64>>,
    /// A page flagged so, not yet attached to a record.
    lost_pending: Option<Option<u64>>,
}

impl<'a> CpuRecords<'a> {
    /// The records of `data`, the pages of one CPU in `src`, stored as `pages` says;
    /// positioned on the first record.
    pub fn new(src: &'a dyn Source, data: CpuData, pages: Pages, path: Option<&'a str>) -> Result<Self> {
        let mut r = CpuRecords {
            cpu: data.cpu,
            src,
            path,
            pages,
            next: data.offset,
            // compressed: the size does not count the chunk count before the chunks
            end: data.offset.saturating_add(data.size).saturating_add(if pages.codec == Codec::None { 0 } else { 4 }),
            chunks_left: None,
            buf: Vec::new(),
            origin: data.offset,
            page: 0,
            open: false,
            pos: 0,
            page_end: 0,
            ts: 0,
            head: None,
            lost: None,
            lost_pending: None,
        };
        r.advance()?;
        Ok(r)
    }

    /// The CPU.
    pub fn cpu(&self) -> u32 {
        self.cpu
    }

    /// Whether events were lost just before the current record (it is the first of a
    /// page that follows the loss): `Some(Some(n))` with the number the page stored,
    /// `Some(None)` when it stored none.
    pub fn lost_before(&self) -> Option<Option<u64>> {
        self.lost
    }

    /// The data of the current record (empty after the last).
    pub fn data(&self) -> &[u8] {
        self.head.and_then(|h| self.buf.get(h.start..h.start + h.len)).unwrap_or(&[])
    }

    /// An error in the current page, naming it by its file offset (or its chunk's).
    fn err(&self, msg: &str) -> Error {
        let place = if self.pages.codec == Codec::None {
            format!("page at byte {}", self.origin + self.page as u64)
        } else {
            format!(
                "{} chunk at byte {}, page {} of it",
                self.pages.codec.name(),
                self.origin,
                self.page / self.pages.size
            )
        };
        Error::parse(self.path, None, format!("trace.dat CPU {} {place}: {msg}", self.cpu))
    }

    fn word(&self, at: usize) -> Result<u32> {
        self.buf.get(at..at + 4).map(|b| le(b) as u32).ok_or_else(|| self.err("an event runs past the page"))
    }

    /// Read the next pages into `buf`; false when the CPU's data is used up.
    fn refill(&mut self) -> Result<bool> {
        if self.pages.codec == Codec::None {
            let pages = usize::try_from(self.end.saturating_sub(self.next) / self.pages.size as u64)
                .unwrap_or(usize::MAX)
                .min(self.pages.per_read);
            if pages == 0 {
                return Ok(false);
            }
            self.buf.resize(pages * self.pages.size, 0);
            let mut c = Cursor::new(self.src, self.next, self.path);
            c.fill(&mut self.buf)?;
            self.origin = self.next;
            self.next = c.pos;
            return Ok(true);
        }
        loop {
            let mut c = Cursor::new(self.src, self.next, self.path);
            let left = match self.chunks_left {
                Some(n) => n,
                None => c.u32()?,
            };
            if left == 0 {
                return Ok(false);
            }
            self.origin = c.pos;
            self.pages.codec.block(&mut c, &mut self.buf)?;
            self.chunks_left = Some(left - 1);
            self.next = c.pos;
            if c.pos > self.end {
                return Err(self.err(&format!("the chunk runs past the CPU's data (which ends at byte {})", self.end)));
            }
            if !self.buf.len().is_multiple_of(self.pages.size) {
                return Err(self.err(&format!(
                    "the chunk decompresses to {} bytes, not a whole number of {}-byte pages",
                    self.buf.len(),
                    self.pages.size
                )));
            }
            if !self.buf.is_empty() {
                return Ok(true);
            }
        }
    }

    /// Open the next page; false when there is none.
    fn next_page(&mut self) -> Result<bool> {
        if self.open {
            self.page += self.pages.size;
        }
        if self.page + self.pages.size > self.buf.len() {
            self.open = false;
            if !self.refill()? {
                return Ok(false);
            }
            self.page = 0;
        }
        self.open = true;
        let Some(p) = self.buf.get(self.page..self.page + self.pages.size) else {
            return Err(self.err("page shorter than its header"));
        };
        let field = |(o, s): (usize, usize)| o.checked_add(s).and_then(|e| p.get(o..e)).map(le);
        let (Some(ts), Some(commit)) = (field(self.pages.header.timestamp), field(self.pages.header.commit)) else {
            return Err(self.err("page shorter than its header"));
        };
        let size = (commit & COMMIT_MASK) as usize;
        if self.pages.header.data.saturating_add(size) > p.len() {
            return Err(self.err(&format!("commit {size} is larger than the page")));
        }
        if commit & MISSED_EVENTS != 0 {
            // the count, when stored, is a word of the commit field's size after the data
            let at = self.pages.header.data + size;
            let count = (commit & MISSED_STORED != 0).then(|| field((at, self.pages.header.commit.1))).flatten();
            // several flagged pages before one record: their counts add (unknown if one is)
            self.lost_pending = Some(match self.lost_pending {
                None => count,
                Some(before) => before.zip(count).map(|(a, b)| a.saturating_add(b)),
            });
        }
        self.ts = ts;
        self.pos = self.page + self.pages.header.data;
        self.page_end = self.pos + size;
        Ok(true)
    }

    /// Move to the next record (`head` is `None` after the last).
    #[inline]
    pub fn advance(&mut self) -> Result<()> {
        // the common case inline: a record of 4 to 112 bytes (type_len 1-28) within the
        // open page; everything else (a new page, time stamps, padding, long records)
        // below
        if self.open {
            if let Some(word) = self.buf.get(self.pos..).and_then(<[u8]>::first_chunk::<4>) {
                let h = u32::from_le_bytes(*word);
                let type_len = (h & 0x1f) as usize;
                let start = self.pos + 4;
                let next = start + type_len * 4;
                if (1..=28).contains(&type_len) && next <= self.page_end {
                    self.land(u64::from(h >> 5), start, type_len * 4, next);
                    return Ok(());
                }
            }
        }
        self.advance_any()
    }

    /// The record at `start` (`len` bytes, `delta` after the last timestamp) is the
    /// current one; the next event is at `next`.
    #[inline(always)]
    fn land(&mut self, delta: u64, start: usize, len: usize, next: usize) {
        self.ts = self.ts.wrapping_add(delta);
        self.pos = next;
        self.head = Some(Head { ts: self.ts, start, len });
        self.lost = self.lost_pending.take();
    }

    /// [`CpuRecords::advance`] over whatever comes next.
    fn advance_any(&mut self) -> Result<()> {
        loop {
            if !self.open || self.pos + 4 > self.page_end {
                if !self.next_page()? {
                    self.head = None;
                    self.lost = None;
                    return Ok(());
                }
                continue;
            }
            let h = self.word(self.pos)?;
            let (type_len, delta) = (h & 0x1f, u64::from(h >> 5));
            let body = self.pos + 4;
            let (start, len) = match type_len {
                29 => {
                    if delta == 0 {
                        self.pos = self.page_end; // the rest of the page is padding
                    } else {
                        let len = self.word(body)? as usize;
                        self.ts = self.ts.wrapping_add(delta);
                        self.pos = body + len.max(4);
                    }
                    continue;
                }
                30 => {
                    let ext = u64::from(self.word(body)?);
                    self.ts = self.ts.wrapping_add(delta + (ext << 27));
                    self.pos = body + 4;
                    continue;
                }
                31 => {
                    let ext = u64::from(self.word(body)?);
                    self.ts = (self.ts & !((1u64 << 59) - 1)) | (ext << 27 | delta);
                    self.pos = body + 4;
                    continue;
                }
                0 => {
                    let len = self.word(body)? as usize;
                    let n = len.checked_sub(4).ok_or_else(|| self.err("a record length below 4"))?;
                    (body + 4, n)
                }
                n => (body, n as usize * 4),
            };
            let next = start + len.div_ceil(4) * 4;
            if next > self.page_end {
                return Err(self.err("a record runs past the page's data"));
            }
            self.land(delta, start, len, next);
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_of_a_hand_made_page() {
        // page: ts 1000, commit 32; a 4-byte record (type_len 1, delta 5), a time extend
        // (delta 1, word 2: + 1 + 2<<27), a record of length word 12 (8 data bytes, delta 0),
        // then padding to the end of the page
        let mut page = vec![0u8; 64];
        page[0..8].copy_from_slice(&1000u64.to_le_bytes());
        page[8..16].copy_from_slice(&32u64.to_le_bytes());
        let w = |v: u32| v.to_le_bytes();
        let mut data = Vec::new();
        data.extend(w(1 | 5 << 5));
        data.extend(w(0xaabb_ccdd));
        data.extend(w(30 | 1 << 5));
        data.extend(w(2));
        data.extend(w(0));
        data.extend(w(12));
        data.extend([1, 2, 3, 4, 5, 6, 7, 8]);
        page[16..16 + data.len()].copy_from_slice(&data);
        let layout = PageHeader { timestamp: (0, 8), commit: (8, 8), data: 16 };
        // two copies of the page after 8 bytes of something else
        let mut file = vec![0xeeu8; 8];
        file.extend(&page);
        file.extend(&page);
        let cpu = CpuData { cpu: 3, offset: 8, size: 128 };
        let bytes = file.clone();
        let bytes = bytes.as_slice();
        let mut r = CpuRecords::new(&bytes, cpu, Pages::new(64, layout, Codec::None, 1), None).unwrap();
        let mut got = Vec::new();
        while let Some(h) = r.head {
            got.push((h.ts, r.data().to_vec()));
            r.advance().unwrap();
        }
        let b_ts = 1005 + 1 + (2 << 27);
        let want = [(1005, vec![0xdd, 0xcc, 0xbb, 0xaa]), (b_ts, vec![1, 2, 3, 4, 5, 6, 7, 8])];
        assert_eq!(got, [want.clone(), want].concat());
        // a commit larger than the page: an error naming the CPU and the page's offset
        file[8 + 64 + 8] = 200;
        let bytes = file.as_slice();
        let mut r = CpuRecords::new(&bytes, cpu, Pages::new(64, layout, Codec::None, 1), Some("t.dat")).unwrap();
        r.advance().unwrap();
        let e = r.advance().unwrap_err().to_string();
        assert_eq!(e, "t.dat: trace.dat CPU 3 page at byte 72: commit 200 is larger than the page");
    }
}
