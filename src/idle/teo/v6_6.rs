//! teo as in Linux 6.6.57 (`drivers/cpuidle/governors/teo.c`, docs/idle-governors.md §4.5):
//! between 6.1 and 6.12. From 6.1 it keeps the ring of the 9 most recent intercepts
//! (`recent`) and the alternative search when intercepts dominate overall or among the
//! recent events; from 6.12 it has the hits-only tick bin (`tick_hits`), the sleep length
//! queried only when the candidate needs it, and `teo_state_ok()`. Its utilization
//! awareness (`teo_cpu_is_utilized()`, util above 1/64 of the capacity) needs the CPU's
//! utilization, which an idle trace does not carry: the CPU is taken as not utilized,
//! as the kernel-oracle harness does.

use super::{
    bin_columns, decay, find_shallower_state_ns, keep_tick_or_stop, measured_ns, reflect_time_span, scan,
    write_bin_columns, Bin, PULSE,
};
use crate::idle::governor::{Cpu, Governor};
use crate::idle::menu::RESIDENCY_THRESHOLD_NS;
use crate::idle::states::{Drv, MAX_STATES};

const KTIME_MAX: i64 = i64::MAX;
/// `NR_RECENT`: how many recent events are remembered.
const NR_RECENT: usize = 9;

/// `struct teo_cpu` of 6.6 plus `dev->last_state_idx` (-1: nothing to learn from yet).
#[derive(Debug, Clone)]
pub struct TeoV6_6 {
    time_span_ns: i64,
    sleep_length_ns: i64,
    bins: [Bin; MAX_STATES],
    total: u32,
    next_recent_idx: usize,
    recent_idx: [i32; NR_RECENT],
    tick_hits: u32,
    last_state_idx: i32,
    n: usize,
}

impl TeoV6_6 {
    /// `teo_enable_device()` for a CPU with the states of `drv`: metrics zero, the recent
    /// ring empty (-1).
    pub fn new(drv: &Drv) -> Self {
        TeoV6_6 {
            time_span_ns: 0,
            sleep_length_ns: 0,
            bins: [Bin::default(); MAX_STATES],
            total: 0,
            next_recent_idx: 0,
            recent_idx: [-1; NR_RECENT],
            tick_hits: 0,
            last_state_idx: -1,
            n: drv.count,
        }
    }

    /// `teo_update()`: a hit if the measured idle duration fell in the sleep length's
    /// bin (or, past the deepest bin, a tick hit), else an intercept of the bin it fell
    /// in, also remembered as recent.
    fn update(&mut self, cpu: &Cpu) {
        let drv = &cpu.drv;
        let tick_nsec = cpu.tick.nsec;
        let measured_ns: u64 = if self.time_span_ns >= self.sleep_length_ns {
            u64::MAX
        } else {
            measured_ns(drv, self.last_state_idx, cpu.last_residency_ns)
        };

        self.total = 0;
        let (mut idx_timer, mut idx_duration) = (0usize, 0usize);
        let mut target_residency_ns = 0i64;
        for i in 0..drv.count {
            let bin = &mut self.bins[i];
            bin.hits = decay(bin.hits);
            bin.intercepts = decay(bin.intercepts);
            self.total = self.total.wrapping_add(bin.hits).wrapping_add(bin.intercepts);
            target_residency_ns = drv.tr_ns[i];
            if target_residency_ns <= self.sleep_length_ns {
                idx_timer = i;
                if target_residency_ns as u64 <= measured_ns {
                    idx_duration = i;
                }
            }
        }

        let slot = self.next_recent_idx;
        self.next_recent_idx += 1;
        if self.next_recent_idx >= NR_RECENT {
            self.next_recent_idx = 0;
        }
        let old = self.recent_idx[slot];
        if old >= 0 {
            if let Some(bin) = self.bins.get_mut(old as usize) {
                bin.recent = bin.recent.wrapping_sub(1);
            }
        }

        if target_residency_ns < tick_nsec {
            self.tick_hits = decay(self.tick_hits);
            self.total = self.total.wrapping_add(self.tick_hits);
            if tick_nsec <= self.sleep_length_ns {
                idx_timer = drv.count;
                if tick_nsec as u64 <= measured_ns {
                    // A tick hit leaves the ring slot as it was (already decremented).
                    self.tick_hits = self.tick_hits.wrapping_add(PULSE);
                    self.total = self.total.wrapping_add(PULSE);
                    return;
                }
            }
        }

        if idx_timer == idx_duration {
            if let Some(bin) = self.bins.get_mut(idx_timer) {
                bin.hits = bin.hits.wrapping_add(PULSE);
            }
            self.recent_idx[slot] = -1;
        } else {
            if let Some(bin) = self.bins.get_mut(idx_duration) {
                bin.intercepts = bin.intercepts.wrapping_add(PULSE);
                bin.recent = bin.recent.wrapping_add(1);
            }
            self.recent_idx[slot] = idx_duration as i32;
        }
        self.total = self.total.wrapping_add(PULSE);
    }
}

impl Governor for TeoV6_6 {
    fn select(&mut self, cpu: &Cpu, stop_tick: &mut bool) -> usize {
        let drv = &cpu.drv;
        let tick_nsec = cpu.tick.nsec;
        let latency_req = cpu.latency_req_ns();
        let mut delta_tick: i64 = tick_nsec / 2;
        // teo_state_ok(): a state is too shallow for a stopped tick below TICK_NSEC.
        let state_ok = |i: usize| !cpu.tick_stopped || drv.tr_ns[i] >= tick_nsec;

        if self.last_state_idx >= 0 {
            self.update(cpu);
            self.last_state_idx = -1;
        }
        self.time_span_ns = cpu.clock_ns as i64;
        // Infinity in case of an early return.
        self.sleep_length_ns = KTIME_MAX;

        if drv.count < 2 {
            *stop_tick = false;
            return 0;
        }

        let sc = scan(drv, &self.bins, latency_req);
        let (idx0, constraint_idx) = (sc.idx0, sc.constraint_idx);
        let (idx_intercept_sum, idx_hit_sum, idx_recent_sum) =
            (sc.idx_intercept_sum, sc.idx_hit_sum, sc.idx_recent_sum);
        let Some(mut idx) = sc.idx else {
            // No states enabled: must use 0.
            *stop_tick = false;
            return 0;
        };

        let mut duration_ns: i64;
        'end: {
            if idx == idx0 {
                // Only one state is enabled: use it, keeping the tick if it is shallow.
                duration_ns = drv.tr_ns[idx];
                break 'end;
            }

            let tick_intercept_sum = sc.intercept_sum.wrapping_add(self.bins[drv.count - 1].intercepts);

            // Intercepts dominate overall or among the recent events: look for the
            // deepest shallower state that had not been too deep in over half of them.
            let alt_intercepts = idx_intercept_sum.wrapping_mul(2) > self.total.wrapping_sub(idx_hit_sum);
            let alt_recent = idx_recent_sum > (NR_RECENT / 2) as u32;
            if alt_recent || alt_intercepts {
                let mut first_suitable_idx = idx;
                let (mut intercept_sum, mut recent_sum) = (0u32, 0u32);
                for i in (0..idx).rev() {
                    intercept_sum = intercept_sum.wrapping_add(self.bins[i].intercepts);
                    recent_sum = recent_sum.wrapping_add(self.bins[i].recent);
                    if (!alt_recent || recent_sum.wrapping_mul(2) > idx_recent_sum)
                        && (!alt_intercepts || intercept_sum.wrapping_mul(2) > idx_intercept_sum)
                    {
                        idx = if state_ok(i) && !drv.disabled[i] { i } else { first_suitable_idx };
                        break;
                    }
                    if drv.disabled[i] {
                        continue;
                    }
                    if !state_ok(i) {
                        // Too shallow, but a candidate found already may still do.
                        if first_suitable_idx != idx {
                            continue;
                        }
                        break;
                    }
                    first_suitable_idx = i;
                }
            }

            // A latency constraint may call for a shallower state.
            if idx > constraint_idx {
                idx = constraint_idx;
            }
            // State 0: an immediate non-timer wakeup is expected; no timer check.
            if idx == 0 {
                *stop_tick = false;
                return 0;
            }
            // A short candidate after a polling state 0: no timer check either.
            if drv.polling[0] && (drv.tr_ns[idx] as u64) < RESIDENCY_THRESHOLD_NS {
                *stop_tick = false;
                return idx;
            }

            delta_tick = cpu.delta_next_ns; // tick_nohz_get_sleep_length(&delta_tick)
            duration_ns = cpu.sleep_length_ns;
            self.sleep_length_ns = duration_ns;

            // The closest timer comes before the candidate's target residency: a
            // shallower state that fits, if it suits a stopped tick.
            if drv.tr_ns[idx] > duration_ns {
                let i = find_shallower_state_ns(drv, idx, duration_ns, false);
                if state_ok(i) {
                    idx = i;
                }
            }

            // A shallow state while intercepts before the tick dominate: keep the tick.
            if drv.tr_ns[idx] < tick_nsec && tick_intercept_sum > self.total / 2 + self.total / 8 {
                duration_ns = tick_nsec / 2;
            }
        }

        keep_tick_or_stop(cpu, idx, idx0, duration_ns, delta_tick, stop_tick)
    }

    fn reflect(&mut self, cpu: &mut Cpu, idx: usize) {
        self.last_state_idx = idx as i32;
        reflect_time_span(cpu, &mut self.time_span_ns, self.sleep_length_ns);
    }

    fn columns(&self, drv: &Drv) -> Vec<String> {
        let mut c = bin_columns(drv, true);
        c.push("tick_hits".to_string());
        c
    }

    fn write_columns(&self, out: &mut Vec<i64>) {
        write_bin_columns(self.sleep_length_ns, self.total, &self.bins, self.n, true, out);
        out.push(i64::from(self.tick_hits));
    }
}
