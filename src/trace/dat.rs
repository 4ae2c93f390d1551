//! trace.dat records decoded into the metrics pass's [`Event`]s at the offsets of each
//! event's own format (docs/tracing.md §3), task names included; `prev_state` by the
//! `sched_switch` format's `__print_flags` table. LISA's `cpu_frequency_devlib` markers
//! and the PELT events are decoded by [`crate::tracedat::decode`].

use super::event::{Comm, Event, Kind, PrevState, WakeKind};
use crate::pelt::ftrace::PrevStateBits;
use crate::tracedat::bytes::le;
use crate::tracedat::decode::{Decoder, Event as DatEvent};
use crate::tracedat::format::{Field, Format};
use std::collections::HashMap;

/// The events decoded here.
pub const EVENTS: [&str; 10] = [
    "sched_switch",
    "sched_waking",
    "sched_wakeup",
    "sched_wakeup_new",
    "sched_migrate_task",
    "sched_stat_runtime",
    "cpu_idle",
    "cpu_idle_miss",
    "cpu_frequency",
    "tick_stop",
];

/// The events handed to [`crate::tracedat::decode::Decoder`].
const DELEGATED: [&str; 4] = ["print", "sched_load_se", "sched_pelt_se", "sched_util_est_se"];

/// Where a number is in a record.
#[derive(Debug, Clone, Copy)]
struct Num {
    offset: usize,
    size: usize,
    signed: bool,
}

impl Num {
    fn of(f: &Field) -> Option<Num> {
        (!f.array && (1..=8).contains(&f.size)).then_some(Num { offset: f.offset, size: f.size, signed: f.signed })
    }

    #[inline]
    fn get(self, data: &[u8]) -> Option<i64> {
        let v = le(data.get(self.offset..self.offset + self.size)?);
        let shift = 64 - 8 * self.size as u32;
        Some(if self.signed { ((v << shift) as i64) >> shift } else { v as i64 })
    }
}

/// Where a fixed `char[N]` is in a record.
#[derive(Debug, Clone, Copy)]
struct Text {
    offset: usize,
    size: usize,
}

impl Text {
    fn of(f: &Field) -> Option<Text> {
        (f.array && f.size > 0).then_some(Text { offset: f.offset, size: f.size })
    }

    #[inline]
    fn get(self, data: &[u8]) -> Comm {
        Comm::new(data.get(self.offset..self.offset + self.size).unwrap_or_default())
    }
}

#[derive(Debug, Clone, Copy)]
enum Layout {
    Switch { prev_pid: Num, prev_comm: Option<Text>, prev_state: Num, next_pid: Num, next_comm: Option<Text> },
    Wakeup { pid: Num, comm: Option<Text>, target: Option<Num>, kind: WakeKind },
    Migrate { pid: Num, orig: Option<Num>, dest: Option<Num> },
    Runtime { pid: Num, runtime: Num },
    Idle { state: Num, cpu: Num },
    IdleMiss { cpu: Num, state: Num, below: Num },
    Frequency { state: Num, cpu: Num },
    TickStop { success: Num },
    Delegated,
}

/// Decodes one trace's records by their `common_type`.
pub struct DatDecoder {
    /// By event ID: 0 = not read, else 1 + the index in `layouts`.
    index: Vec<u16>,
    layouts: Vec<Result<Layout, String>>,
    bits: PrevStateBits,
    delegate: Decoder,
}

fn num(f: &Format, name: &str) -> Result<Num, String> {
    let field = f.field(name).ok_or_else(|| format!("{}'s format has no field '{name}'", f.name))?;
    Num::of(field).ok_or_else(|| format!("{}'s field '{name}' is not a number of 1 to 8 bytes", f.name))
}

fn opt_num(f: &Format, name: &str) -> Option<Num> {
    f.field(name).and_then(Num::of)
}

fn text(f: &Format, name: &str) -> Option<Text> {
    f.field(name).and_then(Text::of)
}

fn layout(f: &Format) -> Result<Layout, String> {
    Ok(match f.name.as_str() {
        "sched_switch" => Layout::Switch {
            prev_pid: num(f, "prev_pid")?,
            prev_comm: text(f, "prev_comm"),
            prev_state: num(f, "prev_state")?,
            next_pid: num(f, "next_pid")?,
            next_comm: text(f, "next_comm"),
        },
        "sched_waking" | "sched_wakeup" | "sched_wakeup_new" => Layout::Wakeup {
            pid: num(f, "pid")?,
            comm: text(f, "comm"),
            target: opt_num(f, "target_cpu"),
            kind: match f.name.as_str() {
                "sched_waking" => WakeKind::Waking,
                "sched_wakeup" => WakeKind::Wakeup,
                _ => WakeKind::New,
            },
        },
        "sched_migrate_task" => {
            Layout::Migrate { pid: num(f, "pid")?, orig: opt_num(f, "orig_cpu"), dest: opt_num(f, "dest_cpu") }
        }
        "sched_stat_runtime" => Layout::Runtime { pid: num(f, "pid")?, runtime: num(f, "runtime")? },
        "cpu_idle" => Layout::Idle { state: num(f, "state")?, cpu: num(f, "cpu_id")? },
        "cpu_idle_miss" => {
            Layout::IdleMiss { cpu: num(f, "cpu_id")?, state: num(f, "state")?, below: num(f, "below")? }
        }
        "cpu_frequency" => Layout::Frequency { state: num(f, "state")?, cpu: num(f, "cpu_id")? },
        _ => Layout::TickStop { success: num(f, "success")? },
    })
}

/// `PWR_EVENT_EXIT` as `cpu_idle` records it (`(u32)-1`).
pub const PWR_EVENT_EXIT: u64 = 4_294_967_295;

impl DatDecoder {
    /// The decoder of a trace's `formats` (by ID).
    pub fn new(formats: &HashMap<u16, Format>) -> Self {
        let mut index = vec![0u16; usize::from(u16::MAX) + 1];
        let mut layouts = Vec::new();
        let mut bits = PrevStateBits::default();
        for f in formats.values() {
            let wanted = if EVENTS.contains(&f.name.as_str()) {
                if f.name == "sched_switch" {
                    if let Some(b) = PrevStateBits::from_print_fmt(&f.print_fmt) {
                        bits = b;
                    }
                }
                layout(f)
            } else if DELEGATED.contains(&f.name.as_str()) {
                Ok(Layout::Delegated)
            } else {
                continue;
            };
            layouts.push(wanted);
            if let Some(slot) = index.get_mut(usize::from(f.id)) {
                *slot = layouts.len() as u16;
            }
        }
        DatDecoder { index, layouts, bits, delegate: Decoder::new(formats, &DELEGATED) }
    }

    /// The table that reads `prev_state` (the trace's own, or Linux 4.14's).
    pub fn prev_state_bits(&self) -> &PrevStateBits {
        &self.bits
    }

    /// The event of a record (`data` from its `common_type` on) recorded on `cpu` at
    /// `ts`: `Ok(None)` for an event not read, an error message when the event's format
    /// lacks a field or the record is too short.
    #[inline]
    pub fn decode(&self, data: &[u8], ts: u64, cpu: u32, line: usize) -> Result<Option<Event>, String> {
        let id = data.get(..2).map_or(0, |b| le(b) as u16);
        let at = self.index.get(usize::from(id)).copied().unwrap_or(0);
        if at == 0 {
            return Ok(None);
        }
        let Some(layout) = self.layouts.get(usize::from(at) - 1) else { return Ok(None) };
        let layout = layout.as_ref().map_err(Clone::clone)?;
        let short = || format!("a record of {} bytes is too short for its format", data.len());
        let v = |n: Num| n.get(data).ok_or_else(short);
        let u = |n: Num| v(n).map(|x| x as u32);
        let ou = |n: Option<Num>| n.map(u).transpose();
        let comm = |t: Option<Text>| t.map(|t| t.get(data)).unwrap_or_default();
        let kind = match *layout {
            Layout::Switch { prev_pid, prev_comm, prev_state, next_pid, next_comm } => {
                let raw = v(prev_state)? as u64;
                Kind::Switch {
                    prev_pid: v(prev_pid)? as i32,
                    prev_comm: comm(prev_comm),
                    prev_state: prev_state_of(&self.bits, raw),
                    next_pid: v(next_pid)? as i32,
                    next_comm: comm(next_comm),
                }
            }
            Layout::Wakeup { pid, comm: c, target, kind } => {
                Kind::Wakeup { pid: v(pid)? as i32, comm: comm(c), target_cpu: ou(target)?, kind }
            }
            Layout::Migrate { pid, orig, dest } => {
                Kind::Migrate { pid: v(pid)? as i32, orig_cpu: ou(orig)?, dest_cpu: ou(dest)? }
            }
            Layout::Runtime { pid, runtime } => Kind::Runtime { pid: v(pid)? as i32, runtime: v(runtime)? as u64 },
            Layout::Idle { state, cpu } => {
                let s = v(state)? as u64 & 0xffff_ffff;
                Kind::Idle { cpu: u(cpu)?, state: (s != PWR_EVENT_EXIT).then_some(s as u32) }
            }
            Layout::IdleMiss { cpu, state, below } => {
                Kind::IdleMiss { cpu: u(cpu)?, state: u(state)?, below: v(below)? != 0 }
            }
            Layout::Frequency { state, cpu } => Kind::Frequency { cpu: u(cpu)?, khz: v(state)? as u64 },
            Layout::TickStop { success } => Kind::TickStop { success: v(success)? == 1 },
            Layout::Delegated => match self.delegate.decode(data).map_err(|e| self.delegate.why(e))? {
                Some(DatEvent::CpuFrequency { state, cpu_id, .. }) => {
                    Kind::Frequency { cpu: cpu_id as u32, khz: state }
                }
                Some(DatEvent::PeltSe { pid, util, util_est, .. }) => Kind::Pelt { pid: pid as i32, util, util_est },
                _ => return Ok(None),
            },
        };
        Ok(Some(Event { ts, cpu, line, kind }))
    }
}

/// A `prev_state` number read with `bits` (docs/tracing.md §2, `prev_state`).
pub fn prev_state_of(bits: &PrevStateBits, raw: u64) -> PrevState {
    let states = raw & bits.preempt.saturating_sub(1);
    let has = |letters: &[char]| bits.flags.iter().any(|&(b, c)| states & b != 0 && letters.contains(&c));
    PrevState {
        runnable: states == 0,
        preempted: raw & bits.preempt != 0,
        uninterruptible: has(&['D']),
        dead: has(&['X', 'Z', 'x']),
        raw: Some(raw),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn formats(texts: &[&str]) -> HashMap<u16, Format> {
        texts
            .iter()
            .map(|t| {
                let f = Format::parse("sched", t, None).unwrap();
                (f.id, f)
            })
            .collect()
    }

    const SWITCH: &str = "name: sched_switch\nID: 7\nformat:\n\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\
\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n\
\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n\
\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n\
print fmt: \"prev_state=%s%s\", (REC->prev_state & ((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1)) ? __print_flags(REC->prev_state & ((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1), \"|\", { 0x00000001, \"S\" }, { 0x00000002, \"D\" }, { 0x00000004, \"T\" }, { 0x00000008, \"t\" }, { 0x00000010, \"X\" }, { 0x00000020, \"Z\" }, { 0x00000040, \"P\" }, { 0x00000080, \"I\" }) : \"R\", REC->prev_state & (((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) ? \"+\" : \"\"\n";

    fn switch_record(prev: i32, state: u64, next: i32) -> Vec<u8> {
        let mut r = vec![0u8; 64];
        r[0] = 7;
        r[8..10].copy_from_slice(b"sh");
        r[24..28].copy_from_slice(&prev.to_le_bytes());
        r[32..40].copy_from_slice(&state.to_le_bytes());
        r[40..48].copy_from_slice(b"kworker\0");
        r[56..60].copy_from_slice(&next.to_le_bytes());
        r
    }

    #[test]
    fn switch_with_names_and_states() {
        let d = DatDecoder::new(&formats(&[SWITCH]));
        let e = d.decode(&switch_record(42, 0x100, 7), 5, 1, 3).unwrap().unwrap();
        let Kind::Switch { prev_pid, prev_comm, prev_state, next_pid, next_comm } = e.kind else { panic!("{e:?}") };
        assert_eq!(
            (prev_pid, next_pid, prev_comm.to_text(), next_comm.to_text()),
            (42, 7, "sh".into(), "kworker".into())
        );
        // 0x100 = TASK_REPORT_MAX: preempted while runnable (R+)
        assert!(prev_state.runnable && prev_state.preempted && !prev_state.uninterruptible);
        let Kind::Switch { prev_state, .. } = d.decode(&switch_record(42, 2, 7), 5, 1, 3).unwrap().unwrap().kind else {
            panic!()
        };
        assert!(!prev_state.runnable && prev_state.uninterruptible);
        let Kind::Switch { prev_state, .. } = d.decode(&switch_record(42, 0x10, 7), 5, 1, 3).unwrap().unwrap().kind
        else {
            panic!()
        };
        assert!(prev_state.dead);
        // an event not read, and a record cut short
        assert_eq!(d.decode(&[9, 0, 0, 0], 5, 1, 3), Ok(None));
        assert!(d.decode(&switch_record(1, 0, 2)[..30], 5, 1, 3).unwrap_err().contains("too short"));
    }

    #[test]
    fn idle_exit_and_a_format_without_a_field() {
        let idle =
            "name: cpu_idle\nID: 9\nformat:\n\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\
\tfield:u32 state;\toffset:8;\tsize:4;\tsigned:0;\n\tfield:u32 cpu_id;\toffset:12;\tsize:4;\tsigned:0;\n";
        let freq = "name: cpu_frequency\nID: 10\nformat:\n\tfield:u32 state;\toffset:8;\tsize:4;\tsigned:0;\n";
        let d = DatDecoder::new(&formats(&[idle, freq]));
        let mut r = vec![9u8, 0, 0, 0, 0, 0, 0, 0];
        r.extend(u32::MAX.to_le_bytes());
        r.extend(3u32.to_le_bytes());
        assert_eq!(d.decode(&r, 1, 0, 1).unwrap().unwrap().kind, Kind::Idle { cpu: 3, state: None });
        r[8..12].copy_from_slice(&2u32.to_le_bytes());
        assert_eq!(d.decode(&r, 1, 0, 1).unwrap().unwrap().kind, Kind::Idle { cpu: 3, state: Some(2) });
        assert_eq!(d.decode(&[10, 0, 0, 0], 1, 0, 1).unwrap_err(), "cpu_frequency's format has no field 'cpu_id'");
    }
}
