//! The PELT signal of one entity, with the kernel's integer widths and truncation
//! (kernel/sched/pelt.c `decay_load`, `__accumulate_pelt_segments`, `accumulate_sum`,
//! `___update_load_sum`, `___update_load_avg`; pelt.h `get_pelt_divider`).
//!
//! Every product and sum wraps exactly where the kernel's `u32`/`u64` would; nothing here
//! can panic, whatever the input.

use super::consts::{LOAD_AVG_MAX, LOAD_AVG_PERIOD, PELT_MIN_DIVIDER, RUNNABLE_AVG_YN_INV, SCHED_CAPACITY_SHIFT};

/// `struct sched_avg` of include/linux/sched.h (6.12) without `util_est`, which
/// [`super::util_est`] keeps: the running sums, the position in the current period and
/// the averages derived from them. `unsigned long` fields are `u64` (64-bit kernel).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SchedAvg {
    /// PELT-clock time (ns) up to which the sums are accounted, a multiple of 1024 ns
    /// steps from the first update.
    pub last_update_time: u64,
    /// Decayed sum of the time the entity was runnable (load) — times `load` per unit.
    pub load_sum: u64,
    /// Decayed sum of runnable time, `<< SCHED_CAPACITY_SHIFT`, times the runnable count.
    pub runnable_sum: u64,
    /// Decayed sum of running time, `<< SCHED_CAPACITY_SHIFT` (a `u32` in the kernel).
    pub util_sum: u32,
    /// Units (1024 ns) already accounted in the current, incomplete period.
    pub period_contrib: u32,
    /// `load * load_sum / divider`.
    pub load_avg: u64,
    /// `runnable_sum / divider`.
    pub runnable_avg: u64,
    /// `util_sum / divider`, at most 1024.
    pub util_avg: u64,
}

/// `decay_load(val, n)` of pelt.c: `val * y^n`, computed as `val >> (n/32)` then a
/// 64×32-bit multiplication by `runnable_avg_yN_inv[n%32]` keeping the top 64 bits
/// (`mul_u64_u32_shr(val, inv, 32)`); 0 when `n > 32*63`.
#[inline]
pub fn decay_load(val: u64, n: u64) -> u64 {
    if n > LOAD_AVG_PERIOD * 63 {
        return 0;
    }
    let mut val = val;
    let mut local_n = n as u32; // n <= 2016 here
    if u64::from(local_n) >= LOAD_AVG_PERIOD {
        val >>= local_n / LOAD_AVG_PERIOD as u32;
        local_n %= LOAD_AVG_PERIOD as u32;
    }
    let inv = RUNNABLE_AVG_YN_INV[(local_n & 31) as usize];
    ((u128::from(val) * u128::from(inv)) >> 32) as u64
}

/// `__accumulate_pelt_segments(periods, d1, d3)` of pelt.c: the contribution of a
/// delta that crossed `periods` period boundaries, `d1·y^p + 1024·Σ_{n=1}^{p-1} y^n + d3`,
/// with `d1` the rest of the first period and `d3` the part of the current one.
#[inline]
pub fn accumulate_pelt_segments(periods: u64, d1: u32, d3: u32) -> u32 {
    let c1 = decay_load(u64::from(d1), periods) as u32;
    let c2 = LOAD_AVG_MAX.wrapping_sub(decay_load(u64::from(LOAD_AVG_MAX), periods) as u32).wrapping_sub(1024);
    c1.wrapping_add(c2).wrapping_add(d3)
}

/// `get_pelt_divider(sa)` of pelt.h: `LOAD_AVG_MAX - 1024 + period_contrib`, the largest
/// `*_sum` possible at this position in the period.
#[inline]
pub fn pelt_divider(sa: &SchedAvg) -> u32 {
    PELT_MIN_DIVIDER.wrapping_add(sa.period_contrib)
}

impl SchedAvg {
    /// A zeroed signal whose clock starts at `last_update_time`.
    pub fn at(last_update_time: u64) -> Self {
        SchedAvg { last_update_time, ..Default::default() }
    }

    /// `accumulate_sum(delta, sa, load, runnable, running)` of pelt.c: decay the sums over
    /// the crossed periods and add this delta's contribution (`delta` in 1024 ns units).
    /// Returns the number of period boundaries crossed.
    #[inline]
    pub fn accumulate_sum(&mut self, delta: u64, load: u64, runnable: u64, running: bool) -> u64 {
        let mut contrib = delta as u32; // p == 0 -> delta < 1024
        let mut delta = delta.wrapping_add(u64::from(self.period_contrib));
        let periods = delta / 1024;
        if periods != 0 {
            self.load_sum = decay_load(self.load_sum, periods);
            self.runnable_sum = decay_load(self.runnable_sum, periods);
            self.util_sum = decay_load(u64::from(self.util_sum), periods) as u32;
            delta %= 1024;
            if load != 0 {
                contrib = accumulate_pelt_segments(periods, 1024 - self.period_contrib, delta as u32);
            }
        }
        self.period_contrib = delta as u32;
        if load != 0 {
            self.load_sum = self.load_sum.wrapping_add(load.wrapping_mul(u64::from(contrib)));
        }
        if runnable != 0 {
            self.runnable_sum =
                self.runnable_sum.wrapping_add(runnable.wrapping_mul(u64::from(contrib)) << SCHED_CAPACITY_SHIFT);
        }
        if running {
            self.util_sum = self.util_sum.wrapping_add(contrib << SCHED_CAPACITY_SHIFT);
        }
        periods
    }

    /// `___update_load_sum(now, sa, load, runnable, running)` of pelt.c: account the time
    /// since `last_update_time` (whole 1024 ns units; the remainder is carried) with the
    /// given flags. Returns true when a period boundary was crossed, i.e. when the
    /// averages must be recomputed. Time going backwards resets `last_update_time`.
    #[inline]
    pub fn update_load_sum(&mut self, now: u64, load: u64, runnable: u64, running: bool) -> bool {
        let delta = now.wrapping_sub(self.last_update_time);
        if (delta as i64) < 0 {
            self.last_update_time = now;
            return false;
        }
        let delta = delta >> 10;
        if delta == 0 {
            return false;
        }
        self.last_update_time = self.last_update_time.wrapping_add(delta << 10);
        let (runnable, running) = if load == 0 { (0, false) } else { (runnable, running) };
        self.accumulate_sum(delta, load, runnable, running) != 0
    }

    /// `___update_load_avg(sa, load)` of pelt.c: the averages from the sums and the
    /// divider; `load` is the weight (`se_weight`, 1024 for nice 0; 1 for a cfs_rq).
    #[inline]
    pub fn update_load_avg(&mut self, load: u64) {
        let divider = pelt_divider(self);
        // divider >= PELT_MIN_DIVIDER > 0 unless period_contrib is corrupt (wrapping);
        // checked_div keeps that impossible case from panicking.
        let d64 = u64::from(divider);
        self.load_avg = load.wrapping_mul(self.load_sum).checked_div(d64).unwrap_or(0);
        self.runnable_avg = self.runnable_sum.checked_div(d64).unwrap_or(0);
        self.util_avg = u64::from(self.util_sum.checked_div(divider).unwrap_or(0));
    }

    /// One PELT update as the scheduler does it: [`Self::update_load_sum`] and, when it
    /// crossed a period, [`Self::update_load_avg`] with `weight`. Returns whether the
    /// averages were recomputed.
    #[inline]
    pub fn update(&mut self, now: u64, load: u64, runnable: u64, running: bool, weight: u64) -> bool {
        if self.update_load_sum(now, load, runnable, running) {
            self.update_load_avg(weight);
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decay_by_hand() {
        // y^0 with inv = 2^32-1: val*(2^32-1)>>32 = val-1 for 0 < val < 2^32.
        assert_eq!(decay_load(1024, 0), 1023);
        // 32 periods halve first: 1024>>1 = 512, then *(2^32-1)>>32 = 511.
        assert_eq!(decay_load(1024, 32), 511);
        assert_eq!(decay_load(u64::MAX, 2017), 0);
        // LOAD_AVG_MAX * y = 47742 * 0xfa83b2da >> 32 = 46718 (hence PELT_MIN_DIVIDER).
        assert_eq!(decay_load(47742, 1), 46718);
    }

    #[test]
    fn segments_by_hand() {
        // p = 1: c1 = 1024 * 0xfa83b2da >> 32 = 1002, c2 = 47742 - 46718 - 1024 = 0, c3 = 10.
        assert_eq!(accumulate_pelt_segments(1, 1024, 10), 1012);
    }

    #[test]
    fn always_running_saturates() {
        let mut sa = SchedAvg::at(1 << 20);
        let mut now = 1 << 20;
        for _ in 0..4000 {
            now += 1 << 20;
            sa.update(now, 1, 1, true, 1024);
        }
        // at a period boundary util_sum = LOAD_AVG_MAX-1024 periods' worth << 10 / divider
        assert!(sa.util_avg >= 1023 && sa.util_avg <= 1024, "{}", sa.util_avg);
    }

    #[test]
    fn backwards_time_resets_without_panicking() {
        let mut sa = SchedAvg::at(10_000_000);
        assert!(!sa.update_load_sum(5, 1, 1, true));
        assert_eq!(sa.last_update_time, 5);
    }
}
