//! The metadata of a trace.dat (trace-cmd's `trace-output.c` layouts, docs/tracing.md §3):
//! magic, version, endianness, long and page size, then the ring-buffer page header, the
//! event formats, kallsyms, cmdlines and, per CPU, where its ring-buffer pages are.
//!
//! Version 6 stores these one after the other; version 7 in sections found through
//! chained options sections, each section optionally compressed (zlib or zstd), and the
//! CPU data compressed in chunks ([`super::compress`]). Only the metadata is read into
//! memory here; the pages are read later, a piece at a time ([`super::ring`]).

use super::bytes::{Cursor, Source};
use super::compress::Codec;
use super::format::Format;
use crate::error::Result;
use std::collections::HashMap;

/// The first bytes of every trace.dat: `\x17\x08\x44tracing`.
pub const MAGIC: &[u8; 10] = b"\x17\x08Dtracing";

/// Option and section IDs (`enum tracecmd_option_id`).
const OPTION_DONE: u16 = 0;
const OPTION_BUFFER: u16 = 3;
/// `TRACECMD_OPTION_UNAME`: `uname -a`-like text of the traced machine.
const OPTION_UNAME: u16 = 5;
const SECTION_HEADER_INFO: u16 = 16;
const SECTION_FTRACE_EVENTS: u16 = 17;
const SECTION_EVENT_FORMATS: u16 = 18;
const SECTION_KALLSYMS: u16 = 19;
const SECTION_CMDLINES: u16 = 21;
/// A section header's flag: its content is one compressed block.
const SECTION_COMPRESSED: u16 = 1;
/// More CPUs than this is taken for a corrupted count.
const MAX_CPUS: u32 = 4096;
/// More options sections than this is taken for a loop in their chain.
const MAX_OPTION_SECTIONS: usize = 1024;

/// The ring-buffer page header (`events/header_page`): where the page's timestamp,
/// commit (data size) and data are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageHeader {
    /// Offset and size of `timestamp`.
    pub timestamp: (usize, usize),
    /// Offset and size of `commit`.
    pub commit: (usize, usize),
    /// Offset of `data`.
    pub data: usize,
}

/// Where one CPU's ring-buffer pages are in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CpuData {
    /// The CPU.
    pub cpu: u32,
    /// File offset of its pages (of its chunk count, when compressed).
    pub offset: u64,
    /// Their size in the file.
    pub size: u64,
}

/// Everything a reader needs from a trace.dat besides the pages themselves.
#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    /// The file version (6 or 7).
    pub version: u32,
    /// `sizeof(long)` of the traced kernel.
    pub long_size: usize,
    /// Ring-buffer page size.
    pub page_size: usize,
    /// The page header layout.
    pub page: PageHeader,
    /// Every event format (ftrace's and the systems'), by ID.
    pub formats: HashMap<u16, Format>,
    /// `/proc/kallsyms` as stored (the table is built on the first [`Header::symbol`]).
    pub kallsyms: String,
    symbols: std::cell::OnceCell<Vec<(u64, String)>>,
    /// pid → command name.
    pub cmdlines: HashMap<i32, String>,
    /// The buffer whose pages are read (`""` the top level, or an instance's name).
    pub buffer: String,
    /// How the CPU data is stored: [`Codec::None`] as pages, else in compressed chunks.
    pub cpu_codec: Codec,
    /// Where each CPU's pages are.
    pub cpus: Vec<CpuData>,
    /// The traced machine's `uname` as trace-cmd stored it (`Linux HOST 6.18.44 x86_64`:
    /// system, node, kernel release, machine), when the file has that option.
    pub uname: Option<String>,
}

impl Header {
    /// The traced kernel's release (`6.18.44-fc-v1272`), from [`Header::uname`].
    pub fn kernel_release(&self) -> Option<&str> {
        self.uname.as_deref()?.split_whitespace().nth(2)
    }
}

/// Is this a trace.dat (any version)?
pub fn is_tracedat(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// What the metadata sections give, in either version.
#[derive(Default)]
struct Meta {
    page: Option<PageHeader>,
    formats: HashMap<u16, Format>,
    kallsyms: String,
    cmdlines: HashMap<i32, String>,
    uname: Option<String>,
}

/// The text of a `UNAME` option (NUL-terminated, or not).
fn uname_of(body: &[u8]) -> String {
    let text = body.split(|&b| b == 0).next().unwrap_or_default();
    String::from_utf8_lossy(text).trim().to_string()
}

/// One buffer's CPU data: its name, whether compressed, where each CPU's pages are.
struct Buffer {
    name: String,
    codec: Codec,
    cpus: Vec<CpuData>,
}

/// Parse the metadata of the trace.dat `src`.
pub fn parse(src: &dyn Source, path: Option<&str>) -> Result<Header> {
    let mut c = Cursor::new(src, 0, path);
    let magic = c.take(MAGIC.len() as u64).map_err(|_| c.err("not a trace.dat (shorter than its magic)"))?;
    if magic != MAGIC {
        return Err(c.err("not a trace.dat (no \\x17\\x08Dtracing magic)"));
    }
    let v = c.cstr()?;
    let version: u32 = v.parse().map_err(|_| c.err(format!("bad version '{v}'")))?;
    if version != 6 && version != 7 {
        return Err(c.err(format!("version {version} is not read (versions 6 and 7 are)")));
    }
    if c.u8()? != 0 {
        return Err(c.err("a big-endian trace is not read"));
    }
    let long_size = usize::from(c.u8()?);
    let page_size = c.u32()? as usize;
    if !(long_size == 4 || long_size == 8) || !(64..=1 << 20).contains(&page_size) {
        return Err(c.err(format!("implausible long size {long_size} or page size {page_size}")));
    }
    let mut meta = Meta::default();
    let buffers = if version == 6 { v6(&mut c, &mut meta)? } else { v7(&mut c, &mut meta)? };
    let page = meta.page.ok_or_else(|| c.err("no header_page (the ring-buffer page layout)"))?;
    // the first buffer with data (the top level's is empty after `extract -B`)
    let mut buffers = buffers.into_iter();
    let first = buffers.next().ok_or_else(|| c.err("no CPU data (flyrecord) in the file"))?;
    let data = |b: &Buffer| b.cpus.iter().map(|c| c.size).sum::<u64>();
    let best = if data(&first) > 0 { first } else { buffers.find(|b| data(b) > 0).unwrap_or(first) };
    for cpu in &best.cpus {
        if cpu.offset.checked_add(cpu.size).is_none_or(|e| e > src.size()) {
            return Err(c.err(format!(
                "CPU {} data at byte {}+{} runs past the end of the file ({} bytes)",
                cpu.cpu,
                cpu.offset,
                cpu.size,
                src.size()
            )));
        }
    }
    Ok(Header {
        version,
        long_size,
        page_size,
        page,
        formats: meta.formats,
        kallsyms: meta.kallsyms,
        symbols: std::cell::OnceCell::new(),
        cmdlines: meta.cmdlines,
        uname: meta.uname,
        buffer: best.name,
        cpu_codec: best.codec,
        cpus: best.cpus,
    })
}

/// Version 6: the metadata in order, then options and `flyrecord` blocks.
fn v6(c: &mut Cursor<'_>, meta: &mut Meta) -> Result<Vec<Buffer>> {
    header_info(c, meta)?;
    ftrace_formats(c, meta)?;
    event_formats(c, meta)?;
    kallsyms(c, meta)?;
    let n = c.u32()?;
    c.skip(u64::from(n))?; // printk formats: for bprint, not used
    cmdlines(c, meta)?;
    let ncpus = c.u32()?;
    if ncpus > MAX_CPUS {
        return Err(c.err(format!("{ncpus} CPUs")));
    }
    let mut instances: Vec<(String, u64)> = Vec::new();
    let mut tag = c.take(10)?;
    if tag.starts_with(b"options") {
        loop {
            let id = c.u16()?;
            if id == OPTION_DONE {
                break;
            }
            let size = c.u32()?;
            let body = c.take(u64::from(size))?;
            if id == OPTION_UNAME {
                meta.uname = Some(uname_of(&body));
            }
            if id == OPTION_BUFFER {
                let body = body.as_slice();
                let mut b = Cursor::new(&body, 0, c.path);
                b.place = "BUFFER option byte";
                let off = b.u64()?;
                instances.push((b.cstr()?, off));
            }
        }
        tag = c.take(10)?;
    }
    if !tag.starts_with(b"flyrecord") {
        return Err(c.err("expected the 'flyrecord' data (a latency trace is not read)"));
    }
    let mut buffers = vec![Buffer { name: String::new(), codec: Codec::None, cpus: flyrecord(c, ncpus)? }];
    for (name, off) in instances {
        let mut b = Cursor { pos: off, ..*c };
        let tag = b.take(10)?;
        if !tag.starts_with(b"flyrecord") {
            return Err(b.err(format!("buffer '{name}': expected 'flyrecord'")));
        }
        buffers.push(Buffer { name, codec: Codec::None, cpus: flyrecord(&mut b, ncpus)? });
    }
    Ok(buffers)
}

fn flyrecord(c: &mut Cursor<'_>, ncpus: u32) -> Result<Vec<CpuData>> {
    let mut cpus = Vec::new();
    for cpu in 0..ncpus {
        let offset = c.u64()?;
        let size = c.u64()?;
        cpus.push(CpuData { cpu, offset, size });
    }
    Ok(cpus)
}

/// Version 7: the compression header, then the chain of options sections, which say
/// where the other sections and the buffers are.
fn v7(c: &mut Cursor<'_>, meta: &mut Meta) -> Result<Vec<Buffer>> {
    let name = c.cstr()?;
    let _version = c.cstr()?;
    let codec = Codec::from_name(&name)
        .ok_or_else(|| c.err(format!("compression '{name}' is not read (none, zlib and zstd are)")))?;
    let mut next = c.u64()?;
    let mut sections: HashMap<u16, u64> = HashMap::new();
    let mut opts = Vec::new();
    let mut seen = 0;
    while next != 0 {
        seen += 1;
        if seen > MAX_OPTION_SECTIONS {
            return Err(c.err(format!("more than {MAX_OPTION_SECTIONS} options sections (a loop in their chain?)")));
        }
        next = section(c, next, OPTION_DONE, codec, &mut |s| options(s, &mut sections, &mut opts, &mut meta.uname))?;
    }
    let required: [(u16, &str, ReadSection); 3] = [
        (SECTION_HEADER_INFO, "header info", header_info),
        (SECTION_FTRACE_EVENTS, "ftrace event formats", ftrace_formats),
        (SECTION_EVENT_FORMATS, "event formats", event_formats),
    ];
    for (id, what, read) in required {
        let off = sections.get(&id).copied().ok_or_else(|| c.err(format!("no {what} section")))?;
        section(c, off, id, codec, &mut |s| read(s, meta))?;
    }
    // kallsyms and cmdlines may be left out
    let optional: [(u16, ReadSection); 2] = [(SECTION_KALLSYMS, kallsyms), (SECTION_CMDLINES, cmdlines)];
    for (id, read) in optional {
        if let Some(&off) = sections.get(&id) {
            section(c, off, id, codec, &mut |s| read(s, meta))?;
        }
    }
    // each buffer's flyrecord section header says whether its CPU data is compressed
    let mut buffers = Vec::with_capacity(opts.len());
    for (name, off, cpus) in opts {
        let mut h = Cursor { pos: off, ..*c };
        let id = h.u16()?;
        let flags = h.u16()?;
        if id != OPTION_BUFFER {
            return Err(h.err(format!("buffer '{name}': section {id} where its flyrecord data (3) was expected")));
        }
        let codec = if flags & SECTION_COMPRESSED != 0 { codec } else { Codec::None };
        buffers.push(Buffer { name, codec, cpus });
    }
    Ok(buffers)
}

/// A reader of one section's content.
type ReadSection = fn(&mut Cursor<'_>, &mut Meta) -> Result<()>;

/// A buffer option of version 7: its flyrecord section's offset, its name, where each
/// CPU's data is.
type BufferOption = (String, u64, Vec<CpuData>);

/// Read the section `id` at `offset` (its header, then its content, decompressed when
/// flagged) with `read`.
fn section<T>(
    c: &Cursor<'_>,
    offset: u64,
    id: u16,
    codec: Codec,
    read: &mut dyn FnMut(&mut Cursor<'_>) -> Result<T>,
) -> Result<T> {
    let mut h = Cursor { pos: offset, ..*c };
    let got = h.u16()?;
    let flags = h.u16()?;
    let _description = h.u32()?;
    let _size = h.u64()?;
    if got != id {
        return Err(Cursor { pos: offset, ..*c }.err(format!("section {got} where section {id} was expected")));
    }
    if flags & SECTION_COMPRESSED == 0 {
        return read(&mut h);
    }
    let mut data = Vec::new();
    codec.block(&mut h, &mut data)?;
    let place = format!("section {id} at byte {offset} ({}), decompressed byte", codec.name());
    let data = data.as_slice();
    let mut s = Cursor { src: &data, pos: 0, path: c.path, place: &place };
    read(&mut s)
}

/// One options section: remember where the sections and buffers are; the offset of the
/// next options section (0: none).
fn options(
    c: &mut Cursor<'_>,
    sections: &mut HashMap<u16, u64>,
    buffers: &mut Vec<BufferOption>,
    uname: &mut Option<String>,
) -> Result<u64> {
    loop {
        let id = c.u16()?;
        let size = c.u32()?;
        let body = c.take(u64::from(size))?;
        let place = format!("option {id} at byte {}, byte", c.pos - u64::from(size));
        let body = body.as_slice();
        let mut b = Cursor { src: &body, pos: 0, path: c.path, place: &place };
        match id {
            OPTION_DONE => return b.u64(),
            OPTION_BUFFER => {
                let offset = b.u64()?;
                let name = b.cstr()?;
                let _clock = b.cstr()?;
                let _page_size = b.u32()?;
                let n = b.u32()?;
                if n > MAX_CPUS {
                    return Err(b.err(format!("{n} CPUs")));
                }
                let mut cpus = Vec::new();
                for _ in 0..n {
                    let cpu = b.u32()?;
                    let (offset, size) = (b.u64()?, b.u64()?);
                    cpus.push(CpuData { cpu, offset, size });
                }
                buffers.push((name, offset, cpus));
            }
            SECTION_HEADER_INFO..=SECTION_CMDLINES => {
                sections.insert(id, b.u64()?);
            }
            OPTION_UNAME => *uname = Some(uname_of(body)),
            _ => {}
        }
    }
}

fn expect(c: &mut Cursor<'_>, tag: &str) -> Result<()> {
    let at = *c;
    let got = c.cstr()?;
    if got != tag {
        return Err(at.err(format!("expected '{tag}', found '{got}'")));
    }
    Ok(())
}

/// `header_page` (the page layout) and `header_event` (not needed: fixed).
fn header_info(c: &mut Cursor<'_>, meta: &mut Meta) -> Result<()> {
    expect(c, "header_page")?;
    let n = c.u64()?;
    let at = *c;
    meta.page =
        Some(page_header(&c.text(n)?).ok_or_else(|| at.err("header_page without timestamp/commit/data fields"))?);
    expect(c, "header_event")?;
    let n = c.u64()?;
    c.skip(n)
}

/// u32 count, then per format u64 size + text.
fn ftrace_formats(c: &mut Cursor<'_>, meta: &mut Meta) -> Result<()> {
    for _ in 0..c.u32()? {
        let n = c.u64()?;
        let f = Format::parse("ftrace", &c.text(n)?, c.path)?;
        meta.formats.insert(f.id, f);
    }
    Ok(())
}

/// u32 systems; per system its name, u32 count, per format u64 size + text.
fn event_formats(c: &mut Cursor<'_>, meta: &mut Meta) -> Result<()> {
    for _ in 0..c.u32()? {
        let system = c.cstr()?;
        for _ in 0..c.u32()? {
            let n = c.u64()?;
            let f = Format::parse(&system, &c.text(n)?, c.path)?;
            meta.formats.insert(f.id, f);
        }
    }
    Ok(())
}

/// u32 size + `/proc/kallsyms` text.
fn kallsyms(c: &mut Cursor<'_>, meta: &mut Meta) -> Result<()> {
    let n = c.u32()?;
    meta.kallsyms = c.text(u64::from(n))?;
    Ok(())
}

/// u64 size + `pid comm` lines.
fn cmdlines(c: &mut Cursor<'_>, meta: &mut Meta) -> Result<()> {
    let n = c.u64()?;
    meta.cmdlines = c
        .text(n)?
        .lines()
        .filter_map(|l| l.split_once(' ').and_then(|(p, c)| Some((p.trim().parse().ok()?, c.to_string()))))
        .collect();
    Ok(())
}

/// `field: u64 timestamp; offset:0; size:8; signed:0;` lines of `header_page`.
fn page_header(text: &str) -> Option<PageHeader> {
    let get = |name: &str| -> Option<(usize, usize)> {
        let line = text.lines().find(|l| l.split(';').next().is_some_and(|d| d.trim_end().ends_with(name)))?;
        let num = |k: &str| line.split(k).nth(1)?.split(';').next()?.trim().parse().ok();
        Some((num("offset:")?, num("size:")?))
    };
    Some(PageHeader { timestamp: get(" timestamp")?, commit: get(" commit")?, data: get(" data")?.0 })
}

fn symbol_table(text: &str) -> Vec<(u64, String)> {
    let mut v: Vec<(u64, String)> = text
        .lines()
        .filter_map(|l| {
            let mut it = l.split_whitespace();
            let addr = u64::from_str_radix(it.next()?, 16).ok()?;
            let _kind = it.next()?;
            Some((addr, it.next()?.to_string()))
        })
        .collect();
    v.sort();
    v
}

impl Header {
    /// The kernel symbol at or before `addr`, as `%ps` prints it (`name`, or `name+0xoff`).
    pub fn symbol(&self, addr: u64) -> Option<String> {
        symbol(self.symbols.get_or_init(|| symbol_table(&self.kallsyms)), addr)
    }
}

/// The symbol of `symbols` (sorted) at or before `addr`.
fn symbol(symbols: &[(u64, String)], addr: u64) -> Option<String> {
    let i = symbols.partition_point(|(a, _)| *a <= addr).checked_sub(1)?;
    let (a, name) = symbols.get(i)?;
    Some(if *a == addr { name.clone() } else { format!("{name}+{:#x}", addr - a) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_header_and_symbols() {
        let hp = "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";
        assert_eq!(page_header(hp), Some(PageHeader { timestamp: (0, 8), commit: (8, 8), data: 16 }));
        let s = symbol_table("ffffffff81000010 T b\nffffffff81000000 t a [mod]\n");
        assert_eq!(symbol(&s, 0xffffffff81000000).as_deref(), Some("a"));
        assert_eq!(symbol(&s, 0xffffffff81000014).as_deref(), Some("b+0x4"));
        assert_eq!(symbol(&s, 1), None);
        let v8: &[u8] = b"\x17\x08Dtracing8\0";
        let e = parse(&v8, Some("t.dat")).unwrap_err().to_string();
        assert_eq!(e, "t.dat: trace.dat byte 12: version 8 is not read (versions 6 and 7 are)");
        let lz4: &[u8] = b"\x17\x08Dtracing7\0\0\x08\0\x10\0\0lz4\0\x31\0";
        let e = parse(&lz4, Some("t.dat")).unwrap_err().to_string();
        assert_eq!(e, "t.dat: trace.dat byte 24: compression 'lz4' is not read (none, zlib and zstd are)");
        let nope: &[u8] = b"nope";
        assert!(parse(&nope, None).is_err());
    }
}
