//! The runqueue's PELT clock: frequency and CPU-capacity invariance by scaling time,
//! with the "lost idle time" of a saturated CPU (kernel/sched/pelt.h
//! `update_rq_clock_pelt`, `_update_idle_rq_clock_pelt`, `update_idle_rq_clock_pelt`,
//! `rq_clock_pelt`; the scheme of commit 23127296889f, v5.2+).

use super::consts::{SCHED_CAPACITY_SHIFT, UTIL_SUM_NO_IDLE};

/// What the CPU is running, as far as the PELT clock cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Curr {
    /// The idle task: the PELT clock syncs to `clock_task`.
    Idle,
    /// The simulated CFS task.
    Task,
    /// Another (non-CFS) task: the clock is scaled, but the CFS task is not running.
    Other,
}

/// `cap_scale(v, s)` of kernel/sched/sched.h: `v * s >> SCHED_CAPACITY_SHIFT` (u64, wrapping).
#[inline]
pub fn cap_scale(v: u64, s: u64) -> u64 {
    v.wrapping_mul(s) >> SCHED_CAPACITY_SHIFT
}

/// The clocks of one runqueue (`rq->clock_task`, `rq->clock_pelt`, `rq->lost_idle_time`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RqClock {
    /// Task clock (ns): wall time here, since irq and steal time are not modelled.
    pub clock_task: u64,
    /// PELT clock before lost idle time is removed.
    pub clock_pelt: u64,
    /// Idle time that a saturated CPU could not give back (ns).
    pub lost_idle_time: u64,
    /// What runs on the CPU now.
    pub curr: Curr,
}

impl RqClock {
    /// Clocks started at `now` on an idle CPU.
    pub fn new(now: u64) -> Self {
        RqClock { clock_task: now, clock_pelt: now, lost_idle_time: 0, curr: Curr::Idle }
    }

    /// `update_rq_clock` → `update_rq_clock_pelt(rq, delta)`: advance `clock_task` to `now`;
    /// when idle the PELT clock syncs to it, otherwise it advances by the elapsed time
    /// scaled first by the CPU capacity and then by the frequency capacity (each
    /// truncating). Time never goes backwards here: an earlier `now` is ignored.
    #[inline]
    pub fn update(&mut self, now: u64, cpu_cap: u64, freq_cap: u64) {
        let Some(delta) = now.checked_sub(self.clock_task) else { return };
        self.clock_task = now;
        if self.curr == Curr::Idle {
            self.clock_pelt = self.clock_task;
            return;
        }
        let delta = cap_scale(delta, cpu_cap);
        let delta = cap_scale(delta, freq_cap);
        self.clock_pelt = self.clock_pelt.wrapping_add(delta);
    }

    /// `set_next_task_idle` → `update_idle_rq_clock_pelt(rq)`: when the CPU's summed
    /// `util_sum` (cfs + rt + dl) reached [`UTIL_SUM_NO_IDLE`], the gap between the task
    /// clock and the PELT clock is lost idle time; then the PELT clock syncs. `util_sum`
    /// is added as `u32`, as the kernel does.
    #[inline]
    pub fn switch_to_idle(&mut self, util_sum: u32) {
        if util_sum >= UTIL_SUM_NO_IDLE {
            self.lost_idle_time = self.lost_idle_time.wrapping_add(self.clock_task.wrapping_sub(self.clock_pelt));
        }
        self.clock_pelt = self.clock_task;
        self.curr = Curr::Idle;
    }

    /// `rq_clock_pelt(rq)`: `clock_pelt - lost_idle_time`, the "now" of every PELT update.
    #[inline]
    pub fn pelt_now(&self) -> u64 {
        self.clock_pelt.wrapping_sub(self.lost_idle_time)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scaled_when_busy_synced_when_idle() {
        let mut c = RqClock::new(1_000_000);
        c.curr = Curr::Task;
        // 3,424,000 ns at cpu 446, freq 512: 3424000*446>>10 = 1491312, *512>>10 = 745656.
        c.update(1_000_000 + 3_424_000, 446, 512);
        assert_eq!(c.clock_pelt, 1_000_000 + 745_656);
        // Not saturated: no lost idle time, the clock syncs.
        c.switch_to_idle(1000);
        assert_eq!((c.clock_pelt, c.lost_idle_time), (c.clock_task, 0));
        c.curr = Curr::Task;
        c.update(c.clock_task + 1000, 512, 1024);
        c.switch_to_idle(UTIL_SUM_NO_IDLE);
        assert_eq!(c.lost_idle_time, 500);
        assert_eq!(c.pelt_now(), c.clock_task - 500);
    }
}
