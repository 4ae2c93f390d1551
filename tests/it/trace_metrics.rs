//! The trace metrics pass (src/trace) on real recordings, against what the reference
//! tools printed of the same recordings:
//! - perf-6.18: `perf sched timehist` of the `perf record` whose `perf script --ns` is
//!   perf-script.txt (tools/oracles/traces/record_perf.sh): every sched_switch row's wait
//!   time, sch delay and run time, ms with 3 decimals truncated (perf's
//!   `print_sched_time`), so each must be our ns truncated to the µs;
//! - lost-overwrite-6.18: an 8 KiB buffer that overflowed (tools/oracles/traces/record_overwrite.sh):
//!   `trace-cmd report` prints `CPU:1 [N EVENTS DROPPED]` before the first event of CPU 1;
//! - tracedat-6.18: the same recording as trace.dat version 7 (zstd), version 6 and
//!   `trace-cmd report -t` text: the three readings must measure the same.

use schedlab::import_notes::ImportOptions;
use schedlab::trace::inputs::TraceInput;
use schedlab::trace::machine::SliceRow;
use schedlab::trace::pass::{summarize, summarize_with_rows, Options};
use std::path::PathBuf;

fn input(rel: &str) -> TraceInput {
    TraceInput::File(PathBuf::from("tests/data/traces").join(rel))
}

fn strict() -> Options {
    Options { import: ImportOptions { strict: true, sort: false }, ..Options::default() }
}

/// µs of a timehist field (`12.345` ms).
fn us(s: &str) -> u64 {
    let (ms, frac) = s.split_once('.').unwrap();
    ms.parse::<u64>().unwrap() * 1000 + frac.parse::<u64>().unwrap()
}

#[test]
fn every_switch_as_perf_sched_timehist_reckons_it() {
    let mut rows: Vec<SliceRow> = Vec::new();
    let mut push = |r: SliceRow| rows.push(r);
    summarize_with_rows(&input("perf-6.18/perf-script.txt"), &strict(), Some(&mut push)).unwrap();
    let text = std::fs::read_to_string("tests/data/traces/perf-6.18/timehist.txt").unwrap();
    // `   15457.024953 [0001]  opt cgu.1[9916/5456]   0.000   0.000   3.802`
    let want: Vec<(u64, u32, i32, u64, u64, u64)> = text
        .lines()
        .skip(3)
        .map(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            let n = t.len();
            let (sec, frac) = t[0].split_once('.').unwrap();
            let ts_us = sec.parse::<u64>().unwrap() * 1_000_000 + frac.parse::<u64>().unwrap();
            let cpu: u32 = t[1].trim_matches(|c| c == '[' || c == ']').parse().unwrap();
            // the task field ends with [tid] or [tid/pid]; names may hold spaces
            let task = t[2..n - 3].join(" ");
            let tid = task.rsplit_once('[').unwrap().1.trim_end_matches(']').split('/').next().unwrap();
            (ts_us, cpu, tid.parse().unwrap(), us(t[n - 3]), us(t[n - 2]), us(t[n - 1]))
        })
        .collect();
    assert!(want.len() > 250, "{} rows", want.len());
    let ours: Vec<(u64, u32, i32, u64, u64, u64)> = rows
        .iter()
        .map(|r| (r.ts / 1000, r.cpu, r.pid, r.wait_ns / 1000, r.delay_ns / 1000, r.run_ns / 1000))
        .collect();
    assert_eq!(ours.len(), want.len());
    for (i, (o, w)) in ours.iter().zip(&want).enumerate() {
        assert_eq!(o, w, "row {i}: ours, timehist");
    }
}

/// perf sched record's runs (tests/data/traces/why/perf-sched, tools/oracles/why/perf_sched.py):
/// timehist.csv holds the event lines of `perf sched timehist --state`, one per sched_switch
/// (time_s,cpu,comm,tid,pid,wait_ms,sch_delay_ms,run_ms,state). perf names a switch's task by
/// the sample's tid, which it records as -1 for a task outside its pid namespace (other
/// sandboxes' builds shared the machine): timehist then keeps one "-1" thread for all of
/// them, and those tasks' own rows lack the switches it took. Those tasks (the `prev_pid`
/// of the switches perf script prints with tid -1) are compared apart: every other row
/// must be equal.
#[test]
fn perf_sched_record_runs_as_timehist_reckons_them() {
    for run in ["wakeup", "messaging"] {
        let dir = format!("why/perf-sched/{run}");
        let script = std::fs::read_to_string(format!("tests/data/traces/{dir}/perf-script.txt")).unwrap();
        let outside: std::collections::HashSet<i32> = script
            .lines()
            .filter(|l| l.contains("sched:sched_switch:") && l.split(" [").next().unwrap().trim_end().ends_with(" -1"))
            .map(|l| l.split_once("prev_pid=").unwrap().1.split(' ').next().unwrap().parse().unwrap())
            .collect();
        let mut rows: Vec<SliceRow> = Vec::new();
        let mut push = |r: SliceRow| rows.push(r);
        summarize_with_rows(&input(&format!("{dir}/perf-script.txt")), &strict(), Some(&mut push)).unwrap();
        let text = std::fs::read_to_string(format!("tests/data/traces/{dir}/timehist.csv")).unwrap();
        let want: Vec<(u64, u32, i32, u64, u64, u64)> = text
            .lines()
            .skip(1)
            .map(|l| {
                // the comm may hold commas: take the fields from both ends
                let f: Vec<&str> = l.split(',').collect();
                let n = f.len();
                let (sec, frac) = f[0].split_once('.').unwrap();
                let ts = sec.parse::<u64>().unwrap() * 1_000_000 + frac.parse::<u64>().unwrap();
                (ts, f[1].parse().unwrap(), f[n - 6].parse().unwrap(), us(f[n - 4]), us(f[n - 3]), us(f[n - 2]))
            })
            .collect();
        let ours: Vec<(u64, u32, i32, u64, u64, u64)> = rows
            .iter()
            .map(|r| (r.ts / 1000, r.cpu, r.pid, r.wait_ns / 1000, r.delay_ns / 1000, r.run_ns / 1000))
            .collect();
        assert!(want.len() > 900, "{run}: {} rows", want.len());
        assert_eq!(ours.len(), want.len(), "{run}: one row per sched_switch");
        let kept = |v: &[(u64, u32, i32, u64, u64, u64)]| -> Vec<(u64, u32, i32, u64, u64, u64)> {
            v.iter().filter(|r| r.2 != -1 && !outside.contains(&r.2)).copied().collect()
        };
        let (ours, want) = (kept(&ours), kept(&want));
        assert_eq!(ours.len(), want.len(), "{run}");
        assert!(ours.len() * 4 > rows.len() * 3, "{run}: {} of {} rows compared", ours.len(), rows.len());
        for (i, (o, w)) in ours.iter().zip(&want).enumerate() {
            assert_eq!(o, w, "{run} row {i}: ours, timehist");
        }
    }
}

/// latency-p.csv: `perf sched latency -p` of the same recordings (task, comm, pid, tasks,
/// runtime_ms, switches, avg_delay_ms, max_delay_ms, max_delay_start_s, max_delay_end_s):
/// perf prints ms with `%.3f` (the average the integer ns of total / switches) and the max's
/// start and end as s with 6 decimals, truncated.
#[test]
fn perf_sched_latency_per_task_as_perf_computes_it() {
    use schedlab::trace::perf_latency::table;
    for run in ["wakeup", "messaging"] {
        let dir = format!("why/perf-sched/{run}");
        let (rows, _) =
            table(&input(&format!("{dir}/perf-script.txt")), ImportOptions { strict: true, sort: false }).unwrap();
        let ms = |ns: u64| format!("{:.3}", ns as f64 / 1e6);
        let s6 = |ns: u64| format!("{}.{:06}", ns / 1_000_000_000, ns % 1_000_000_000 / 1000);
        let mut ours: Vec<String> = rows
            .iter()
            .map(|r| {
                let avg = r.total_delay_ns / r.switches;
                format!(
                    "{},{},{},{},{},{},{}",
                    r.pid,
                    ms(r.runtime_ns),
                    r.switches,
                    ms(avg),
                    ms(r.max_delay_ns),
                    if r.max_delay_ns > 0 { s6(r.max_start_ns) } else { "0.000000".into() },
                    if r.max_delay_ns > 0 { s6(r.max_end_ns) } else { "0.000000".into() }
                )
            })
            .collect();
        let text = std::fs::read_to_string(format!("tests/data/traces/{dir}/latency-p.csv")).unwrap();
        let mut want: Vec<String> = text
            .lines()
            .skip(1)
            .map(|l| {
                let f: Vec<&str> = l.rsplitn(8, ',').collect();
                // f holds the last 7 fields reversed, then the rest (task,comm,pid)
                let pid = f[7].rsplit(',').next().unwrap();
                format!("{pid},{},{},{},{},{},{}", f[5], f[4], f[3], f[2], f[1], f[0])
            })
            .collect();
        ours.sort();
        want.sort();
        assert!(want.len() > 20, "{run}: {} tasks", want.len());
        assert_eq!(ours, want, "{run}");
    }
}

/// LISA 3.1.0's own analyses (tests/data/traces/why/lisa, tools/oracles/why/lisa_oracle.py)
/// print seconds as doubles computed from float timestamps (LISA's sums carry their
/// rounding, below 1e-10 s here); ours are integer ns: equal within 1 ns.
fn lisa_rows(rel: &str) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(format!("tests/data/traces/why/lisa/{rel}")).unwrap();
    text.lines().skip(1).map(|l| l.split(',').map(str::to_string).collect()).collect()
}

fn close(ours_ns: u64, lisa_s: &str, what: &str) {
    let want = lisa_s.parse::<f64>().unwrap();
    assert!((ours_ns as f64 / 1e9 - want).abs() < 1e-9, "{what}: ours {ours_ns} ns, LISA {want} s");
}

#[test]
fn idle_and_frequency_residency_as_lisa_counts_them() {
    // LISA's sched_load/trace.dat, as trace-cmd 3.1.6 wrote it again (version 7, zstd)
    let s = summarize(&input("lisa-sched_load/trace-zstd.dat"), &strict()).unwrap();
    let idle = lisa_rows("sched_load/idle-residency-cpu.csv");
    assert!(idle.len() > 15);
    let mut seen = 0;
    for c in &s.cpus {
        let want: Vec<&Vec<String>> = idle.iter().filter(|r| r[0] == c.cpu.to_string()).collect();
        for r in &want {
            let ours = match r[1].as_str() {
                "-1" => c.active_ns,
                k => c.states[k.parse::<usize>().unwrap()].residency_ns,
            };
            close(ours, &r[2], &format!("cpu {} state {}", r[0], r[1]));
            seen += 1;
        }
        // a state LISA does not list was never entered
        let listed = want.len() - 1;
        assert!(c.states.iter().skip(listed).all(|x| x.residency_ns == 0), "cpu {}", c.cpu);
    }
    assert_eq!(seen, idle.len());
    let freq = lisa_rows("sched_load/freq-residency-cpu.csv");
    for r in &freq {
        let c = s.cpus.iter().find(|c| c.cpu.to_string() == r[0]).unwrap();
        close(c.freq_ns[&r[1].parse::<u64>().unwrap()], &r[2], &format!("cpu {} at {} kHz", r[0], r[1]));
    }
    let listed: usize = s.cpus.iter().map(|c| c.freq_ns.len()).sum();
    assert_eq!(listed, freq.len());
    // LISA's window: the trace's first and last event
    let w = &lisa_rows("sched_load/window.csv")[0];
    close(s.start_ns, &w[0], "window start");
    close(s.end_ns, &w[1], "window end");
}

#[test]
fn task_state_times_as_lisa_counts_them() {
    use schedlab::trace::task_states::table;
    // LISA parsed trace.txt with sched_switch and sched_wakeup only
    let (rows, _) = table(&input("lisa/trace_txt.txt"), false, ImportOptions { strict: true, sort: false }).unwrap();
    let want = lisa_rows("trace_txt/tasks-state-time.csv");
    assert!(want.len() > 150);
    assert_eq!(rows.len(), want.len());
    for (o, w) in rows.iter().zip(&want) {
        let n = w.len();
        // pid,comm,curr_state,curr_state_str,time_s,count (a name may hold a comma)
        assert_eq!(
            (o.pid.to_string(), o.state.to_string(), o.count.to_string()),
            (w[0].clone(), w[n - 4].clone(), w[n - 1].clone())
        );
        assert_eq!(o.comm, w[1..n - 4].join(","));
        let what = format!("pid {} {} state {}", o.pid, o.comm, o.state);
        match (o.time_ns, w[n - 2].as_str()) {
            (None, "") => {}
            (Some(t), lisa) if !lisa.is_empty() => close(t, lisa, &what),
            (ours, lisa) => panic!("{what}: ours {ours:?}, LISA {lisa:?}"),
        }
    }
}

/// The kernel's own counters (tests/data/traces/why/cpu-idle-probe,
/// tools/oracles/why/cpu_idle_probe.sh): every CPU's `stateK/usage` read before and after
/// a recording of `cpu_idle` into the kernel's `trace` file; each entry the trace shows
/// is one the cpuidle core counted.
#[test]
fn idle_usage_is_the_kernels_usage_delta() {
    let read = |f: &str| -> std::collections::BTreeMap<(u32, usize), u64> {
        let text = std::fs::read_to_string(format!("tests/data/traces/why/cpu-idle-probe/{f}")).unwrap();
        text.lines()
            .map(|l| {
                // /sys/devices/system/cpu/cpu1/cpuidle/state1/usage:24185
                let (path, v) = l.rsplit_once(':').unwrap();
                let cpu = path.split("/cpu/cpu").nth(1).unwrap().split('/').next().unwrap().parse().unwrap();
                let state = path.split("/state").nth(1).unwrap().split('/').next().unwrap().parse().unwrap();
                ((cpu, state), v.parse().unwrap())
            })
            .collect()
    };
    let (before, after) = (read("usage-before.txt"), read("usage-after.txt"));
    let s = summarize(&input("why/cpu-idle-probe/trace.txt"), &strict()).unwrap();
    for ((cpu, state), b) in &before {
        let ours = s.cpus.iter().find(|c| c.cpu == *cpu).and_then(|c| c.states.get(*state)).map_or(0, |x| x.usage);
        assert_eq!(ours, after[&(*cpu, *state)] - b, "cpu {cpu} state {state}");
    }
    assert!(s.cpus.iter().map(|c| c.states.iter().map(|x| x.usage).sum::<u64>()).sum::<u64>() > 20);
}

/// The kernel's cpuidle counters bracketing each CPU's part of a recording
/// (tests/data/traces/why/kernel and experiment, tools/oracles/why/record_kernel.py):
/// `sysfs-delta.csv` is after − before of every CPU's `stateK/{usage,time,above,below}`.
/// usage, above and below must be equal (above/below both from the kernel's own
/// `cpu_idle_miss` records and by the kernel's rule on the state table `states-cpuN.txt`);
/// `time` (µs, truncated) is each entry's residency between the kernel's two
/// `local_clock()` reads, which the two `cpu_idle` records bracket: the trace's sum is
/// never shorter, and longer by the work between each record and its clock read (on this
/// VM 0.3 to 1.6 µs an entry, the named difference of docs/trace-compare.md §3.1) plus the
/// truncation to µs.
fn check_against_sysfs(dir: &str, trace: &str, delta: &str) {
    let states = format!("tests/data/traces/why/{dir}/states-cpu0.txt");
    let opts = Options {
        states: Some(schedlab::idle::states::StateTable::load(std::path::Path::new(&states)).unwrap()),
        ..strict()
    };
    let s = summarize(&input(&format!("why/{dir}/{trace}")), &opts).unwrap();
    let text = std::fs::read_to_string(format!("tests/data/traces/why/{dir}/{delta}")).unwrap();
    for l in text.lines().skip(1) {
        // cpu,state,name,usage,time,above,below,rejected (a name may hold a comma)
        let f: Vec<&str> = l.split(',').collect();
        let n = f.len();
        let (cpu, state): (u32, usize) = (f[0].parse().unwrap(), f[1].parse().unwrap());
        let num = |i: usize| f[i].parse::<u64>().unwrap();
        let (usage, time_us, above, below, rejected) = (num(n - 5), num(n - 4), num(n - 3), num(n - 2), num(n - 1));
        assert_eq!(rejected, 0, "{dir}: a rejected entry is traced but not counted in usage");
        let st = s.cpus.iter().find(|c| c.cpu == cpu).and_then(|c| c.states.get(state)).cloned().unwrap_or_default();
        let what = format!("{dir}/{trace} cpu {cpu} state {state}");
        assert_eq!(st.usage, usage, "{what}: usage");
        // cpu_idle_miss was recorded: none seen means the kernel counted none
        assert_eq!((st.kernel_above, st.kernel_below), (above, below), "{what}: cpu_idle_miss");
        assert_eq!((st.above, st.below), (above, below), "{what}: the kernel's rule on the state table");
        let (lo, hi) = (time_us * 1000, (time_us + 1 + 2 * usage) * 1000);
        assert!(st.time_ns >= lo && st.time_ns < hi, "{what}: {} ns, sysfs {time_us} µs", st.time_ns);
    }
}

#[test]
fn idle_counters_are_the_kernels_sysfs_deltas() {
    check_against_sysfs("kernel/busy-idle-10min", "trace.dat", "sysfs-delta.csv");
    check_against_sysfs("kernel/busy-lat0-8min", "trace.dat", "sysfs-delta.csv");
    for (experiment, groups) in
        [("experiment", &["base", "aa", "lat0"][..]), ("experiment-quiet", &["base", "aa", "lat0", "menu"])]
    {
        for group in groups {
            for run in 1..=5 {
                let dir = format!("{experiment}/{group}");
                check_against_sysfs(&dir, &format!("run-{run:02}.dat"), &format!("run-{run:02}.sysfs-delta.csv"));
            }
        }
    }
}

#[test]
fn a_lost_page_is_named_as_trace_cmd_reports_it() {
    // report.txt's second line: `schedlab: CPU:1 [2199 EVENTS DROPPED]`, before the
    // first event of CPU 1 (report-t.txt's third line, 3816.869635610)
    let report = std::fs::read_to_string("tests/data/traces/lost-overwrite-6.18/report-t.txt").unwrap();
    let (cpu, n) = {
        let l = report.lines().nth(1).unwrap();
        let inner = l.split_once("CPU:").unwrap().1;
        let (cpu, rest) = inner.split_once(" [").unwrap();
        (cpu.parse::<u32>().unwrap(), rest.split_once(' ').unwrap().0.parse::<u64>().unwrap())
    };
    let first = report.lines().nth(2).unwrap();
    let ts_text = first.split_whitespace().find(|t| t.ends_with(':') && t.contains('.')).unwrap();
    let (s, f) = ts_text.trim_end_matches(':').split_once('.').unwrap();
    let ts = s.parse::<u64>().unwrap() * 1_000_000_000 + f.parse::<u64>().unwrap();
    for file in
        ["lost-overwrite-6.18/trace.dat", "lost-overwrite-6.18/trace-v6.dat", "lost-overwrite-6.18/report-t.txt"]
    {
        let s = summarize(&input(file), &strict()).unwrap();
        assert_eq!((s.loss_marks, s.lost_events, s.losses_uncounted), (1, n, 0), "{file}");
        assert_eq!((s.losses[0].cpu, s.losses[0].ts, s.losses[0].count), (cpu, ts, Some(n)), "{file}");
        assert!(s.notes.iter().any(|m| m.starts_with("ring buffer overflowed 1 time(s)")), "{file}: {:?}", s.notes);
    }
    // report.txt prints the times rounded to the µs: the loss is at the first event's
    let s = summarize(&input("lost-overwrite-6.18/report.txt"), &strict()).unwrap();
    assert_eq!((s.lost_events, s.losses[0].ts), (n, (ts + 500) / 1000 * 1000));
}

#[test]
fn the_three_readings_of_one_recording_measure_the_same() {
    let v7 = summarize(&input("tracedat-6.18/trace.dat"), &strict()).unwrap();
    let v6 = summarize(&input("tracedat-6.18/trace-v6.dat"), &strict()).unwrap();
    let text = summarize(&input("tracedat-6.18/report-t.txt"), &strict()).unwrap();
    assert!(v7.present.switch && v7.present.wakeup && v7.events > 1000, "{:?}", v7.present);
    for other in [&v6, &text] {
        assert_eq!(other.cpus, v7.cpus);
        assert_eq!(other.sched, v7.sched);
        assert_eq!((other.start_ns, other.end_ns), (v7.start_ns, v7.end_ns));
        assert_eq!(other.excluded, v7.excluded);
    }
}
