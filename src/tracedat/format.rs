//! Event formats as the kernel prints them in `events/<system>/<event>/format` and
//! trace-cmd stores them in trace.dat: name, numeric ID, the fields' offsets, sizes and
//! signedness, and the `print fmt` line.

use crate::error::{Error, Result};

/// One field of an event record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// The field's name (`prev_pid`).
    pub name: String,
    /// Its C type as declared (`pid_t`, `char`, `void *`, `__data_loc char[]`).
    pub ctype: String,
    /// Byte offset in the record.
    pub offset: usize,
    /// Byte size in the record.
    pub size: usize,
    /// `signed:1`.
    pub signed: bool,
    /// A fixed array (`char prev_comm[16]`).
    pub array: bool,
}

impl Field {
    /// A `char` array or a `__data_loc char[]`: printed as a string.
    pub fn is_string(&self) -> bool {
        self.ctype.contains("char") && (self.array || self.ctype.starts_with("__data_loc"))
    }

    /// A pointer (`void *`, `struct hrtimer *`): printed in hex.
    pub fn is_pointer(&self) -> bool {
        self.ctype.contains('*')
    }
}

/// One event's format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Format {
    /// The event's system (`sched`), `ftrace` for trace-cmd's ftrace formats.
    pub system: String,
    /// The event's name (`sched_switch`).
    pub name: String,
    /// The ID in each record's `common_type`.
    pub id: u16,
    /// The fields, common ones (`common_*`) first, in record order.
    pub fields: Vec<Field>,
    /// The `print fmt:` text.
    pub print_fmt: String,
}

impl Format {
    /// Parse one format text; `path` names the trace in errors.
    pub fn parse(system: &str, text: &str, path: Option<&str>) -> Result<Self> {
        let bad = |msg: String| Error::parse(path, None, format!("event format of system '{system}': {msg}"));
        let mut name = None;
        let mut id = None;
        let mut fields = Vec::new();
        let mut print_fmt = String::new();
        for line in text.lines() {
            let t = line.trim();
            if let Some(n) = t.strip_prefix("name:") {
                name = Some(n.trim().to_string());
            } else if let Some(v) = t.strip_prefix("ID:") {
                id = Some(v.trim().parse::<u16>().map_err(|_| bad(format!("bad ID '{}'", v.trim())))?);
            } else if let Some(v) = t.strip_prefix("print fmt:") {
                print_fmt = v.trim().to_string();
            } else if t.starts_with("field:") {
                fields.push(parse_field(t).ok_or_else(|| bad(format!("unreadable field line '{t}'")))?);
            }
        }
        let name = name.ok_or_else(|| bad("no 'name:' line".into()))?;
        let id = id.ok_or_else(|| bad(format!("event '{name}' has no 'ID:' line")))?;
        Ok(Format { system: system.to_string(), name, id, fields, print_fmt })
    }

    /// The field called `name`.
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.name == name)
    }
}

/// `field:unsigned short common_type; offset:0; size:2; signed:0;`
fn parse_field(line: &str) -> Option<Field> {
    let mut parts = line.split(';').map(str::trim);
    let decl = parts.next()?.strip_prefix("field:")?.trim();
    let mut offset = None;
    let mut size = None;
    let mut signed = false;
    for p in parts {
        if let Some(v) = p.strip_prefix("offset:") {
            offset = v.parse().ok();
        } else if let Some(v) = p.strip_prefix("size:") {
            size = v.parse().ok();
        } else if let Some(v) = p.strip_prefix("signed:") {
            signed = v == "1";
        }
    }
    let (ctype, last) = decl.rsplit_once(|c: char| c.is_whitespace() || c == '*').map_or(("", decl), |(a, b)| {
        // keep a '*' of the type with the type
        let cut = decl.len() - b.len();
        (decl.get(..cut).unwrap_or(a).trim(), b)
    });
    let array = last.contains('[');
    let name = last.split('[').next()?.to_string();
    if name.is_empty() {
        return None;
    }
    Some(Field { name, ctype: ctype.to_string(), offset: offset?, size: size?, signed, array })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kernel_format() {
        let text = "name: hrtimer_start\nID: 96\nformat:\n\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\
\tfield:void * hrtimer;\toffset:8;\tsize:8;\tsigned:0;\n\tfield:char comm[16];\toffset:16;\tsize:16;\tsigned:0;\n\
\tfield:__data_loc char[] name;\toffset:32;\tsize:4;\tsigned:0;\n\tfield:s64 expires;\toffset:36;\tsize:8;\tsigned:1;\n\n\
print fmt: \"hrtimer=%p\", REC->hrtimer\n";
        let f = Format::parse("timer", text, None).unwrap();
        assert_eq!((f.name.as_str(), f.id), ("hrtimer_start", 96));
        let h = f.field("hrtimer").unwrap();
        assert!(h.is_pointer() && !h.is_string());
        assert_eq!((h.offset, h.size, h.ctype.as_str()), (8, 8, "void *"));
        assert!(f.field("comm").unwrap().is_string());
        assert!(f.field("name").unwrap().is_string());
        assert!(f.field("expires").unwrap().signed);
        assert_eq!(f.print_fmt, "\"hrtimer=%p\", REC->hrtimer");
        assert!(Format::parse("x", "name: a\n", Some("t.dat")).unwrap_err().to_string().contains("no 'ID:' line"));
    }
}
