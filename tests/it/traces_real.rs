//! Real traces recorded on this project's Linux 6.18 machine (tests/data/traces/README.md,
//! tools/traces/record.sh): every `trace-cmd report` rendering of one trace.dat must
//! import to the same task traces. The reference is trace-cmd's own symbolic decoding
//! (report.txt); `-R` prints `prev_state` as the kernel's number, `-N` in the kernel's
//! own format (`R+` for a preemption), `-t` with ns timestamps.

use schedlab::import_notes::ImportOptions;
use schedlab::pelt::cpu_capacity::Platform;
use schedlab::pelt::ftrace::{task_trace_from_ftrace, FtraceTask, PrevStateBits};
use schedlab::pelt::State;
use std::collections::BTreeSet;

const DIR: &str = "tests/data/traces/sched-6.18";

fn read(name: &str) -> Vec<u8> {
    std::fs::read(format!("{DIR}/{name}")).unwrap()
}

fn import(bytes: &[u8], pid: u32) -> Result<FtraceTask, String> {
    task_trace_from_ftrace(bytes, pid, &Platform::default(), None, ImportOptions { strict: true, sort: false })
        .map_err(|e| e.to_string())
}

/// Every pid switched out in the -R report.
fn pids(raw: &[u8]) -> BTreeSet<u32> {
    let text = std::str::from_utf8(raw).unwrap();
    text.split("prev_pid=").skip(1).map(|s| s.split(' ').next().unwrap().parse().unwrap()).collect()
}

fn shape(t: &FtraceTask) -> Vec<(u64, State)> {
    t.segments.iter().map(|s| (s.dur_ns, s.state)).collect()
}

#[test]
fn numeric_prev_state_imports_as_the_symbolic_report() {
    let (sym, raw, kernel) = (read("report.txt"), read("report-R.txt"), read("report-N.txt"));
    let pids = pids(&raw);
    assert!(pids.len() > 20, "{pids:?}");
    let mut imported = 0;
    for &pid in &pids {
        let want = import(&sym, pid);
        assert_eq!(import(&raw, pid).map(|t| shape(&t)), want.clone().map(|t| shape(&t)), "-R, pid {pid}");
        assert_eq!(import(&kernel, pid).map(|t| shape(&t)), want.clone().map(|t| shape(&t)), "-N, pid {pid}");
        imported += usize::from(want.is_ok());
    }
    assert!(imported > 10, "{imported} of {} pids imported", pids.len());
}

#[test]
fn the_periodic_task_is_preempted_not_asleep() {
    // pids.txt: periodic=24262. In report-R.txt its 50 switch-outs are prev_state=0 ×9
    // (runnable: preempted at the return to user space), 1 (S) ×20, 2 (D) ×20, 32 (Z) ×1
    // (`grep sched_switch report-R.txt | grep 'prev_pid=24262 ' | grep -o 'prev_state=[0-9]*'
    // | sort | uniq -c`); report.txt prints the 9 as `R`. So 9 of its W segments follow
    // a run (a preemption), the other W segments follow a sleep (a wakeup).
    let raw = read("report-R.txt");
    let t = import(&raw, 24262).unwrap();
    let after_run = t.segments.windows(2).filter(|w| w[0].state == State::Run && w[1].state == State::Wait).count();
    let after_sleep = t.segments.windows(2).filter(|w| w[0].state == State::Sleep && w[1].state == State::Wait).count();
    assert_eq!(after_run, 9);
    // 40 sleeps, the last ends in the exit (Z): 39 wakeups back to W, or 40 when the
    // trace starts asleep — the trace starts at the task's fork (sched_wakeup_new).
    assert_eq!(after_sleep, 40);
    assert!(t.notes.assumptions.iter().any(|a| a.contains("numeric prev_state")), "{:?}", t.notes);
}

/// The time in each state.
fn time_in(t: &FtraceTask) -> [u64; 3] {
    let mut time = [0u64; 3];
    for s in &t.segments {
        time[s.state as usize] += s.dur_ns;
    }
    time
}

#[test]
fn ns_timestamps_read_the_same_events_within_a_microsecond() {
    // -t prints the same events with ns instead of µs: a wait shorter than the µs clock
    // can show appears only there, so compare the events used, the start and the time
    // in each state (each segment boundary moves by less than 1 µs).
    let (sym, ns) = (read("report.txt"), read("report-t.txt"));
    let mut compared = 0;
    for pid in pids(&read("report-R.txt")) {
        let (Ok(a), Ok(b)) = (import(&sym, pid), import(&ns, pid)) else { continue };
        assert_eq!(a.events, b.events, "pid {pid}");
        assert!(b.start_ns.abs_diff(a.start_ns) < 1000, "pid {pid}: {} vs {}", a.start_ns, b.start_ns);
        let (ta, tb) = (time_in(&a), time_in(&b));
        let slack = 1000 * (a.segments.len() + b.segments.len()) as u64;
        for k in 0..3 {
            assert!(ta[k].abs_diff(tb[k]) < slack, "pid {pid}: {ta:?} vs {tb:?} ns");
        }
        compared += 1;
    }
    assert!(compared > 10, "{compared}");
}

#[test]
fn the_prev_state_table_of_the_kernels_own_format() {
    // tests/data/traces/sched-6.18/sched_switch.format: /sys/kernel/tracing/events/sched/
    // sched_switch/format of the recording kernel: S D T t X Z P I on bits 0-7, "+" on
    // ((0x7f + 1) << 1) = 0x100.
    let fmt = std::fs::read_to_string(format!("{DIR}/sched_switch.format")).unwrap();
    let bits = PrevStateBits::from_print_fmt(&fmt).unwrap();
    assert_eq!(bits, PrevStateBits { from_format: true, ..PrevStateBits::default() });
    assert_eq!(bits.classify("256"), Some((State::Wait, false)));
    assert_eq!(bits.classify("0"), Some((State::Wait, false)));
    assert_eq!(bits.classify("1"), Some((State::Sleep, false)));
    assert_eq!(bits.classify("32"), Some((State::Sleep, true)));
    assert_eq!(bits.classify("R+"), Some((State::Wait, false)));
    assert_eq!(bits.classify("?"), None);
}

/// LISA's public test traces (tests/data/traces/README.md).
const LISA: &str = "tests/data/traces/lisa";

#[test]
fn lisa_trace_txt_numeric_prev_state() {
    // LISA tests/assets/trace_txt/trace.txt: the kernel's format with numeric prev_state
    // of a 4.x kernel (preemption bit 4096). pid 1642 ("sh") is switched out 273 times:
    // prev_state=4096 ×255 and 0 ×6 (still runnable: 261 preemptions), 1 (S) ×12
    // (`grep -o 'prev_pid=1642 prev_prio=[0-9]* prev_state=[0-9]*' | sort | uniq -c`).
    let bytes = std::fs::read(format!("{LISA}/trace_txt.txt")).unwrap();
    let t = import(&bytes, 1642).unwrap();
    let pairs = |a: State, b: State| t.segments.windows(2).filter(|w| w[0].state == a && w[1].state == b).count();
    assert_eq!(pairs(State::Run, State::Wait), 261);
    assert_eq!(pairs(State::Run, State::Sleep), 12);
}

#[test]
fn lisa_sched_load_report_imports_without_a_manual_step() {
    // LISA tests/assets/sched_load/trace.dat (Juno, Linux 4.19, trace.dat version 6)
    // rendered by `trace-cmd report`: idle periods of all 6 CPUs and task traces.
    let bytes = std::fs::read(format!("{LISA}/sched_load.report.txt")).unwrap();
    let idle = schedlab::idle::ftrace::parse(&bytes, None, 250, ImportOptions { strict: true, sort: false }).unwrap();
    // 474 cpu_idle events, 237 of them exits (state=4294967295); each of the 6 CPUs
    // starts with an exit (its entry is before the trace), so 237 - 6 = 231 periods
    // (grep cpu_idle | grep -c 4294967295; the first event per cpu_id by awk).
    let periods: usize = idle.cpus.iter().map(|c| c.periods.len()).sum();
    let unterminated: u64 = idle.cpus.iter().map(|c| c.stats.unterminated).sum();
    assert_eq!(idle.cpus.len(), 6);
    assert_eq!((periods, unterminated), (231, 474 - 237 - 231));
    // no hrtimer events: every sleep length is assumed, and the notes say so
    assert!(idle.notes.assumptions.iter().any(|a| a.contains("no pending timer")), "{:?}", idle.notes);
    // bash:2930 is switched out 71 times
    let t = import(&bytes, 2930).unwrap();
    assert!(t.events >= 71, "{}", t.events);
}
