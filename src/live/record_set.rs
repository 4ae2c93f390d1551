//! Recording sets (docs/live.md §8): N recordings of one workload per group of
//! settings, the groups taken in turn (run 1 of each group, then run 2, ...), each
//! recording a whole-machine trace bracketed exactly by every CPU's cpuidle counters.
//!
//! The bracket: a CPU's cpuidle counters are updated by that CPU itself when it leaves
//! an idle state, before its idle task lets anything else run. The recorder pins itself
//! to each CPU in turn, switches that CPU's ring buffer on (its bit of the instance's
//! `tracing_cpumask`, which the kernel applies at once) and reads the CPU's counters;
//! after the workload it reads them again from the CPU and switches its buffer off. So
//! the trace holds exactly the idle periods the counters' advance counts, each whole (the
//! CPU was running the recorder at both ends). A trace marker after each reading
//! (`schedlab: sysfs-before cpu=N`, `schedlab: sysfs-after cpu=N`) lets a reader check it.
//!
//! Layout written to `out` (what `schedlab trace compare` reads as one group per
//! directory): `sets.json`; per group a directory `<group>/` with `run-NN.dat`,
//! `run-NN.sysfs-before.txt`, `run-NN.sysfs-after.txt` (`grep .` lines of every CPU's
//! state directories), `run-NN.sysfs-delta.csv` (per CPU and state, the counters'
//! advance), `run-NN.json` (the recording's facts) and `states-cpuN.txt` (CPU N's state
//! table as the group ran it). Every setting is undone after each recording by a
//! [`Restore`] guard, also on error, Ctrl-C or SIGTERM.

use super::cpuidle_sysfs::{self, state_lines, COUNTERS, SNAPSHOT_FIELDS};
use super::extract::{extract, which};
use super::kernel_config::{config_hz, release};
use super::restore::Restore;
use super::setting::{Group, Setting};
use super::sys_file;
use super::thread_sched::{cpu_count, nice, CpuSet, Policy};
use super::tracefs::{cpumask_of, mount_if_needed, stats_count, unmount, Instance, TRACEFS};
use super::workload::{Task, Workload};
use crate::choice::Choice;
use crate::error::{Error, Result};
use crate::stop_signal::StopOnSignal;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The events a set's recordings enable (those the kernel has), as `system/event`:
/// what `schedlab trace compare` reads (idle states and misses, the tick, the hrtimers
/// the governors' sleep length needs, wakeups, switches, migrations, run time,
/// frequency).
pub const SET_EVENTS: [&str; 14] = [
    "sched/sched_switch",
    "sched/sched_waking",
    "sched/sched_wakeup",
    "sched/sched_wakeup_new",
    "sched/sched_migrate_task",
    "sched/sched_stat_runtime",
    "power/cpu_idle",
    "power/cpu_idle_miss",
    "power/cpu_frequency",
    "timer/tick_stop",
    "timer/hrtimer_start",
    "timer/hrtimer_cancel",
    "timer/hrtimer_expire_entry",
    "timer/hrtimer_expire_exit",
];

/// The event systems of [`SET_EVENTS`], whose formats each trace keeps.
pub const SET_SYSTEMS: [&str; 3] = ["sched", "power", "timer"];

/// A recording set's options (Python's `live.record_sets` keywords).
#[derive(Debug, Clone)]
pub struct SetOptions {
    /// The groups, in the order each round takes them.
    pub groups: Vec<Group>,
    /// Recordings per group.
    pub runs: usize,
    /// A command run (to its end) in each recording instead of the pattern.
    pub command: Option<Vec<String>>,
    /// The pattern's duration, s.
    pub seconds: f64,
    /// The pattern's busy time per period, ms.
    pub busy_ms: f64,
    /// The pattern's sleep per period, ms.
    pub sleep_ms: f64,
    /// The instance's buffer per CPU, kB.
    pub buffer_kb: u64,
    /// The interpreter that runs the pattern, or waits to exec the command.
    pub python: PathBuf,
    /// Whether SIGTERM requests a stop (as Ctrl-C does) meanwhile.
    pub catch_sigterm: bool,
}

/// The ring buffer's counts of one CPU after a recording.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BufferStats {
    /// Events in the buffer.
    pub entries: u64,
    /// Events overwritten (the buffer was full).
    pub overrun: u64,
    /// Events dropped.
    pub dropped: u64,
}

/// `run-NN.json`: one recording's facts, in this key order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunMeta {
    /// The group's name.
    pub group: String,
    /// The recording's number in its group, from 1.
    pub run: usize,
    /// Its place in the whole set's order, from 1.
    pub order: usize,
    /// The group's settings, kind → value.
    pub settings: BTreeMap<String, String>,
    /// The cpuidle governor in use during the recording.
    pub governor: Option<String>,
    /// The trace file, relative to the group's directory.
    pub trace: String,
    /// The trace clock.
    pub trace_clock: String,
    /// The events enabled.
    pub events: Vec<String>,
    /// Seconds from the first CPU's bracket to the last one's.
    pub seconds: f64,
    /// Per CPU (as text, for JSON), the ring buffer's counts.
    pub ring_buffer: BTreeMap<String, BufferStats>,
}

/// `sets.json`: the whole set, in this key order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SetMeta {
    /// Group name → its settings as the command line writes them.
    pub groups: Vec<(String, String)>,
    /// Recordings per group.
    pub runs: usize,
    /// The recordings in the order made (`group/run-NN.dat`).
    pub order: Vec<String>,
    /// The command run, if one was (else the pattern's busy/sleep/seconds).
    pub command: Option<Vec<String>>,
    /// The pattern: busy ms, sleep ms, seconds (None with a command).
    pub pattern: Option<[f64; 3]>,
    /// The kernel release.
    pub kernel: String,
    /// The cpuidle driver.
    pub cpuidle_driver: Option<String>,
    /// The governors available.
    pub available_governors: Vec<String>,
    /// `CONFIG_HZ`.
    pub hz: u32,
    /// The CPUs recorded.
    pub cpus: Vec<usize>,
}

/// What [`record_sets`] returns: the set's metadata and notes (lost events) for the
/// caller to show, each a sentence.
#[derive(Debug, Clone)]
pub struct Sets {
    /// The metadata written to `sets.json`.
    pub meta: SetMeta,
    /// Notes.
    pub notes: Vec<String>,
}

/// The name of run `run`'s files: `run-01`, ...
pub fn run_stem(run: usize) -> String {
    format!("run-{run:02}")
}

/// Per CPU and state (in the order of `before`), the advance of [`COUNTERS`] between
/// two snapshots of `PATH:VALUE` lines, as CSV `cpu,state,name,usage,time,above,below,rejected`.
/// A counter missing from either snapshot is left empty; one that is not a count is an
/// error naming `what`.
pub fn delta_csv(before: &[String], after: &[String], what: &str) -> Result<String> {
    type Key = (usize, usize);
    type Values = BTreeMap<(Key, String), String>;
    fn parse(lines: &[String], what: &str) -> Result<(Vec<Key>, Values)> {
        let mut keys = Vec::new();
        let mut map = BTreeMap::new();
        for (i, ln) in lines.iter().enumerate() {
            let bad = || {
                Error::parse(
                    Some(what),
                    Some(i + 1),
                    format!("expected '.../cpuN/cpuidle/stateK/field:value', got {ln:?}"),
                )
            };
            let (path, value) = ln.split_once(':').ok_or_else(bad)?;
            let mut parts = path.rsplit('/');
            let field = parts.next().ok_or_else(bad)?;
            let state =
                parts.next().and_then(|s| s.strip_prefix("state")).and_then(|s| s.parse().ok()).ok_or_else(bad)?;
            let _ = parts.next();
            let cpu = parts.next().and_then(|s| s.strip_prefix("cpu")).and_then(|s| s.parse().ok()).ok_or_else(bad)?;
            if !keys.contains(&(cpu, state)) {
                keys.push((cpu, state));
            }
            map.insert(((cpu, state), field.to_string()), value.to_string());
        }
        Ok((keys, map))
    }
    let (keys, b) = parse(before, what)?;
    let (_, a) = parse(after, what)?;
    let mut out = format!("cpu,state,name,{}\n", COUNTERS.join(","));
    for key in keys {
        let name = b.get(&(key, "name".to_string())).cloned().unwrap_or_default();
        let mut row = vec![key.0.to_string(), key.1.to_string(), csv_field(&name)];
        for c in COUNTERS {
            let pair = (b.get(&(key, c.to_string())), a.get(&(key, c.to_string())));
            row.push(match pair {
                (Some(x), Some(y)) => {
                    let n = |v: &str| {
                        v.parse::<i128>().map_err(|_| {
                            Error::parse(
                                Some(what),
                                None,
                                format!("cpu{} state{} {c}: expected a count, got {v:?}", key.0, key.1),
                            )
                        })
                    };
                    (n(y)? - n(x)?).to_string()
                }
                _ => String::new(),
            });
        }
        out.push_str(&row.join(","));
        out.push('\n');
    }
    Ok(out)
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// One CPU's `state_lines` restricted to the state table's fields (a sysfs dump that
/// `idle::states` reads).
fn table_lines(lines: &[String], cpu: usize) -> Vec<String> {
    let prefix = format!("/cpu{cpu}/cpuidle/");
    lines
        .iter()
        .filter(|l| l.contains(&prefix))
        .filter(|l| {
            l.split_once(':')
                .and_then(|(p, _)| p.rsplit('/').next())
                .is_some_and(|f| ["name", "latency", "residency", "disable"].contains(&f))
        })
        .cloned()
        .collect()
}

fn write_file(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).map_err(|e| Error::io(path, &e))
}

/// Pin the calling thread to `cpu` (the kernel moves it there before returning).
fn pin(cpu: usize) -> Result<()> {
    CpuSet::of(&[cpu])?.apply().map_err(|e| Error::io("sched_setaffinity", &e))
}

/// Record the set into `out` (created if needed) with `opts`. Needs root, tracefs and
/// trace-cmd (docs/live.md §8).
pub fn record_sets(out: &Path, opts: &SetOptions) -> Result<Sets> {
    if opts.groups.is_empty() {
        return Err(Error::domain("a recording set needs at least one group"));
    }
    for (i, g) in opts.groups.iter().enumerate() {
        if opts.groups[..i].iter().any(|o| o.name == g.name) {
            return Err(Error::domain(format!("group '{}' is given twice", g.name)));
        }
    }
    if opts.runs == 0 {
        return Err(Error::domain("runs must be at least 1"));
    }
    let workload = Workload::choose(None, opts.command.as_deref(), opts.seconds, opts.busy_ms, opts.sleep_ms)?;
    // SAFETY: geteuid cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        return Err(Error::Io {
            path: TRACEFS.to_string(),
            msg: "recording sets needs root (tracefs, cpuidle settings)".to_string(),
            not_found: false,
        });
    }
    if which("trace-cmd").is_none() {
        return Err(Error::Io {
            path: "trace-cmd".to_string(),
            msg: "not installed (it extracts each trace from the tracefs instance)".to_string(),
            not_found: true,
        });
    }
    for g in &opts.groups {
        for s in &g.settings {
            s.check_available()?;
        }
    }
    let ncpu = cpu_count();
    let cpus: Vec<usize> = (0..ncpu).collect();
    for g in &opts.groups {
        std::fs::create_dir_all(out.join(&g.name)).map_err(|e| Error::io(out.join(&g.name), &e))?;
    }
    let mut outer = Restore::new();
    if opts.catch_sigterm {
        if let Some(hook) = StopOnSignal::install(libc::SIGTERM) {
            outer.push(move || drop(hook));
        }
    }
    if mount_if_needed()? {
        outer.push(unmount);
    }
    let old_affinity = CpuSet::of_task(0)?;
    let restore_affinity = CpuSet::of(&old_affinity.cpus())?;
    outer.push(move || drop(restore_affinity.apply()));
    let policy = Policy::current()?;
    let old_nice = nice()?;
    let mut notes = Vec::new();
    let mut order = Vec::new();
    for run in 1..=opts.runs {
        for g in &opts.groups {
            crate::cancel::check()?;
            let stem = run_stem(run);
            let dir = out.join(&g.name);
            let mut guard = Restore::new();
            for s in &g.settings {
                s.apply(&mut guard)?;
            }
            let governor = sys_file::read_if_exists(cpuidle_sysfs::global("current_governor"))?
                .or(sys_file::read_if_exists(cpuidle_sysfs::global("current_governor_ro"))?);
            let inst = Instance::create(&format!("schedlab-set-{}", std::process::id()))?;
            let removed = inst.clone();
            guard.push(move || removed.remove());
            inst.write("tracing_on", 0)?;
            inst.write("buffer_size_kb", opts.buffer_kb)?;
            inst.write("trace_clock", "local")?;
            inst.write("tracing_cpumask", cpumask_of(&[]))?;
            let mut events = Vec::new();
            for e in SET_EVENTS {
                let rel = format!("events/{e}/enable");
                if inst.file(&rel).is_file() {
                    inst.write(&rel, 1)?;
                    events.push(e.to_string());
                }
            }
            let all = CpuSet::of(&cpus)?;
            let mut task = Task::spawn(&opts.python, &workload, all, policy, old_nice)?;
            // the bracket's start: each CPU's buffer on, from that CPU, then its counters
            inst.write("tracing_on", 1)?;
            let t0 = Instant::now();
            let mut before = Vec::new();
            let mut on = Vec::new();
            for &c in &cpus {
                pin(c)?;
                on.push(c);
                inst.write("tracing_cpumask", cpumask_of(&on))?;
                before.extend(state_lines(c, &SNAPSHOT_FIELDS)?);
                inst.write("trace_marker", format!("schedlab: sysfs-before cpu={c}"))?;
            }
            old_affinity.apply().map_err(|e| Error::io("sched_setaffinity", &e))?;
            task.start();
            while !task.exited() {
                crate::cancel::check()?;
                std::thread::sleep(Duration::from_millis(2));
            }
            let mut after = Vec::new();
            for &c in &cpus {
                pin(c)?;
                inst.write("trace_marker", format!("schedlab: sysfs-after cpu={c}"))?;
                after.extend(state_lines(c, &SNAPSHOT_FIELDS)?);
                on.retain(|&x| x != c);
                inst.write("tracing_cpumask", cpumask_of(&on))?;
            }
            let seconds = t0.elapsed().as_secs_f64();
            inst.write("tracing_on", 0)?;
            old_affinity.apply().map_err(|e| Error::io("sched_setaffinity", &e))?;
            let mut ring = BTreeMap::new();
            for &c in &cpus {
                let rel = format!("per_cpu/cpu{c}/stats");
                let text = inst.read(&rel)?;
                let path = inst.file(&rel).display().to_string();
                let st = BufferStats {
                    entries: stats_count(&text, "entries", &path)?,
                    overrun: stats_count(&text, "overrun", &path)?,
                    dropped: stats_count(&text, "dropped events", &path)?,
                };
                if st.overrun > 0 || st.dropped > 0 {
                    notes.push(format!(
                        "{}/{stem}: CPU {c}'s ring buffer lost {} events (overrun {}, dropped {}): raise buffer_kb",
                        g.name,
                        st.overrun + st.dropped,
                        st.overrun,
                        st.dropped
                    ));
                }
                ring.insert(c.to_string(), st);
            }
            let dat = format!("{stem}.dat");
            extract(&inst.name, &dir.join(&dat), &SET_SYSTEMS)?;
            drop(task);
            guard.run();
            let text = |lines: &[String]| lines.join("\n") + "\n";
            let before_name = format!("{stem}.sysfs-before.txt");
            write_file(&dir.join(&before_name), &text(&before))?;
            write_file(&dir.join(format!("{stem}.sysfs-after.txt")), &text(&after))?;
            write_file(&dir.join(format!("{stem}.sysfs-delta.csv")), &delta_csv(&before, &after, &before_name)?)?;
            if run == 1 {
                for &c in &cpus {
                    write_file(&dir.join(format!("states-cpu{c}.txt")), &text(&table_lines(&before, c)))?;
                }
            }
            order.push(format!("{}/{dat}", g.name));
            let meta = RunMeta {
                group: g.name.clone(),
                run,
                order: order.len(),
                settings: g.settings.iter().map(|s: &Setting| (s.kind().name().to_string(), s.value())).collect(),
                governor,
                trace: dat,
                trace_clock: "local".to_string(),
                events,
                seconds: (seconds * 1e6).round() / 1e6,
                ring_buffer: ring,
            };
            write_file(&dir.join(format!("{stem}.json")), &crate::json_text::to_string(&meta, Some(1))?)?;
        }
    }
    let meta = SetMeta {
        groups: opts.groups.iter().map(|g| (g.name.clone(), g.spec())).collect(),
        runs: opts.runs,
        order,
        command: opts.command.clone().filter(|c| !c.is_empty()),
        pattern: match workload {
            Workload::Periodic { seconds, busy_ms, sleep_ms } => Some([busy_ms, sleep_ms, seconds]),
            _ => None,
        },
        kernel: release()?,
        cpuidle_driver: sys_file::read_if_exists(cpuidle_sysfs::global("current_driver"))?,
        available_governors: sys_file::read_if_exists(cpuidle_sysfs::global("available_governors"))?
            .unwrap_or_default()
            .split_whitespace()
            .map(str::to_string)
            .collect(),
        hz: config_hz()?,
        cpus,
    };
    write_file(&out.join("sets.json"), &crate::json_text::to_string(&meta, Some(1))?)?;
    outer.run();
    Ok(Sets { meta, notes })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_delta_is_after_less_before_per_cpu_and_state() {
        let b = lines(&[
            "/sys/devices/system/cpu/cpu0/cpuidle/state0/name:POLL",
            "/sys/devices/system/cpu/cpu0/cpuidle/state0/usage:10",
            "/sys/devices/system/cpu/cpu0/cpuidle/state0/time:100",
            "/sys/devices/system/cpu/cpu0/cpuidle/state0/below:3",
            "/sys/devices/system/cpu/cpu1/cpuidle/state1/name:haltpoll idle",
            "/sys/devices/system/cpu/cpu1/cpuidle/state1/usage:7",
        ]);
        let a = lines(&[
            "/sys/devices/system/cpu/cpu0/cpuidle/state0/name:POLL",
            "/sys/devices/system/cpu/cpu0/cpuidle/state0/usage:15",
            "/sys/devices/system/cpu/cpu0/cpuidle/state0/time:180",
            "/sys/devices/system/cpu/cpu0/cpuidle/state0/below:4",
            "/sys/devices/system/cpu/cpu1/cpuidle/state1/name:haltpoll idle",
            "/sys/devices/system/cpu/cpu1/cpuidle/state1/usage:9",
        ]);
        assert_eq!(
            delta_csv(&b, &a, "b.txt").unwrap(),
            "cpu,state,name,usage,time,above,below,rejected\n0,0,POLL,5,80,,1,\n1,1,haltpoll idle,2,,,,\n"
        );
        let e = delta_csv(&lines(&["nonsense"]), &a, "b.txt").unwrap_err().to_string();
        assert!(e.starts_with("b.txt:1: expected '.../cpuN/cpuidle/stateK/field:value'"), "{e}");
    }

    #[test]
    fn the_formats_kept_cover_every_event_enabled() {
        for e in SET_EVENTS {
            assert!(SET_SYSTEMS.contains(&e.split('/').next().unwrap()), "{e}");
        }
    }

    #[test]
    fn the_state_table_keeps_one_cpus_table_fields() {
        let b = lines(&[
            "/sys/devices/system/cpu/cpu0/cpuidle/state0/name:POLL",
            "/sys/devices/system/cpu/cpu0/cpuidle/state0/usage:10",
            "/sys/devices/system/cpu/cpu0/cpuidle/state0/latency:0",
            "/sys/devices/system/cpu/cpu1/cpuidle/state0/name:POLL",
        ]);
        assert_eq!(
            table_lines(&b, 0),
            [
                "/sys/devices/system/cpu/cpu0/cpuidle/state0/name:POLL",
                "/sys/devices/system/cpu/cpu0/cpuidle/state0/latency:0"
            ]
        );
    }

    #[test]
    fn bad_sets_are_refused_before_anything_changes() {
        let d = tempfile::tempdir().unwrap();
        let base = SetOptions {
            groups: vec![Group::parse("a").unwrap()],
            runs: 1,
            command: None,
            seconds: 0.1,
            busy_ms: 1.0,
            sleep_ms: 1.0,
            buffer_kb: 1024,
            python: PathBuf::from("python3"),
            catch_sigterm: false,
        };
        let twice = SetOptions { groups: vec![Group::parse("a").unwrap(), Group::parse("a").unwrap()], ..base.clone() };
        assert_eq!(record_sets(d.path(), &twice).unwrap_err().to_string(), "group 'a' is given twice");
        let none = SetOptions { runs: 0, ..base.clone() };
        assert_eq!(record_sets(d.path(), &none).unwrap_err().to_string(), "runs must be at least 1");
        let empty = SetOptions { groups: vec![], ..base.clone() };
        assert!(record_sets(d.path(), &empty).is_err());
        let nan = SetOptions { seconds: f64::NAN, ..base };
        assert!(record_sets(&d.path().join("x"), &nan).is_err());
        assert!(!d.path().join("a").exists() && !d.path().join("x").exists());
        assert_eq!(run_stem(3), "run-03");
        assert_eq!(run_stem(12), "run-12");
    }
}
