//! The events the importers read, decoded from a record's bytes at the offsets its
//! event format gives (docs/tracing.md §3), without rendering them as text.

use super::bytes::le;
use super::format::{Field, Format};
use std::collections::HashMap;

/// One decoded event (the fields the idle and PELT importers use).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// `sched_switch`.
    Switch {
        /// `prev_pid`.
        prev_pid: i64,
        /// `prev_state`, the kernel's number.
        prev_state: u64,
        /// `next_pid`.
        next_pid: i64,
    },
    /// `sched_wakeup` or `sched_wakeup_new`.
    Wakeup {
        /// `pid`.
        pid: i64,
        /// `target_cpu` (absent from formats without it).
        target_cpu: Option<i64>,
        /// `sched_wakeup_new`.
        new: bool,
    },
    /// A cfs_rq's PELT update: `sched_load_cfs_rq` / `sched_pelt_cfs`.
    CfsRqUpdate {
        /// `cpu`.
        cpu: i64,
        /// Its `path` is `/`: the CPU's root cfs_rq.
        root: bool,
    },
    /// A PELT state of one entity: `sched_load_se`, `sched_pelt_se` or
    /// `sched_util_est_se` (LISA's / the Arm EAS trees' events); the fields its format has.
    PeltSe {
        /// `pid` (-1 for a group entity).
        pid: i64,
        /// `util`.
        util: Option<u64>,
        /// `load`.
        load: Option<u64>,
        /// `runnable`.
        runnable: Option<u64>,
        /// `ewma` and `enqueued`.
        util_est: Option<(u64, u64)>,
    },
    /// `sched_stat_runtime`.
    Runtime {
        /// `pid`.
        pid: i64,
        /// `runtime`, ns of task clock.
        runtime: u64,
    },
    /// `sched_migrate_task`.
    Migrate {
        /// `pid`.
        pid: i64,
        /// `dest_cpu` (absent from formats without it).
        dest_cpu: Option<i64>,
    },
    /// `cpu_frequency`, or a `print` (`tracing_mark_write`) of LISA's
    /// `cpu_frequency_devlib: state=KHZ cpu_id=N` marker (a snapshot).
    CpuFrequency {
        /// `state`, kHz.
        state: u64,
        /// `cpu_id`.
        cpu_id: u64,
        /// From a devlib marker.
        snapshot: bool,
    },
    /// `cpu_idle`.
    CpuIdle {
        /// `state` (4294967295 = the exit).
        state: u64,
        /// `cpu_id`.
        cpu_id: u64,
    },
    /// `hrtimer_start`.
    HrtimerStart {
        /// `hrtimer` (the address).
        hrtimer: u64,
        /// `function` (the callback's address).
        function: u64,
        /// `expires`, ns of the timer's clock.
        expires: i64,
    },
    /// `hrtimer_cancel`.
    HrtimerCancel {
        /// `hrtimer`.
        hrtimer: u64,
    },
    /// `hrtimer_expire_entry`.
    HrtimerExpireEntry {
        /// `hrtimer`.
        hrtimer: u64,
        /// `now`, ns of the timer's clock.
        now: i64,
        /// `function`.
        function: u64,
    },
    /// `tick_stop`.
    TickStop {
        /// `success`.
        success: bool,
    },
}

/// Where one field is in a record (8 bytes, so that a [`Layout`] fits a cache line).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Slot {
    offset: u32,
    size: u8,
    signed: bool,
}

impl Slot {
    fn of(f: &Field) -> Option<Slot> {
        let offset = u32::try_from(f.offset).ok()?;
        let size = u8::try_from(f.size).ok().filter(|s| (1..=8).contains(s))?;
        (!f.array).then_some(Slot { offset, size, signed: f.signed })
    }

    /// The field's value, sign-extended when signed; `None` past the record's end.
    #[inline(always)]
    fn get(self, data: &[u8]) -> Option<i64> {
        let (offset, size) = (self.offset as usize, usize::from(self.size));
        let at = data.get(offset..)?;
        // one load of the field's own size (a field ending the record has nothing after
        // it to load with it)
        let v = match size {
            8 => u64::from_le_bytes(*at.first_chunk::<8>()?),
            4 => u64::from(u32::from_le_bytes(*at.first_chunk::<4>()?)),
            2 => u64::from(u16::from_le_bytes(*at.first_chunk::<2>()?)),
            1 => u64::from(*at.first()?),
            _ => le(at.get(..size)?),
        };
        let shift = 64 - 8 * u32::from(self.size);
        Some(if self.signed { ((v << shift) as i64) >> shift } else { ((v << shift) >> shift) as i64 })
    }
}

/// How one event is decoded: its kind and field slots.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layout {
    Switch([Slot; 3]),
    Wakeup([Slot; 1], Option<Slot>, bool),
    /// pid, then util, load, runnable, ewma, enqueued when the format has them.
    PeltSe(Slot, [Option<Slot>; 5]),
    /// cpu, and the offset of the `__data_loc` of `path` when the format has it.
    CfsRq(Slot, Option<usize>),
    Runtime([Slot; 2]),
    Migrate([Slot; 1], Option<Slot>),
    CpuFrequency([Slot; 2]),
    /// `print`: the offset of its `buf` text.
    Marker(usize),
    CpuIdle([Slot; 2]),
    HrtimerStart([Slot; 3]),
    HrtimerCancel([Slot; 1]),
    HrtimerExpireEntry([Slot; 3]),
    TickStop([Slot; 1]),
}

/// The events read and the fields each needs.
const EVENTS: [(&str, &[&str]); 17] = [
    ("sched_switch", &["prev_pid", "prev_state", "next_pid"]),
    ("sched_wakeup", &["pid"]),
    ("sched_wakeup_new", &["pid"]),
    ("sched_stat_runtime", &["pid", "runtime"]),
    ("sched_migrate_task", &["pid"]),
    ("cpu_idle", &["state", "cpu_id"]),
    ("hrtimer_start", &["hrtimer", "function", "expires"]),
    ("hrtimer_cancel", &["hrtimer"]),
    ("hrtimer_expire_entry", &["hrtimer", "now", "function"]),
    ("tick_stop", &["success"]),
    ("cpu_frequency", &["state", "cpu_id"]),
    ("print", &[]),
    ("sched_load_se", &["pid"]),
    ("sched_pelt_se", &["pid"]),
    ("sched_util_est_se", &["pid"]),
    ("sched_load_cfs_rq", &["cpu"]),
    ("sched_pelt_cfs", &["cpu"]),
];

/// Why [`Decoder::decode`] could not decode a record of an event asked for: a small
/// value (the words, from [`Decoder::why`], are only made for the records that need
/// them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unreadable {
    /// The record, of this many bytes, is shorter than its format says.
    Short(usize),
    /// The event's format lacks a field the importers need (its place in the decoder).
    Format(usize),
}

/// Decodes the records of one trace's events by their `common_type`.
#[derive(Debug, Clone)]
pub struct Decoder {
    /// By event ID: 0 for an event not asked for, else 1 + its place in `layouts` (a
    /// table indexed by the ID: one load a record, where a hash map took a hash).
    by_id: Vec<u16>,
    /// The layouts asked for, or why the event's format cannot be read.
    layouts: Vec<std::result::Result<Layout, String>>,
}

impl Decoder {
    /// The decoder of a trace's `formats` (by ID), for the events named in `wanted`
    /// (event names of [`Event`]'s kinds).
    pub fn new(formats: &HashMap<u16, Format>, wanted: &[&str]) -> Self {
        let mut by_id = Vec::new();
        let mut layouts = Vec::new();
        for f in formats.values() {
            let Some((name, fields)) = EVENTS.iter().find(|(n, _)| *n == f.name && wanted.contains(n)) else {
                continue;
            };
            let at = usize::from(f.id);
            if by_id.len() <= at {
                by_id.resize(at + 1, 0);
            }
            layouts.push(layout(f, name, fields));
            if let Some(slot) = by_id.get_mut(at) {
                *slot = u16::try_from(layouts.len()).unwrap_or(0);
            }
        }
        Decoder { by_id, layouts }
    }

    /// The layout of a record's event, when asked for.
    #[inline]
    fn layout_of(&self, data: &[u8]) -> Option<&std::result::Result<Layout, String>> {
        let id = data.get(..2).map_or(u16::MAX, |b| le(b) as u16);
        let k = *self.by_id.get(usize::from(id))?;
        self.layouts.get(usize::from(k).checked_sub(1)?)
    }

    /// The event of a record (`data` from its `common_type` on): `Ok(None)` for an event
    /// not asked for, an error message when its format or the record is unreadable.
    /// Inlined into each importer's loop, where its match and the importer's fuse
    /// (paired runs, whole process: the PELT import's CPU time 0.90×, the idle import's
    /// 0.94× of the same code with `#[inline]`, which the compiler declined).
    #[inline(always)]
    pub fn decode(&self, data: &[u8]) -> std::result::Result<Option<Event>, Unreadable> {
        let id = data.get(..2).map_or(u16::MAX, |b| le(b) as u16);
        let Some(k) = self.by_id.get(usize::from(id)).and_then(|&k| usize::from(k).checked_sub(1)) else {
            return Ok(None);
        };
        let Some(Ok(layout)) = self.layouts.get(k) else { return Err(Unreadable::Format(k)) };
        let short = || Unreadable::Short(data.len());
        let v = |s: Slot| s.get(data).ok_or_else(short);
        Ok(Some(match *layout {
            Layout::Switch([p, s, n]) => Event::Switch { prev_pid: v(p)?, prev_state: v(s)? as u64, next_pid: v(n)? },
            Layout::Wakeup([p], t, new) => Event::Wakeup { pid: v(p)?, target_cpu: t.map(v).transpose()?, new },
            Layout::CfsRq(c, path) => {
                // __data_loc: the string's offset in the record (low 16 bits), its length
                let root = match path {
                    None => true,
                    Some(at) => {
                        let loc = data.get(at..at + 4).map(le).ok_or_else(short)?;
                        let (off, len) = ((loc & 0xffff) as usize, (loc >> 16 & 0xffff) as usize);
                        let text = data.get(off..off + len).unwrap_or_default();
                        text.split(|&b| b == 0).next() == Some(b"/".as_slice())
                    }
                };
                Event::CfsRqUpdate { cpu: v(c)?, root }
            }
            Layout::PeltSe(p, [u, l, r, e, q]) => {
                let o = |s: Option<Slot>| s.map(v).transpose().map(|x| x.map(|x| x as u64));
                let util_est = match (o(e)?, o(q)?) {
                    (Some(e), Some(q)) => Some((e, q)),
                    _ => None,
                };
                Event::PeltSe { pid: v(p)?, util: o(u)?, load: o(l)?, runnable: o(r)?, util_est }
            }
            Layout::Runtime([p, r]) => Event::Runtime { pid: v(p)?, runtime: v(r)? as u64 },
            Layout::Migrate([p], d) => Event::Migrate { pid: v(p)?, dest_cpu: d.map(v).transpose()? },
            Layout::CpuFrequency([s, c]) => {
                Event::CpuFrequency { state: v(s)? as u64, cpu_id: v(c)? as u64, snapshot: false }
            }
            Layout::Marker(offset) => {
                let Some(m) = data.get(offset..).and_then(devlib_frequency) else { return Ok(None) };
                m
            }
            Layout::CpuIdle([s, c]) => Event::CpuIdle { state: v(s)? as u64, cpu_id: v(c)? as u64 },
            Layout::HrtimerStart([t, f, e]) => {
                Event::HrtimerStart { hrtimer: v(t)? as u64, function: v(f)? as u64, expires: v(e)? }
            }
            Layout::HrtimerCancel([t]) => Event::HrtimerCancel { hrtimer: v(t)? as u64 },
            Layout::HrtimerExpireEntry([t, n, f]) => {
                Event::HrtimerExpireEntry { hrtimer: v(t)? as u64, now: v(n)?, function: v(f)? as u64 }
            }
            Layout::TickStop([s]) => Event::TickStop { success: v(s)? == 1 },
        }))
    }
}

impl Decoder {
    /// What `e`, an error of [`Decoder::decode`], means, in words.
    pub fn why(&self, e: Unreadable) -> String {
        match e {
            Unreadable::Short(n) => format!("a record of {n} bytes is too short for its format"),
            Unreadable::Format(k) => match self.layouts.get(k) {
                Some(Err(msg)) => msg.clone(),
                _ => "the event's format cannot be read".to_string(),
            },
        }
    }

    /// The text of a `print` record (a `trace_marker` write, up to its NUL), when the
    /// decoder reads `print` and the record is one; `None` otherwise.
    pub fn marker<'d>(&self, data: &'d [u8]) -> Option<&'d [u8]> {
        let Some(Ok(Layout::Marker(offset))) = self.layout_of(data) else { return None };
        data.get(*offset..)?.split(|&b| b == 0).next()
    }
}

/// The layout of `f` (the event `name` with `fields`), or what is missing.
fn layout(f: &Format, name: &str, fields: &[&str]) -> std::result::Result<Layout, String> {
    let mut slots = Vec::with_capacity(fields.len());
    for want in fields {
        let field = f.field(want).ok_or_else(|| format!("{name}'s format has no field '{want}'"))?;
        slots.push(Slot::of(field).ok_or_else(|| {
            format!("{name}'s field '{want}' is not a number of 1 to 8 bytes ({} bytes)", field.size)
        })?);
    }
    let s = |i: usize| slots.get(i).copied().ok_or_else(|| format!("{name}: field {i} missing"));
    let optional = |want: &str| f.field(want).and_then(Slot::of);
    Ok(match name {
        "sched_switch" => Layout::Switch([s(0)?, s(1)?, s(2)?]),
        "sched_wakeup" | "sched_wakeup_new" => {
            Layout::Wakeup([s(0)?], optional("target_cpu"), name == "sched_wakeup_new")
        }
        "sched_load_cfs_rq" | "sched_pelt_cfs" => Layout::CfsRq(s(0)?, f.field("path").map(|p| p.offset)),
        "sched_load_se" | "sched_pelt_se" | "sched_util_est_se" => Layout::PeltSe(
            s(0)?,
            [optional("util"), optional("load"), optional("runnable"), optional("ewma"), optional("enqueued")],
        ),
        "sched_stat_runtime" => Layout::Runtime([s(0)?, s(1)?]),
        "sched_migrate_task" => Layout::Migrate([s(0)?], optional("dest_cpu")),
        "cpu_frequency" => Layout::CpuFrequency([s(0)?, s(1)?]),
        "print" => {
            Layout::Marker(f.field("buf").ok_or_else(|| "print's format has no field 'buf'".to_string())?.offset)
        }
        "cpu_idle" => Layout::CpuIdle([s(0)?, s(1)?]),
        "hrtimer_start" => Layout::HrtimerStart([s(0)?, s(1)?, s(2)?]),
        "hrtimer_cancel" => Layout::HrtimerCancel([s(0)?]),
        "hrtimer_expire_entry" => Layout::HrtimerExpireEntry([s(0)?, s(1)?, s(2)?]),
        _ => Layout::TickStop([s(0)?]),
    })
}

/// LISA's `cpu_frequency_devlib: state=KHZ cpu_id=N` marker at the start of a `print`
/// record's text (NUL-terminated); `None` for any other text.
fn devlib_frequency(buf: &[u8]) -> Option<Event> {
    let text = buf.split(|&b| b == 0).next()?;
    let text = std::str::from_utf8(text).ok()?.trim_start();
    let body = text.strip_prefix("cpu_frequency_devlib:")?;
    let num = |key: &str| body.split_whitespace().find_map(|w| w.strip_prefix(key)).and_then(|v| v.parse::<u64>().ok());
    Some(Event::CpuFrequency { state: num("state=")?, cpu_id: num("cpu_id=")?, snapshot: true })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_of_each_size_at_the_end_of_a_record() {
        // bytes 0..8: ff fe 01 80 00 00 00 80; each field read alone, ending the record
        let rec = [0xffu8, 0xfe, 0x01, 0x80, 0x00, 0x00, 0x00, 0x80];
        let get = |offset: u32, size: u8, signed: bool, len: usize| Slot { offset, size, signed }.get(&rec[..len]);
        assert_eq!(get(0, 1, false, 1), Some(0xff));
        assert_eq!(get(0, 1, true, 1), Some(-1));
        assert_eq!(get(1, 2, false, 3), Some(0x01fe));
        assert_eq!(get(2, 2, true, 4), Some(-0x7fff)); // 0x8001 as i16
        assert_eq!(get(1, 3, false, 4), Some(0x80_01fe));
        assert_eq!(get(1, 3, true, 4), Some(0x80_01fe - 0x100_0000));
        assert_eq!(get(4, 4, false, 8), Some(0x8000_0000));
        assert_eq!(get(4, 4, true, 8), Some(-0x8000_0000));
        assert_eq!(get(0, 8, false, 8), Some(0x8000_0000_8001_feffu64 as i64));
        // a field past the record's end
        assert_eq!(get(6, 4, false, 8), None);
        assert_eq!(get(0, 8, false, 7), None);
    }

    #[test]
    fn a_record_by_its_format() {
        let text =
            "name: sched_switch\nID: 7\nformat:\n\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\
\tfield:pid_t prev_pid;\toffset:4;\tsize:4;\tsigned:1;\n\tfield:long prev_state;\toffset:8;\tsize:8;\tsigned:1;\n\
\tfield:pid_t next_pid;\toffset:16;\tsize:4;\tsigned:1;\n";
        let mut formats = HashMap::new();
        let f = Format::parse("sched", text, None).unwrap();
        formats.insert(f.id, f);
        let d = Decoder::new(&formats, &["sched_switch"]);
        let mut rec = vec![7u8, 0, 0, 0];
        rec.extend((-1i32).to_le_bytes());
        rec.extend(0x100u64.to_le_bytes());
        rec.extend(42i32.to_le_bytes());
        assert_eq!(d.decode(&rec), Ok(Some(Event::Switch { prev_pid: -1, prev_state: 0x100, next_pid: 42 })));
        assert_eq!(d.decode(&[8, 0, 1, 2]), Ok(None));
        assert_eq!(
            d.decode(&rec[..12]).map_err(|e| d.why(e)),
            Err("a record of 12 bytes is too short for its format".into())
        );
        // a format without a field the importer needs: every record of it says so
        let f = Format::parse("sched", "name: sched_wakeup\nID: 9\n", None).unwrap();
        formats.insert(f.id, f);
        let d = Decoder::new(&formats, &["sched_wakeup"]);
        assert_eq!(d.decode(&[9, 0]).map_err(|e| d.why(e)), Err("sched_wakeup's format has no field 'pid'".into()));
    }
}
