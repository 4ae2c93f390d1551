//! menu as in Linux v4.19.1 (`drivers/cpuidle/governors/menu.c`, git blob e26a40971b26;
//! docs/idle-governors.md §3.7): v4.18 except for the stopped tick ("handle stopped tick more
//! aggressively"): a short prediction becomes `delta_next` (no TICK cap), a state too
//! deep for the prediction is still taken when the one so far is shallow and it fits the
//! time to the next timer, and the tick decision is skipped when the tick is stopped.

use super::{performance_multiplier_with_load, typical_interval, which_bucket_us, EarlyExit, MenuUs, UNITY};
use crate::idle::governor::{Cpu, Governor};
use crate::idle::states::Drv;

/// menu v4.19 on one CPU.
#[derive(Debug, Clone, Default)]
pub struct MenuV4_19 {
    d: MenuUs,
}

impl MenuV4_19 {
    /// `menu_enable_device()`.
    pub fn new() -> Self {
        Self::default()
    }
}

impl Governor for MenuV4_19 {
    fn select(&mut self, cpu: &Cpu, stop_tick: &mut bool) -> usize {
        let drv = &cpu.drv;
        let tick_usec = cpu.tick.usec;
        let d = &mut self.d;
        let latency_req_int = cpu.latency_req_us_v4();
        d.latency_req_us = latency_req_int;

        if d.needs_update {
            d.update(cpu, false);
            d.needs_update = false;
        }
        if latency_req_int == 0 {
            *stop_tick = false;
            return 0;
        }
        let mut latency_req = latency_req_int as u32;

        d.next_timer_us = (cpu.sleep_length_ns / 1000) as u32;
        let delta_next_us = (cpu.delta_next_ns / 1000) as u32;
        let nr_iowaiters = cpu.nr_iowait;
        d.bucket = which_bucket_us(d.next_timer_us, if nr_iowaiters > 0 { 6 } else { 0 });

        let cf = u64::from(d.correction_factor[d.bucket]);
        d.predicted_us = ((u64::from(d.next_timer_us) * cf + u64::from(UNITY) / 2) / u64::from(UNITY)) as u32;

        let mut expected_interval = typical_interval(&d.intervals.v, u32::MAX, EarlyExit::None);
        expected_interval = expected_interval.min(d.next_timer_us);

        let mut first_idx = 0;
        if drv.polling[0] {
            let polling_threshold = drv.tr_us[1].max(20);
            if d.next_timer_us > polling_threshold && latency_req > drv.el_us[1] && !drv.disabled[1] {
                first_idx = 1;
            }
        }

        d.predicted_us = d.predicted_us.min(expected_interval);

        if cpu.tick_stopped {
            // The CPU may be stuck in a shallow state for long: use the known time till
            // the closest timer event instead of a short prediction.
            if d.predicted_us < tick_usec {
                d.predicted_us = delta_next_us;
            }
        } else {
            let interactivity_req = d.predicted_us / performance_multiplier_with_load(nr_iowaiters, cpu.cpu_load);
            if latency_req > interactivity_req {
                latency_req = interactivity_req;
            }
        }

        expected_interval = d.predicted_us;
        let mut idx: Option<usize> = None;
        for i in first_idx..drv.count {
            if drv.disabled[i] {
                continue;
            }
            let cur = *idx.get_or_insert(i);
            if drv.tr_us[i] > d.predicted_us {
                if d.predicted_us < tick_usec {
                    break;
                }
                if !cpu.tick_stopped {
                    // A shallow state so far: keep the tick and try again next time.
                    expected_interval = drv.tr_us[cur];
                    break;
                }
                if drv.tr_us[cur] < tick_usec && drv.tr_us[i] <= delta_next_us {
                    return i;
                }
                return cur;
            }
            if drv.el_us[i] > latency_req {
                expected_interval = drv.tr_us[cur];
                break;
            }
            idx = Some(i);
        }
        let mut idx = idx.unwrap_or(0);

        if (drv.polling[idx] || expected_interval < tick_usec) && !cpu.tick_stopped {
            *stop_tick = false;
            if idx > 0 && drv.tr_us[idx] > delta_next_us {
                for i in (0..idx).rev() {
                    if drv.disabled[i] {
                        continue;
                    }
                    idx = i;
                    if drv.tr_us[i] <= delta_next_us {
                        break;
                    }
                }
            }
        }
        idx
    }

    fn reflect(&mut self, cpu: &mut Cpu, idx: usize) {
        self.d.reflect(cpu, idx);
    }

    fn poll_limit_ns(&self, _drv: &Drv, tick: crate::idle::trace::Tick) -> i64 {
        // poll_idle(): POLL_IDLE_TIME_LIMIT = TICK_NSEC / 16
        tick.nsec / 16
    }

    fn columns(&self, _drv: &Drv) -> Vec<String> {
        MenuUs::columns(true)
    }

    fn write_columns(&self, out: &mut Vec<i64>) {
        self.d.write_columns(true, out);
    }
}
