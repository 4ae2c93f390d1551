//! The `menu` governor (`drivers/cpuidle/governors/menu.c`): the math every version
//! shares (buckets, the correction-factor EWMA, the ring of recent intervals and the
//! repeating-pattern detector), and one file per kernel version.
//!
//! Integer widths follow the kernel: correction factors and intervals are `unsigned int`,
//! products that the kernel widens are `u64`, and overflow wraps where C would wrap.

pub mod v4_18;
pub mod v4_19;
pub mod v4_20;
pub mod v6_1;
pub mod v6_12;

pub use v4_18::MenuV4_18;
pub use v4_19::MenuV4_19;
pub use v4_20::MenuV4_20;
pub use v6_1::MenuV6_1;
pub use v6_12::MenuV6_12;

/// `RESOLUTION`: fixed-point scale of a correction factor.
pub const RESOLUTION: u32 = 1024;
/// `DECAY`: weight 1/8 of the newest ratio in the correction-factor EWMA.
pub const DECAY: u32 = 8;
/// A correction factor of 1.0 (`RESOLUTION * DECAY`), the initial value of every bucket.
pub const UNITY: u32 = RESOLUTION * DECAY;
/// `INTERVALS`: length of the ring of recent idle intervals.
pub const INTERVALS: usize = 8;
/// `MAX_INTERESTING` in µs (sleeps longer than 50 ms count as perfect predictions).
pub const MAX_INTERESTING_US: u32 = 50_000;
/// `MAX_INTERESTING` in ns (the ns versions, ≥ 5.7).
pub const MAX_INTERESTING_NS: u64 = 50_000_000;
/// `RESIDENCY_THRESHOLD_NS` (`gov.h`, 6.8+): 15 µs.
pub const RESIDENCY_THRESHOLD_NS: u64 = 15_000;

/// `which_bucket()` on a duration in µs (≤ v5.6): 0 below 10 µs, 1 below 100 µs, ... 5 from
/// 100 ms; `+ 6` when tasks are in iowait and the version splits the buckets by iowait.
#[inline]
pub fn which_bucket_us(duration_us: u32, iowait_offset: usize) -> usize {
    iowait_offset
        + match duration_us {
            0..=9 => 0,
            10..=99 => 1,
            100..=999 => 2,
            1000..=9999 => 3,
            10000..=99999 => 4,
            _ => 5,
        }
}

/// `which_bucket()` on a duration in ns (≥ 5.7): the same limits × `NSEC_PER_USEC`.
#[inline]
pub fn which_bucket_ns(duration_ns: u64, iowait_offset: usize) -> usize {
    iowait_offset
        + match duration_ns {
            0..=9_999 => 0,
            10_000..=99_999 => 1,
            100_000..=999_999 => 2,
            1_000_000..=9_999_999 => 3,
            10_000_000..=99_999_999 => 4,
            _ => 5,
        }
}

/// The correction-factor update of `menu_update()`: `f - f/DECAY` plus
/// `RESOLUTION * measured / next_timer` (or `RESOLUTION` when the timer is 0 or the
/// measurement is not below `max_interesting`). `measured` is already capped at `next_timer`.
#[inline]
pub fn correction_factor_update(f: u32, measured: u64, next_timer: u64, max_interesting: u64) -> u32 {
    let decayed = f - f / DECAY;
    let add = if next_timer > 0 && measured < max_interesting {
        // measured < 50e6 here, so the product cannot overflow; the quotient is ≤ RESOLUTION.
        u64::from(RESOLUTION).wrapping_mul(measured) / next_timer
    } else {
        u64::from(RESOLUTION)
    };
    decayed.wrapping_add(add as u32)
}

/// The ring of the last 8 idle intervals in µs (`intervals[]`, `interval_ptr`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Intervals {
    /// The intervals.
    pub v: [u32; INTERVALS],
    /// Next slot to write.
    pub ptr: usize,
}

impl Intervals {
    /// A ring filled with `fill`, writing at slot 0 next.
    pub const fn new(fill: u32) -> Self {
        Intervals { v: [fill; INTERVALS], ptr: 0 }
    }

    /// `menu_update_intervals()`: store `x` and advance the pointer modulo 8.
    #[inline]
    pub fn push(&mut self, x: u32) {
        if let Some(slot) = self.v.get_mut(self.ptr) {
            *slot = x;
        }
        self.ptr += 1;
        if self.ptr >= INTERVALS {
            self.ptr = 0;
        }
    }
}

/// The early exits that versions of `get_typical_interval()` add before the variance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EarlyExit {
    /// None (v4.18, v4.19).
    None,
    /// `if (min >= predicted_us) return UINT_MAX;` (v4.20 – v6.7).
    MinAtLeast(u32),
    /// `if (!max) return UINT_MAX;` (v6.8+).
    MaxZero,
}

/// `x / d` for the sample counts 1..=8 as divisions by constants (multiplications), the
/// general division otherwise.
#[inline(always)]
fn div_count(x: u64, d: u64) -> u64 {
    match d {
        1 => x,
        2 => x / 2,
        3 => x / 3,
        4 => x / 4,
        5 => x / 5,
        6 => x / 6,
        7 => x / 7,
        8 => x / 8,
        _ => x / d,
    }
}

/// `get_typical_interval()`: the repeating-pattern detector, in µs.
///
/// Over the intervals `<= thresh` (starting at `thresh0`: `UINT_MAX` ≤ 5.0, `INT_MAX`
/// after), compute the average and the variance (integer, truncating; `>> 3` when all 8
/// count). Accept the average when the variance is at most 400 µs² (stddev ≤ 20 µs), or
/// when avg² > 36·variance with at least 6 of the 8 samples kept. Otherwise drop the
/// largest value(s) (`thresh = max - 1`) and retry while more than 6 samples remain;
/// then give up with `UINT_MAX`.
///
/// The kernel scans the ring twice per round (sum, then squared deviations). Here one
/// scan also sums the squares, and the deviations follow from
/// `Σ(v−avg)² = Σv² − 2·avg·Σv + n·avg²`, which is exact in `u64` while every kept value
/// is at most 2^29 µs (all terms stay below 2^63). Rounds with larger values rescan the
/// way the kernel does, with its wrapping `u64` arithmetic. The tests check this against
/// the kernel's loop on random rings.
pub fn typical_interval(v: &[u32; INTERVALS], thresh0: u32, early: EarlyExit) -> u32 {
    const FAST_MAX: u32 = 1 << 29;
    let mut thresh = thresh0;
    loop {
        let (mut min, mut max, mut sum, mut sq, mut divisor) = (u32::MAX, 0u32, 0u64, 0u64, 0u64);
        // branch-free: which values a round keeps is data-dependent and unpredictable
        for &x in v {
            let keep = x <= thresh;
            let x64 = if keep { u64::from(x) } else { 0 };
            sum += x64;
            sq = sq.wrapping_add(x64.wrapping_mul(x64));
            divisor += u64::from(keep);
            max = max.max(if keep { x } else { 0 });
            min = min.min(if keep { x } else { u32::MAX });
        }
        match early {
            EarlyExit::MinAtLeast(p) if min >= p => return u32::MAX,
            EarlyExit::MaxZero if max == 0 => return u32::MAX,
            _ => {}
        }
        if divisor == 0 {
            // Not reachable from any ring the kernel can build (the average would divide
            // by zero there); give up as the kernel's callers expect.
            return u32::MAX;
        }
        let avg = if divisor == INTERVALS as u64 { (sum >> 3) as u32 } else { div_count(sum, divisor) as u32 };
        let a = u64::from(avg);
        let deviations = if max <= FAST_MAX {
            (sq + divisor * a * a) - 2 * a * sum
        } else {
            let mut d: u64 = 0;
            for &x in v {
                if x <= thresh {
                    let diff = i64::from(x) - i64::from(avg);
                    d = d.wrapping_add(diff.wrapping_mul(diff) as u64);
                }
            }
            d
        };
        let variance = if divisor == INTERVALS as u64 { deviations >> 3 } else { div_count(deviations, divisor) };
        if variance <= u64::MAX / 36
            && ((a * a > variance * 36 && divisor * 4 >= INTERVALS as u64 * 3) || variance <= 400)
        {
            return avg;
        }
        if divisor * 4 <= INTERVALS as u64 * 3 {
            return u32::MAX;
        }
        thresh = max.wrapping_sub(1);
    }
}

/// `get_typical_interval()` of 6.16+ (6.18.35; docs/idle-governors.md §3.9): the samples
/// kept lie strictly between a lower and an upper threshold (`s64`, starting at `-1` and
/// `UINT_MAX`, so a `UINT_MAX` sample is never kept); one pass sums the values and their
/// squares (`u64`), both are divided by the count (`>> 3` for 8), and the variance is
/// `E[v²] − avg²` with the truncated averages. The acceptance test is the old one; a
/// rejected round moves the threshold on the side farther from the average (the lower
/// one to the minimum when `avg − min > max − avg`, else the upper one to the maximum).
pub fn typical_interval_two_sided(v: &[u32; INTERVALS]) -> u32 {
    let (mut min_thresh, mut max_thresh): (i64, i64) = (-1, i64::from(u32::MAX));
    loop {
        let (mut max, mut min, mut divisor) = (0u32, u32::MAX, 0u64);
        let (mut avg, mut variance) = (0u64, 0u64);
        for &x in v {
            let value = i64::from(x);
            if value <= min_thresh || value >= max_thresh {
                continue;
            }
            divisor += 1;
            avg = avg.wrapping_add(value as u64);
            variance = variance.wrapping_add(value.wrapping_mul(value) as u64);
            max = max.max(x);
            min = min.min(x);
        }
        if max == 0 {
            return u32::MAX;
        }
        if divisor == INTERVALS as u64 {
            avg >>= 3;
            variance >>= 3;
        } else {
            avg = div_count(avg, divisor);
            variance = div_count(variance, divisor);
        }
        let avg_sq = avg.wrapping_mul(avg);
        variance = variance.wrapping_sub(avg_sq);
        if variance <= u64::MAX / 36
            && ((avg_sq > variance * 36 && divisor * 4 >= INTERVALS as u64 * 3) || variance <= 400)
        {
            return avg as u32;
        }
        if divisor * 4 <= INTERVALS as u64 * 3 {
            return u32::MAX;
        }
        if avg.wrapping_sub(u64::from(min)) > u64::from(max).wrapping_sub(avg) {
            min_thresh = i64::from(min);
        } else {
            max_thresh = i64::from(max);
        }
    }
}

/// `INT_MAX` as the `unsigned int` outlier threshold of v5.1+ `get_typical_interval()`.
pub const INT_MAX_U32: u32 = i32::MAX as u32;

use crate::idle::governor::Cpu;

/// The per-CPU data of the µs-era menu (v4.18–v4.20 `struct menu_device`), shared by
/// those versions, with their common `menu_update()`.
#[derive(Debug, Clone)]
pub struct MenuUs {
    /// `needs_update`.
    pub needs_update: bool,
    /// `tick_wakeup`.
    pub tick_wakeup: bool,
    /// `last_state_idx` (set by `reflect()`).
    pub last_state_idx: usize,
    /// `next_timer_us`.
    pub next_timer_us: u32,
    /// `predicted_us` (a field in v4.18/v4.19, a local from v4.20).
    pub predicted_us: u32,
    /// `bucket`.
    pub bucket: usize,
    /// `correction_factor[12]`.
    pub correction_factor: [u32; 12],
    /// `intervals[8]` and `interval_ptr` (zeroed at boot).
    pub intervals: Intervals,
    /// The governor's `latency_req` input of the last `select()` (µs), for the columns.
    pub latency_req_us: i32,
    /// `dev->last_residency` seen after the last period (µs), for the columns.
    pub last_residency_us: i32,
}

impl Default for MenuUs {
    fn default() -> Self {
        MenuUs {
            needs_update: false,
            tick_wakeup: false,
            last_state_idx: 0,
            next_timer_us: 0,
            predicted_us: 0,
            bucket: 0,
            correction_factor: [UNITY; 12],
            intervals: Intervals::new(0),
            latency_req_us: 0,
            last_residency_us: 0,
        }
    }
}

impl MenuUs {
    /// `menu_update()` of v4.18–v4.20 (µs): 45 ms after a tick wakeup on a long timer; the
    /// next timer after a timed-out poll (only `with_poll_limit`, i.e. v4.20); otherwise
    /// the residency less the exit latency (or half the residency if it is not more than
    /// twice the exit latency); capped at the next timer.
    pub fn update(&mut self, cpu: &Cpu, with_poll_limit: bool) {
        let drv = &cpu.drv;
        let last = self.last_state_idx.min(drv.count - 1);
        let mut measured_us: u32 = if self.tick_wakeup && self.next_timer_us > cpu.tick.usec {
            9 * MAX_INTERESTING_US / 10
        } else if with_poll_limit && drv.polling[last] && cpu.poll_time_limit {
            self.next_timer_us
        } else {
            // cpuidle_get_last_residency(): an int, converted to unsigned
            let m = cpu.last_residency_us_v4() as u32;
            let el = drv.el_us[last];
            if m > el.wrapping_mul(2) {
                m - el
            } else {
                m / 2
            }
        };
        measured_us = measured_us.min(self.next_timer_us);
        let cf = &mut self.correction_factor[self.bucket.min(11)];
        *cf = correction_factor_update(
            *cf,
            u64::from(measured_us),
            u64::from(self.next_timer_us),
            u64::from(MAX_INTERESTING_US),
        );
        self.intervals.push(measured_us);
    }

    /// `reflect()`: remember the state and whether the tick ended the period.
    pub fn reflect(&mut self, cpu: &mut Cpu, idx: usize) {
        self.last_state_idx = idx;
        self.needs_update = true;
        self.tick_wakeup = cpu.take_got_tick();
        self.last_residency_us = cpu.last_residency_us_v4();
    }

    /// Column names: `latency_req_us, last_residency_us, bucket, next_timer_us,
    /// [predicted_us,] cf0..cf11, iv0..iv7, interval_ptr`.
    pub fn columns(with_predicted: bool) -> Vec<String> {
        let mut c: Vec<String> =
            ["latency_req_us", "last_residency_us", "bucket", "next_timer_us"].iter().map(|s| s.to_string()).collect();
        if with_predicted {
            c.push("predicted_us".to_string());
        }
        c.extend((0..12).map(|i| format!("cf{i}")));
        c.extend((0..8).map(|i| format!("iv{i}")));
        c.push("interval_ptr".to_string());
        c
    }

    /// Column values in the order of [`MenuUs::columns`].
    pub fn write_columns(&self, with_predicted: bool, out: &mut Vec<i64>) {
        out.push(i64::from(self.latency_req_us));
        out.push(i64::from(self.last_residency_us));
        out.push(self.bucket as i64);
        out.push(i64::from(self.next_timer_us));
        if with_predicted {
            out.push(i64::from(self.predicted_us));
        }
        out.extend(self.correction_factor.iter().map(|&f| i64::from(f)));
        out.extend(self.intervals.v.iter().map(|&v| i64::from(v)));
        out.push(self.intervals.ptr as i64);
    }
}

/// The ns-era `menu_update()` (≥ 5.7; identical in 6.1 and 6.12) on the caller's
/// correction factors and ring: 45 ms after a tick wakeup on a timer beyond the tick, the
/// next timer after a timed-out poll, otherwise the residency less the exit latency (or
/// half of it when not more than twice the exit latency); capped at the next timer.
pub fn update_ns(
    cpu: &Cpu,
    last_state_idx: usize,
    tick_wakeup: bool,
    next_timer_ns: u64,
    correction_factor: &mut u32,
    intervals: &mut Intervals,
) {
    let drv = &cpu.drv;
    let last = last_state_idx.min(drv.count - 1);
    let mut measured_ns: u64 = if tick_wakeup && next_timer_ns > cpu.tick.nsec as u64 {
        9 * MAX_INTERESTING_NS / 10
    } else if drv.polling[last] && cpu.poll_time_limit {
        next_timer_ns
    } else {
        let m = cpu.last_residency_ns as u64;
        let el = drv.el_ns[last] as u64;
        if m > el.wrapping_mul(2) {
            m - el
        } else {
            m / 2
        }
    };
    measured_ns = measured_ns.min(next_timer_ns);
    *correction_factor = correction_factor_update(*correction_factor, measured_ns, next_timer_ns, MAX_INTERESTING_NS);
    // ktime_to_us() of the s64 value, stored as unsigned int
    intervals.push(((measured_ns as i64) / 1000) as u32);
}

/// The v4.x performance multiplier with the load term (v4.18, v4.19):
/// `1 + 2·get_loadavg(load) + 10·nr_iowait`, `get_loadavg(x) = LOAD_INT(x)·10 + LOAD_FRAC(x)/10`.
pub fn performance_multiplier_with_load(nr_iowait: u32, load: u32) -> u32 {
    let load = u64::from(load);
    let load_int = load >> 11;
    let load_frac = ((load & 2047) * 100) >> 11;
    let loadavg = load_int * 10 + load_frac / 10;
    (1 + 2 * loadavg + 10 * u64::from(nr_iowait)) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_sided_detector_by_hand() {
        // Eight equal intervals: average 100, variance 0.
        assert_eq!(typical_interval_two_sided(&[100; 8]), 100);
        // A UINT_MAX sample (a failed entry) is never kept: seven 300s, variance 0.
        assert_eq!(typical_interval_two_sided(&[300, 300, 300, 300, 300, 300, 300, u32::MAX]), 300);
        // One low outlier: round 1 sum 3501 >> 3 = 437, squares 1 750 001 >> 3 = 218 750,
        // variance 218 750 - 437² = 27 781 (> 400, 437² < 36·27 781); avg - min = 436 >
        // max - avg = 63, so the lower threshold moves to 1 and the seven 500s give 500.
        let ring = [1, 500, 500, 500, 500, 500, 500, 500];
        assert_eq!(typical_interval_two_sided(&ring), 500);
        // The 6.12 detector only drops the largest values: threshold 499 keeps the 1 alone.
        assert_eq!(typical_interval(&ring, INT_MAX_U32, EarlyExit::MaxZero), 1);
        // All zero: no sample counts (max stays 0).
        assert_eq!(typical_interval_two_sided(&[0; 8]), u32::MAX);
    }

    /// The detector's answer computed the long way, from its definition: mean and
    /// population variance as exact rationals over the kept samples, accepting when
    /// stddev ≤ 20 µs or (mean > 6·stddev and ≥ 6 samples), dropping the maximum otherwise.
    /// (Valid when the integer truncations cannot flip the test, which the cases ensure.)
    fn by_definition(v: &[u32; 8]) -> u32 {
        let mut kept: Vec<u64> = v.iter().map(|&x| u64::from(x)).collect();
        loop {
            let n = kept.len() as u64;
            let sum: u64 = kept.iter().sum();
            let mean = sum / n; // the kernel truncates the mean
            let var = kept.iter().map(|&x| (x as i64 - mean as i64).pow(2) as u64).sum::<u64>() / n;
            if var <= 400 || (mean * mean > 36 * var && n >= 6) {
                return mean as u32;
            }
            if n <= 6 {
                return u32::MAX;
            }
            let max = *kept.iter().max().unwrap();
            kept.retain(|&x| x < max);
        }
    }

    /// The kernel's loop as written in menu.c (rescanning the ring every round).
    fn typical_interval_reference(v: &[u32; INTERVALS], thresh0: u32, early: EarlyExit) -> u32 {
        let mut thresh = thresh0;
        loop {
            let (mut min, mut max, mut sum, mut divisor) = (u32::MAX, 0u32, 0u64, 0u64);
            for &x in v {
                if x <= thresh {
                    sum += u64::from(x);
                    divisor += 1;
                    max = max.max(x);
                    min = min.min(x);
                }
            }
            match early {
                EarlyExit::MinAtLeast(p) if min >= p => return u32::MAX,
                EarlyExit::MaxZero if max == 0 => return u32::MAX,
                _ => {}
            }
            if divisor == 0 {
                return u32::MAX;
            }
            let avg = if divisor == 8 { (sum >> 3) as u32 } else { (sum / divisor) as u32 };
            let mut variance: u64 = 0;
            for &x in v {
                if x <= thresh {
                    let diff = i64::from(x) - i64::from(avg);
                    variance = variance.wrapping_add(diff.wrapping_mul(diff) as u64);
                }
            }
            variance = if divisor == 8 { variance >> 3 } else { variance / divisor };
            if variance <= u64::MAX / 36 {
                let avg2 = u64::from(avg) * u64::from(avg);
                if (avg2 > variance * 36 && divisor * 4 >= 24) || variance <= 400 {
                    return avg;
                }
            }
            if divisor * 4 <= 24 {
                return u32::MAX;
            }
            thresh = max.wrapping_sub(1);
        }
    }

    #[test]
    fn one_scan_detector_equals_the_kernel_loop() {
        let mut rng = crate::stats::rng::Rng::new(42, 0);
        let scales = [30u64, 400, 5_000, 60_000, (1 << 29) + 2, 1 << 31, 1 << 32];
        for round in 0..200_000u64 {
            let scale = scales[(round % scales.len() as u64) as usize];
            let mut v = [0u32; 8];
            for x in v.iter_mut() {
                *x = match rng.below(10) {
                    0 => u32::MAX,
                    1 => 0,
                    2 => 45_000,
                    _ => rng.below(scale) as u32,
                };
            }
            if round % 7 == 0 {
                // a tight cluster plus outliers, the case the detector is for
                let base = rng.below(2000) as u32;
                for x in v.iter_mut().take(6) {
                    *x = base + rng.below(30) as u32;
                }
            }
            for (thresh, early) in [
                (u32::MAX, EarlyExit::None),
                (u32::MAX, EarlyExit::MinAtLeast(rng.below(1 << 20) as u32)),
                (INT_MAX_U32, EarlyExit::MinAtLeast(rng.below(1 << 20) as u32)),
                (INT_MAX_U32, EarlyExit::MaxZero),
            ] {
                assert_eq!(
                    typical_interval(&v, thresh, early),
                    typical_interval_reference(&v, thresh, early),
                    "{v:?} {thresh} {early:?}"
                );
            }
        }
    }

    #[test]
    fn repeating_pattern_is_found() {
        // eight samples of 300 ± 10 µs: stddev < 20 µs
        let v = [290, 300, 310, 300, 295, 305, 300, 300];
        let mean = v.iter().map(|&x| u64::from(x)).sum::<u64>() / 8;
        assert_eq!(typical_interval(&v, INT_MAX_U32, EarlyExit::MaxZero), mean as u32);
        assert_eq!(typical_interval(&v, INT_MAX_U32, EarlyExit::MaxZero), by_definition(&v));
    }

    #[test]
    fn outliers_are_dropped() {
        // six samples near 1000 µs and two long outliers: the outliers go one round at a
        // time (largest first), then the remaining 6 are accepted (mean > 6·stddev).
        let v = [1000, 1040, 960, 45000, 1000, 980, 30000, 1020];
        let got = typical_interval(&v, INT_MAX_U32, EarlyExit::MaxZero);
        let six = [1000u64, 1040, 960, 1000, 980, 1020];
        assert_eq!(u64::from(got), six.iter().sum::<u64>() / 6);
        assert_eq!(got, by_definition(&v));
        // with three outliers only 5 samples would remain: no typical interval
        let v = [1000, 1040, 960, 45000, 1000, 980, 30000, 20000];
        assert_eq!(typical_interval(&v, INT_MAX_U32, EarlyExit::MaxZero), u32::MAX);
        assert_eq!(by_definition(&v), u32::MAX);
    }

    #[test]
    fn wide_spread_is_rejected_but_a_tight_subset_is_not() {
        // 100..800 µs evenly: mean never exceeds 6·stddev, and after two rounds only 6
        // samples remain: no typical interval.
        let v = [100, 200, 300, 400, 500, 600, 700, 800];
        assert_eq!(typical_interval(&v, INT_MAX_U32, EarlyExit::MaxZero), u32::MAX);
        assert_eq!(by_definition(&v), u32::MAX);
        // bimodal 100 / 5000 µs: the 5000s go in one round (all equal to the max) and the
        // four 100s have stddev 0 ≤ 20 µs, which needs no minimum sample count.
        let v = [100, 5000, 100, 5000, 100, 5000, 100, 5000];
        assert_eq!(typical_interval(&v, INT_MAX_U32, EarlyExit::MaxZero), 100);
        assert_eq!(by_definition(&v), 100);
    }

    #[test]
    fn version_specific_starts_and_exits() {
        // A ring never written since boot (v4.x: zeros) predicts 0 in v4.18, while v6.8+
        // sees "max == 0" and gives up.
        let zeros = [0u32; 8];
        assert_eq!(typical_interval(&zeros, u32::MAX, EarlyExit::None), 0);
        assert_eq!(typical_interval(&zeros, INT_MAX_U32, EarlyExit::MaxZero), u32::MAX);
        // UINT_MAX entries (failed entries) are outliers from the start with INT_MAX
        let mut v = [500u32; 8];
        v[0] = u32::MAX;
        assert_eq!(typical_interval(&v, INT_MAX_U32, EarlyExit::MaxZero), 500);
        // v4.20–6.7: pointless when even the smallest interval is not below the prediction
        assert_eq!(typical_interval(&v, INT_MAX_U32, EarlyExit::MinAtLeast(500)), u32::MAX);
        assert_eq!(typical_interval(&v, INT_MAX_U32, EarlyExit::MinAtLeast(501)), 500);
    }

    #[test]
    fn buckets_and_correction_factor() {
        assert_eq!(
            [9, 10, 99, 100, 999, 1000, 99_999, 100_000].map(|d| which_bucket_us(d, 0)),
            [0, 1, 1, 2, 2, 3, 4, 5]
        );
        assert_eq!(which_bucket_us(5, 6), 6);
        assert_eq!(which_bucket_ns(7_829_400, 0), 3);
        assert_eq!(which_bucket_ns(u64::MAX, 0), 5);
        // golden menu418 x86 mixed row 1: cf3 8192 → 7583 after a 3174 µs sleep on a 7829 µs timer
        assert_eq!(
            correction_factor_update(UNITY, 3174, 7829, u64::from(MAX_INTERESTING_US)),
            8192 - 1024 + 1024 * 3174 / 7829
        );
        assert_eq!(correction_factor_update(UNITY, 3174, 7829, u64::from(MAX_INTERESTING_US)), 7583);
        // a timer of 0, or a long sleep, counts as a perfect prediction
        assert_eq!(correction_factor_update(4096, 0, 0, 50_000), 4096 - 512 + 1024);
        let mut r = Intervals::new(0);
        for x in 1..=9 {
            r.push(x);
        }
        assert_eq!((r.v, r.ptr), ([9, 2, 3, 4, 5, 6, 7, 8], 1));
    }
}
