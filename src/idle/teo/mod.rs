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
