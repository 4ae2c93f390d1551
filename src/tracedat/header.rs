//! The metadata of a trace.dat file of version 6 (trace-cmd's `trace-output.c` layout):
//! magic, endianness, long and page size, the ring-buffer page header, the event formats,
//! kallsyms, cmdlines, the options and, per CPU, where its ring-buffer pages are.
//!
//! Version 7 files (sections, optionally zlib/zstd compressed) are recognised and refused
//! with the `trace-cmd convert` command line that makes a version 6 file of them.

use super::bytes::Reader;
use super::format::Format;
use crate::error::{Error, Result};
use std::collections::HashMap;

/// The first bytes of every trace.dat: `\x17\x08\x44tracing`.
pub const MAGIC: &[u8; 10] = b"\x17\x08Dtracing";

/// `TRACECMD_OPTION_BUFFER`: the pages of a named instance buffer.
const OPTION_BUFFER: u16 = 3;

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

/// Everything a reader needs from a trace.dat besides the pages themselves.
#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    /// The file version (6).
    pub version: u32,
    /// `sizeof(long)` of the traced kernel.
    pub long_size: usize,
    /// Ring-buffer page size.
    pub page_size: usize,
    /// The page header layout.
    pub page: PageHeader,
    /// Every event format (ftrace's and the systems'), by ID.
    pub formats: HashMap<u16, Format>,
    /// kallsyms: (address, name), sorted by address.
    pub symbols: Vec<(u64, String)>,
    /// pid → command name.
    pub cmdlines: HashMap<i32, String>,
    /// The buffer whose pages are read (`""` the top level, or an instance's name).
    pub buffer: String,
    /// Per CPU: (file offset, size) of its pages.
    pub cpus: Vec<(u64, u64)>,
}

/// Is this a trace.dat (any version)?
pub fn is_tracedat(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// Parse the header of a version 6 trace.dat.
pub fn parse(data: &[u8], path: Option<&str>) -> Result<Header> {
    let mut r = Reader::new(data, path);
    if r.take(MAGIC.len())? != MAGIC {
        return Err(r.err("not a trace.dat (no \\x17\\x08Dtracing magic)"));
    }
    let v = r.cstr()?;
    let version: u32 = v.parse().map_err(|_| r.err(format!("bad version '{v}'")))?;
    if version != 6 {
        return Err(Error::parse(
            path,
            None,
            format!(
                "trace.dat version {version} is not read (only version 6); convert it with `trace-cmd convert --file-version 6 --compression none -i IN -o OUT`, or give `trace-cmd report` text"
            ),
        ));
    }
    if r.take(1)? != [0] {
        return Err(r.err("a big-endian trace is not read"));
    }
    let long_size = usize::from(r.take(1)?.first().copied().unwrap_or(0));
    let page_size = r.u32()? as usize;
    if !(long_size == 4 || long_size == 8) || !(64..=1 << 20).contains(&page_size) {
        return Err(r.err(format!("implausible long size {long_size} or page size {page_size}")));
    }
    expect(&mut r, "header_page")?;
    let n = r.u64()?;
    let page = page_header(&r.text(n)?).ok_or_else(|| r.err("header_page without timestamp/commit/data fields"))?;
    expect(&mut r, "header_event")?;
    let n = r.u64()?;
    r.text(n)?;
    let mut formats = HashMap::new();
    for _ in 0..r.u32()? {
        let n = r.u64()?;
        let f = Format::parse("ftrace", &r.text(n)?, path)?;
        formats.insert(f.id, f);
    }
    for _ in 0..r.u32()? {
        let system = r.cstr()?.to_string();
        for _ in 0..r.u32()? {
            let n = r.u64()?;
            let f = Format::parse(&system, &r.text(n)?, path)?;
            formats.insert(f.id, f);
        }
    }
    let n = r.u32()?;
    let symbols = kallsyms(&r.text(u64::from(n))?);
    let n = r.u32()?;
    r.text(u64::from(n))?; // printk formats: for bprint, not used
    let n = r.u64()?;
    let cmdlines = r
        .text(n)?
        .lines()
        .filter_map(|l| l.split_once(' ').and_then(|(p, c)| Some((p.trim().parse().ok()?, c.to_string()))))
        .collect();
    let ncpus = r.u32()? as usize;
    if ncpus > 4096 {
        return Err(r.err(format!("{ncpus} CPUs")));
    }
    let mut buffers: Vec<(String, u64)> = Vec::new();
    let mut tag = r.take(10)?;
    if tag.starts_with(b"options") {
        loop {
            let id = r.u16()?;
            if id == 0 {
                break;
            }
            let size = r.u32()? as usize;
            let body = r.take(size)?;
            if id == OPTION_BUFFER {
                let mut b = Reader::new(body, path);
                let off = b.u64()?;
                buffers.push((b.cstr()?.to_string(), off));
            }
        }
        tag = r.take(10)?;
    }
    if !tag.starts_with(b"flyrecord") {
        return Err(r.err("expected the 'flyrecord' data (a latency trace is not read)"));
    }
    let mut best = (String::new(), flyrecord(&mut r, ncpus)?);
    for (name, off) in buffers {
        let mut b = Reader { pos: usize::try_from(off).map_err(|_| r.err("bad buffer offset"))?, ..r };
        let tag = b.take(10)?;
        if !tag.starts_with(b"flyrecord") {
            return Err(b.err(format!("buffer '{name}': expected 'flyrecord'")));
        }
        let cpus = flyrecord(&mut b, ncpus)?;
        if data_bytes(&best.1) == 0 {
            best = (name, cpus);
        }
    }
    Ok(Header { version, long_size, page_size, page, formats, symbols, cmdlines, buffer: best.0, cpus: best.1 })
}

fn data_bytes(cpus: &[(u64, u64)]) -> u64 {
    cpus.iter().map(|c| c.1).sum()
}

fn flyrecord(r: &mut Reader<'_>, ncpus: usize) -> Result<Vec<(u64, u64)>> {
    let mut cpus = Vec::with_capacity(ncpus);
    for _ in 0..ncpus {
        let off = r.u64()?;
        let size = r.u64()?;
        if off.checked_add(size).is_none_or(|e| e > r.data.len() as u64) {
            return Err(r.err(format!("CPU data at {off}+{size} runs past the end of the file")));
        }
        cpus.push((off, size));
    }
    Ok(cpus)
}

fn expect(r: &mut Reader<'_>, tag: &str) -> Result<()> {
    let got = r.cstr()?;
    if got != tag {
        return Err(r.err(format!("expected '{tag}', found '{got}'")));
    }
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

fn kallsyms(text: &str) -> Vec<(u64, String)> {
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

/// The symbol at or before `addr`, as `%ps` prints it (`name`, or `name+0xoff`).
pub fn symbol(symbols: &[(u64, String)], addr: u64) -> Option<String> {
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
        let s = kallsyms("ffffffff81000010 T b\nffffffff81000000 t a [mod]\n");
        assert_eq!(symbol(&s, 0xffffffff81000000).as_deref(), Some("a"));
        assert_eq!(symbol(&s, 0xffffffff81000014).as_deref(), Some("b+0x4"));
        assert_eq!(symbol(&s, 1), None);
        let e = parse(b"\x17\x08Dtracing7\0", Some("t.dat")).unwrap_err().to_string();
        assert!(e.starts_with("t.dat: trace.dat version 7 is not read"), "{e}");
        assert!(parse(b"nope", None).is_err());
    }
}
