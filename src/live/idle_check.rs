//! The live check of a cpuidle governor: the idle periods of one CPU imported from a
//! recording ([`crate::idle::ftrace`]), replayed with schedlab's governor over the CPU's
//! own sysfs states, and compared with what the running kernel did: the state it entered
//! (`cpu_idle state=`) and whether it stopped the tick (`tick_stop success=1` before the
//! entry), each disagreement put in a class that says what limits it (docs/live.md §5).

use crate::error::{Error, Result};
use crate::idle::ftrace::CpuTrace;
use crate::idle::governor::Spec;
use crate::idle::simulate::simulate;
use crate::idle::states::StateTable;
use crate::idle::trace::Tick;

/// Periods at the start of a replay whose choice may differ because the replayed
/// governor has no history yet (menu keeps the last 8 intervals, `INTERVALS`).
pub const COLD_START_PERIODS: usize = 8;

/// How the replay's tick decisions compare with the kernel's, over the periods where
/// the tick was running at entry (where the governor's `stop_tick` decides).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TickAgreement {
    /// Periods entered with the tick running.
    pub decided: u64,
    /// Of those, the replay and the kernel agree (both stopped it or both kept it).
    pub agree: u64,
    /// The kernel stopped the tick, the replay kept it (the governor's prediction).
    pub kernel_only: u64,
    /// The replay stopped the tick, the kernel kept it: either its governor kept it or
    /// `tick_nohz_next_event` found an event within one tick (timer wheel, RCU,
    /// irq_work), which the trace does not show.
    pub replay_only: u64,
    /// Of [`Self::replay_only`], periods ended within one tick by a timer: the kernel
    /// knew of an event the importer did not (it keeps the tick then).
    pub replay_only_timer_within_tick: u64,
    /// Periods entered with the tick already stopped (both keep it stopped).
    pub already_stopped: u64,
}

/// The whole idle check of one CPU.
#[derive(Debug, Clone, PartialEq)]
pub struct IdleCheck {
    /// The CPU.
    pub cpu: u32,
    /// The governor replayed.
    pub spec: Spec,
    /// Idle periods compared.
    pub periods: u64,
    /// Periods where the replay entered the kernel's state.
    pub agree: u64,
    /// Disagreements within the first [`COLD_START_PERIODS`] periods.
    pub cold_start_disagree: u64,
    /// Disagreements in periods whose sleep length no timer event gave.
    pub unknown_sleep_disagree: u64,
    /// (kernel's state, replay's state, periods), every pair seen, sorted.
    pub confusion: Vec<(u32, u8, u64)>,
    /// The tick decisions.
    pub tick: TickAgreement,
}

/// Replay `trace` (one CPU of an import) with `spec` at `hz` on `table` and compare
/// each period with the kernel's choice.
pub fn check(trace: &CpuTrace, table: &StateTable, spec: Spec, hz: u32) -> Result<IdleCheck> {
    let n = trace.periods.len();
    if trace.actual_state.len() != n || trace.actual_stop_tick.len() != n || trace.sleep_length_known.len() != n {
        return Err(Error::domain("idle trace columns of different lengths"));
    }
    let tick = Tick::new(hz)?;
    let sim = simulate(spec, table, &trace.periods, hz, false)?;
    let mut out = IdleCheck {
        cpu: trace.cpu,
        spec,
        periods: n as u64,
        agree: 0,
        cold_start_disagree: 0,
        unknown_sleep_disagree: 0,
        confusion: Vec::new(),
        tick: TickAgreement::default(),
    };
    let mut pairs: std::collections::BTreeMap<(u32, u8), u64> = std::collections::BTreeMap::new();
    let rows =
        trace.periods.iter().zip(&trace.actual_state).zip(&trace.actual_stop_tick).zip(&trace.sleep_length_known);
    for (i, (((p, &kernel), &kernel_stop), &known)) in rows.enumerate() {
        crate::cancel::check_every(i)?;
        let (Some(&idx), Some(&stop), Some(&res)) = (sim.idx.get(i), sim.stop_tick.get(i), sim.residency_ns.get(i))
        else {
            return Err(Error::domain("the replay returned fewer periods than the trace"));
        };
        *pairs.entry((kernel, idx)).or_default() += 1;
        if u32::from(idx) == kernel {
            out.agree += 1;
        } else if i < COLD_START_PERIODS {
            out.cold_start_disagree += 1;
        } else if !known {
            out.unknown_sleep_disagree += 1;
        }
        let t = &mut out.tick;
        if p.tick_stopped {
            t.already_stopped += 1;
            continue;
        }
        t.decided += 1;
        match (kernel_stop, stop) {
            (a, b) if a == b => t.agree += 1,
            (true, false) => t.kernel_only += 1,
            _ => {
                t.replay_only += 1;
                if p.wake_ns < 0 && res < tick.nsec {
                    t.replay_only_timer_within_tick += 1;
                }
            }
        }
    }
    out.confusion = pairs.into_iter().map(|((k, r), c)| (k, r, c)).collect();
    Ok(out)
}

/// The events an idle replay reads (docs/tracing.md §1) and what each gives it.
pub const REPLAY_EVENTS: [(&str, &str); 5] = [
    ("cpu_idle", "the idle periods and the kernel's choices"),
    ("hrtimer_start", "pending hrtimers: the sleep length and the next tick"),
    ("hrtimer_cancel", "pending hrtimers: the sleep length and the next tick"),
    ("hrtimer_expire_entry", "timer wakeups and the trace clock's CLOCK_MONOTONIC offset"),
    ("tick_stop", "the kernel's tick-stop decisions"),
];

/// What [`check_files`] found.
#[derive(Debug, Clone, PartialEq)]
pub struct FileCheck {
    /// The check; None when the CPU has no idle period in the trace (it never idled).
    pub check: Option<IdleCheck>,
    /// The import's notes, with one naming each replay event a trace.dat lacks.
    pub notes: crate::import_notes::ImportNotes,
    /// Records of each event in a trace.dat, by name (empty for text).
    pub event_counts: Vec<(String, u64)>,
}

/// [`check`] on files: the CPU `cpu` of the trace at `trace` (a trace.dat, or ftrace
/// text) over the sysfs states at `states` (a `grep .` dump).
pub fn check_files(
    trace: &std::path::Path,
    states: &std::path::Path,
    cpu: u32,
    spec: Spec,
    hz: u32,
    opts: crate::import_notes::ImportOptions,
) -> Result<FileCheck> {
    let name = trace.display().to_string();
    let (counts, has_idle) = match crate::tracedat::open_file(trace)? {
        Some(file) => {
            let counts = crate::tracedat::Trace::open(&file, Some(&name))?.event_counts()?;
            let idle = counts.iter().any(|(n, c)| n == "cpu_idle" && *c > 0);
            (counts, idle)
        }
        None => {
            let bytes = crate::archive::dir::read_file(trace, crate::archive::tree::MAX_TRACE_FILE_BYTES)?;
            (Vec::new(), bytes.windows(10).any(|w| w == b"cpu_idle: "))
        }
    };
    let mut import = if has_idle {
        crate::idle::ftrace::read(trace, hz, opts)?
    } else {
        crate::idle::ftrace::FtraceImport::default()
    };
    if !counts.is_empty() {
        for (ev, what) in REPLAY_EVENTS {
            if !counts.iter().any(|(n, c)| n == ev && *c > 0) {
                import.notes.assume(format!("no {ev} record in the trace (it gives {what})"));
            }
        }
    }
    let result = match import.cpus.iter().find(|c| c.cpu == cpu) {
        Some(t) => Some(check(t, &StateTable::read_sysfs(states)?, spec, hz)?),
        None => None,
    };
    Ok(FileCheck { check: result, notes: import.notes, event_counts: counts })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::idle::ftrace::parse;
    use crate::import_notes::ImportOptions;

    // two idle periods of this machine's CPU 1 (Linux 6.18, cpuidle-haltpoll states),
    // as `trace-cmd report -t` prints them: the 2nd entered after a tick_stop
    const TRACE: &str = "\
  <idle>-0 [001] 100.000000000: hrtimer_start: hrtimer=0xffff888627d1c6f8 function=tick_nohz_handler expires=100004000000 softexpires=100004000000 mode=ABS|PINNED|HARD
  <idle>-0 [001] 100.000100000: cpu_idle: state=1 cpu_id=1
  <idle>-0 [001] 100.000400000: cpu_idle: state=4294967295 cpu_id=1
  <idle>-0 [001] 100.001000000: tick_stop: success=1 dependency=NONE
  <idle>-0 [001] 100.001001000: hrtimer_start: hrtimer=0xffff888627d1c6f8 function=tick_nohz_handler expires=100900000000 softexpires=100900000000 mode=ABS|PINNED|HARD
  <idle>-0 [001] 100.001100000: cpu_idle: state=1 cpu_id=1
  <idle>-0 [001] 100.002100000: cpu_idle: state=4294967295 cpu_id=1
";

    #[test]
    fn choices_and_tick_stops_compared() {
        let t = parse(TRACE.as_bytes(), None, 250, ImportOptions::default()).unwrap();
        let c = &t.cpus[0];
        assert_eq!(c.actual_stop_tick, vec![false, true]);
        let table = StateTable::parse_sysfs_dump(
            b"s/state0/name:POLL\ns/state0/latency:0\ns/state0/residency:0\ns/state1/name:haltpoll idle\ns/state1/latency:1\ns/state1/residency:1\n",
            None,
        )
        .unwrap();
        let r = check(c, &table, Spec::new("menu", "6.12").unwrap(), 250).unwrap();
        assert_eq!(r.periods, 2);
        // 1st: no non-tick timer pending, so the sleep length is the importer's 1 s;
        // menu has no interval history (typical interval UINT_MAX), predicts
        // 1 s × a unity correction factor >= the 1 µs residency: state 1, stop_tick
        // (1 s >= TICK_NSEC). The kernel entered state 1 and kept the tick (no
        // tick_stop): a replay-only stop, ended by an interrupt (wake 300 µs), not a timer.
        // 2nd: intervals {300, 0 x7}: variance 9844 > 400, then all 0 -> UINT_MAX
        // again; the sleep length is the stopped tick's expiry, 898.9 ms: state 1 and
        // stop_tick, as the kernel did.
        assert_eq!(r.agree, 2);
        assert_eq!(r.confusion, vec![(1, 1, 2)]);
        assert_eq!(r.tick, TickAgreement { decided: 2, agree: 1, replay_only: 1, ..TickAgreement::default() });
    }
}
