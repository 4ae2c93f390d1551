//! menu as in Linux 6.12.117 and 6.18.35 (`drivers/cpuidle/governors/menu.c`,
//! docs/idle-governors.md §3.2–3.4, §3.9): 6 buckets, no iowait input and no performance
//! multiplier; the typical interval is computed first and the sleep length is only
//! queried when it exceeds 15 µs or the tick is stopped; failed (zero-length) entries
//! push `UINT_MAX` into the ring. The two versions differ only in the pattern detector
//! ([`Detector`]).

use super::{
    typical_interval, typical_interval_two_sided, update_ns, which_bucket_ns, EarlyExit, Intervals, INT_MAX_U32,
    RESIDENCY_THRESHOLD_NS, UNITY,
};
use crate::idle::governor::{Cpu, Governor};
use crate::idle::states::Drv;

const BUCKETS: usize = 6;
const KTIME_MAX: i64 = i64::MAX;

/// Which `get_typical_interval()` a version has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detector {
    /// 6.12: drop the largest values (`thresh = max - 1`), `!max` early exit.
    DropLargest,
    /// 6.16+ (6.18): two thresholds, variance from the sum of squares.
    TwoSided,
}

/// `struct menu_device` of 6.12/6.18 plus `dev->last_state_idx`.
#[derive(Debug, Clone)]
pub struct MenuV6_12 {
    detector: Detector,
    needs_update: bool,
    tick_wakeup: bool,
    next_timer_ns: u64,
    bucket: usize,
    correction_factor: [u32; BUCKETS],
    intervals: Intervals,
    last_state_idx: usize,
}

impl Default for MenuV6_12 {
    fn default() -> Self {
        Self::new()
    }
}

impl MenuV6_12 {
    /// `menu_enable_device()` of 6.12: every correction factor at unity, the ring zeroed.
    pub fn new() -> Self {
        Self::with_detector(Detector::DropLargest)
    }

    /// The same for 6.18 (the two-sided pattern detector).
    pub fn v6_18() -> Self {
        Self::with_detector(Detector::TwoSided)
    }

    fn with_detector(detector: Detector) -> Self {
        MenuV6_12 {
            detector,
            needs_update: false,
            tick_wakeup: false,
            next_timer_ns: 0,
            bucket: 0,
            correction_factor: [UNITY; BUCKETS],
            intervals: Intervals::new(0),
            last_state_idx: 0,
        }
    }

    /// `menu_update()`: learn from the period that just ended.
    fn update(&mut self, cpu: &Cpu) {
        let b = self.bucket.min(BUCKETS - 1);
        update_ns(
            cpu,
            self.last_state_idx,
            self.tick_wakeup,
            self.next_timer_ns,
            &mut self.correction_factor[b],
            &mut self.intervals,
        );
    }
}

impl Governor for MenuV6_12 {
    fn select(&mut self, cpu: &Cpu, stop_tick: &mut bool) -> usize {
        let drv = &cpu.drv;
        let tick_nsec = cpu.tick.nsec;
        let latency_req = cpu.latency_req_ns();

        if self.needs_update {
            self.update(cpu);
            self.needs_update = false;
        } else if cpu.last_residency_ns == 0 {
            self.intervals.push(u32::MAX);
        }

        // Find the shortest expected idle interval.
        let typical = match self.detector {
            Detector::DropLargest => typical_interval(&self.intervals.v, INT_MAX_U32, EarlyExit::MaxZero),
            Detector::TwoSided => typical_interval_two_sided(&self.intervals.v),
        };
        let mut predicted_ns = u64::from(typical) * 1000;
        let delta_tick: i64;
        if cpu.tick_stopped || predicted_ns > RESIDENCY_THRESHOLD_NS {
            let (mut delta, mut dt) = (cpu.sleep_length_ns, cpu.delta_next_ns);
            if delta < 0 {
                delta = 0;
                dt = 0;
            }
            delta_tick = dt;
            self.next_timer_ns = delta as u64;
            self.bucket = which_bucket_ns(self.next_timer_ns, 0);
            let cf = u64::from(self.correction_factor[self.bucket]);
            let unit = u64::from(UNITY) * 1000;
            let timer_us = ((unit / 2).wrapping_add(self.next_timer_ns.wrapping_mul(cf)) / unit) as u32;
            predicted_ns = predicted_ns.min(u64::from(timer_us) * 1000);
            if cpu.tick_stopped && predicted_ns < tick_nsec as u64 {
                predicted_ns = self.next_timer_ns;
            }
        } else {
            // The next timer is assumed far away and the tick half a period away.
            self.next_timer_ns = KTIME_MAX as u64;
            delta_tick = tick_nsec / 2;
            self.bucket = which_bucket_ns(KTIME_MAX as u64, 0);
        }

        if drv.count <= 1
            || latency_req == 0
            || ((self.next_timer_ns < drv.tr_ns[1] as u64 || latency_req < drv.el_ns[1]) && !drv.disabled[0])
        {
            // State 0 is the only choice: keep the tick running if it is the poll loop.
            *stop_tick = !drv.polling[0];
            return 0;
        }

        let mut idx: Option<usize> = None;
        for i in 0..drv.count {
            if drv.disabled[i] {
                continue;
            }
            let cur = *idx.get_or_insert(i);
            if drv.el_ns[i] > latency_req {
                break;
            }
            if drv.tr_ns[i] as u64 <= predicted_ns {
                idx = Some(i);
                continue;
            }
            // State i is too deep for the prediction.
            if drv.polling[cur]
                && (drv.tr_ns[i] as u64) < RESIDENCY_THRESHOLD_NS
                && drv.tr_ns[i] as u64 <= self.next_timer_ns
                && drv.el_ns[i] as u64 <= predicted_ns
            {
                // Use a physical state rather than polling when it pays off soon enough.
                predicted_ns = drv.tr_ns[i] as u64;
                idx = Some(i);
                break;
            }
            if predicted_ns < tick_nsec as u64 {
                break;
            }
            if !cpu.tick_stopped {
                // A shallow state so far: keep the tick and re-evaluate on the next one.
                predicted_ns = drv.tr_ns[cur] as u64;
                break;
            }
            // Tick stopped: take this state if the one so far is shallow and this one
            // fits the time till the closest timer.
            if drv.tr_ns[cur] < tick_nsec && drv.tr_ns[i] <= delta_tick {
                return i;
            }
            return cur;
        }
        let mut idx = idx.unwrap_or(0);

        if (drv.polling[idx] || predicted_ns < tick_nsec as u64) && !cpu.tick_stopped {
            *stop_tick = false;
            if idx > 0 && drv.tr_ns[idx] > delta_tick {
                for i in (0..idx).rev() {
                    if drv.disabled[i] {
                        continue;
                    }
                    idx = i;
                    if drv.tr_ns[i] <= delta_tick {
                        break;
                    }
                }
            }
        }
        idx
    }

    fn reflect(&mut self, cpu: &mut Cpu, idx: usize) {
        self.last_state_idx = idx;
        self.needs_update = true;
        self.tick_wakeup = cpu.take_got_tick();
    }

    fn columns(&self, _drv: &Drv) -> Vec<String> {
        let mut c = vec!["bucket".to_string(), "next_timer_ns".to_string()];
        c.extend((0..BUCKETS).map(|i| format!("cf{i}")));
        c.extend((0..8).map(|i| format!("iv{i}")));
        c
    }

    fn write_columns(&self, out: &mut Vec<i64>) {
        out.push(self.bucket as i64);
        out.push(self.next_timer_ns as i64);
        out.extend(self.correction_factor.iter().map(|&f| i64::from(f)));
        out.extend(self.intervals.v.iter().map(|&v| i64::from(v)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::idle::states::StateTable;
    use crate::idle::trace::Tick;

    #[test]
    fn a_repeating_interval_beats_a_distant_timer() {
        // Eight 300 µs intervals: the typical interval (300 µs) is below the corrected
        // timer (50 ms), so the deepest state with target residency ≤ 300 µs (C1E, 20 µs;
        // C6 needs 600 µs) is chosen and, the prediction being below the tick, the tick
        // is kept.
        let drv = StateTable::preset("intel-skx").unwrap().drv();
        let mut menu = MenuV6_12::new();
        menu.intervals = Intervals::new(300);
        let mut cpu = Cpu::new(drv, Tick::new(250).unwrap());
        cpu.sleep_length_ns = 50_000_000;
        cpu.delta_next_ns = 4_000_000;
        cpu.last_residency_ns = 300_000;
        let mut stop_tick = true;
        let want = (0..drv.count).rev().find(|&i| drv.tr_ns[i] <= 300_000).unwrap();
        assert_eq!(menu.select(&cpu, &mut stop_tick), want);
        assert_eq!(want, 2);
        assert!(!stop_tick);
        assert_eq!((menu.bucket, menu.next_timer_ns), (4, 50_000_000));
    }

    #[test]
    fn a_short_prediction_skips_the_sleep_length() {
        // Eight 10 µs intervals: 10 µs ≤ RESIDENCY_THRESHOLD_NS, so the timer is assumed
        // far (KTIME_MAX, bucket 5) and never queried; C1 (2 µs) is chosen, tick kept.
        let drv = StateTable::preset("intel-skx").unwrap().drv();
        let mut menu = MenuV6_12::new();
        menu.intervals = Intervals::new(10);
        let mut cpu = Cpu::new(drv, Tick::new(250).unwrap());
        cpu.sleep_length_ns = 50_000_000;
        cpu.delta_next_ns = 4_000_000;
        cpu.last_residency_ns = 10_000;
        let mut stop_tick = true;
        assert_eq!(menu.select(&cpu, &mut stop_tick), 1);
        assert!(!stop_tick);
        assert_eq!((menu.bucket, menu.next_timer_ns), (5, KTIME_MAX as u64));
    }
}
