//! teo as in Linux 6.1.192 (`drivers/cpuidle/governors/teo.c`, kernel-sim.md §2.2): the
//! 2021 redesign with "hits" and "intercepts" per bin plus a ring of the 9 most recent
//! intercepts (`recent`); the candidate is the deepest state fitting the sleep length
//! (always queried), and an alternative is searched when intercepts dominate overall or
//! among the recent events, the middle of a bin standing for its duration.

use super::{decay, find_shallower_state_ns, PULSE};
use crate::idle::governor::{Cpu, Governor};
use crate::idle::states::{Drv, MAX_STATES};

/// `NR_RECENT`: how many recent events are remembered.
const NR_RECENT: usize = 9;

#[derive(Debug, Clone, Copy, Default)]
struct Bin {
    intercepts: u32,
    hits: u32,
    recent: u32,
}

/// `struct teo_cpu` of 6.1 plus `dev->last_state_idx` (-1: nothing to learn from yet).
#[derive(Debug, Clone)]
pub struct TeoV6_1 {
    time_span_ns: i64,
    sleep_length_ns: i64,
    bins: [Bin; MAX_STATES],
    total: u32,
    next_recent_idx: usize,
    recent_idx: [i32; NR_RECENT],
    last_state_idx: i32,
    n: usize,
}

impl TeoV6_1 {
    /// `teo_enable_device()` for a CPU with the states of `drv`: metrics zero, the recent
    /// ring empty (-1).
    pub fn new(drv: &Drv) -> Self {
        TeoV6_1 {
            time_span_ns: 0,
            sleep_length_ns: 0,
            bins: [Bin::default(); MAX_STATES],
            total: 0,
            next_recent_idx: 0,
            recent_idx: [-1; NR_RECENT],
            last_state_idx: -1,
            n: drv.count,
        }
    }

    /// `teo_update()`: a hit if the measured idle duration fell in the sleep length's
    /// bin, else an intercept of the bin it fell in (also remembered as recent).
    fn update(&mut self, cpu: &Cpu) {
        let drv = &cpu.drv;
        let measured_ns: u64 = if self.time_span_ns >= self.sleep_length_ns {
            u64::MAX
        } else {
            let last = (self.last_state_idx.max(0) as usize).min(drv.count - 1);
            let lat_ns = drv.el_ns[last] as u64;
            let m = cpu.last_residency_ns as u64;
            if m >= lat_ns {
                m - lat_ns / 2
            } else {
                m / 2
            }
        };

        self.total = 0;
        let (mut idx_timer, mut idx_duration) = (0usize, 0usize);
        for i in 0..drv.count {
            let bin = &mut self.bins[i];
            bin.hits = decay(bin.hits);
            bin.intercepts = decay(bin.intercepts);
            self.total = self.total.wrapping_add(bin.hits).wrapping_add(bin.intercepts);
            let tr = drv.tr_ns[i];
            if tr <= self.sleep_length_ns {
                idx_timer = i;
                if tr as u64 <= measured_ns {
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

        if idx_timer == idx_duration {
            self.bins[idx_timer].hits = self.bins[idx_timer].hits.wrapping_add(PULSE);
            self.recent_idx[slot] = -1;
        } else {
            let bin = &mut self.bins[idx_duration];
            bin.intercepts = bin.intercepts.wrapping_add(PULSE);
            bin.recent = bin.recent.wrapping_add(1);
            self.recent_idx[slot] = idx_duration as i32;
        }
        self.total = self.total.wrapping_add(PULSE);
    }
}

impl Governor for TeoV6_1 {
    fn select(&mut self, cpu: &mut Cpu, stop_tick: &mut bool) -> usize {
        let drv = cpu.drv;
        let tick_nsec = cpu.tick.nsec;
        let latency_req = cpu.latency_req_ns();
        // teo_time_ok(): a duration is too short for a stopped tick below TICK_NSEC.
        let time_ok = |interval_ns: i64| !cpu.tick_stopped || interval_ns >= tick_nsec;

        if self.last_state_idx >= 0 {
            self.update(cpu);
            self.last_state_idx = -1;
        }
        self.time_span_ns = cpu.clock_ns as i64;
        let mut duration_ns = cpu.sleep_length_ns;
        let delta_tick = cpu.delta_next_ns;
        self.sleep_length_ns = duration_ns;

        let mut idx: Option<usize> = None;
        let mut idx0 = 0usize;
        'end: {
            if drv.count < 2 {
                idx = Some(0);
                break 'end;
            }
            if !drv.disabled[0] {
                idx = Some(0);
                if drv.tr_ns[1] > duration_ns {
                    break 'end;
                }
            }

            // The deepest state fitting the sleep length, the deepest within the latency
            // limit, and the sums of metrics of the bins below the candidate.
            let mut constraint_idx = 0usize;
            let (mut intercept_sum, mut hit_sum, mut recent_sum) = (0u32, 0u32, 0u32);
            let (mut idx_intercept_sum, mut idx_hit_sum, mut idx_recent_sum) = (0u32, 0u32, 0u32);
            for i in 1..drv.count {
                let prev = self.bins[i - 1];
                intercept_sum = intercept_sum.wrapping_add(prev.intercepts);
                hit_sum = hit_sum.wrapping_add(prev.hits);
                recent_sum = recent_sum.wrapping_add(prev.recent);
                if drv.disabled[i] {
                    continue;
                }
                if idx.is_none() {
                    idx = Some(i); // first enabled state
                    idx0 = i;
                }
                if drv.tr_ns[i] > duration_ns {
                    break;
                }
                idx = Some(i);
                if drv.el_ns[i] <= latency_req {
                    constraint_idx = i;
                }
                idx_intercept_sum = intercept_sum;
                idx_hit_sum = hit_sum;
                idx_recent_sum = recent_sum;
            }

            let Some(mut cand) = idx else {
                idx = Some(0); // no states enabled: must use 0
                break 'end;
            };
            if cand == idx0 {
                break 'end;
            }

            // Early wakeups dominate overall, or among the recent events: look for the
            // deepest shallower state matching the majority of them.
            let alt_intercepts = idx_intercept_sum.wrapping_mul(2) > self.total.wrapping_sub(idx_hit_sum);
            let alt_recent = idx_recent_sum > (NR_RECENT / 2) as u32;
            if alt_recent || alt_intercepts {
                let mut first_suitable_span_ns = duration_ns;
                let mut first_suitable_idx = cand;
                intercept_sum = 0;
                recent_sum = 0;
                for i in (0..cand).rev() {
                    let bin = self.bins[i];
                    intercept_sum = intercept_sum.wrapping_add(bin.intercepts);
                    recent_sum = recent_sum.wrapping_add(bin.recent);
                    // teo_middle_of_bin()
                    let span_ns = (drv.tr_ns[i] + drv.tr_ns[i + 1]) / 2;
                    if (!alt_recent || recent_sum.wrapping_mul(2) > idx_recent_sum)
                        && (!alt_intercepts || intercept_sum.wrapping_mul(2) > idx_intercept_sum)
                    {
                        if time_ok(span_ns) && !drv.disabled[i] {
                            cand = i;
                            duration_ns = span_ns;
                        } else {
                            // Too shallow or disabled: the first enabled deeper state
                            // with a suitable span.
                            cand = first_suitable_idx;
                            duration_ns = first_suitable_span_ns;
                        }
                        break;
                    }
                    if drv.disabled[i] {
                        continue;
                    }
                    if !time_ok(span_ns) {
                        if first_suitable_idx != cand {
                            continue;
                        }
                        break;
                    }
                    first_suitable_span_ns = span_ns;
                    first_suitable_idx = i;
                }
            }

            // A latency constraint may call for a shallower state.
            if cand > constraint_idx {
                cand = constraint_idx;
            }
            idx = Some(cand);
        }
        let mut idx = idx.unwrap_or(0);

        // Keep the tick for a polling state or an expected idle duration below the tick.
        if (drv.polling[idx] || duration_ns < tick_nsec) && !cpu.tick_stopped {
            *stop_tick = false;
            if idx > idx0 && drv.tr_ns[idx] > delta_tick {
                idx = find_shallower_state_ns(&drv, idx, delta_tick, false);
            }
        }
        idx
    }

    fn reflect(&mut self, cpu: &mut Cpu, idx: usize) {
        self.last_state_idx = idx as i32;
        if cpu.poll_time_limit || (cpu.take_got_tick() && self.sleep_length_ns > cpu.tick.nsec) {
            cpu.poll_time_limit = false;
            self.time_span_ns = self.sleep_length_ns;
        } else {
            self.time_span_ns = (cpu.clock_ns as i64).wrapping_sub(self.time_span_ns);
        }
    }

    fn columns(&self, drv: &Drv) -> Vec<String> {
        let mut c = vec!["teo_sleep_length_ns".to_string(), "total".to_string()];
        for i in 0..drv.count {
            c.push(format!("hits{i}"));
            c.push(format!("intercepts{i}"));
        }
        c.extend((0..drv.count).map(|i| format!("recent{i}")));
        c
    }

    fn write_columns(&self, out: &mut Vec<i64>) {
        out.push(self.sleep_length_ns);
        out.push(i64::from(self.total));
        for b in self.bins.iter().take(self.n) {
            out.push(i64::from(b.hits));
            out.push(i64::from(b.intercepts));
        }
        out.extend(self.bins.iter().take(self.n).map(|b| i64::from(b.recent)));
    }
}
