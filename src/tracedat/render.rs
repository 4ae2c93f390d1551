//! Records as ftrace text lines in the kernel's own field format (`trace-cmd report -N`
//! without the print formats): `<...>-PID [CPU] SECONDS.NANOSECONDS: name: field=value ...`,
//! each non-common field in record order. Integers print in decimal, pointers in hex
//! (a `function` pointer as its kallsyms symbol, as `%ps` does), strings as they are,
//! and `sched_switch`'s `prev_state` in letters by the event's own `__print_flags` table.

use super::format::{Field, Format};
use super::header::symbol;
use super::ring::Record;
use crate::pelt::ftrace::PrevStateBits;
use std::fmt::Write;

/// What rendering needs besides the record: the symbols and the `prev_state` table.
#[derive(Debug, Clone)]
pub struct Renderer<'a> {
    /// kallsyms, sorted.
    pub symbols: &'a [(u64, String)],
    /// `sched_switch`'s `prev_state` letters.
    pub prev_state: PrevStateBits,
}

fn number(f: &Field, data: &[u8]) -> Option<i128> {
    let b = data.get(f.offset..f.offset.checked_add(f.size)?)?;
    let v = super::bytes::le(b);
    Some(if f.signed && f.size < 16 && f.size > 0 {
        let shift = 64 - 8 * f.size.min(8) as u32;
        i128::from(((v << shift) as i64) >> shift)
    } else {
        i128::from(v)
    })
}

fn string(f: &Field, data: &[u8]) -> Option<String> {
    let bytes = if f.ctype.starts_with("__data_loc") {
        let loc = number(f, data)? as u32;
        let (off, len) = ((loc & 0xffff) as usize, (loc >> 16) as usize);
        data.get(off..off + len)?
    } else {
        data.get(f.offset..f.offset.checked_add(f.size)?)?
    };
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    Some(String::from_utf8_lossy(bytes.get(..end)?).into_owned())
}

impl Renderer<'_> {
    /// Append the line of `rec` (of format `fmt`, by `pid`) to `out`.
    pub fn line(&self, fmt: &Format, rec: &Record<'_>, pid: i128, out: &mut String) {
        let (s, ns) = (rec.ts / 1_000_000_000, rec.ts % 1_000_000_000);
        let _ = write!(out, "<...>-{pid} [{:03}] {s}.{ns:09}: {}:", rec.cpu, fmt.name);
        for f in fmt.fields.iter().filter(|f| !f.name.starts_with("common_")) {
            let _ = write!(out, " {}=", f.name);
            if f.is_string() {
                out.push_str(&string(f, rec.data).unwrap_or_default());
            } else if f.array {
                out.push_str("ARRAY");
            } else if let Some(v) = number(f, rec.data) {
                if fmt.name == "sched_switch" && f.name == "prev_state" {
                    out.push_str(&self.prev_state.letters(v as u64));
                } else if f.is_pointer() {
                    match (f.name.as_str(), symbol(self.symbols, v as u64)) {
                        ("function", Some(name)) => out.push_str(&name),
                        _ => {
                            let _ = write!(out, "{:#x}", v as u64);
                        }
                    }
                } else {
                    let _ = write!(out, "{v}");
                }
            }
        }
        out.push('\n');
    }
}
