//! Which CPUs' idle tasks emit `cpu_idle` events, and the CPU a recording uses when
//! none is given (docs/live.md §6: CPU 1 of the Firecracker VM never traces its idle).

use super::cpuidle_sysfs::usage_sum;
use super::thread_sched::cpu_count;
use super::tracefs::{stats_entries, Instance};
use crate::error::{Error, Result};
use std::collections::BTreeMap;
use std::time::Duration;

/// Per CPU: (the `cpu_idle` records a probe traced, the cpuidle sysfs entries meanwhile).
pub type Probe = BTreeMap<usize, (u64, u64)>;

/// Record only `power/cpu_idle` in a private tracefs instance
/// (`schedlab-probe-<pid>`) for `seconds` while this thread sleeps, and count per CPU
/// the records against the sysfs usage counters' advance. A CPU whose sysfs counted
/// entries with no record does not trace its idle. The instance is removed after,
/// also on error or interrupt ([`crate::cancel`]). Needs root and a mounted tracefs.
pub fn probe_idle_tracing(seconds: f64) -> Result<Probe> {
    if !(seconds.is_finite() && seconds >= 0.0) {
        return Err(Error::domain(format!("the probe's seconds must be a finite number ≥ 0, got {seconds}")));
    }
    let ncpu = cpu_count();
    let inst = Instance::create(&format!("schedlab-probe-{}", std::process::id()))?;
    let _remove = RemoveOnDrop(&inst);
    inst.write("events/power/cpu_idle/enable", 1)?;
    let before = (0..ncpu).map(usage_sum).collect::<Result<Vec<_>>>()?;
    inst.write("tracing_on", 1)?;
    crate::cancel::sleep(Duration::from_secs_f64(seconds))?;
    inst.write("tracing_on", 0)?;
    let after = (0..ncpu).map(usage_sum).collect::<Result<Vec<_>>>()?;
    let mut out = Probe::new();
    for c in 0..ncpu {
        let rel = format!("per_cpu/cpu{c}/stats");
        let entries = stats_entries(&inst.read(&rel)?, &inst.file(&rel).display().to_string())?;
        out.insert(c, (entries, after[c].saturating_sub(before[c])));
    }
    Ok(out)
}

struct RemoveOnDrop<'a>(&'a Instance);

impl Drop for RemoveOnDrop<'_> {
    fn drop(&mut self) {
        self.0.remove();
    }
}

/// The CPU a recording uses when none is given, from a [`Probe`]: the last CPU whose
/// idle was traced, else the last CPU not seen idling untraced (no sysfs entries),
/// else the last CPU. An empty probe is an error.
pub fn default_cpu(probe: &Probe) -> Result<usize> {
    let last = *probe.keys().next_back().ok_or_else(|| Error::domain("the probe has no CPU"))?;
    if let Some(c) = probe.iter().filter(|(_, &(rec, _))| rec > 0).map(|(&c, _)| c).next_back() {
        return Ok(c);
    }
    Ok(probe.iter().filter(|(_, &(_, ent))| ent == 0).map(|(&c, _)| c).next_back().unwrap_or(last))
}

/// A probe as Python prints its dict (`{0: (24, 12), 1: (0, 40)}`), for the note a
/// recording gives when no CPU traced an idle period.
pub fn probe_text(probe: &Probe) -> String {
    let items: Vec<String> = probe.iter().map(|(c, (r, e))| format!("{c}: ({r}, {e})")).collect();
    format!("{{{}}}", items.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn probe(v: &[(usize, u64, u64)]) -> Probe {
        v.iter().map(|&(c, r, e)| (c, (r, e))).collect()
    }

    #[test]
    fn default_cpu_prefers_traced_idle_then_cpus_not_seen_idling() {
        // this VM on a quiet machine: CPU 1's idle entries leave no record
        assert_eq!(default_cpu(&probe(&[(0, 24, 12), (1, 0, 40)])).unwrap(), 0);
        assert_eq!(default_cpu(&probe(&[(0, 24, 12), (1, 30, 15)])).unwrap(), 1);
        // a busy machine: nothing traced; not the CPU seen idling untraced
        assert_eq!(default_cpu(&probe(&[(0, 0, 0), (1, 0, 40), (2, 0, 0)])).unwrap(), 2);
        assert_eq!(default_cpu(&probe(&[(0, 0, 5), (1, 0, 40)])).unwrap(), 1);
        // sparse CPU numbers: the last of them
        assert_eq!(default_cpu(&probe(&[(3, 0, 0), (7, 0, 0)])).unwrap(), 7);
        assert!(default_cpu(&Probe::new()).is_err());
    }

    #[test]
    fn probe_text_is_python_dict_repr() {
        assert_eq!(probe_text(&probe(&[(0, 24, 12), (1, 0, 40)])), "{0: (24, 12), 1: (0, 40)}");
        assert_eq!(probe_text(&Probe::new()), "{}");
    }
}
