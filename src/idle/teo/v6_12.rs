//! teo as in Linux 6.12.117 (`drivers/cpuidle/governors/teo.c`, docs/idle-governors.md §4.4):
//! "hits" and "intercepts" per bin (bin i spans the target residencies of states i and
//! i+1), an extra hits-only tick bin when the deepest state's target residency is below
//! the tick period (`tick_hits`), no `recent` ring and no utilization awareness; the
//! sleep length is queried only when the candidate state needs it.

use super::{
    bin_columns, decay, find_shallower_state_ns, keep_tick_or_stop, measured_ns, reflect_time_span, scan,
    write_bin_columns, Bin, PULSE,
};
use crate::idle::governor::{Cpu, Governor};
use crate::idle::menu::RESIDENCY_THRESHOLD_NS;
use crate::idle::states::{Drv, MAX_STATES};

const KTIME_MAX: i64 = i64::MAX;

/// `struct teo_cpu` of 6.12 plus `dev->last_state_idx` (-1: nothing to learn from yet).
#[derive(Debug, Clone)]
pub struct TeoV6_12 {
    time_span_ns: i64,
    sleep_length_ns: i64,
    bins: [Bin; MAX_STATES],
    total: u32,
    tick_hits: u32,
    last_state_idx: i32,
    /// Number of states of the table (bins printed).
    n: usize,
}

impl TeoV6_12 {
    /// `teo_enable_device()` for a CPU with the states of `drv`: all metrics zero.
    pub fn new(drv: &Drv) -> Self {
        TeoV6_12 {
            time_span_ns: 0,
            sleep_length_ns: 0,
            bins: [Bin::default(); MAX_STATES],
            total: 0,
            tick_hits: 0,
            last_state_idx: -1,
            n: drv.count,
        }
    }

    /// `teo_update()`: classify the period that ended as a hit (the measured idle
    /// duration fell in the sleep length's bin) or an intercept (an earlier bin).
    fn update(&mut self, cpu: &Cpu) {
        let drv = &cpu.drv;
        let tick_nsec = cpu.tick.nsec;
        let measured_ns: u64 = if self.time_span_ns >= self.sleep_length_ns {
            // A safety net triggered, or the wakeup was the timer: no idle duration.
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

        // The deepest state's residency is below the tick: count tick-long idle periods
        // in a hits-only bin past the last one.
        if target_residency_ns < tick_nsec {
            self.tick_hits = decay(self.tick_hits);
            self.total = self.total.wrapping_add(self.tick_hits);
            if tick_nsec <= self.sleep_length_ns {
                idx_timer = drv.count;
                if tick_nsec as u64 <= measured_ns {
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
        } else if let Some(bin) = self.bins.get_mut(idx_duration) {
            bin.intercepts = bin.intercepts.wrapping_add(PULSE);
        }
        self.total = self.total.wrapping_add(PULSE);
    }

    /// `tick_nohz_get_sleep_length(&delta_tick)`, remembered for the next update.
    #[inline]
    fn query_sleep_length(&mut self, cpu: &Cpu, delta_tick: &mut i64) -> i64 {
        *delta_tick = cpu.delta_next_ns;
        self.sleep_length_ns = cpu.sleep_length_ns;
        cpu.sleep_length_ns
    }
}

impl Governor for TeoV6_12 {
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
        let (idx0, constraint_idx, idx_intercept_sum, idx_hit_sum) =
            (sc.idx0, sc.constraint_idx, sc.idx_intercept_sum, sc.idx_hit_sum);
        let mut intercept_sum = sc.intercept_sum;
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

            let tick_intercept_sum = intercept_sum.wrapping_add(self.bins[drv.count - 1].intercepts);

            // Intercepts in the shallower bins outweigh everything at or past the
            // candidate: look for the deepest state that had not been too deep in over
            // half of the relevant cases.
            let prev_intercept_idx = idx;
            if idx_intercept_sum.wrapping_mul(2) > self.total.wrapping_sub(idx_hit_sum) {
                let mut first_suitable_idx = idx;
                intercept_sum = 0;
                for i in (0..idx).rev() {
                    intercept_sum = intercept_sum.wrapping_add(self.bins[i].intercepts);
                    if intercept_sum.wrapping_mul(2) > idx_intercept_sum {
                        // Use this state unless it is too shallow or disabled; then the
                        // first enabled state deep enough.
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
            if idx == 0 && prev_intercept_idx != 0 {
                // Query the sleep length anyway, or the next update cannot tell whether
                // this guess was right.
                self.query_sleep_length(cpu, &mut delta_tick);
                *stop_tick = false;
                return 0;
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

            duration_ns = self.query_sleep_length(cpu, &mut delta_tick);

            // The closest timer comes before the candidate's target residency: find a
            // shallower state that fits (polling allowed). 6.12.117 does not check
            // teo_state_ok() here (later kernels do), so a stopped tick may still get a
            // state below TICK_NSEC.
            if drv.tr_ns[idx] > duration_ns {
                idx = find_shallower_state_ns(drv, idx, duration_ns, false);
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
        let mut c = bin_columns(drv, false);
        c.push("tick_hits".to_string());
        c
    }

    fn write_columns(&self, out: &mut Vec<i64>) {
        write_bin_columns(self.sleep_length_ns, self.total, &self.bins, self.n, false, out);
        out.push(i64::from(self.tick_hits));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::idle::states::StateTable;
    use crate::idle::trace::Tick;

    /// The bin-selection rule of docs/idle-governors.md §4.4 select steps 3–6, written from the text for
    /// a table with every state enabled and no tick stopped: the candidate is the deepest
    /// state; if twice the intercepts below it exceed `total` minus the hits below it,
    /// take the deepest shallower state `i` whose intercepts from `i` up to the candidate
    /// are more than half of all intercepts below the candidate.
    fn spec_choice(intercepts: &[u32], hits: &[u32], total: u32) -> usize {
        let cand = intercepts.len() - 1;
        let below_int: u32 = intercepts[..cand].iter().sum();
        let below_hit: u32 = hits[..cand].iter().sum();
        if 2 * below_int > total - below_hit {
            for i in (0..cand).rev() {
                let from_i: u32 = intercepts[i..cand].iter().sum();
                if 2 * from_i > below_int {
                    return i;
                }
            }
        }
        cand
    }

    fn teo_with(intercepts: &[u32], hits: &[u32], drv: &Drv) -> TeoV6_12 {
        let mut t = TeoV6_12::new(drv);
        for (i, (&c, &h)) in intercepts.iter().zip(hits).enumerate() {
            t.bins[i] = Bin { intercepts: c, hits: h, recent: 0 };
        }
        t.total = intercepts.iter().sum::<u32>() + hits.iter().sum::<u32>();
        t
    }

    #[test]
    fn intercepts_pull_the_choice_to_a_shallower_bin() {
        // Arm table WFI 1/1, CPU_SLEEP 370/900, CLUSTER_SLEEP 900/2000 µs: no polling state,
        // so the chosen state is returned after the sleep-length check.
        let drv = StateTable::preset("arm-rk3399").unwrap().drv();
        let tick = Tick::new(250).unwrap();
        let cases: [(&[u32], &[u32]); 5] = [
            (&[0, 0, 0], &[0, 0, 4000]),       // only hits: the deepest state
            (&[3000, 0, 0], &[0, 0, 2000]),    // WFI intercepts dominate: WFI
            (&[1000, 2500, 0], &[0, 0, 2000]), // most intercepts in bin 1: CPU_SLEEP
            (&[2500, 1000, 0], &[0, 0, 2000]), // most in bin 0: going down to WFI
            (&[800, 700, 0], &[0, 0, 3000]),   // intercepts are a minority: deepest
        ];
        for (intercepts, hits) in cases {
            let mut teo = teo_with(intercepts, hits, &drv);
            let mut cpu = Cpu::new(drv, tick);
            cpu.sleep_length_ns = 50_000_000;
            cpu.delta_next_ns = 4_000_000;
            let mut stop_tick = true;
            let got = teo.select(&cpu, &mut stop_tick);
            let want = spec_choice(intercepts, hits, teo.total);
            assert_eq!(got, want, "intercepts {intercepts:?} hits {hits:?}");
            if want == 0 {
                // state 0 is returned with the tick kept, the sleep length still queried
                // because the candidate was deeper
                assert!(!stop_tick);
                assert_eq!(teo.sleep_length_ns, 50_000_000);
            }
        }
    }

    #[test]
    fn short_candidates_skip_the_sleep_length_and_keep_the_tick() {
        // x86 table: POLL 0/0, C1 2/2, C1E 10/20, C6 133/600 µs. Intercepts in bin 1 pick
        // C1 (2 µs < 15 µs after a polling state 0): returned at once, tick kept, sleep
        // length never queried.
        let drv = StateTable::preset("intel-skx").unwrap().drv();
        let mut teo = teo_with(&[0, 5000, 0, 0], &[0, 0, 0, 1000], &drv);
        let mut cpu = Cpu::new(drv, Tick::new(250).unwrap());
        cpu.sleep_length_ns = 50_000_000;
        cpu.delta_next_ns = 4_000_000;
        let mut stop_tick = true;
        let want = spec_choice(&[0, 5000, 0, 0], &[0, 0, 0, 1000], 6000);
        assert_eq!(want, 1);
        assert_eq!(teo.select(&cpu, &mut stop_tick), want);
        assert!(!stop_tick);
        assert_eq!(teo.sleep_length_ns, i64::MAX);
    }

    #[test]
    fn update_counts_hits_intercepts_and_tick_hits() {
        // x86 at HZ=250: the deepest target residency (600 µs) is below the tick, so a
        // period with sleep length and measured duration both ≥ TICK is a tick hit.
        let drv = StateTable::preset("intel-skx").unwrap().drv();
        let mut teo = TeoV6_12::new(&drv);
        let mut cpu = Cpu::new(drv, Tick::new(250).unwrap());
        teo.last_state_idx = 3;
        teo.sleep_length_ns = 7_829_400;
        teo.time_span_ns = 5_000_000; // woke before the timer: measured from the residency
        cpu.last_residency_ns = 5_000_000;
        teo.update(&cpu);
        assert_eq!((teo.tick_hits, teo.total), (PULSE, PULSE));
        // measured 3 176 995 - 133 000/2 = 3 110 495 ns: bin 3 (C6), sleep length past
        // TICK: an intercept of bin 3 (the tick bin is the timer's)
        teo.sleep_length_ns = 7_829_400;
        teo.time_span_ns = 3_176_995;
        cpu.last_residency_ns = 3_176_995;
        teo.update(&cpu);
        assert_eq!(teo.bins[3].intercepts, PULSE);
        assert_eq!(teo.tick_hits, PULSE - (PULSE >> 3));
        assert_eq!(teo.total, teo.tick_hits + PULSE);
    }
}
