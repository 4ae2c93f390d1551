//! menu as in Linux v4.20 (`drivers/cpuidle/governors/menu.c`, git blob 61316fc51548;
//! docs/idle-governors.md §3.8): v4.19 with the load term gone from the performance multiplier
//! (`1 + 10·nr_iowait`), the early return to state 0 moved after the bucket is chosen,
//! no `first_idx` but "poll promotion" to a physical state that a timer will reach, the
//! pattern detector's `min >= predicted` exit, `predicted_us` as a local, and
//! `menu_update()` using the next timer after a timed-out poll.

use super::{typical_interval, which_bucket_us, EarlyExit, MenuUs, UNITY};
use crate::idle::governor::{Cpu, Governor};
use crate::idle::states::Drv;

/// menu v4.20 on one CPU.
#[derive(Debug, Clone, Default)]
pub struct MenuV4_20 {
    d: MenuUs,
}

impl MenuV4_20 {
    /// `menu_enable_device()`.
    pub fn new() -> Self {
        Self::default()
    }
}

impl Governor for MenuV4_20 {
    fn select(&mut self, cpu: &Cpu, stop_tick: &mut bool) -> usize {
        let drv = &cpu.drv;
        let tick_usec = cpu.tick.usec;
        let d = &mut self.d;
        let latency_req_int = cpu.latency_req_us_v4();
        d.latency_req_us = latency_req_int;
        let mut latency_req = latency_req_int.max(0) as u32;

        if d.needs_update {
            d.update(cpu, true);
            d.needs_update = false;
        }

        d.next_timer_us = (cpu.sleep_length_ns / 1000) as u32;
        let delta_next_us = (cpu.delta_next_ns / 1000) as u32;
        let nr_iowaiters = cpu.nr_iowait;
        d.bucket = which_bucket_us(d.next_timer_us, if nr_iowaiters > 0 { 6 } else { 0 });

        if drv.count <= 1
            || latency_req == 0
            || ((d.next_timer_us < drv.tr_us[1] || latency_req < drv.el_us[1]) && !drv.disabled[0])
        {
            // State 0 will be used no matter what: return it and keep the tick running.
            *stop_tick = false;
            return 0;
        }

        let cf = u64::from(d.correction_factor[d.bucket]);
        let mut predicted_us = ((u64::from(d.next_timer_us) * cf + u64::from(UNITY) / 2) / u64::from(UNITY)) as u32;
        predicted_us =
            predicted_us.min(typical_interval(&d.intervals.v, u32::MAX, EarlyExit::MinAtLeast(predicted_us)));

        if cpu.tick_stopped {
            if predicted_us < tick_usec {
                predicted_us = delta_next_us;
            }
        } else {
            let interactivity_req = predicted_us / (1 + 10 * nr_iowaiters);
            if latency_req > interactivity_req {
                latency_req = interactivity_req;
            }
        }

        let mut idx: Option<usize> = None;
        for i in 0..drv.count {
            if drv.disabled[i] {
                continue;
            }
            let cur = *idx.get_or_insert(i);
            if drv.tr_us[i] > predicted_us {
                // Use a physical idle state, not busy polling, unless a timer is going to
                // trigger soon enough.
                if drv.polling[cur] && drv.el_us[i] <= latency_req && drv.tr_us[i] <= d.next_timer_us {
                    predicted_us = drv.tr_us[i];
                    idx = Some(i);
                    break;
                }
                if predicted_us < tick_usec {
                    break;
                }
                if !cpu.tick_stopped {
                    predicted_us = drv.tr_us[cur];
                    break;
                }
                if drv.tr_us[cur] < tick_usec && drv.tr_us[i] <= delta_next_us {
                    return i;
                }
                return cur;
            }
            if drv.el_us[i] > latency_req {
                // Break for latency: keep the tick if the chosen state's residency is short.
                predicted_us = drv.tr_us[cur];
                break;
            }
            idx = Some(i);
        }
        let mut idx = idx.unwrap_or(0);

        if (drv.polling[idx] || predicted_us < tick_usec) && !cpu.tick_stopped {
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

    fn poll_limit_ns(&self, drv: &Drv, _tick: crate::idle::trace::Tick) -> i64 {
        // poll_idle(): states[1].target_residency * NSEC_PER_USEC, enabled or not
        // (zero when the table has a single state, as the kernel's zeroed array).
        i64::from(drv.tr_us[1]) * 1000
    }

    fn columns(&self, _drv: &Drv) -> Vec<String> {
        MenuUs::columns(false)
    }

    fn write_columns(&self, out: &mut Vec<i64>) {
        self.d.write_columns(false, out);
    }
}
