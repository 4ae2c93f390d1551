//! Text traces read into the metrics pass's [`Event`]s, one line at a time: the kernel's
//! own rendering (`/sys/kernel/tracing/trace`, `trace-cmd report -N`), `trace-cmd
//! report`'s (`foo:42 [120] S ==> bar:43 [120]`), `-R` (numbers), LISA's text traces and
//! `perf script` (`comm pid [cpu] ts: sched:sched_switch: ...`), with a buffer
//! instance's `name: ` prefix or without (docs/trace-compare.md §2).
//!
//! A line is `... [CPU] ... SECONDS.FRACTION: EVENT: BODY`: the CPU is the last `[NNN]`
//! token before the timestamp, so task names with spaces or brackets are read. A ring
//! buffer's overflow is a line of its own: `CPU:N [LOST M EVENTS]` (the kernel's `trace`
//! file), `CPU:N [M EVENTS DROPPED]` or `CPU:N [EVENTS DROPPED]` (`trace-cmd report`).

use super::dat::{prev_state_of, PWR_EVENT_EXIT};
use super::event::{Comm, Event, Kind, PrevState, WakeKind};
use crate::pelt::ftrace::PrevStateBits;

/// What one line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Line {
    /// An event read.
    Event(Event),
    /// An event line of an event not read (its time still ends the trace).
    Other {
        /// Its timestamp, ns.
        ts: u64,
    },
    /// A ring-buffer overflow marker.
    Lost {
        /// The CPU.
        cpu: u32,
        /// How many were lost, when printed.
        count: Option<u64>,
    },
    /// Not an event line (headers, comments, blank lines).
    Blank,
}

/// `SECONDS.FRACTION` (up to 9 fraction digits) → ns.
pub fn parse_timestamp(tok: &str) -> Option<u64> {
    let (s, f) = tok.split_once('.')?;
    if s.is_empty() || f.is_empty() || f.len() > 9 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if !f.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let secs: u64 = s.parse().ok()?;
    let frac: u64 = f.parse().ok()?;
    secs.checked_mul(1_000_000_000)?.checked_add(frac * 10u64.pow(9 - f.len() as u32))
}

/// The value after `key` (`pid=`) at the start of a word, up to the next space.
fn value<'a>(body: &'a str, key: &str) -> Option<&'a str> {
    let mut from = 0;
    while let Some(p) = body.get(from..)?.find(key) {
        let pos = from + p;
        if pos == 0 || body.as_bytes().get(pos - 1).is_some_and(u8::is_ascii_whitespace) {
            return body.get(pos + key.len()..)?.split_whitespace().next();
        }
        from = pos + key.len();
    }
    None
}

/// The text between `key` and ` until` (a task name may hold spaces: `comm=opt cgu.1 pid=9`).
fn between<'a>(body: &'a str, key: &str, until: &str) -> Option<&'a str> {
    let start = body.find(key)? + key.len();
    let rest = body.get(start..)?;
    Some(rest.find(until).and_then(|e| rest.get(..e)).unwrap_or(rest))
}

fn int<T: std::str::FromStr>(body: &str, key: &str) -> Option<T> {
    value(body, key)?.parse().ok()
}

/// A `prev_state` as printed: letters (`R`, `R+`, `S`, `D|K`, `X`...) or the kernel's
/// number, read with `bits`.
pub fn prev_state_text(s: &str, bits: &PrevStateBits) -> Option<PrevState> {
    if let Some(v) = crate::pelt::task_events::parse_number(s) {
        return Some(prev_state_of(bits, v));
    }
    let first = s.chars().next()?;
    if !first.is_ascii_alphabetic() {
        return None;
    }
    let letters = s.trim_end_matches('+');
    Some(PrevState {
        runnable: first == 'R',
        preempted: s.ends_with('+'),
        uninterruptible: letters.contains('D'),
        dead: letters.contains(['X', 'Z', 'x']),
        raw: None,
    })
}

/// trace-cmd's `name:pid [prio]`: the name and pid before ` [`.
fn name_pid(s: &str) -> Option<(Comm, i32)> {
    let head = s.split_once(" [").map_or(s, |(h, _)| h).trim();
    let (name, pid) = head.rsplit_once(':')?;
    Some((Comm::new(name.as_bytes()), pid.trim().parse().ok()?))
}

fn switch(body: &str, bits: &PrevStateBits) -> Result<Kind, String> {
    if body.contains("prev_pid=") {
        let prev_pid = int(body, "prev_pid=");
        let next_pid = int(body, "next_pid=");
        let state = value(body, "prev_state=");
        let (Some(prev_pid), Some(next_pid), Some(state)) = (prev_pid, next_pid, state) else {
            return Err("sched_switch without prev_pid, prev_state and next_pid".into());
        };
        let prev_state = prev_state_text(state, bits)
            .ok_or_else(|| format!("prev_state '{state}' is neither letters nor a number"))?;
        let comm = |k: &str, until: &str| between(body, k, until).map(|c| Comm::new(c.as_bytes())).unwrap_or_default();
        return Ok(Kind::Switch {
            prev_pid,
            prev_comm: comm("prev_comm=", " prev_pid="),
            prev_state,
            next_pid,
            next_comm: comm("next_comm=", " next_pid="),
        });
    }
    // trace-cmd: "prev:PID [PRIO] STATE ==> next:PID [PRIO]"
    let bad = || "sched_switch in neither the kernel's nor trace-cmd's format".to_string();
    let (left, right) = body.split_once(" ==> ").ok_or_else(bad)?;
    let (prev_comm, prev_pid) = name_pid(left).ok_or_else(bad)?;
    let (next_comm, next_pid) = name_pid(right).ok_or_else(bad)?;
    let state = left.rsplit_once(']').map_or("", |(_, s)| s.trim());
    let state = if state.is_empty() { "R" } else { state };
    let prev_state =
        prev_state_text(state, bits).ok_or_else(|| format!("prev_state '{state}' is neither letters nor a number"))?;
    Ok(Kind::Switch { prev_pid, prev_comm, prev_state, next_pid, next_comm })
}

fn wakeup(body: &str, kind: WakeKind) -> Result<Kind, String> {
    if let Some(pid) = int::<i32>(body, "pid=") {
        let comm = between(body, "comm=", " pid=").map(|c| Comm::new(c.as_bytes())).unwrap_or_default();
        return Ok(Kind::Wakeup { pid, comm, target_cpu: int(body, "target_cpu="), kind });
    }
    let (comm, pid) = name_pid(body).ok_or_else(|| "wakeup without a pid".to_string())?;
    Ok(Kind::Wakeup { pid, comm, target_cpu: int(body, "CPU:"), kind })
}

/// The event `name` with `body` (`Ok(None)`: an event not read).
fn event(name: &str, body: &str, bits: &PrevStateBits) -> Result<Option<Kind>, String> {
    let need = |what: &str| format!("{name} without {what}");
    Ok(Some(match name {
        "sched_switch" => switch(body, bits)?,
        "sched_waking" => wakeup(body, WakeKind::Waking)?,
        "sched_wakeup" => wakeup(body, WakeKind::Wakeup)?,
        "sched_wakeup_new" => wakeup(body, WakeKind::New)?,
        "sched_migrate_task" => Kind::Migrate {
            pid: int(body, "pid=").ok_or_else(|| need("a pid"))?,
            orig_cpu: int(body, "orig_cpu="),
            dest_cpu: int(body, "dest_cpu="),
        },
        "sched_stat_runtime" => Kind::Runtime {
            pid: int(body, "pid=").ok_or_else(|| need("a pid"))?,
            runtime: int(body, "runtime=").ok_or_else(|| need("a runtime"))?,
        },
        "cpu_idle" => {
            let s = value(body, "state=").ok_or_else(|| need("a state"))?;
            let s: u64 = s
                .parse()
                .or_else(|_| s.parse::<i64>().map(|v| v as u64 & 0xffff_ffff))
                .map_err(|_| format!("cpu_idle state '{s}' is not a number"))?;
            let cpu = int(body, "cpu_id=").ok_or_else(|| need("a cpu_id"))?;
            Kind::Idle { cpu, state: (s != PWR_EVENT_EXIT).then_some(s as u32) }
        }
        "cpu_idle_miss" => Kind::IdleMiss {
            cpu: int(body, "cpu_id=").ok_or_else(|| need("a cpu_id"))?,
            state: int(body, "state=").ok_or_else(|| need("a state"))?,
            below: match value(body, "type=") {
                Some("below") => true,
                Some("above") => false,
                _ => return Err(need("type=above or type=below")),
            },
        },
        "cpu_frequency" => Kind::Frequency {
            cpu: int(body, "cpu_id=").ok_or_else(|| need("a cpu_id"))?,
            khz: int(body, "state=").ok_or_else(|| need("a state"))?,
        },
        "tick_stop" => Kind::TickStop { success: value(body, "success=").ok_or_else(|| need("success="))? == "1" },
        "print" | "tracing_mark_write" => {
            let b = body.trim_start();
            let b = b.strip_prefix("tracing_mark_write:").map_or(b, str::trim_start);
            let Some(m) = b.strip_prefix("cpu_frequency_devlib:") else { return Ok(None) };
            let need = |w: &str| format!("cpu_frequency_devlib without {w}");
            Kind::Frequency {
                cpu: int(m, "cpu_id=").ok_or_else(|| need("a cpu_id"))?,
                khz: int(m, "state=").ok_or_else(|| need("a state"))?,
            }
        }
        "sched_load_se" | "sched_pelt_se" | "sched_util_est_se" => {
            let pid = int(body, "pid=").ok_or_else(|| need("a pid"))?;
            let util_est = int(body, "enqueued=").zip(int(body, "ewma="));
            Kind::Pelt { pid, util: int(body, "util="), util_est }
        }
        _ => return Ok(None),
    }))
}

/// The ring-buffer overflow marker a (trimmed) text line is, if it is one: the CPU and
/// the count when printed. The one reading of these lines, for every importer of text.
pub fn loss_marker(t: &str) -> Option<(u32, Option<u64>)> {
    if t.ends_with("EVENTS]") || t.ends_with("EVENTS DROPPED]") {
        return lost(t);
    }
    None
}

/// `CPU:N [LOST M EVENTS]`, `CPU:N [LOST EVENTS]` (the kernel's `trace` file when the
/// count is unknown), `CPU:N [M EVENTS DROPPED]` or `CPU:N [EVENTS DROPPED]` anywhere in
/// the line (after an instance's `name: ` prefix).
fn lost(t: &str) -> Option<(u32, Option<u64>)> {
    let at = t.find("CPU:")?;
    let rest = t.get(at + 4..)?;
    let (cpu, rest) = rest.split_once(' ')?;
    let cpu: u32 = cpu.parse().ok()?;
    let inner = rest.trim().strip_prefix('[')?.strip_suffix(']')?;
    if inner == "EVENTS DROPPED" || inner == "LOST EVENTS" {
        return Some((cpu, None));
    }
    let n =
        inner.strip_prefix("LOST ").and_then(|r| r.strip_suffix(" EVENTS")).or(inner.strip_suffix(" EVENTS DROPPED"))?;
    Some((cpu, Some(n.parse().ok()?)))
}

/// Read one line (`line` its 1-based number): the event, a loss marker, or nothing; an
/// error message for an event line that cannot be read.
pub fn parse_line(text: &str, line: usize, bits: &PrevStateBits) -> Result<Line, String> {
    let t = text.trim();
    if t.is_empty() || t.starts_with('#') {
        return Ok(Line::Blank);
    }
    if let Some((cpu, count)) = loss_marker(t) {
        return Ok(Line::Lost { cpu, count });
    }
    let mut cpu: Option<u32> = None;
    let mut ts = None;
    let mut rest = t;
    while let Some(tok) = rest.split_whitespace().next() {
        let at = rest.find(tok).unwrap_or(0) + tok.len();
        rest = rest.get(at..).unwrap_or("");
        if let Some(v) = tok.strip_suffix(':').and_then(parse_timestamp) {
            ts = Some(v);
            break;
        }
        if let Some(inner) = tok.strip_prefix('[').and_then(|x| x.strip_suffix(']')) {
            if !inner.is_empty() && inner.bytes().all(|b| b.is_ascii_digit()) {
                cpu = inner.parse().ok();
            }
        }
    }
    let (Some(cpu), Some(ts)) = (cpu, ts) else { return Ok(Line::Blank) };
    let rest = rest.trim_start();
    let Some((name, body)) = rest.split_once(':') else { return Ok(Line::Other { ts }) };
    // `perf script` names the event with its system: `sched:sched_switch:`
    let (name, body) = match body.split_once(':') {
        Some((ev, b)) if !name.contains(' ') && !ev.contains([' ', '=']) && !ev.is_empty() => (ev, b),
        _ => (name, body),
    };
    match event(name.trim(), body.trim_start(), bits)? {
        Some(kind) => Ok(Line::Event(Event { ts, cpu, line, kind })),
        None => Ok(Line::Other { ts }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(line: &str) -> Kind {
        match parse_line(line, 1, &PrevStateBits::default()).unwrap() {
            Line::Event(e) => e.kind,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn three_renderings_of_a_switch() {
        let kernel = "schedlab:  R-24245 [001] d..2.  1286.764084: sched_switch: prev_comm=opt cgu.1 prev_pid=24245 prev_prio=120 prev_state=R+ ==> next_comm=R next_pid=24250 next_prio=120";
        let Kind::Switch { prev_pid, prev_comm, prev_state, next_pid, next_comm } = ev(kernel) else { panic!() };
        assert_eq!((prev_pid, next_pid), (24245, 24250));
        assert_eq!((prev_comm.to_text(), next_comm.to_text()), ("opt cgu.1".into(), "R".into()));
        assert!(prev_state.runnable && prev_state.preempted);
        let tc = "   sleep-18150 [001]  1721.082593: sched_switch:         sleep:18150 [120] X ==> R:18064 [120]";
        let Kind::Switch { prev_pid, prev_state, next_pid, .. } = ev(tc) else { panic!() };
        assert_eq!((prev_pid, next_pid), (18150, 18064));
        assert!(prev_state.dead && !prev_state.runnable);
        let perf = "            grep 10412 [001] 15457.026747820:     sched:sched_switch: prev_comm=grep prev_pid=10412 prev_prio=120 prev_state=D ==> next_comm=rustc next_pid=9809 next_prio=120";
        let Kind::Switch { prev_state, .. } = ev(perf) else { panic!() };
        assert!(prev_state.uninterruptible);
        let raw = "   <...>-1701  [001]    76.211513: sched_switch:          prev_comm=trace-cmd prev_pid=1701 prev_prio=120 prev_state=4096 next_comm=swapper/1 next_pid=0 next_prio=120";
        let Kind::Switch { prev_state, .. } = ev(raw) else { panic!() };
        // an old kernel's preemption bit: no state bit below 0x100
        assert!(prev_state.runnable && prev_state.raw == Some(4096));
    }

    #[test]
    fn wakeups_idle_frequency_and_losses() {
        let w = "  record.sh-24259 [001]  1286.776300: sched_wakeup_new:     record.sh:24262 [120] CPU:001";
        assert_eq!(
            ev(w),
            Kind::Wakeup { pid: 24262, comm: Comm::new(b"record.sh"), target_cpu: Some(1), kind: WakeKind::New }
        );
        let w = "<idle>-0 [002] 76.211513: sched_wakeup: comm=sh pid=1642 prio=120 success=1 target_cpu=2";
        assert_eq!(
            ev(w),
            Kind::Wakeup { pid: 1642, comm: Comm::new(b"sh"), target_cpu: Some(2), kind: WakeKind::Wakeup }
        );
        assert_eq!(
            ev("<idle>-0 [002] 2084.021443: cpu_idle: state=4294967295 cpu_id=2"),
            Kind::Idle { cpu: 2, state: None }
        );
        assert_eq!(
            ev("x-1 [000] 1.5: cpu_idle_miss: cpu_id=0 state=1 type=below"),
            Kind::IdleMiss { cpu: 0, state: 1, below: true }
        );
        assert_eq!(
            ev("x-1 [000] 1.5: print: tracing_mark_write: cpu_frequency_devlib: state=450000 cpu_id=3"),
            Kind::Frequency { cpu: 3, khz: 450000 }
        );
        let b = PrevStateBits::default();
        assert_eq!(
            parse_line("te-lost: CPU:1 [2336 EVENTS DROPPED]", 2, &b),
            Ok(Line::Lost { cpu: 1, count: Some(2336) })
        );
        assert_eq!(parse_line("CPU:3 [LOST 12 EVENTS]", 2, &b), Ok(Line::Lost { cpu: 3, count: Some(12) }));
        assert_eq!(parse_line("CPU:0 [EVENTS DROPPED]", 2, &b), Ok(Line::Lost { cpu: 0, count: None }));
        // the kernel's print_trace_line() when the count is unknown
        assert_eq!(parse_line("CPU:2 [LOST EVENTS]", 2, &b), Ok(Line::Lost { cpu: 2, count: None }));
        assert_eq!(
            parse_line("x-1 [000] 1.000002: hrtimer_cancel: hrtimer=0x1", 2, &b),
            Ok(Line::Other { ts: 1_000_002_000 })
        );
        assert_eq!(parse_line("cpus=2", 1, &b), Ok(Line::Blank));
        assert!(parse_line("x-1 [000] 1.5: cpu_idle: state=x cpu_id=0", 1, &b).unwrap_err().contains("not a number"));
    }
}
