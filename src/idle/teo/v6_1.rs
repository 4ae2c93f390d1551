//! teo as in Linux 6.1.192 (`drivers/cpuidle/governors/teo.c`, docs/idle-governors.md §4.3): the
//! 2021 redesign with "hits" and "intercepts" per bin plus a ring of the 9 most recent
//! intercepts (`recent`); the candidate is the deepest state fitting the sleep length
//! (always queried), and an alternative is searched when intercepts dominate overall or
//! among the recent events, the middle of a bin standing for its duration.

use super::{
    bin_columns, decay, find_shallower_state_ns, measured_ns, reflect_time_span, write_bin_columns, Bin, PULSE,
};
use crate::idle::governor::{Cpu, Governor};
use crate::idle::states::{Drv, MAX_STATES};

/// `NR_RECENT`: how many recent events are remembered.
const NR_RECENT: usize = 9;

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
            measured_ns(drv, self.last_state_idx, cpu.last_residency_ns)
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
    fn select(&mut self, cpu: &Cpu, stop_tick: &mut bool) -> usize {
        let drv = &cpu.drv;
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
                idx = find_shallower_state_ns(drv, idx, delta_tick, false);
            }
        }
        idx
    }

    fn reflect(&mut self, cpu: &mut Cpu, idx: usize) {
        self.last_state_idx = idx as i32;
        reflect_time_span(cpu, &mut self.time_span_ns, self.sleep_length_ns);
    }

    fn columns(&self, drv: &Drv) -> Vec<String> {
        bin_columns(drv, true)
    }

    fn write_columns(&self, out: &mut Vec<i64>) {
        write_bin_columns(self.sleep_length_ns, self.total, &self.bins, self.n, true, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::idle::states::StateTable;
    use crate::idle::trace::Tick;

    /// docs/idle-governors.md §4.3 select steps 3–6 for an all-enabled table, a running tick and
    /// no latency limit: the candidate is the deepest state fitting the sleep length; an
    /// alternative is searched when intercepts below it dominate (`2·Σint > total − Σhit`)
    /// or recent intercepts below it are more than `NR_RECENT/2`; walking down, the first
    /// `i` where every active condition holds (`2·Σrecent[i..] > Σrecent`,
    /// `2·Σint[i..] > Σint`) wins, with the middle of bin `i` as the expected duration.
    fn spec_choice(drv: &Drv, bins: &[(u32, u32, u32)], total: u32, sleep_ns: i64) -> (usize, i64) {
        let cand = (0..drv.count).rev().find(|&i| drv.tr_ns[i] <= sleep_ns).unwrap_or(0);
        let int_below: u32 = bins[..cand].iter().map(|b| b.0).sum();
        let hit_below: u32 = bins[..cand].iter().map(|b| b.1).sum();
        let rec_below: u32 = bins[..cand].iter().map(|b| b.2).sum();
        let alt_int = 2 * int_below > total - hit_below;
        let alt_rec = rec_below > 4;
        if alt_int || alt_rec {
            for i in (0..cand).rev() {
                let int_i: u32 = bins[i..cand].iter().map(|b| b.0).sum();
                let rec_i: u32 = bins[i..cand].iter().map(|b| b.2).sum();
                if (!alt_rec || 2 * rec_i > rec_below) && (!alt_int || 2 * int_i > int_below) {
                    return (i, (drv.tr_ns[i] + drv.tr_ns[i + 1]) / 2);
                }
            }
        }
        (cand, sleep_ns)
    }

    #[test]
    fn recent_intercepts_alone_can_pick_a_shallower_bin() {
        let drv = StateTable::preset("intel-skx").unwrap().drv(); // tr 0, 2, 20, 600 µs
        let tick = Tick::new(250).unwrap();
        // (intercepts, hits, recent) per bin
        let cases: [[(u32, u32, u32); 4]; 4] = [
            [(0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 4000, 0)],      // hits only: C6
            [(0, 0, 0), (300, 0, 5), (0, 0, 0), (0, 4000, 0)],    // 5 recent in bin 1: C1
            [(0, 0, 0), (300, 0, 2), (200, 0, 3), (0, 4000, 0)],  // recent split 2/3: C1E
            [(3000, 0, 0), (500, 0, 0), (0, 0, 0), (0, 1000, 0)], // old intercepts in bin 0: POLL
        ];
        for bins in cases {
            let mut teo = TeoV6_1::new(&drv);
            for (i, &(c, h, r)) in bins.iter().enumerate() {
                teo.bins[i] = Bin { intercepts: c, hits: h, recent: r };
            }
            teo.total = bins.iter().map(|b| b.0 + b.1).sum();
            let mut cpu = Cpu::new(drv, tick);
            cpu.sleep_length_ns = 50_000_000;
            cpu.delta_next_ns = 4_000_000;
            let mut stop_tick = true;
            let got = teo.select(&cpu, &mut stop_tick);
            let (want, duration) = spec_choice(&drv, &bins, teo.total, cpu.sleep_length_ns);
            assert_eq!(got, want, "{bins:?}");
            // the tick is kept for a polling state or a duration below the tick period
            assert_eq!(stop_tick, !(drv.polling[want] || duration < tick.nsec), "{bins:?}");
        }
    }

    #[test]
    fn the_recent_ring_forgets_after_nine_events() {
        let drv = StateTable::preset("intel-skx").unwrap().drv();
        let mut teo = TeoV6_1::new(&drv);
        let mut cpu = Cpu::new(drv, Tick::new(250).unwrap());
        // an intercept of bin 2: sleep length 50 ms, measured 30 µs (+ 5 µs half exit latency of C1E)
        for _ in 0..NR_RECENT {
            teo.last_state_idx = 2;
            teo.sleep_length_ns = 50_000_000;
            teo.time_span_ns = 35_000;
            cpu.last_residency_ns = 35_000;
            teo.update(&cpu);
        }
        assert_eq!(teo.bins[2].recent, NR_RECENT as u32);
        // a hit (timer wakeup) replaces the oldest recent intercept
        teo.time_span_ns = 50_000_000;
        teo.update(&cpu);
        assert_eq!(teo.bins[2].recent, NR_RECENT as u32 - 1);
        assert_eq!(teo.bins[3].hits, PULSE);
    }
}
