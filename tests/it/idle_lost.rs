//! The idle importer over a real recording whose ring buffers overflowed in the middle
//! (tests/data/traces/lost-idle-6.18, `tools/traces/record_lost_idle.sh`: the kernel's own
//! `trace_pipe` text, with its `CPU:N [LOST M EVENTS]` lines). The expected values are the
//! kernel's text read by the hand rule written out below, never schedlab's output:
//!
//! - a loss marker of CPU N stands before the next event line of any CPU (the kernel
//!   prints it when its reader finds the gap: `print_trace_line()`); the note names the
//!   CPU, the count the kernel printed, that next event's time and the marker's line;
//! - an idle period is a `cpu_idle state=K` entry of a CPU followed, among that CPU's
//!   `cpu_idle` lines, by its exit (`state=4294967295`) with no loss marker of that CPU
//!   between; an entry followed by a loss marker of its CPU before its exit spans the
//!   loss and is dropped (`lost_periods`), not cut at the loss.

use schedlab::idle::ftrace::{read, FtraceImport};
use schedlab::import_notes::ImportOptions;
use std::collections::BTreeMap;
use std::path::Path;

const TRACE: &str = "tests/data/traces/lost-idle-6.18/trace_pipe.txt";

/// `SECONDS.FRACTION` → ns.
fn ns(tok: &str) -> i64 {
    let (s, f) = tok.split_once('.').unwrap();
    s.parse::<i64>().unwrap() * 1_000_000_000 + f.parse::<i64>().unwrap() * 10i64.pow(9 - f.len() as u32)
}

/// The CPU (`[NNN]`) and timestamp of an event line.
fn cpu_and_time(line: &str) -> Option<(u32, i64)> {
    let toks: Vec<&str> = line.split_whitespace().collect();
    let at = toks.iter().position(|t| t.ends_with(':') && t.trim_end_matches(':').contains('.'))?;
    let cpu = toks[..at].iter().rev().find_map(|t| t.strip_prefix('[')?.strip_suffix(']')?.parse().ok())?;
    Some((cpu, ns(toks[at].trim_end_matches(':'))))
}

#[derive(Default, Debug)]
struct Hand {
    /// Per CPU, the entry time of each whole period.
    periods: BTreeMap<u32, Vec<i64>>,
    /// Per CPU, the periods a loss cut.
    dropped: BTreeMap<u32, u64>,
    /// (CPU, count, time of the next event, marker line).
    losses: Vec<(u32, u64, i64, usize)>,
}

fn by_hand(text: &str) -> Hand {
    let mut h = Hand::default();
    let mut open: BTreeMap<u32, Option<i64>> = BTreeMap::new();
    let mut pending: Vec<(u32, u64, usize)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("CPU:") {
            // CPU:N [LOST M EVENTS]
            let (cpu, rest) = rest.split_once(' ').unwrap();
            let count = rest.trim_start_matches("[LOST ").trim_end_matches(" EVENTS]");
            let cpu: u32 = cpu.parse().unwrap();
            pending.push((cpu, count.parse().unwrap(), i + 1));
            if open.get(&cpu).copied().flatten().is_some() {
                *h.dropped.entry(cpu).or_default() += 1;
            }
            open.insert(cpu, None);
            continue;
        }
        let Some((_, ts)) = cpu_and_time(t) else { continue };
        for (cpu, count, at) in pending.drain(..) {
            h.losses.push((cpu, count, ts, at));
        }
        let Some(body) = t.split_once("cpu_idle: ").map(|x| x.1) else { continue };
        let state = body.split_whitespace().find_map(|kv| kv.strip_prefix("state=")).unwrap();
        let cpu: u32 = body.split_whitespace().find_map(|kv| kv.strip_prefix("cpu_id=")).unwrap().parse().unwrap();
        if state == "4294967295" {
            if let Some(Some(t0)) = open.insert(cpu, None) {
                h.periods.entry(cpu).or_default().push(t0);
            }
        } else {
            open.insert(cpu, Some(ts));
        }
    }
    h
}

fn import() -> FtraceImport {
    read(Path::new(TRACE), 250, ImportOptions::default()).unwrap()
}

#[test]
fn every_loss_is_named_where_the_kernel_printed_it() {
    let hand = by_hand(&std::fs::read_to_string(TRACE).unwrap());
    // the recording has losses on both CPUs
    assert!(hand.losses.iter().any(|l| l.0 == 0) && hand.losses.iter().any(|l| l.0 == 1), "{:?}", hand.losses);
    let t = import();
    for (cpu, count, ts, line) in &hand.losses {
        let want = format!(
            "CPU {cpu}: {count} events lost before {}.{:09} s (line {line}): ",
            ts / 1_000_000_000,
            ts % 1_000_000_000
        );
        assert!(t.notes.assumptions.iter().any(|n| n.starts_with(&want)), "{want}\n{:?}", t.notes.assumptions);
    }
    let named = t.notes.assumptions.iter().filter(|n| n.contains(" lost before ")).count();
    assert_eq!(named, hand.losses.len());
}

#[test]
fn a_period_a_loss_cut_is_dropped_and_the_import_resyncs_at_the_next_entry() {
    let hand = by_hand(&std::fs::read_to_string(TRACE).unwrap());
    // at least one period spans a loss in this recording (CPU 0's entry just before the
    // marker at line 1739)
    assert!(hand.dropped.values().sum::<u64>() >= 1, "{hand:?}");
    let t = import();
    for c in &t.cpus {
        assert_eq!(c.timestamp_ns, hand.periods.get(&c.cpu).cloned().unwrap_or_default(), "CPU {}", c.cpu);
        assert_eq!(c.stats.lost_periods, hand.dropped.get(&c.cpu).copied().unwrap_or(0), "CPU {}", c.cpu);
    }
    assert_eq!(t.cpus.iter().map(|c| c.cpu).collect::<Vec<_>>(), hand.periods.keys().copied().collect::<Vec<_>>());
    // no period is invented across a loss: every one ends before the next entry of its CPU
    for c in &t.cpus {
        for (p, pair) in c.periods.iter().zip(c.timestamp_ns.windows(2)) {
            let end = if p.wake_ns >= 0 { p.wake_ns } else { p.sleep_length_ns.min(pair[1] - pair[0]) };
            assert!(pair[0] + end <= pair[1], "CPU {}: period at {} ends after the next entry", c.cpu, pair[0]);
        }
    }
}

/// trace-cmd's `CPU:N [M EVENTS DROPPED]` lines of its report, with the time of the
/// record printed after each (that CPU's first record after the gap).
fn dropped_in_report(report: &str) -> Vec<(u32, u64, i64)> {
    let lines: Vec<&str> = report.lines().collect();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let Some(at) = l.find("CPU:") else { continue };
        let Some(inner) = l[at + 4..].strip_suffix(" EVENTS DROPPED]") else { continue };
        let (cpu, count) = inner.split_once(" [").unwrap();
        let (_, ts) = cpu_and_time(lines[i + 1]).unwrap();
        out.push((cpu.parse().unwrap(), count.parse().unwrap(), ts));
    }
    out
}

#[test]
fn a_trace_dat_names_its_flagged_pages_as_trace_cmd_reports_them() {
    // lost-idle-6.18/trace.dat: `trace-cmd extract` of an overwriting buffer (each CPU's
    // first page read after overwritten ones carries the count); report-t.txt is
    // `trace-cmd report -t` of it
    let dir = Path::new("tests/data/traces/lost-idle-6.18");
    let report = std::fs::read_to_string(dir.join("report-t.txt")).unwrap();
    let want = dropped_in_report(&report);
    assert_eq!(want.iter().map(|w| (w.0, w.1)).collect::<Vec<_>>(), vec![(0, 2074), (1, 9824)]);
    let dat = read(&dir.join("trace.dat"), 250, ImportOptions::default()).unwrap();
    let text = read(&dir.join("report-t.txt"), 250, ImportOptions::default()).unwrap();
    for t in [&dat, &text] {
        for (cpu, count, ts) in &want {
            let head = format!(
                "CPU {cpu}: {count} events lost before {}.{:09} s (line ",
                ts / 1_000_000_000,
                ts % 1_000_000_000
            );
            assert!(t.notes.assumptions.iter().any(|n| n.starts_with(&head)), "{head}\n{:?}", t.notes.assumptions);
        }
    }
    // the same periods from the file and from trace-cmd's reading of it
    assert_eq!(dat.cpus, text.cpus);
    // its cpu_idle lines: CPU 1 entered at 28887.523850686 and 28887.524110831, each exit
    // seen (a loss before the CPU's first record cuts no period)
    let c1 = dat.cpus.iter().find(|c| c.cpu == 1).unwrap();
    assert_eq!(c1.timestamp_ns, vec![28_887_523_850_686, 28_887_524_110_831]);
    assert_eq!(c1.stats.lost_periods, 0);
}
