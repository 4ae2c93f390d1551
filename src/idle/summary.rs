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

/// The per-state counters gathered one period at a time (a replay streamed, or a
/// collected one summarized): [`Counters::add`] each period, [`Counters::finish`].
#[derive(Debug, Clone)]
pub struct Counters {
    drv: Drv,
    usage: Vec<u64>,
    time_ns: Vec<i64>,
    above: Vec<u64>,
    below: Vec<u64>,
    exit_latency_ns: Vec<i64>,
}

impl Counters {
    /// Counters at zero for the states of `table`.
    pub fn new(table: &StateTable) -> Self {
        let drv = table.drv();
        let n = drv.count;
        Counters {
            drv,
            usage: vec![0; n],
            time_ns: vec![0; n],
            above: vec![0; n],
            below: vec![0; n],
            exit_latency_ns: vec![0; n],
        }
    }

    /// Count one period spent in state `k` for `d` ns (`row` names it in errors).
    #[inline]
    pub fn add(&mut self, row: usize, k: usize, d: i64) -> Result<()> {
        let (Some(usage), Some(time), Some(above), Some(below), Some(el)) = (
            self.usage.get_mut(k),
            self.time_ns.get_mut(k),
            self.above.get_mut(k),
            self.below.get_mut(k),
            self.exit_latency_ns.get_mut(k),
        ) else {
            return Err(Error::domain(format!("row {row}: state index {k} is beyond the {} states", self.drv.count)));
        };
        if d < 0 {
            return Err(Error::domain(format!("row {row}: negative residency {d} ns")));
        }
        *usage += 1;
        *time = time.saturating_add(d);
        *el = el.saturating_add(self.drv.el_ns[k]);
        let (a, b) = classify(&self.drv, k, d);
        *above += u64::from(a);
        *below += u64::from(b);
        Ok(())
    }

    /// The counters of each state of `table` (the one they were made for), with the
    /// energy at `power_mw` per state, which overrides the table's own power numbers.
    pub fn finish(self, table: &StateTable, power_mw: Option<&[f64]>) -> Result<Vec<StateSummary>> {
        let power = power_of(table, power_mw)?;
        let mut out = Vec::with_capacity(self.drv.count);
        for (k, s) in table.states().iter().enumerate() {
            let time_ns = self.time_ns.get(k).copied().unwrap_or(0);
            out.push(StateSummary {
                name: s.name.clone(),
                usage: self.usage.get(k).copied().unwrap_or(0),
                time_ns,
                above: self.above.get(k).copied().unwrap_or(0),
                below: self.below.get(k).copied().unwrap_or(0),
                exit_latency_ns: self.exit_latency_ns.get(k).copied().unwrap_or(0),
                // mW × ns = pJ; / 1e6 = µJ
                energy_uj: power.as_ref().and_then(|p| p.get(k)).map(|mw| mw * time_ns as f64 / 1e6),
            });
        }
        Ok(out)
    }
}

/// The power per state of an energy estimate: `power_mw` (checked: one value ≥ 0 per
/// state), else the table's own.
fn power_of(table: &StateTable, power_mw: Option<&[f64]>) -> Result<Option<Vec<f64>>> {
    let n = table.len();
    match power_mw {
        Some(p) => {
            if p.len() != n {
                return Err(Error::domain(format!("power_mw has {} values for {n} states", p.len())));
            }
            if let Some((i, v)) = p.iter().enumerate().find(|(_, v)| !(v.is_finite() && **v >= 0.0)) {
                return Err(Error::domain(format!("power_mw[{i}] = {v} is not a power ≥ 0 mW")));
            }
            Ok(Some(p.to_vec()))
        }
        None => Ok(table.power_mw()),
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
    if idx.len() != residency_ns.len() {
        return Err(Error::domain(format!(
            "idx has {} periods but residency_ns has {}",
            idx.len(),
            residency_ns.len()
        )));
    }
    power_of(table, power_mw)?;
    let mut c = Counters::new(table);
    for (row, (&k, &d)) in idx.iter().zip(residency_ns).enumerate() {
        crate::cancel::check_every(row)?;
        c.add(row, usize::from(k), d)?;
    }
    c.finish(table, power_mw)
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
