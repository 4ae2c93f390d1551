//! A recording on the running kernel (docs/live.md §1): a task (the periodic pattern, a
//! command or a running pid) on one CPU, a private tracefs instance recording the events
//! a replay needs, and a sampler on the other CPUs reading `/proc/PID/sched` as fast as
//! it can; written to a directory as `trace.dat`, `sched.txt`, `states.txt`,
//! `states-after.txt` and `meta.json`, which [`super::check`] reads.
//!
//! Every system setting changed (the tracefs mount and instance, the cpuidle governor,
//! the sampler's affinity and scheduling policy, SIGTERM's action) is undone by a
//! [`Restore`] guard, also on error and on a stop request ([`crate::cancel`]: Ctrl-C,
//! or SIGTERM with [`Options::catch_sigterm`]); a started task is killed first.

use super::cpuidle_sysfs::{self, states_text, switch_sequence};
use super::events::{pid_filter, EVENTS};
use super::extract::{extract, which};
use super::kernel_config::{config_hz, release};
use super::probe::{default_cpu, probe_idle_tracing, probe_text};
use super::restore::Restore;
use super::sampler::{monotonic_ns, read_once, Sampler};
use super::sys_file;
use super::thread_sched::{cpu_count, nice, CpuSet, Policy};
use super::tracefs::{cpumask, mount_if_needed, unmount, Instance, TRACEFS};
use super::workload::{Task, Workload};
use crate::error::{Error, Result};
use crate::stop_signal::StopOnSignal;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How long the probe of [`probe_idle_tracing`] runs when no CPU is given, s.
pub const PROBE_SECONDS: f64 = 0.2;

/// A recording's options (Python's `live.record` keywords).
#[derive(Debug, Clone)]
pub struct Options {
    /// A command to run (program and arguments) instead of the pattern.
    pub command: Option<Vec<String>>,
    /// A running task to follow instead (it wins over `command`).
    pub pid: Option<u32>,
    /// The pattern's duration, and how long a pid is followed, s.
    pub seconds: f64,
    /// The pattern's busy time per period, ms.
    pub busy_ms: f64,
    /// The pattern's sleep per period, ms.
    pub sleep_ms: f64,
    /// The task's CPU (None: a pid's first allowed CPU, else [`default_cpu`] of a probe).
    pub cpu: Option<usize>,
    /// The cpuidle governor used meanwhile (None or empty: leave it).
    pub governor: Option<String>,
    /// The instance's buffer per CPU, kB.
    pub buffer_kb: u64,
    /// The sampler's sleep between two readings, µs.
    pub sample_us: f64,
    /// The interpreter that runs the pattern, or waits to exec the command.
    pub python: PathBuf,
    /// Whether SIGTERM requests a stop meanwhile (as Ctrl-C does) instead of ending the
    /// process: only the thread that owns the process's signal handlers should ask.
    pub catch_sigterm: bool,
}

/// `meta.json`: what the check needs to know about the recording, in this key order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Meta {
    /// The task's pid.
    pub pid: u32,
    /// Its CPU.
    pub cpu: usize,
    /// The cpuidle governor that ran (None without cpuidle).
    pub governor: Option<String>,
    /// The kernel release.
    pub kernel: String,
    /// The governors available (empty when the governor was left alone).
    pub available_governors: Vec<String>,
    /// The cpuidle driver.
    pub cpuidle_driver: Option<String>,
    /// `CONFIG_HZ`.
    pub hz: u32,
    /// Readings kept in `sched.txt`.
    pub readings: usize,
    /// The command run, if one was.
    pub command: Option<Vec<String>>,
}

/// What [`record`] returns: the metadata written to `meta.json`, and notes on what was
/// chosen for the caller to show (each a sentence, without a `note:` prefix).
#[derive(Debug, Clone)]
pub struct Recording {
    /// The metadata.
    pub meta: Meta,
    /// Notes (a pid allowed on several CPUs; no CPU traced its idle in the probe).
    pub notes: Vec<String>,
}

fn check_option(name: &str, v: f64) -> Result<()> {
    if v.is_finite() && v >= 0.0 {
        Ok(())
    } else {
        Err(Error::domain(format!("{name} must be a finite number ≥ 0, got {v}")))
    }
}

fn os_call(call: &str) -> impl Fn(std::io::Error) -> Error + '_ {
    move |e| Error::io(call, &e)
}

/// Record a task into directory `out` (created if needed) with `opts`; returns the
/// metadata and notes. Needs root, tracefs and trace-cmd (docs/live.md §1).
pub fn record(out: &Path, opts: &Options) -> Result<Recording> {
    // SAFETY: geteuid cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        return Err(Error::Io {
            path: TRACEFS.to_string(),
            msg: "the live check needs root (tracefs, /proc/PID/sched of other tasks)".to_string(),
            not_found: false,
        });
    }
    if which("trace-cmd").is_none() {
        return Err(Error::Io {
            path: "trace-cmd".to_string(),
            msg: "not installed (it extracts the trace from the tracefs instance)".to_string(),
            not_found: true,
        });
    }
    let workload = Workload::choose(opts.pid, opts.command.as_deref(), opts.seconds, opts.busy_ms, opts.sleep_ms)?;
    check_option("sample_us", opts.sample_us)?;
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, &e))?;
    let ncpu = cpu_count();
    let mut notes = Vec::new();
    let mut restore = Restore::new();
    if opts.catch_sigterm {
        if let Some(hook) = StopOnSignal::install(libc::SIGTERM) {
            restore.push(move || drop(hook));
        }
    }
    if mount_if_needed()? {
        restore.push(unmount);
    }
    let mut cpu = opts.cpu;
    if let Workload::Pid(pid) = workload {
        let allowed = CpuSet::of_task(pid)?.cpus();
        let c = *cpu.get_or_insert(allowed.first().copied().unwrap_or(0));
        if allowed.len() != 1 {
            let list: Vec<String> = allowed.iter().map(usize::to_string).collect();
            notes.push(format!("pid {pid} may run on CPUs [{}]; only CPU {c} is traced", list.join(", ")));
        }
    }
    let cpu = match cpu {
        Some(c) => c,
        None => {
            let probe = probe_idle_tracing(PROBE_SECONDS)?;
            let c = default_cpu(&probe)?;
            if probe.get(&c).is_some_and(|&(records, _)| records == 0) {
                notes.push(format!(
                    "no CPU traced an idle period during the probe (cpu_idle records, sysfs entries per CPU: {}); \
                     recording on CPU {c}",
                    probe_text(&probe)
                ));
            }
            c
        }
    };
    let pin = CpuSet::of(&[cpu])?;
    // the sampler runs on the other CPUs
    let mut others: Vec<usize> = (0..ncpu).filter(|&c| c != cpu).collect();
    if others.is_empty() {
        others.push(cpu);
    }
    let old_affinity = CpuSet::of_task(0)?;
    CpuSet::of(&others)?.apply().map_err(os_call("sched_setaffinity"))?;
    restore.push(move || drop(old_affinity.apply()));
    // the sampler must keep up on a busy machine: SCHED_FIFO while it reads (it sleeps
    // between readings, leaving its CPU to others), a reading per update
    let old_nice = nice()?;
    let old_policy = Policy::current()?;
    Policy::fifo(1)?.apply().map_err(os_call("sched_setscheduler"))?;
    restore.push(move || drop(old_policy.apply()));
    let gov_file = cpuidle_sysfs::global("current_governor");
    let mut used_governor = sys_file::read_if_exists(cpuidle_sysfs::global("current_governor_ro"))?;
    let governor = opts.governor.as_deref().filter(|g| !g.is_empty());
    let mut avail: Vec<String> = Vec::new();
    if governor.is_some() && gov_file.exists() {
        avail = sys_file::read(cpuidle_sysfs::global("available_governors"))?
            .split_whitespace()
            .map(str::to_string)
            .collect();
        if let Some(g) = governor.filter(|g| !avail.iter().any(|a| a == g)) {
            return Err(Error::domain(format!("cpuidle governor '{g}' is not available here ({})", avail.join(" "))));
        }
        let old_gov = sys_file::read(&gov_file)?;
        let file = gov_file.clone();
        restore.push(move || drop(sys_file::write(&file, old_gov)));
    } else if gov_file.exists() {
        used_governor = Some(sys_file::read(&gov_file)?);
    }
    let inst = Instance::create(&format!("schedlab-live-{}", std::process::id()))?;
    let removed = inst.clone();
    restore.push(move || removed.remove());
    inst.write("buffer_size_kb", opts.buffer_kb)?;
    inst.write("trace_clock", "local")?;
    inst.write("tracing_cpumask", cpumask(cpu))?;
    let (mut task, pid) = match &workload {
        Workload::Pid(pid) => (None, *pid),
        w => {
            let t = Task::spawn(&opts.python, w, pin, old_policy, old_nice)?;
            let pid = t.pid();
            (Some(t), pid)
        }
    };
    for e in EVENTS {
        let rel = format!("events/{e}");
        if !inst.file(&rel).is_dir() {
            continue;
        }
        if let Some(f) = pid_filter(e, pid) {
            inst.write(&format!("{rel}/filter"), f)?;
        }
        inst.write(&format!("{rel}/enable"), 1)?;
    }
    let states_before = states_text(cpu)?;
    if let (Some(g), false) = (governor, avail.is_empty()) {
        // switching governors resets the new one's state (menu_enable_device): the
        // replay starts from the same empty history, so the switch is made just before
        // tracing starts (through another governor if it is already in use)
        let current = sys_file::read(&gov_file)?;
        for step in switch_sequence(&avail, &current, g) {
            sys_file::write(&gov_file, step)?;
        }
        used_governor = Some(g.to_string());
    }
    inst.write("tracing_on", 1)?;
    if let Some(t) = task.as_mut() {
        t.start();
    }
    let sched = PathBuf::from(format!("/proc/{pid}/sched"));
    let mut sampler = Sampler::new();
    let mut buf = Vec::with_capacity(16 << 10);
    let pause = Duration::from_secs_f64(opts.sample_us / 1e6);
    let end = Instant::now() + Duration::from_secs_f64(opts.seconds);
    loop {
        crate::cancel::check()?;
        let done = match task.as_mut() {
            Some(t) => t.exited(),
            None => Instant::now() >= end,
        };
        if done {
            break;
        }
        let Some(text) = read_once(&sched, &mut buf) else { break };
        sampler.push(&text, monotonic_ns()?);
        std::thread::sleep(pause);
    }
    inst.write("tracing_on", 0)?;
    old_policy.apply().map_err(os_call("sched_setscheduler"))?;
    let states_after = states_text(cpu)?;
    extract(&inst.name, &out.join("trace.dat"), &[])?;
    let write = |name: &str, text: &str| {
        let p = out.join(name);
        std::fs::write(&p, text).map_err(|e| Error::io(&p, &e))
    };
    write("sched.txt", sampler.text())?;
    write("states.txt", &states_before)?;
    write("states-after.txt", &states_after)?;
    let meta = Meta {
        pid,
        cpu,
        governor: used_governor,
        kernel: release()?,
        available_governors: avail,
        cpuidle_driver: sys_file::read_if_exists(cpuidle_sysfs::global("current_driver"))?,
        hz: config_hz()?,
        readings: sampler.readings(),
        command: opts.command.clone().filter(|c| !c.is_empty()),
    };
    write("meta.json", &crate::json_text::to_string(&meta, Some(1))?)?;
    drop(task); // killed if still running, before the settings are restored
    restore.run();
    Ok(Recording { meta, notes })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meta_json_is_laid_out_as_json_dump_indent_1() {
        let meta = Meta {
            pid: 22558,
            cpu: 1,
            governor: Some("menu".into()),
            kernel: "6.18.44-fc-v1272".into(),
            available_governors: vec!["ladder".into(), "menu".into()],
            cpuidle_driver: Some("haltpoll".into()),
            hz: 250,
            readings: 289,
            command: None,
        };
        // json.dump(meta, f, indent=1) of the same dict: no newline at the end
        assert_eq!(
            crate::json_text::to_string(&meta, Some(1)).unwrap(),
            "{\n \"pid\": 22558,\n \"cpu\": 1,\n \"governor\": \"menu\",\n \"kernel\": \"6.18.44-fc-v1272\",\n \
             \"available_governors\": [\n  \"ladder\",\n  \"menu\"\n ],\n \"cpuidle_driver\": \"haltpoll\",\n \
             \"hz\": 250,\n \"readings\": 289,\n \"command\": null\n}"
        );
    }

    #[test]
    fn bad_options_are_refused_before_anything_changes() {
        let opts = Options {
            command: None,
            pid: None,
            seconds: 0.1,
            busy_ms: 3.0,
            sleep_ms: 5.0,
            cpu: None,
            governor: None,
            buffer_kb: 4096,
            sample_us: f64::INFINITY,
            python: PathBuf::from("python3"),
            catch_sigterm: false,
        };
        let d = tempfile::tempdir().unwrap();
        // not root, no trace-cmd, or the bad sample_us: an error either way, and no
        // directory made for an option refused
        assert!(record(&d.path().join("rec"), &opts).is_err());
        assert!(!d.path().join("rec").exists());
    }
}
