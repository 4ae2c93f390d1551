//! The events of one task that place the kernel's PELT updates, read from ftrace text
//! (`trace-cmd report -t`, or the tracefs `trace` file): `sched_switch`,
//! `sched_wakeup`/`sched_wakeup_new`, `sched_stat_runtime` (the task clock's advance at
//! each `update_curr`), `sched_migrate_task`, and the tick (`hrtimer_expire_entry` of
//! the tick timer) of every CPU (docs/live.md §3).

// Parsers of untrusted bytes: no unwrap, expect, indexing or string slicing that can panic on input.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

use crate::error::{Error, Result};
use crate::import_notes::{ImportNotes, ImportOptions};
use crate::pelt::ftrace::{parse_switch, parse_timestamp, parse_wakeup, split_event_of, value_after, PrevStateBits};
use crate::pelt::trace::State;

/// The functions of the tick's hrtimer across kernel versions.
pub const TICK_FUNCTIONS: [&str; 3] = ["tick_nohz_handler", "tick_sched_timer", "tick_nohz_highres_handler"];

const NAMES: [&str; 6] = [
    "sched_switch",
    "sched_wakeup_new",
    "sched_wakeup",
    "sched_stat_runtime",
    "sched_migrate_task",
    "hrtimer_expire_entry",
];

/// What one event says about the task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Switched to the task (`set_next_entity`).
    SwitchIn,
    /// Switched away, left in `state` (W preempted, S asleep); `exit` when it died.
    SwitchOut {
        /// W or S.
        state: State,
        /// `X`/`Z`.
        exit: bool,
    },
    /// `sched_wakeup`/`sched_wakeup_new`.
    Wakeup,
    /// `sched_stat_runtime`: the task ran `ns` of task clock since its last `update_curr`.
    Runtime(u64),
    /// `sched_migrate_task` of the task (to another CPU).
    Migrate,
    /// The tick timer expired on the event's CPU (any task's); `now` is the hrtimer
    /// base's CLOCK_MONOTONIC time it printed (`now=`), 0 when absent.
    Tick(u64),
}

/// An event at trace time `ts` (ns) on `cpu`, read at `line`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Event {
    /// Trace time, ns.
    pub ts: u64,
    /// The CPU that recorded it.
    pub cpu: u32,
    /// Line of the text (1-based).
    pub line: usize,
    /// What happened.
    pub kind: Kind,
}

/// The `[NNN]` CPU field before the timestamp of an ftrace line.
fn cpu_of(head: &str) -> Option<u32> {
    let (_, after) = head.rsplit_once('[')?;
    let (num, _) = after.split_once(']')?;
    num.trim().parse().ok()
}

/// The events of `pid` (and every tick) in `text`, in file order. Lines that cannot be
/// read are counted in `notes` (an error under `opts.strict`); events out of time order
/// are an error at their line.
pub fn read(
    text: &str,
    pid: u32,
    path: Option<&str>,
    opts: ImportOptions,
    notes: &mut ImportNotes,
) -> Result<Vec<Event>> {
    let bits = PrevStateBits::default();
    let mut out = Vec::new();
    let mut last_ts = 0u64;
    for (i, line) in text.lines().enumerate() {
        crate::cancel::check_every(i)?;
        let line_no = i + 1;
        let err = |msg: String| Error::parse(path, Some(line_no), msg);
        let Some((ts_text, name, body)) = split_event_of(line, &NAMES) else { continue };
        let Some(ts) = parse_timestamp(ts_text) else {
            notes.malformed(opts, err(format!("bad timestamp '{ts_text}' before '{name}:'")))?;
            continue;
        };
        let head = line.split(ts_text).next().unwrap_or("");
        let Some(cpu) = cpu_of(head) else {
            notes.malformed(opts, err(format!("no [CPU] field before the timestamp of '{name}:'")))?;
            continue;
        };
        if ts < last_ts {
            return Err(err(format!(
                "timestamp {ts} ns goes backwards (previous {last_ts} ns): the live check needs the trace in time order"
            )));
        }
        last_ts = ts;
        let kind = match name {
            "sched_switch" => {
                let Some((prev_pid, prev_state, next_pid)) = parse_switch(body) else {
                    notes.malformed(opts, err("sched_switch without prev_pid/prev_state/next_pid".into()))?;
                    continue;
                };
                if prev_pid == pid {
                    let Some((state, exit)) = bits.classify(&prev_state) else {
                        notes.malformed(
                            opts,
                            err(format!("prev_state '{prev_state}' is neither letters nor a number")),
                        )?;
                        continue;
                    };
                    Kind::SwitchOut { state, exit }
                } else if next_pid == pid {
                    Kind::SwitchIn
                } else {
                    continue;
                }
            }
            "sched_wakeup" | "sched_wakeup_new" => match parse_wakeup(body) {
                Some(p) if p == pid => Kind::Wakeup,
                Some(_) => continue,
                None => {
                    notes.malformed(opts, err(format!("{name} without a pid")))?;
                    continue;
                }
            },
            "sched_migrate_task" => match value_after(body, "pid=").and_then(|p| p.parse::<u32>().ok()) {
                Some(p) if p == pid => Kind::Migrate,
                Some(_) => continue,
                None => {
                    notes.malformed(opts, err("sched_migrate_task without a pid".into()))?;
                    continue;
                }
            },
            "sched_stat_runtime" => {
                let p = value_after(body, "pid=").and_then(|p| p.parse::<u32>().ok());
                let r = value_after(body, "runtime=").and_then(|r| r.parse::<u64>().ok());
                match (p, r) {
                    (Some(p), Some(r)) if p == pid => Kind::Runtime(r),
                    (Some(_), Some(_)) => continue,
                    _ => {
                        notes.malformed(opts, err("sched_stat_runtime without pid= and runtime=".into()))?;
                        continue;
                    }
                }
            }
            _ => {
                // hrtimer_expire_entry
                let f = value_after(body, "function=").unwrap_or("");
                if !TICK_FUNCTIONS.iter().any(|t| f.strip_prefix(t).is_some_and(|r| r.is_empty() || r.starts_with('/')))
                {
                    continue;
                }
                Kind::Tick(value_after(body, "now=").and_then(|n| n.parse().ok()).unwrap_or(0))
            }
        };
        out.push(Event { ts, cpu, line: line_no, kind });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    // lines of a `trace-cmd report -t` of this machine (Linux 6.18, pid 12554)
    const TXT: &str = "\
cpus=2
schedlab-live:        lto cgu.3-12486 [001] 11280.677233742: sched_switch:         lto cgu.3:12486 [120] R ==> python3:12554 [120]
schedlab-live:          python3-12554 [001] 11280.679508389: hrtimer_expire_entry: hrtimer=0xffff888627d1c6f8 now=11280652017713 function=tick_nohz_handler/0x0
schedlab-live:          python3-12554 [001] 11280.679511384: sched_stat_runtime:   comm=python3 pid=12554 runtime=2301118 [ns]
schedlab-live:          python3-12554 [001] 11280.683638237: hrtimer_start:        hrtimer=0xffffc90008f87ad8 function=hrtimer_wakeup/0x0 expires=11280661191479 softexpires=11280661141479
schedlab-live:          python3-12554 [001] 11280.683641118: sched_switch:         python3:12554 [120] S ==> lto cgu.3:12486 [120]
schedlab-live:               sh-12561 [001] 11280.688697940: sched_wakeup:         python3:12554 [120] CPU:001
";

    #[test]
    fn reads_the_task_and_the_ticks() {
        let mut notes = ImportNotes::default();
        let ev = read(TXT, 12554, None, ImportOptions::default(), &mut notes).unwrap();
        let kinds: Vec<Kind> = ev.iter().map(|e| e.kind).collect();
        assert_eq!(
            kinds,
            vec![
                Kind::SwitchIn,
                Kind::Tick(11_280_652_017_713),
                Kind::Runtime(2_301_118),
                Kind::SwitchOut { state: State::Sleep, exit: false },
                Kind::Wakeup
            ]
        );
        assert_eq!(ev[0].ts, 11_280_677_233_742);
        assert_eq!(ev[0].cpu, 1);
        assert_eq!(ev[4].line, 7);
        assert_eq!(notes.malformed, 0);
    }

    #[test]
    fn backwards_time_is_an_error_at_its_line() {
        let txt = TXT.replace("11280.688697940", "11280.600000000");
        let e = read(&txt, 12554, Some("t"), ImportOptions::default(), &mut ImportNotes::default()).unwrap_err();
        assert!(e.to_string().starts_with("t:7: timestamp"), "{e}");
    }
}
