//! `perf script` text (tests/data/traces/perf-6.18, tools/oracles/traces/record_perf.sh):
//! the periodic task's trace imported from it against perf's own reckoning of the same
//! recording, `perf sched timehist`: each switch-out row gives the task's run time, the
//! time off the CPU before it ("wait time") and, after a sleep, the part of that between
//! the wakeup and the switch-in ("sch delay"; 0 after a preemption), each in ms with 3
//! decimals, truncated (perf's `timestamp__scnprintf_msec`): so each must be our ns
//! truncated to the µs.

use schedlab::import_notes::ImportOptions;
use schedlab::pelt::cpu_capacity::Platform;
use schedlab::pelt::ftrace::task_trace_from_ftrace;
use schedlab::pelt::State;

const DIR: &str = "tests/data/traces/perf-6.18";

/// (wait, sch delay, run) in µs of each timehist row of `pid`.
fn timehist(text: &str, pid: u32) -> Vec<(i64, i64, i64)> {
    let tag = format!("[{pid}]");
    let us = |s: &str| {
        let (ms, frac) = s.split_once('.').unwrap();
        ms.parse::<i64>().unwrap() * 1000 + frac.parse::<i64>().unwrap()
    };
    text.lines()
        .filter_map(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            (t.len() == 6 && t[2].ends_with(&tag)).then(|| (us(t[3]), us(t[4]), us(t[5])))
        })
        .collect()
}

#[test]
fn the_periodic_task_from_perf_script_is_what_perf_sched_timehist_reckons() {
    let pids = std::fs::read_to_string(format!("{DIR}/pids.txt")).unwrap();
    let pid: u32 = pids.trim().rsplit_once("periodic=").unwrap().1.parse().unwrap();
    let script = std::fs::read(format!("{DIR}/perf-script.txt")).unwrap();
    let strict = ImportOptions { strict: true, sort: false };
    let t = task_trace_from_ftrace(&script, pid, &Platform::default(), Some("perf-script.txt"), strict).unwrap();
    // ours before each run: (time off the CPU, runnable part after a sleep (0 after a
    // preemption), run), truncated to the µs
    let mut ours = Vec::new();
    let (mut sleep, mut wait) = (0i64, 0i64);
    for s in &t.segments {
        let d = s.dur_ns as i64;
        match s.state {
            State::Sleep => sleep += d,
            State::Wait => wait += d,
            State::Run => {
                ours.push(((sleep + wait) / 1000, if sleep > 0 { wait / 1000 } else { 0 }, d / 1000));
                (sleep, wait) = (0, 0);
            }
        }
    }
    let want = timehist(&std::fs::read_to_string(format!("{DIR}/timehist.txt")).unwrap(), pid);
    assert!(want.len() > 10, "{} timehist rows", want.len());
    // the last run may be cut by the end of the recording (no switch-out row for it)
    assert!(ours.len() == want.len() || ours.len() == want.len() + 1, "{} runs vs {} rows", ours.len(), want.len());
    for (i, (o, w)) in ours.iter().zip(&want).enumerate() {
        // before the first run perf has seen no switch-out (it prints 0 and 0)
        let o = if i == 0 { (0, 0, o.2) } else { *o };
        assert_eq!(o, *w, "run {i}: ours, timehist");
    }
}
