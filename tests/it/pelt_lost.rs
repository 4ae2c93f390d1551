//! A trace whose ring buffer overflowed (tests/data/traces/lost-6.18, made by
//! tools/traces/record_lost.sh: 64 kB per CPU in the default overwrite mode, a fork
//! loop on each CPU): where and how many events were lost, as trace-cmd's own report of
//! it says, and the PELT import across the losses (docs/tracing.md §3.1).

use schedlab::import_notes::ImportOptions;
use schedlab::pelt::cpu_capacity::Platform;
use schedlab::pelt::ftrace::{read_ftrace, task_trace_from_ftrace, FtraceTask};
use schedlab::tracedat::{Item, Trace};

const DIR: &str = "tests/data/traces/lost-6.18";

/// The losses `trace-cmd report` prints (`CPU:N [M EVENTS DROPPED]` before the first
/// record after them): (CPU, count, the number of that record, counting every record
/// line of the report, 1-based).
fn reported_losses() -> Vec<(u32, Option<u64>, usize)> {
    let text = std::fs::read_to_string(format!("{DIR}/report.txt")).unwrap();
    let mut out = Vec::new();
    let mut records = 0usize;
    let mut pending: Option<(u32, Option<u64>)> = None;
    for line in text.lines().skip(1) {
        if let Some(at) = line.find("CPU:").filter(|_| line.ends_with("EVENTS DROPPED]")) {
            let rest = &line[at + 4..];
            let (cpu, rest) = rest.split_once(' ').unwrap();
            let n = rest.trim_start_matches('[').split(' ').next().unwrap();
            pending = Some((cpu.parse().unwrap(), n.parse().ok()));
            continue;
        }
        records += 1;
        if let Some((cpu, n)) = pending.take() {
            out.push((cpu, n, records));
        }
    }
    out
}

#[test]
fn losses_are_where_trace_cmd_reports_them() {
    let want = reported_losses();
    // report.txt: CPU 0 lost 4690 events before its first record, CPU 1 16680 before its
    // own (the stat.txt of the same file: overrun 4690 and 16680)
    assert_eq!(want.iter().map(|&(c, n, _)| (c, n)).collect::<Vec<_>>(), vec![(0, Some(4690)), (1, Some(16680))]);
    let bytes = std::fs::read(format!("{DIR}/trace.dat")).unwrap();
    let bytes = bytes.as_slice();
    let trace = Trace::open(&bytes, None).unwrap();
    let mut got = Vec::new();
    trace
        .each(|item| {
            if let Item::Lost(l) = item {
                got.push((l.cpu, l.count, l.before_record));
            }
            Ok(())
        })
        .unwrap();
    assert_eq!(got, want);
}

fn pids() -> Vec<u32> {
    let text = std::fs::read_to_string(format!("{DIR}/report.txt")).unwrap();
    let mut pids: Vec<u32> = text
        .lines()
        .filter_map(|l| l.split_once("sched_switch:"))
        .filter_map(|(_, body)| body.split_once(" ==> "))
        .filter_map(|(prev, _)| prev.rsplit_once(" [")?.0.rsplit_once(':')?.1.trim().parse().ok())
        .collect();
    pids.sort_unstable();
    pids.dedup();
    pids
}

/// The trace time (ns) of the task's last event in trace-cmd's report: a line it is the
/// current task of (`comm-PID [cpu]`), or one naming it (`:PID [prio]`, `pid=PID `).
fn last_event_ns(pid: u32) -> u64 {
    let text = std::fs::read_to_string(format!("{DIR}/report.txt")).unwrap();
    let marks = [format!("-{pid} ["), format!(":{pid} ["), format!("pid={pid} ")];
    text.lines()
        .filter(|l| marks.iter().any(|m| l.contains(m.as_str())))
        .filter_map(|l| {
            let (_, after_cpu) = l.split_once("] ")?;
            let stamp = after_cpu.split_whitespace().next()?.trim_end_matches(':');
            let (s, us) = stamp.split_once('.')?;
            Some(s.parse::<u64>().ok()? * 1_000_000_000 + us.parse::<u64>().ok()? * 1_000)
        })
        .max()
        .unwrap()
}

fn import_dat(pid: u32) -> Result<FtraceTask, String> {
    let strict = ImportOptions { strict: true, sort: false };
    read_ftrace(std::path::Path::new(&format!("{DIR}/trace.dat")), pid, &Platform::default(), strict)
        .map_err(|e| e.to_string())
}

#[test]
fn every_task_imports_across_the_losses_and_the_notes_name_them() {
    let pids = pids();
    assert!(pids.len() > 50, "{}", pids.len());
    let mut imported = 0;
    let mut resynced = 0;
    for &pid in &pids {
        let Ok(t) = import_dat(pid) else { continue };
        imported += 1;
        let notes = t.notes.assumptions.join("\n");
        // each loss before the task's last event (CPU 0's precedes every record; CPU 1's
        // is at 6137.454972 s, report.txt) is named with its CPU, count and the record it
        // precedes (trace-cmd's report). The end in trace time from the report: a task
        // placed on its PELT clock (docs/pelt.md §12) has segments on that clock
        let end = last_event_ns(pid);
        for ((cpu, n, record), at) in reported_losses().into_iter().zip([0, 6_137_454_972_000]) {
            let named = format!("CPU {cpu} lost {} events before line {record} (", n.unwrap());
            assert_eq!(notes.contains(&named), end >= at, "pid {pid}: {named:?} in\n{notes}");
        }
        if notes.contains("is not in the trace: replayed as") {
            resynced += 1;
        }
    }
    // ruby (pid 27737) ran on CPU 0, then is switched out of CPU 1 right after CPU 1's
    // loss: the import used to stop there ("switched out while sleeping (not running):
    // missing events?"); now its state is taken from that switch
    // (report.txt: CPU 1's first record after the loss is at 6137.454972)
    let ruby = import_dat(27737).unwrap();
    let notes = ruby.notes.assumptions.join("\n");
    let cpu1 = reported_losses()[1].2;
    let span = format!("pid 27737: its state from 6137.454972 s (line {cpu1}) to");
    assert!(notes.contains(&span), "{span:?} not in\n{notes}");
    assert!(imported >= pids.len() - 2, "{imported} of {}", pids.len());
    assert!(resynced >= 1);
}

#[test]
fn the_report_text_imports_as_the_trace_dat() {
    let text = std::fs::read(format!("{DIR}/report.txt")).unwrap();
    let lenient = ImportOptions::default();
    for pid in [27737, 27813] {
        let from_text = task_trace_from_ftrace(&text, pid, &Platform::default(), None, lenient).unwrap();
        let from_dat = import_dat(pid).unwrap();
        // trace-cmd prints µs: the same segments within a µs at each boundary
        assert_eq!(from_text.segments.len(), from_dat.segments.len(), "pid {pid}");
        let losses = |t: &FtraceTask| t.notes.assumptions.iter().filter(|a| a.contains(" lost ")).count();
        assert_eq!(losses(&from_text), 2, "{:?}", from_text.notes);
        assert_eq!(losses(&from_dat), 2);
    }
}
