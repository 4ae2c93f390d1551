//! teo as in Linux 6.18.35 (`drivers/cpuidle/governors/teo.c`, docs/idle-governors.md §4.5):
//! the 6.12 bins without the tick-hits bin; instead `tick_intercepts` (intercepts whose
//! measured duration reached the tick) and `short_idles` (periods shorter than 15 µs,
//! exit latency discounted), `total` an EWMA of its own, a safety-net wakeup remembered as
//! a flag (`artificial_wakeup`) rather than a time span, and the sleep length skipped when
//! a shallow candidate meets frequent short idles or a tight latency limit.

use super::{
    bin_columns, decay, find_shallower_state_ns, keep_tick_or_stop, measured_ns, scan, write_bin_columns, Bin, PULSE,
};
use crate::idle::governor::{Cpu, Governor};
use crate::idle::menu::RESIDENCY_THRESHOLD_NS;
use crate::idle::states::{Drv, MAX_STATES};

const KTIME_MAX: i64 = i64::MAX;
/// `LATENCY_THRESHOLD_NS` = `RESIDENCY_THRESHOLD_NS / 2`.
const LATENCY_THRESHOLD_NS: i64 = RESIDENCY_THRESHOLD_NS as i64 / 2;

/// `struct teo_cpu` of 6.18 plus `dev->last_state_idx` (-1: nothing to learn from yet).
#[derive(Debug, Clone)]
pub struct TeoV6_18 {
    sleep_length_ns: i64,
    bins: [Bin; MAX_STATES],
    total: u32,
    tick_intercepts: u32,
    short_idles: u32,
    artificial_wakeup: bool,
    last_state_idx: i32,
    /// Number of states of the table (bins printed).
    n: usize,
}

impl TeoV6_18 {
    /// `teo_enable_device()` for a CPU with the states of `drv`: all metrics zero.
    pub fn new(drv: &Drv) -> Self {
        TeoV6_18 {
            sleep_length_ns: 0,
            bins: [Bin::default(); MAX_STATES],
            total: 0,
            tick_intercepts: 0,
            short_idles: 0,
            artificial_wakeup: false,
            last_state_idx: -1,
            n: drv.count,
        }
    }

    /// `teo_update()`: classify the period that ended as a hit or an intercept, and
    /// count short idle periods and tick-long intercepts.
    fn update(&mut self, cpu: &Cpu) {
        let drv = &cpu.drv;
        let tick_nsec = cpu.tick.nsec;
        self.short_idles = decay(self.short_idles);
        let measured_ns: u64 = if self.artificial_wakeup {
            // A safety net ended the period: as if the CPU idled for the sleep length.
            u64::MAX
        } else {
            // Take half of the exit latency as its average; a residency below the exit
            // latency counts as short too.
            let m = measured_ns(drv, self.last_state_idx, cpu.last_residency_ns);
            let last = (self.last_state_idx.max(0) as usize).min(drv.count - 1);
            if m < RESIDENCY_THRESHOLD_NS || (cpu.last_residency_ns as u64) < drv.el_ns[last] as u64 {
                self.short_idles = self.short_idles.wrapping_add(PULSE);
            }
            m
        };

        let (mut idx_timer, mut idx_duration) = (0usize, 0usize);
        for i in 0..drv.count {
            let bin = &mut self.bins[i];
            bin.hits = decay(bin.hits);
            bin.intercepts = decay(bin.intercepts);
            let target_residency_ns = drv.tr_ns[i];
            if target_residency_ns <= self.sleep_length_ns {
                idx_timer = i;
                if target_residency_ns as u64 <= measured_ns {
                    idx_duration = i;
                }
            }
        }

        self.tick_intercepts = decay(self.tick_intercepts);
        if idx_timer == idx_duration {
            if let Some(bin) = self.bins.get_mut(idx_timer) {
                bin.hits = bin.hits.wrapping_add(PULSE);
            }
        } else {
            if let Some(bin) = self.bins.get_mut(idx_duration) {
                bin.intercepts = bin.intercepts.wrapping_add(PULSE);
            }
            if tick_nsec as u64 <= measured_ns {
                self.tick_intercepts = self.tick_intercepts.wrapping_add(PULSE);
            }
        }
        self.total = decay(self.total).wrapping_add(PULSE);
    }
}

impl Governor for TeoV6_18 {
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
        // Infinity in case of an early return.
        self.sleep_length_ns = KTIME_MAX;

        if drv.count < 2 {
            *stop_tick = false;
            return 0;
        }

        let sc = scan(drv, &self.bins, latency_req);
        let (idx0, constraint_idx, idx_intercept_sum, idx_hit_sum) =
            (sc.idx0, sc.constraint_idx, sc.idx_intercept_sum, sc.idx_hit_sum);
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

            // Intercepts in the shallower bins outweigh everything at or past the
            // candidate: look for the deepest state that had not been too deep in over
            // half of the relevant cases.
            if idx_intercept_sum.wrapping_mul(2) > self.total.wrapping_sub(idx_hit_sum) {
                let mut first_suitable_idx = idx;
                let mut intercept_sum = 0u32;
                for i in (0..idx).rev() {
                    intercept_sum = intercept_sum.wrapping_add(self.bins[i].intercepts);
                    if intercept_sum.wrapping_mul(2) > idx_intercept_sum {
                        // Use this state unless it is too shallow or disabled; then the
                        // deepest suitable one seen.
                        idx = if state_ok(i) && !drv.disabled[i] { i } else { first_suitable_idx };
                        break;
                    }
                    if drv.disabled[i] {
                        continue;
                    }
                    if state_ok(i) {
                        first_suitable_idx = i;
                        continue;
                    }
                    // Too shallow for a stopped tick: stop unless a suitable one was seen.
                    if first_suitable_idx == idx {
                        break;
                    }
                }
            }

            // A latency constraint may call for a shallower state.
            if idx > constraint_idx {
                idx = constraint_idx;
            }
            // A shallow candidate with frequent short idles or a tight latency limit:
            // keep the tick and skip the sleep length.
            if (idx == 0 || drv.tr_ns[idx] < RESIDENCY_THRESHOLD_NS as i64)
                && (self.short_idles.wrapping_mul(2) >= self.total || latency_req < LATENCY_THRESHOLD_NS)
            {
                *stop_tick = false;
                return idx;
            }

            delta_tick = cpu.delta_next_ns; // tick_nohz_get_sleep_length(&delta_tick)
            duration_ns = cpu.sleep_length_ns;
            self.sleep_length_ns = duration_ns;

            if idx == 0 {
                *stop_tick = false;
                return 0;
            }
            // The closest timer comes before the candidate's target residency: find a
            // shallower state that fits (polling allowed).
            if drv.tr_ns[idx] > duration_ns {
                idx = find_shallower_state_ns(drv, idx, duration_ns, false);
            }
            // A shallow state while tick-long intercepts dominate: keep the tick.
            if drv.tr_ns[idx] < tick_nsec && self.tick_intercepts > self.total / 2 + self.total / 8 {
                duration_ns = tick_nsec / 2;
            }
        }

        keep_tick_or_stop(cpu, idx, idx0, duration_ns, delta_tick, stop_tick)
    }

    fn reflect(&mut self, cpu: &mut Cpu, idx: usize) {
        self.last_state_idx = idx as i32;
        // A wakeup by a safety net (poll time limit, or the tick on a long sleep length).
        if cpu.poll_time_limit || (cpu.take_got_tick() && self.sleep_length_ns > cpu.tick.nsec) {
            cpu.poll_time_limit = false;
            self.artificial_wakeup = true;
        } else {
            self.artificial_wakeup = false;
        }
    }

    fn columns(&self, drv: &Drv) -> Vec<String> {
        let mut c = bin_columns(drv, false);
        c.push("tick_intercepts".to_string());
        c.push("short_idles".to_string());
        c
    }

    fn write_columns(&self, out: &mut Vec<i64>) {
        write_bin_columns(self.sleep_length_ns, self.total, &self.bins, self.n, false, out);
        out.push(i64::from(self.tick_intercepts));
        out.push(i64::from(self.short_idles));
    }
}
