//! teo as merged in Linux v5.1 (`drivers/cpuidle/governors/teo.c`, b26bf6ab716f, git blob
//! 7d05efdbd3c6; docs/idle-governors.md §4.2): the 2018 RFC v6–v10 design in µs. Per state:
//! `early_hits`, `hits` and `misses`; a pattern check over the 8 most recent idle
//! durations; and the v5.1–v5.5 off-by-one in the interval ring (the index wraps only
//! after reaching 9, so every 9th sample lands one past the 8 slots and is never read;
//! fixed by 57388a2ccb6c). The state is zeroed at enable, so the very first `select()`
//! already runs an update (on all-zero data).

use super::{decay, find_shallower_state_us, PULSE};
use crate::idle::governor::{Cpu, Governor};
use crate::idle::states::{Drv, MAX_STATES};
use crate::idle::trace::Tick;

const INTERVALS: usize = 8;

#[derive(Debug, Clone, Copy, Default)]
struct StateMetrics {
    early_hits: u32,
    hits: u32,
    misses: u32,
}

/// `struct teo_cpu` of v5.1.
#[derive(Debug, Clone)]
pub struct TeoV5_1 {
    time_span_ns: u64,
    sleep_length_ns: u64,
    states: [StateMetrics; MAX_STATES],
    /// `intervals[INTERVALS]` plus the slot past its end that the v5.1 indexing writes.
    intervals: [u32; INTERVALS + 1],
    interval_idx: usize,
    last_state: i32,
    n: usize,
    latency_req_us: i32,
    last_residency_us: i32,
}

impl TeoV5_1 {
    /// `teo_enable_device()`: `memset` to zero (so `last_state` = 0), then every interval
    /// set to `UINT_MAX`.
    pub fn new(drv: &Drv) -> Self {
        let mut intervals = [u32::MAX; INTERVALS + 1];
        intervals[INTERVALS] = 0; // not part of the array: the next per-CPU variable
        TeoV5_1 {
            time_span_ns: 0,
            sleep_length_ns: 0,
            states: [StateMetrics::default(); MAX_STATES],
            intervals,
            interval_idx: 0,
            last_state: 0,
            n: drv.count,
            latency_req_us: 0,
            last_residency_us: 0,
        }
    }

    /// `teo_update()`: decay `early_hits` everywhere, then a hit or a miss for the state
    /// matching the sleep length (with an early hit for the state the idle duration
    /// matched), and remember the idle duration (`UINT_MAX` for a timer wakeup).
    fn update(&mut self, cpu: &Cpu) {
        let drv = &cpu.drv;
        let sleep_length_us = (self.sleep_length_ns as i64 / 1000) as u32;
        let timer_wakeup = self.time_span_ns >= self.sleep_length_ns;
        let mut measured_us: u32 = if timer_wakeup {
            sleep_length_us
        } else {
            let last = (self.last_state.max(0) as usize).min(drv.count - 1);
            let lat = drv.el_us[last];
            let m = (self.time_span_ns as i64 / 1000) as u32;
            // Half the exit latency approximates its average.
            if m >= lat {
                m - lat / 2
            } else {
                m / 2
            }
        };

        let (mut idx_timer, mut idx_hit): (Option<usize>, Option<usize>) = (None, None);
        for i in 0..drv.count {
            let s = &mut self.states[i];
            s.early_hits = decay(s.early_hits);
            if drv.tr_us[i] <= sleep_length_us {
                idx_timer = Some(i);
                if drv.tr_us[i] <= measured_us {
                    idx_hit = Some(i);
                }
            }
        }

        if let Some(t) = idx_timer {
            let mut hits = decay(self.states[t].hits);
            let mut misses = decay(self.states[t].misses);
            // idx_timer > idx_hit, with -1 for "none"
            if idx_hit.is_none_or(|h| t > h) {
                misses = misses.wrapping_add(PULSE);
                if let Some(h) = idx_hit {
                    self.states[h].early_hits = self.states[h].early_hits.wrapping_add(PULSE);
                }
            } else {
                hits = hits.wrapping_add(PULSE);
            }
            self.states[t].misses = misses;
            self.states[t].hits = hits;
        }

        if timer_wakeup {
            measured_us = u32::MAX;
        }
        // intervals[interval_idx++] = measured; if (interval_idx > INTERVALS) interval_idx = 0;
        if let Some(slot) = self.intervals.get_mut(self.interval_idx) {
            *slot = measured_us;
        }
        self.interval_idx += 1;
        if self.interval_idx > INTERVALS {
            self.interval_idx = 0;
        }
    }
}

impl Governor for TeoV5_1 {
    fn select(&mut self, cpu: &Cpu, stop_tick: &mut bool) -> usize {
        let drv = &cpu.drv;
        let tick_usec = cpu.tick.usec;
        let latency_req_int = cpu.latency_req_us_v4();
        self.latency_req_us = latency_req_int;
        // compared with unsigned exit latencies: as unsigned
        let latency_req = latency_req_int as u32;

        if self.last_state >= 0 {
            self.update(cpu);
            self.last_state = -1;
        }
        self.time_span_ns = cpu.clock_ns;
        self.sleep_length_ns = cpu.sleep_length_ns.max(0) as u64;
        let mut duration_us = (cpu.sleep_length_ns / 1000) as u32;
        let delta_tick_us = (cpu.delta_next_ns / 1000) as u32;

        let mut count: u32 = 0;
        let mut max_early_idx: Option<usize> = None;
        let mut idx: Option<usize> = None;
        let mut refine_only = false;
        for i in 0..drv.count {
            let early_hits = self.states[i].early_hits;
            if drv.disabled[i] {
                // A disabled state's early hits still raise the bar for deeper states.
                if max_early_idx.is_some() && count < early_hits {
                    count = early_hits;
                }
                continue;
            }
            let cur = *idx.get_or_insert(i);
            if drv.tr_us[i] > duration_us {
                break;
            }
            if drv.el_us[i] > latency_req {
                // Latency break: the chosen state's residency is the expected duration,
                // so the tick is kept when it is short.
                duration_us = drv.tr_us[cur];
                refine_only = true;
                break;
            }
            idx = Some(i);
            if count < early_hits && !(cpu.tick_stopped && drv.tr_us[i] < tick_usec) {
                count = early_hits;
                max_early_idx = Some(i);
            }
        }

        if !refine_only {
            // More misses than hits for the state matching the sleep length: the state
            // with the most early hits is the better bet.
            if let (Some(i), Some(m)) = (idx, max_early_idx) {
                if self.states[i].hits <= self.states[i].misses {
                    idx = Some(m);
                    duration_us = drv.tr_us[m];
                }
            }
        }

        // refine:
        let mut idx = match idx {
            None => 0, // no states enabled: must use 0
            Some(0) => 0,
            Some(i) => {
                let mut idx = i;
                let (mut count, mut sum) = (0u64, 0u64);
                // The recent idle durations below the chosen state's target residency.
                for &val in &self.intervals[..INTERVALS] {
                    if val >= drv.tr_us[idx] {
                        continue;
                    }
                    count += 1;
                    sum += u64::from(val);
                }
                if count > (INTERVALS / 2) as u64 {
                    let avg_us = (sum / count) as u32;
                    // Avoid a state too shallow for a stopped tick.
                    if !(cpu.tick_stopped && avg_us < tick_usec) {
                        idx = find_shallower_state_us(drv, idx, avg_us);
                        duration_us = avg_us;
                    }
                }
                idx
            }
        };

        if (drv.polling[idx] || duration_us < tick_usec) && !cpu.tick_stopped {
            *stop_tick = false;
            if idx > 0 && drv.tr_us[idx] > delta_tick_us {
                idx = find_shallower_state_us(drv, idx, delta_tick_us);
            }
        }
        idx
    }

    fn reflect(&mut self, cpu: &mut Cpu, idx: usize) {
        self.last_state = idx as i32;
        self.last_residency_us = cpu.last_residency_us_v4();
        if cpu.poll_time_limit || (cpu.take_got_tick() && self.sleep_length_ns > cpu.tick.nsec as u64) {
            cpu.poll_time_limit = false;
            self.time_span_ns = self.sleep_length_ns;
        } else {
            self.time_span_ns = cpu.clock_ns.wrapping_sub(self.time_span_ns);
        }
    }

    fn poll_limit_ns(&self, drv: &Drv, tick: Tick) -> i64 {
        // poll_idle() of v5.1: the first enabled state ≥ 1, else TICK_NSEC.
        (1..drv.count).find(|&i| !drv.disabled[i]).map_or(tick.nsec, |i| i64::from(drv.tr_us[i]) * 1000)
    }

    fn columns(&self, drv: &Drv) -> Vec<String> {
        let mut c: Vec<String> = ["latency_req_us", "last_residency_us", "teo_sleep_length_ns", "time_span_ns"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        for i in 0..drv.count {
            c.push(format!("early_hits{i}"));
            c.push(format!("hits{i}"));
            c.push(format!("misses{i}"));
        }
        c.extend((0..INTERVALS).map(|i| format!("iv{i}")));
        c.push("interval_idx".to_string());
        c
    }

    fn write_columns(&self, out: &mut Vec<i64>) {
        out.push(i64::from(self.latency_req_us));
        out.push(i64::from(self.last_residency_us));
        out.push(self.sleep_length_ns as i64);
        out.push(self.time_span_ns as i64);
        for s in self.states.iter().take(self.n) {
            out.push(i64::from(s.early_hits));
            out.push(i64::from(s.hits));
            out.push(i64::from(s.misses));
        }
        out.extend(self.intervals.iter().take(INTERVALS).map(|&v| i64::from(v)));
        out.push(self.interval_idx as i64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::idle::states::StateTable;

    fn cpu_50ms(drv: Drv) -> Cpu {
        let mut cpu = Cpu::new(drv, Tick::new(250).unwrap());
        cpu.sleep_length_ns = 50_000_000;
        cpu.delta_next_ns = 4_000_000;
        cpu
    }

    #[test]
    fn misses_hand_the_choice_to_the_most_early_hits() {
        // docs/idle-governors.md §4.2 select steps 3–4: the state matching the sleep length (C6) has
        // more misses than hits, so the enabled shallower state with the most early hits
        // (C1, 3000 > C1E's 1000) is chosen, its target residency becoming the duration
        // (2 µs < TICK: the tick is kept).
        let drv = StateTable::preset("intel-skx").unwrap().drv();
        let mut teo = TeoV5_1::new(&drv);
        teo.last_state = -1;
        let early = [0, 3000, 1000, 0];
        for (i, e) in early.iter().enumerate() {
            teo.states[i].early_hits = *e;
        }
        teo.states[3].hits = 500;
        teo.states[3].misses = 2000;
        let cpu = cpu_50ms(drv);
        let mut stop_tick = true;
        let want = (0..4).filter(|&i| early[i] > 0).max_by_key(|&i| early[i]).unwrap();
        assert_eq!(teo.select(&cpu, &mut stop_tick), want);
        assert!(!stop_tick);
        // more hits than misses: C6, tick stopped (50 ms ≥ TICK)
        teo.states[3].hits = 3000;
        let mut stop_tick = true;
        assert_eq!(teo.select(&cpu, &mut stop_tick), 3);
        assert!(stop_tick);
    }

    #[test]
    fn short_recent_intervals_take_their_average() {
        // step 5: more than 4 of the 8 intervals below C6's 600 µs: their mean (100 µs)
        // picks C1E, the deepest state with target residency ≤ 100 µs.
        let drv = StateTable::preset("intel-skx").unwrap().drv();
        let mut teo = TeoV5_1::new(&drv);
        teo.last_state = -1;
        teo.states[3].hits = 4000;
        teo.intervals[..INTERVALS].copy_from_slice(&[80, 120, 90, 110, 100, u32::MAX, u32::MAX, u32::MAX]);
        let cpu = cpu_50ms(drv);
        let mut stop_tick = true;
        assert_eq!(teo.select(&cpu, &mut stop_tick), 2);
        assert!(!stop_tick); // duration 100 µs < TICK
    }

    #[test]
    fn every_ninth_interval_is_written_past_the_ring() {
        let drv = StateTable::preset("intel-skx").unwrap().drv();
        let mut teo = TeoV5_1::new(&drv);
        let cpu = cpu_50ms(drv);
        teo.interval_idx = 8;
        teo.sleep_length_ns = 50_000_000;
        teo.time_span_ns = 300_000; // a 300 µs idle period (non-timer wakeup)
        let before = teo.intervals;
        teo.update(&cpu);
        assert_eq!(teo.intervals[..INTERVALS], before[..INTERVALS]);
        // last_state 0 is POLL (exit latency 0): measured = 300 µs, written to slot 8
        assert_eq!(teo.intervals[INTERVALS], 300);
        assert_eq!(teo.interval_idx, 0);
        teo.update(&cpu);
        assert_eq!((teo.intervals[0], teo.interval_idx), (300, 1));
    }
}
