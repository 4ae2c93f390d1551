//! The live check of a recording directory (what `schedlab.live.record` writes:
//! `meta.json`, `trace.dat` or `report.txt`, `sched.txt`, `states.txt`,
//! `states-after.txt`): the PELT/util_est replay against the `/proc/PID/sched` readings
//! ([`super::pelt_check`]) and the cpuidle governor that ran against the kernel's
//! choices on the task's CPU ([`super::idle_check`]), gathered into one [`LiveCheck`]
//! with what limits each figure (docs/live.md §4-§7).

use super::idle_check;
use super::pelt_check::{self, Compared, PeltCheck};
use super::summary::{Columns, Idle, LiveCheck, Meta, Pelt};
use super::task_clock::{Placed, PointKind};
use crate::archive::dir::read_file;
use crate::error::{Error, Result};
use crate::idle::governor::Spec;
use crate::import_notes::ImportOptions;
use crate::pelt::util_est::rule_by_name;
use std::collections::BTreeMap;
use std::path::Path;

/// The largest `meta.json` read (the recorder writes a few hundred bytes).
const MAX_META_BYTES: u64 = 1 << 20;
/// The largest sysfs states dump read (a few kB per CPU).
const MAX_STATES_BYTES: u64 = 16 << 20;
/// CONFIG_HZ assumed when the recording does not say.
const DEFAULT_HZ: u32 = 250;

/// The recording's metadata.
pub fn read_meta(path: &Path) -> Result<Meta> {
    let name = path.display().to_string();
    let bytes = read_file(path, MAX_META_BYTES)?;
    serde_json::from_slice(&bytes)
        .map_err(|e| Error::parse(Some(&name), Some(e.line()), format!("expected the live recorder's meta.json: {e}")))
}

/// The name of an update point's kind, as the columns show it.
fn kind_name(k: PointKind) -> &'static str {
    match k {
        PointKind::Wake => "wake",
        PointKind::Pick => "pick",
        PointKind::Tick => "tick",
        PointKind::Preempt => "preempt",
        PointKind::Sleep => "sleep",
        PointKind::Seen => "seen",
    }
}

/// The name of how a point was placed, as the columns show it.
fn placed_name(p: Placed) -> &'static str {
    match p {
        Placed::Exact => "exact",
        Placed::Reading => "reading",
        Placed::Interpolated => "interpolated",
    }
}

/// The figures of a PELT check.
pub fn pelt_figures(r: &PeltCheck) -> Pelt {
    let tl = &r.timeline;
    let count = |k: PointKind| tl.points.iter().filter(|p| p.kind == k).count() as u64;
    Pelt {
        readings: r.compared.len() as u64,
        util_within_1: r.util_within(1),
        util_exact: r.util_within(0),
        util_max_error: r.util_max_error(),
        util_est_exact: r.util_est_exact(),
        start_last_update_time: r.start.last_update_time,
        points: tl.points.len() as u64,
        runs: tl.runs,
        anchored_runs: tl.anchored_runs,
        repaired_runs: tl.repaired_runs,
        tick_points: count(PointKind::Tick),
        seen_only_points: count(PointKind::Seen),
        skipped: r.skipped,
        anchored_readings: tl.anchored_readings,
        anchor_conflicts: tl.anchor_conflicts,
        unexpected_events: tl.unexpected,
    }
}

/// The per-reading columns of a PELT check.
pub fn pelt_columns(compared: &[Compared]) -> Columns {
    let col = |f: &dyn Fn(&Compared) -> u64| compared.iter().map(f).collect::<Vec<u64>>();
    Columns {
        t_mono_ns: col(&|x| x.kernel.t_mono_ns),
        last_update_time: col(&|x| x.kernel.last_update_time),
        replay_last_update_time: col(&|x| x.replay.last_update_time),
        kernel_util_avg: col(&|x| x.kernel.util_avg),
        replay_util_avg: col(&|x| x.replay.util_avg),
        kernel_util_sum: col(&|x| x.kernel.util_sum),
        replay_util_sum: col(&|x| u64::from(x.replay.util_sum)),
        kernel_runnable_avg: col(&|x| x.kernel.runnable_avg),
        replay_runnable_avg: col(&|x| x.replay.runnable_avg),
        kernel_util_est: col(&|x| x.kernel.util_est),
        replay_util_est: col(&|x| u64::from(x.replay_util_est)),
        point: compared.iter().map(|x| kind_name(x.kind)).collect(),
        placed: compared.iter().map(|x| placed_name(x.placed)).collect(),
    }
}

/// Each cpuidle state's `usage` counter in a `grep .` dump of the CPU's sysfs
/// (`.../stateN/usage:VALUE` lines), by state directory; empty when the file is absent.
fn usage_counters(path: &Path) -> Result<BTreeMap<String, i64>> {
    let mut out = BTreeMap::new();
    if !path.exists() {
        return Ok(out);
    }
    let name = path.display().to_string();
    let bytes = read_file(path, MAX_STATES_BYTES)?;
    let text = String::from_utf8_lossy(&bytes);
    for (i, line) in text.lines().enumerate() {
        let Some((file, value)) = line.rsplit_once(':') else { continue };
        let Some(dir) = file.strip_suffix("/usage") else { continue };
        let state = dir.rsplit('/').next().unwrap_or(dir).to_string();
        let v = value.trim().parse::<i64>().map_err(|_| {
            Error::parse(Some(&name), Some(i + 1), format!("expected an integer usage count, got '{}'", value.trim()))
        })?;
        out.insert(state, v);
    }
    Ok(out)
}

/// Idle entries the sysfs usage counters counted between the two dumps (states found in both).
fn sysfs_entries(before: &BTreeMap<String, i64>, after: &BTreeMap<String, i64>) -> i64 {
    before.iter().filter_map(|(k, b)| after.get(k).map(|a| a - b)).sum()
}

/// The idle half of the check on the recording's CPU with the governor it ran.
fn idle_figures(dir: &Path, trace: &Path, meta: &Meta, kernel: &str, opts: ImportOptions) -> Result<Idle> {
    let states = dir.join("states.txt");
    let entries = sysfs_entries(&usage_counters(&states)?, &usage_counters(&dir.join("states-after.txt"))?);
    let mut out = Idle {
        governor: meta.governor.clone(),
        cpu: meta.cpu,
        sysfs_entries: entries,
        driver: meta.cpuidle_driver.clone(),
        available: meta.available_governors.clone(),
        ..Idle::default()
    };
    let governor = meta.governor.as_deref().unwrap_or_default();
    if !matches!(governor, "menu" | "teo") {
        let named = meta.governor.as_ref().map_or_else(|| "None".to_string(), |g| format!("'{g}'"));
        out.notes = vec![format!("the kernel's governor was {named}: schedlab replays menu and teo only")];
        return Ok(out);
    }
    let spec = Spec::new(governor, kernel)?;
    let fc = idle_check::check_files(trace, &states, meta.cpu, spec, meta.hz.unwrap_or(DEFAULT_HZ), opts)?;
    out.notes = fc.notes.messages();
    out.events = fc.event_counts.into_iter().collect();
    if let Some(r) = fc.check {
        out.replayed = Some(r.spec.to_string());
        out.periods = r.periods;
        out.agree = r.agree;
        out.cold_start_disagree = r.cold_start_disagree;
        out.unknown_sleep_disagree = r.unknown_sleep_disagree;
        out.confusion = r.confusion.into_iter().map(|(k, s, n)| (k, u32::from(s), n)).collect();
        out.tick_decided = r.tick.decided;
        out.tick_agree = r.tick.agree;
        out.tick_kernel_only = r.tick.kernel_only;
        out.tick_replay_only = r.tick.replay_only;
        out.tick_replay_only_timer_within_tick = r.tick.replay_only_timer_within_tick;
        out.tick_already_stopped = r.tick.already_stopped;
    }
    let records = out.events.get("cpu_idle").copied().unwrap_or(0);
    if entries > 0 && out.periods == 0 && records == 0 {
        out.notes.insert(
            0,
            format!(
                "CPU {}'s idle is not traced: sysfs counted {entries} idle entries during the recording but the trace has {records} cpu_idle records (its idle task emits no events on this machine, so every switch-in from idle is missing too); record with --cpu of a CPU whose idle is traced (live.probe_idle_tracing())",
                meta.cpu
            ),
        );
    }
    Ok(out)
}

/// The live check of the recording in `dir`: `pid` (default: the recorded one) replayed
/// with util_est rule `rule` against its `/proc/PID/sched` readings, and the governor
/// the kernel ran replayed as of kernel `kernel` against its `cpu_idle` choices. The
/// trace is `trace.dat` when kept, else `report.txt`.
pub fn check_dir(dir: &Path, pid: Option<u32>, rule: &str, kernel: &str, opts: ImportOptions) -> Result<LiveCheck> {
    let meta = read_meta(&dir.join("meta.json"))?;
    let pid = pid.unwrap_or(meta.pid);
    let dat = dir.join("trace.dat");
    let trace = if dat.exists() { dat } else { dir.join("report.txt") };
    let (r, notes) = pelt_check::check_files(&trace, &dir.join("sched.txt"), pid, rule_by_name(rule)?, opts)?;
    let idle = idle_figures(dir, &trace, &meta, kernel, opts)?;
    Ok(LiveCheck { pelt: pelt_figures(&r), columns: pelt_columns(&r.compared), notes: notes.messages(), idle, meta })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usage_counts_are_summed_over_states_in_both_dumps() {
        let d = std::env::temp_dir().join(format!("schedlab-live-usage-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let (a, b) = (d.join("a"), d.join("b"));
        let base = "/sys/devices/system/cpu/cpu0/cpuidle";
        std::fs::write(&a, format!("{base}/state0/name:POLL\n{base}/state0/usage:10\n{base}/state1/usage:100\n"))
            .unwrap();
        std::fs::write(&b, format!("{base}/state0/usage:12\n{base}/state1/usage:140\n{base}/state2/usage:7\n"))
            .unwrap();
        // (12 - 10) + (140 - 100); state2 is not in the first dump
        assert_eq!(sysfs_entries(&usage_counters(&a).unwrap(), &usage_counters(&b).unwrap()), 42);
        std::fs::write(&b, format!("{base}/state0/usage:x\n")).unwrap();
        let e = usage_counters(&b).unwrap_err().to_string();
        assert!(e.contains(":1:") && e.contains("expected an integer usage count, got 'x'"), "{e}");
        assert!(usage_counters(&d.join("absent")).unwrap().is_empty());
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn meta_errors_name_the_file_and_line() {
        let d = std::env::temp_dir().join(format!("schedlab-live-meta-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("meta.json"), "{\n\"pid\": \"x\"}").unwrap();
        let e = read_meta(&d.join("meta.json")).unwrap_err().to_string();
        assert!(e.contains("meta.json:2:") && e.contains("expected the live recorder's meta.json"), "{e}");
        std::fs::remove_dir_all(&d).unwrap();
    }
}
