//! The `teo` governor (timer events oriented, `drivers/cpuidle/governors/teo.c`): the
//! metric arithmetic every version shares, and one file per kernel version.
//!
//! Every metric is a fixed-point EWMA: decayed by `m -= m >> DECAY_SHIFT` and raised by
//! `PULSE` on an event.

pub mod v5_1;
pub mod v6_1;
pub mod v6_12;
pub mod v6_18;
pub mod v6_6;

pub use v5_1::TeoV5_1;
pub use v6_1::TeoV6_1;
pub use v6_12::TeoV6_12;
pub use v6_18::TeoV6_18;
pub use v6_6::TeoV6_6;

use crate::idle::governor::Cpu;
use crate::idle::states::Drv;

/// `PULSE`: what an event adds to a metric.
pub const PULSE: u32 = 1024;
/// `DECAY_SHIFT`: each update keeps 7/8 of a metric.
pub const DECAY_SHIFT: u32 = 3;

/// `m -= m >> DECAY_SHIFT`.
#[inline]
pub fn decay(m: u32) -> u32 {
    m - (m >> DECAY_SHIFT)
}

/// `teo_find_shallower_state()` (6.x, ns): walk down from `idx`, skipping disabled
/// states (and polling ones if `no_poll`), to the first state whose target residency
/// fits `duration_ns`; the shallowest enabled state if none does.
#[inline]
pub fn find_shallower_state_ns(drv: &Drv, idx: usize, duration_ns: i64, no_poll: bool) -> usize {
    let mut state_idx = idx;
    for i in (0..idx.min(drv.count)).rev() {
        if drv.disabled[i] || (no_poll && drv.polling[i]) {
            continue;
        }
        state_idx = i;
        if drv.tr_ns[i] <= duration_ns {
            break;
        }
    }
    state_idx
}

/// One bin of the 6.x teo (`struct teo_bin`): `recent` only in 6.1 and 6.6.
#[derive(Debug, Clone, Copy, Default)]
pub struct Bin {
    /// `intercepts`.
    pub intercepts: u32,
    /// `hits`.
    pub hits: u32,
    /// `recent` (6.1, 6.6).
    pub recent: u32,
}

/// The measured idle duration of 6.x `teo_update()` from the residency: less half the
/// exit latency of the state left (`last_state_idx`), or half the residency when it was
/// shorter than the exit latency.
#[inline]
pub fn measured_ns(drv: &Drv, last_state_idx: i32, last_residency_ns: i64) -> u64 {
    let last = (last_state_idx.max(0) as usize).min(drv.count - 1);
    let lat_ns = drv.el_ns[last] as u64;
    let m = last_residency_ns as u64;
    if m >= lat_ns {
        m - lat_ns / 2
    } else {
        m / 2
    }
}

/// What the first loop of 6.6+ `teo_select()` finds over the enabled states.
#[derive(Debug, Clone, Copy)]
pub struct Scan {
    /// The deepest enabled state (`None`: none is enabled).
    pub idx: Option<usize>,
    /// The first enabled state.
    pub idx0: usize,
    /// The deepest enabled state within the latency limit.
    pub constraint_idx: usize,
    /// Intercepts of all bins but the last.
    pub intercept_sum: u32,
    /// Intercepts, hits and recent events of the bins below `idx`.
    pub idx_intercept_sum: u32,
    /// See `idx_intercept_sum`.
    pub idx_hit_sum: u32,
    /// See `idx_intercept_sum`.
    pub idx_recent_sum: u32,
}

/// The sums of metrics for the early wakeup pattern detection (6.6+ `teo_select()`).
pub fn scan(drv: &Drv, bins: &[Bin], latency_req: i64) -> Scan {
    let mut sc = Scan {
        idx: if drv.disabled[0] { None } else { Some(0) },
        idx0: 0,
        constraint_idx: 0,
        intercept_sum: 0,
        idx_intercept_sum: 0,
        idx_hit_sum: 0,
        idx_recent_sum: 0,
    };
    let (mut hit_sum, mut recent_sum) = (0u32, 0u32);
    for i in 1..drv.count {
        let prev = bins.get(i - 1).copied().unwrap_or_default();
        sc.intercept_sum = sc.intercept_sum.wrapping_add(prev.intercepts);
        hit_sum = hit_sum.wrapping_add(prev.hits);
        recent_sum = recent_sum.wrapping_add(prev.recent);
        if drv.disabled[i] {
            continue;
        }
        if sc.idx.is_none() {
            sc.idx0 = i; // first enabled state
        }
        sc.idx = Some(i);
        if drv.el_ns[i] <= latency_req {
            sc.constraint_idx = i;
        }
        sc.idx_intercept_sum = sc.intercept_sum;
        sc.idx_hit_sum = hit_sum;
        sc.idx_recent_sum = recent_sum;
    }
    sc
}

/// The end of 6.6+ `teo_select()`: the tick may be stopped unless the state is a polling
/// one or the expected idle duration is shorter than the tick (or it is stopped
/// already); if it stays, the state should fit the time till the tick.
pub fn keep_tick_or_stop(
    cpu: &Cpu,
    idx: usize,
    idx0: usize,
    duration_ns: i64,
    delta_tick: i64,
    stop_tick: &mut bool,
) -> usize {
    let drv = &cpu.drv;
    if (!drv.polling[idx] && duration_ns >= cpu.tick.nsec) || cpu.tick_stopped {
        return idx;
    }
    *stop_tick = false;
    if idx > idx0 && drv.tr_ns[idx] > delta_tick {
        return find_shallower_state_ns(drv, idx, delta_tick, false);
    }
    idx
}

/// `teo_reflect()` of 6.1–6.12: a wakeup by a safety net (poll time limit, or the tick on
/// a sleep length past the tick) counts as if the CPU idled for the whole sleep length
/// (`time_span = sleep_length`); otherwise the time span is the time since select.
pub fn reflect_time_span(cpu: &mut Cpu, time_span_ns: &mut i64, sleep_length_ns: i64) {
    if cpu.poll_time_limit || (cpu.take_got_tick() && sleep_length_ns > cpu.tick.nsec) {
        cpu.poll_time_limit = false;
        *time_span_ns = sleep_length_ns;
    } else {
        *time_span_ns = (cpu.clock_ns as i64).wrapping_sub(*time_span_ns);
    }
}

/// The state columns of the 6.x teo: `teo_sleep_length_ns`, `total`, `hits<i>` and
/// `intercepts<i>` per state, then `recent<i>` per state when `recent`.
pub fn bin_columns(drv: &Drv, recent: bool) -> Vec<String> {
    let mut c = vec!["teo_sleep_length_ns".to_string(), "total".to_string()];
    for i in 0..drv.count {
        c.push(format!("hits{i}"));
        c.push(format!("intercepts{i}"));
    }
    if recent {
        c.extend((0..drv.count).map(|i| format!("recent{i}")));
    }
    c
}

/// The values of [`bin_columns`] for the first `n` bins.
pub fn write_bin_columns(sleep_length_ns: i64, total: u32, bins: &[Bin], n: usize, recent: bool, out: &mut Vec<i64>) {
    out.push(sleep_length_ns);
    out.push(i64::from(total));
    for b in bins.iter().take(n) {
        out.push(i64::from(b.hits));
        out.push(i64::from(b.intercepts));
    }
    if recent {
        out.extend(bins.iter().take(n).map(|b| i64::from(b.recent)));
    }
}

/// `teo_find_shallower_state()` of v5.1 (µs).
#[inline]
pub fn find_shallower_state_us(drv: &Drv, idx: usize, duration_us: u32) -> usize {
    let mut state_idx = idx;
    for i in (0..idx.min(drv.count)).rev() {
        if drv.disabled[i] {
            continue;
        }
        state_idx = i;
        if drv.tr_us[i] <= duration_us {
            break;
        }
    }
    state_idx
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::idle::states::StateTable;

    #[test]
    fn decay_and_shallower_states() {
        assert_eq!(decay(1024), 896);
        assert_eq!(decay(7), 7); // stuck below 8: the 6.12 arithmetic
        let mut drv = StateTable::preset("intel-skx").unwrap().drv(); // tr 0, 2, 20, 600 µs
        assert_eq!(find_shallower_state_ns(&drv, 3, 25_000, false), 2);
        assert_eq!(find_shallower_state_ns(&drv, 3, 1_000, false), 0);
        assert_eq!(find_shallower_state_ns(&drv, 3, 1_000, true), 1);
        drv.disabled[2] = true;
        assert_eq!(find_shallower_state_ns(&drv, 3, 25_000, false), 1);
        assert_eq!(find_shallower_state_us(&drv, 3, 25), 1);
    }
}
