//! The kernel's ring-buffer pages as trace.dat stores them per CPU
//! (`kernel/trace/ring_buffer.c`): a page header (timestamp, commit = data size) and
//! events, each a 32-bit header `type_len:5 | time_delta:27` followed by its data.
//!
//! `type_len` 1–28: a record of `4·type_len` bytes; 0: the record's length + 4 is in the
//! next word; 29: padding (`time_delta` 0: the rest of the page; else a discarded event
//! whose length is in the next word); 30: a time extend (`delta + (next word << 27)`);
//! 31: an absolute time stamp (`delta | next word << 27`). Every event's delta adds to the
//! running timestamp, which starts at the page's.

use super::bytes::le;
use super::header::PageHeader;
use crate::error::{Error, Result};

/// The bits of `commit` that hold the data size (the top bits flag missed events).
const COMMIT_MASK: u64 = (1 << 27) - 1;

/// One event record: its CPU, timestamp (trace clock, ns) and data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Record<'a> {
    /// The CPU whose buffer held it.
    pub cpu: u32,
    /// Trace clock, ns.
    pub ts: u64,
    /// The record, starting with `common_type`.
    pub data: &'a [u8],
}

/// The records of one CPU's pages, in order.
#[derive(Debug, Clone)]
pub struct CpuRecords<'a> {
    cpu: u32,
    pages: &'a [u8],
    page_size: usize,
    layout: PageHeader,
    path: Option<&'a str>,
    /// Start of the current page in `pages`.
    page: usize,
    /// Next event in the current page (absolute in `pages`), and the page data end.
    pos: usize,
    end: usize,
    ts: u64,
    started: bool,
}

impl<'a> CpuRecords<'a> {
    /// The records of `pages` (a whole number of `page_size` pages) of `cpu`.
    pub fn new(cpu: u32, pages: &'a [u8], page_size: usize, layout: PageHeader, path: Option<&'a str>) -> Self {
        CpuRecords { cpu, pages, page_size, layout, path, page: 0, pos: 0, end: 0, ts: 0, started: false }
    }

    fn err(&self, msg: &str) -> Error {
        Error::parse(self.path, None, format!("trace.dat CPU {} page at +{}: {msg}", self.cpu, self.page))
    }

    fn word(&self, at: usize) -> Result<u32> {
        self.pages.get(at..at + 4).map(|b| le(b) as u32).ok_or_else(|| self.err("an event runs past the page"))
    }

    /// Open the page at `self.page`; false when there is none.
    fn open_page(&mut self) -> Result<bool> {
        let Some(p) = self.pages.get(self.page..self.page.saturating_add(self.page_size)) else {
            return Ok(false);
        };
        let field = |(o, s): (usize, usize)| o.checked_add(s).and_then(|e| p.get(o..e)).map(le);
        let (Some(ts), Some(commit)) = (field(self.layout.timestamp), field(self.layout.commit)) else {
            return Err(self.err("page shorter than its header"));
        };
        let size = (commit & COMMIT_MASK) as usize;
        if self.layout.data.saturating_add(size) > p.len() {
            return Err(self.err(&format!("commit {size} is larger than the page")));
        }
        self.ts = ts;
        self.pos = self.page + self.layout.data;
        self.end = self.pos + size;
        Ok(true)
    }

    /// The next record, `None` at the end of the CPU's pages.
    pub fn next_record(&mut self) -> Result<Option<Record<'a>>> {
        if !self.started {
            self.started = true;
            if !self.open_page()? {
                return Ok(None);
            }
        }
        loop {
            if self.pos + 4 > self.end {
                self.page += self.page_size;
                if !self.open_page()? {
                    return Ok(None);
                }
                continue;
            }
            let h = self.word(self.pos)?;
            let (type_len, delta) = (h & 0x1f, u64::from(h >> 5));
            let body = self.pos + 4;
            match type_len {
                29 => {
                    if delta == 0 {
                        self.pos = self.end; // the rest of the page is padding
                    } else {
                        let len = self.word(body)? as usize;
                        self.ts = self.ts.wrapping_add(delta);
                        self.pos = body + len.max(4);
                    }
                }
                30 => {
                    let ext = u64::from(self.word(body)?);
                    self.ts = self.ts.wrapping_add(delta + (ext << 27));
                    self.pos = body + 4;
                }
                31 => {
                    let ext = u64::from(self.word(body)?);
                    self.ts = (self.ts & !((1u64 << 59) - 1)) | (ext << 27 | delta);
                    self.pos = body + 4;
                }
                0 => {
                    let len = self.word(body)? as usize;
                    let n = len.checked_sub(4).ok_or_else(|| self.err("a record length below 4"))?;
                    let start = body + 4;
                    let next = start + n.div_ceil(4) * 4;
                    let data =
                        self.pages.get(start..start + n).ok_or_else(|| self.err("a record runs past the page"))?;
                    if next > self.end {
                        return Err(self.err("a record runs past the page's data"));
                    }
                    self.ts = self.ts.wrapping_add(delta);
                    self.pos = next;
                    return Ok(Some(Record { cpu: self.cpu, ts: self.ts, data }));
                }
                n => {
                    let len = n as usize * 4;
                    let data =
                        self.pages.get(body..body + len).ok_or_else(|| self.err("a record runs past the page"))?;
                    if body + len > self.end {
                        return Err(self.err("a record runs past the page's data"));
                    }
                    self.ts = self.ts.wrapping_add(delta);
                    self.pos = body + len;
                    return Ok(Some(Record { cpu: self.cpu, ts: self.ts, data }));
                }
            }
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
        let mut r = CpuRecords::new(3, &page, 64, layout, None);
        let a = r.next_record().unwrap().unwrap();
        assert_eq!((a.cpu, a.ts, a.data), (3, 1005, &[0xdd, 0xcc, 0xbb, 0xaa][..]));
        let b = r.next_record().unwrap().unwrap();
        assert_eq!((b.ts, b.data), (1005 + 1 + (2 << 27), &[1, 2, 3, 4, 5, 6, 7, 8][..]));
        assert_eq!(r.next_record().unwrap(), None);
    }
}
