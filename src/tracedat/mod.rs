//! trace.dat, the file `trace-cmd record`/`extract` writes, read natively (file version
//! 6: docs/tracing.md), so that the idle and PELT importers take it as they take
//! `trace-cmd report` text.
//!
//! - [`bytes`]: bounds-checked reads.
//! - [`header`]: the file's metadata (formats, kallsyms, cmdlines, where each CPU's pages are).
//! - [`format`]: event formats (fields, offsets, sizes, print fmt).
//! - [`ring`]: the ring-buffer pages of one CPU as records.
//! - [`render`]: a record as an ftrace text line.
//!
//! [`to_text`] merges the CPUs' records by time and renders those of the events asked for.

// Parsers of untrusted bytes: no unwrap, expect, indexing or string slicing that can panic on input.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

pub mod bytes;
pub mod format;
pub mod header;
pub mod render;
pub mod ring;

use crate::error::{Error, Result};
use crate::pelt::ftrace::PrevStateBits;
use std::borrow::Cow;

pub use header::is_tracedat;

/// The events the idle and PELT importers read.
pub const IMPORTED_EVENTS: [&str; 8] = [
    "sched_switch",
    "sched_wakeup",
    "sched_wakeup_new",
    "cpu_idle",
    "hrtimer_start",
    "hrtimer_cancel",
    "hrtimer_expire_entry",
    "tick_stop",
];

/// The events named in `events` (all when empty) of a version 6 trace.dat as ftrace text,
/// one line per record in time order (ties by CPU), see [`render`].
pub fn to_text(data: &[u8], path: Option<&str>, events: &[&str]) -> Result<String> {
    let h = header::parse(data, path)?;
    let prev_state = h
        .formats
        .values()
        .find(|f| f.name == "sched_switch")
        .and_then(|f| PrevStateBits::from_print_fmt(&f.print_fmt))
        .unwrap_or_default();
    let r = render::Renderer { symbols: &h.symbols, prev_state };
    let mut cpus = Vec::with_capacity(h.cpus.len());
    for (cpu, &(off, size)) in h.cpus.iter().enumerate() {
        let (off, size) = (off as usize, size as usize);
        let pages =
            data.get(off..off.saturating_add(size)).ok_or_else(|| Error::parse(path, None, "CPU data past the end"))?;
        cpus.push(ring::CpuRecords::new(cpu as u32, pages, h.page_size, h.page, path));
    }
    let mut heads = Vec::with_capacity(cpus.len());
    for c in &mut cpus {
        heads.push(c.next_record()?);
    }
    let mut out = String::new();
    while let Some((i, rec)) =
        heads.iter().enumerate().filter_map(|(i, r)| Some((i, (*r)?))).min_by_key(|(i, r)| (r.ts, *i))
    {
        if let Some(slot) = heads.get_mut(i) {
            *slot = match cpus.get_mut(i) {
                Some(c) => c.next_record()?,
                None => None,
            };
        }
        let id = rec.data.get(..2).map_or(0, |b| bytes::le(b) as u16);
        let Some(fmt) = h.formats.get(&id) else { continue };
        if !events.is_empty() && !events.contains(&fmt.name.as_str()) {
            continue;
        }
        let pid = fmt
            .field("common_pid")
            .and_then(|f| rec.data.get(f.offset..f.offset.checked_add(f.size)?))
            .map_or(-1, |b| i128::from(bytes::le(b) as u32 as i32));
        r.line(fmt, &rec, pid, &mut out);
    }
    Ok(out)
}

/// The note an importer adds when its input was a trace.dat.
pub const TRACEDAT_NOTE: &str =
    "read as trace.dat (version 6): line numbers are those of its rendering as ftrace text, one record a line";

/// `bytes` as ftrace text: a trace.dat rendered (the importers' events, noted in
/// `notes`), text as it is.
pub fn text_of<'a>(
    bytes: &'a [u8],
    path: Option<&str>,
    notes: &mut crate::import_notes::ImportNotes,
) -> Result<Cow<'a, [u8]>> {
    if is_tracedat(bytes) {
        notes.assume(TRACEDAT_NOTE);
        Ok(Cow::Owned(to_text(bytes, path, &IMPORTED_EVENTS)?.into_bytes()))
    } else {
        Ok(Cow::Borrowed(bytes))
    }
}
