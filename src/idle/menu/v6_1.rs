//! menu as in Linux 6.1.192 and 6.6.57 (`drivers/cpuidle/governors/menu.c`,
//! docs/idle-governors.md §3.2–3.5, §3.9): ns units, 12 buckets (6 more when tasks are in
//! iowait), the performance multiplier `1 + 10·nr_iowait` applied to the latency limit
//! while the tick runs. 6.1 always queries the sleep length and has the `min >= predicted`
//! early exit of the pattern detector; like the 6.12 stable tree it pushes `UINT_MAX`
//! into the ring after a failed (zero-length) entry. 6.6 computes the typical interval
//! first (`!max` early exit) and queries the sleep length only when it exceeds 15 µs,
//! as 6.12 does, but keeps the rest of 6.1 and has no `UINT_MAX` push.

use super::{
    typical_interval, update_ns, which_bucket_ns, EarlyExit, Intervals, INT_MAX_U32, RESIDENCY_THRESHOLD_NS, UNITY,
};
use crate::idle::governor::{Cpu, Governor};
use crate::idle::states::Drv;

const BUCKETS: usize = 12;

/// `struct menu_device` of 6.1/6.6 plus `dev->last_state_idx`.
#[derive(Debug, Clone)]
pub struct MenuV6_1 {
    /// 6.6's order: the typical interval first, the sleep length only when needed.
    typical_first: bool,
    needs_update: bool,
    tick_wakeup: bool,
    next_timer_ns: u64,
    bucket: usize,
    correction_factor: [u32; BUCKETS],
    intervals: Intervals,
    last_state_idx: usize,
}

impl Default for MenuV6_1 {
    fn default() -> Self {
        Self::new()
    }
}

impl MenuV6_1 {
    /// `menu_enable_device()` of 6.1: every correction factor at unity, the ring zeroed.
    pub fn new() -> Self {
        Self::with_order(false)
    }

    /// The same for 6.6.
    pub fn v6_6() -> Self {
        Self::with_order(true)
    }

    fn with_order(typical_first: bool) -> Self {
        MenuV6_1 {
            typical_first,
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

impl Governor for MenuV6_1 {
    fn select(&mut self, cpu: &Cpu, stop_tick: &mut bool) -> usize {
        let drv = &cpu.drv;
        let tick_nsec = cpu.tick.nsec;
        let mut latency_req = cpu.latency_req_ns();

        if self.needs_update {
            self.update(cpu);
            self.needs_update = false;
        } else if cpu.last_residency_ns == 0 && !self.typical_first {
            self.intervals.push(u32::MAX);
        }
        let nr_iowaiters = cpu.nr_iowait;
        let iowait_offset = if nr_iowaiters > 0 { BUCKETS / 2 } else { 0 };
        let unit = u64::from(UNITY) * 1000;

        let mut predicted_ns: u64;
        let delta_tick: i64;
        let typical_first =
            self.typical_first.then(|| typical_interval(&self.intervals.v, INT_MAX_U32, EarlyExit::MaxZero));
        if typical_first.is_some_and(|t| u64::from(t) * 1000 <= RESIDENCY_THRESHOLD_NS) {
            // 6.6: a short typical interval; the next timer is assumed far away and the
            // tick half a period away.
            predicted_ns = typical_first.map_or(0, |t| u64::from(t) * 1000);
            self.next_timer_ns = i64::MAX as u64;
            delta_tick = tick_nsec / 2;
            self.bucket = which_bucket_ns(self.next_timer_ns, iowait_offset);
        } else {
            let (mut delta, mut dt) = (cpu.sleep_length_ns, cpu.delta_next_ns);
            if delta < 0 {
                delta = 0;
                dt = 0;
            }
            delta_tick = dt;
            self.next_timer_ns = delta as u64;
            self.bucket = which_bucket_ns(self.next_timer_ns, iowait_offset);
            // Round up the result for half microseconds.
            let cf = u64::from(self.correction_factor[self.bucket]);
            let timer_us = ((unit / 2).wrapping_add(self.next_timer_ns.wrapping_mul(cf)) / unit) as u32;
            // Use the lowest expected idle interval to pick the idle state.
            predicted_ns = match typical_first {
                Some(t) => (u64::from(timer_us) * 1000).min(u64::from(t) * 1000),
                None => {
                    let t = typical_interval(&self.intervals.v, INT_MAX_U32, EarlyExit::MinAtLeast(timer_us));
                    u64::from(timer_us.min(t)) * 1000
                }
            };
        }

        if drv.count <= 1
            || latency_req == 0
            || ((self.next_timer_ns < drv.tr_ns[1] as u64 || latency_req < drv.el_ns[1]) && !drv.disabled[0])
        {
            *stop_tick = !drv.polling[0];
            return 0;
        }

        if cpu.tick_stopped {
            if predicted_ns < tick_nsec as u64 {
                predicted_ns = self.next_timer_ns;
            }
        } else {
            // performance_multiplier(): 1 + 10 per task in iowait
            let mult = 1 + 10 * u64::from(nr_iowaiters);
            let interactivity_req = predicted_ns / mult;
            if latency_req as u64 > interactivity_req {
                latency_req = interactivity_req as i64;
            }
        }

        let mut idx: Option<usize> = None;
        for i in 0..drv.count {
            if drv.disabled[i] {
                continue;
            }
            let cur = *idx.get_or_insert(i);
            if drv.tr_ns[i] as u64 > predicted_ns {
                // Use a physical idle state, not busy polling, unless a timer is going
                // to trigger soon enough.
                if drv.polling[cur] && drv.el_ns[i] <= latency_req && drv.tr_ns[i] as u64 <= self.next_timer_ns {
                    predicted_ns = drv.tr_ns[i] as u64;
                    idx = Some(i);
                    break;
                }
                if predicted_ns < tick_nsec as u64 {
                    break;
                }
                if !cpu.tick_stopped {
                    predicted_ns = drv.tr_ns[cur] as u64;
                    break;
                }
                if drv.tr_ns[cur] < tick_nsec && drv.tr_ns[i] <= delta_tick {
                    return i;
                }
                return cur;
            }
            if drv.el_ns[i] > latency_req {
                break;
            }
            idx = Some(i);
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
