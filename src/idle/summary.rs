//! Per-state summaries of a replay, like the kernel's sysfs counters
//! (`/sys/devices/system/cpu/cpuN/cpuidle/stateK/{usage,time,above,below}`, kept by
//! `cpuidle_enter_state()` in `drivers/cpuidle/cpuidle.c`, 6.x), plus the exit latency
//! paid and an energy estimate.
//!
//! For a period of length `d` in state `k` (exit latency `el`, target residency `tr`):
//! - `above` counts it when `d < tr(k)` and some shallower state is enabled (too deep);
//! - `below` counts it when `d > el(k)` and the next enabled deeper state `j` has
//!   `d - el(k) >= tr(j)` (a deeper state would have fit).
//!
//! The energy estimate is `Σ power(k) × time(k)`: the residency at each state's power,
//! nothing for the transitions (an approximation; the exit latency paid is reported
//! separately so a transition cost can be added by the caller).

use super::states::{Drv, StateTable};
use crate::error::{Error, Result};

/// The counters of one state.
#[derive(Debug, Clone, PartialEq)]
pub struct StateSummary {
    /// State name.
    pub name: String,
    /// Times the state was entered (`usage`).
    pub usage: u64,
    /// Total residency, ns (`time`, in ns rather than sysfs' µs).
    pub time_ns: i64,
    /// Entries that ended before the target residency while a shallower state was enabled.
    pub above: u64,
    /// Entries long enough for the next enabled deeper state.
    pub below: u64,
    /// `usage × exit_latency`, ns: the wakeup latency paid.
    pub exit_latency_ns: i64,
    /// Energy in µJ at the state's power (None without power numbers).
    pub energy_uj: Option<f64>,
}

/// Whether an entry of state `k` lasting `d` ns counts as `above` (too deep) and as
/// `below` (too shallow), by the rules of the module docs.
#[inline]
pub fn classify(drv: &Drv, k: usize, d: i64) -> (bool, bool) {
    if k >= drv.count {
        return (false, false);
    }
    let delay = drv.el_ns[k];
    if d < drv.tr_ns[k] {
        let shallower_enabled = (0..k).rev().any(|i| !drv.disabled[i]);
        (shallower_enabled, false)
    } else if d > delay {
        let below = (k + 1..drv.count).find(|&i| !drv.disabled[i]).is_some_and(|i| d - delay >= drv.tr_ns[i]);
        (false, below)
    } else {
        (false, false)
    }
}

/// Summarize the entered states `idx` and residencies `residency_ns` (one per period);
/// `power_mw` (one per state) overrides the table's own power numbers.
pub fn summarize(
    table: &StateTable,
    idx: &[u8],
    residency_ns: &[i64],
    power_mw: Option<&[f64]>,
) -> Result<Vec<StateSummary>> {
    let drv = table.drv();
    if idx.len() != residency_ns.len() {
        return Err(Error::domain(format!(
            "idx has {} periods but residency_ns has {}",
            idx.len(),
            residency_ns.len()
        )));
    }
    let own_power = table.power_mw();
    let power: Option<Vec<f64>> = match power_mw {
        Some(p) => {
            if p.len() != drv.count {
                return Err(Error::domain(format!("power_mw has {} values for {} states", p.len(), drv.count)));
            }
            if let Some((i, v)) = p.iter().enumerate().find(|(_, v)| !(v.is_finite() && **v >= 0.0)) {
                return Err(Error::domain(format!("power_mw[{i}] = {v} is not a power ≥ 0 mW")));
            }
            Some(p.to_vec())
        }
        None => own_power,
    };
    let mut out: Vec<StateSummary> = table
        .states()
        .iter()
        .map(|s| StateSummary {
            name: s.name.clone(),
            usage: 0,
            time_ns: 0,
            above: 0,
            below: 0,
            exit_latency_ns: 0,
            energy_uj: None,
        })
        .collect();
    for (row, (&k, &d)) in idx.iter().zip(residency_ns).enumerate() {
        let k = usize::from(k);
        let Some(s) = out.get_mut(k) else {
            return Err(Error::domain(format!("row {row}: state index {k} is beyond the {} states", drv.count)));
        };
        if d < 0 {
            return Err(Error::domain(format!("row {row}: negative residency {d} ns")));
        }
        s.usage += 1;
        s.time_ns = s.time_ns.saturating_add(d);
        s.exit_latency_ns = s.exit_latency_ns.saturating_add(drv.el_ns[k]);
        let (above, below) = classify(&drv, k, d);
        s.above += u64::from(above);
        s.below += u64::from(below);
    }
    if let Some(p) = power {
        for (s, mw) in out.iter_mut().zip(p) {
            // mW × ns = pJ; / 1e6 = µJ
            s.energy_uj = Some(mw * s.time_ns as f64 / 1e6);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_follow_cpuidle_enter_state() {
        let t = StateTable::preset("intel-skx").unwrap(); // POLL 0/0, C1 2/2, C1E 10/20, C6 133/600 µs
        let d = t.drv();
        // C6 for 300 µs: below its 600 µs target, C1E enabled → above
        assert_eq!(classify(&d, 3, 300_000), (true, false));
        // C1 for 50 µs: 50 - 2 ≥ 20 (C1E) → below
        assert_eq!(classify(&d, 1, 50_000), (false, true));
        // C1 for 15 µs: C1E would not fit
        assert_eq!(classify(&d, 1, 15_000), (false, false));
        // POLL for 1 µs: nothing shallower, d ≤ exit latency 0? d > 0 → C1 check: 1 - 0 < 2
        assert_eq!(classify(&d, 0, 1_000), (false, false));
        let s = summarize(&t, &[3, 1, 1], &[300_000, 50_000, 15_000], Some(&[1000.0, 800.0, 500.0, 100.0])).unwrap();
        assert_eq!((s[1].usage, s[1].time_ns, s[1].below, s[1].exit_latency_ns), (2, 65_000, 1, 4_000));
        assert_eq!((s[3].usage, s[3].above), (1, 1));
        assert_eq!(s[3].energy_uj, Some(100.0 * 300_000.0 / 1e6));
        assert!(summarize(&t, &[4], &[1], None).is_err());
        assert!(summarize(&t, &[0], &[1], Some(&[1.0])).is_err());
    }
}
