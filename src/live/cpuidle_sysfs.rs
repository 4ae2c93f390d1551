//! The cpuidle sysfs files a recording reads and writes: the governor in use and the
//! ones available, the driver, and a CPU's state directories (names, latencies,
//! residencies, usage counters; docs/live.md §1, §6).

use super::sys_file;
use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// The sysfs CPU directory.
pub const SYSFS_CPU: &str = "/sys/devices/system/cpu";

/// The fields of a state directory saved in `states.txt`, in this order.
const STATE_FIELDS: [&str; 6] = ["name", "latency", "residency", "disable", "usage", "time"];

/// The fields a recording set saves before and after each recording (docs/live.md §8):
/// the state table and every counter the cpuidle core keeps, in this order.
pub const SNAPSHOT_FIELDS: [&str; 10] =
    ["name", "latency", "residency", "disable", "usage", "time", "above", "below", "rejected", "default_status"];

/// The counters of [`SNAPSHOT_FIELDS`] whose advance a recording set reports.
pub const COUNTERS: [&str; 5] = ["usage", "time", "above", "below", "rejected"];

/// A file of the global cpuidle directory (`current_governor`, `available_governors`,
/// `current_governor_ro`, `current_driver`).
pub fn global(file: &str) -> PathBuf {
    Path::new(SYSFS_CPU).join("cpuidle").join(file)
}

/// CPU `cpu`'s cpuidle directory.
pub fn cpu_dir(cpu: usize) -> PathBuf {
    Path::new(SYSFS_CPU).join(format!("cpu{cpu}")).join("cpuidle")
}

/// The `state*` directories of `base`, sorted by name (as text: `state10` before `state2`).
fn state_dirs(base: &Path) -> Result<Vec<PathBuf>> {
    if !base.is_dir() {
        return Ok(Vec::new());
    }
    let mut names: Vec<String> = std::fs::read_dir(base)
        .map_err(|e| Error::io(base, &e))?
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .filter(|n| n.starts_with("state"))
        .collect();
    names.sort();
    Ok(names.into_iter().map(|n| base.join(n)).collect())
}

/// CPU `cpu`'s cpuidle sysfs as `PATH:VALUE` lines (the format of `grep .
/// .../cpuidle/state*/*` that `idle::states` reads), one per existing field of
/// [`STATE_FIELDS`], ending in a newline; a lone newline without cpuidle.
pub fn states_text(cpu: usize) -> Result<String> {
    Ok(state_lines(cpu, &STATE_FIELDS)?.join("\n") + "\n")
}

/// CPU `cpu`'s cpuidle sysfs as `PATH:VALUE` lines, one per existing field of `fields`
/// of each state directory (none without cpuidle).
pub fn state_lines(cpu: usize, fields: &[&str]) -> Result<Vec<String>> {
    let mut lines = Vec::new();
    for st in state_dirs(&cpu_dir(cpu))? {
        for f in fields {
            let p = st.join(f);
            if p.exists() {
                lines.push(format!("{}:{}", p.display(), sys_file::read(&p)?));
            }
        }
    }
    Ok(lines)
}

/// The `disable` file of CPU `cpu`'s idle state `state`.
pub fn disable_file(cpu: usize, state: usize) -> PathBuf {
    cpu_dir(cpu).join(format!("state{state}")).join("disable")
}

/// CPU `cpu`'s cpuidle usage counters summed: the idle entries so far (0 without cpuidle).
pub fn usage_sum(cpu: usize) -> Result<u64> {
    let mut sum = 0u64;
    for st in state_dirs(&cpu_dir(cpu))? {
        let p = st.join("usage");
        if p.exists() {
            let v = sys_file::read(&p)?;
            let n: u64 = v.parse().map_err(|_| {
                Error::parse(Some(&p.display().to_string()), Some(1), format!("expected a count, got {v:?}"))
            })?;
            sum = sum.saturating_add(n);
        }
    }
    Ok(sum)
}

/// The governors written to `current_governor` to start `governor` afresh: a switch
/// resets the governor's state (`menu_enable_device`), so when `governor` is already
/// `current` the switch goes through another available one first (docs/live.md §1).
pub fn switch_sequence<'a>(available: &'a [String], current: &str, governor: &'a str) -> Vec<&'a str> {
    let mut seq = Vec::new();
    if current == governor {
        seq.push(available.iter().map(String::as_str).find(|g| *g != governor).unwrap_or(governor));
    }
    seq.push(governor);
    seq
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_governor_in_use_is_restarted_through_another() {
        let avail: Vec<String> = ["ladder", "menu", "haltpoll"].map(String::from).to_vec();
        assert_eq!(switch_sequence(&avail, "haltpoll", "menu"), ["menu"]);
        assert_eq!(switch_sequence(&avail, "menu", "menu"), ["ladder", "menu"]);
        let only = vec!["menu".to_string()];
        assert_eq!(switch_sequence(&only, "menu", "menu"), ["menu", "menu"]);
    }

    #[test]
    fn paths_are_under_the_sysfs_cpu_directory() {
        assert_eq!(global("current_governor"), Path::new("/sys/devices/system/cpu/cpuidle/current_governor"));
        assert_eq!(cpu_dir(3), Path::new("/sys/devices/system/cpu/cpu3/cpuidle"));
    }
}
