//! The CPU utilization that the scheduler's consumers see (6.12 fair.c `cpu_util`,
//! `cpu_util_cfs`, `cpu_util_cfs_boost`, `cpu_util_without`; v4.17–v4.18
//! `cpu_util_wake` before and after the execl fix c469933e7721).

/// What a cfs_rq offers to the consumers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CpuSignals {
    /// `cfs_rq->avg.util_avg`.
    pub util_avg: u64,
    /// `cfs_rq->avg.runnable_avg`.
    pub runnable_avg: u64,
    /// `cfs_rq->avg.util_est`: the sum over the enqueued tasks.
    pub util_est: u32,
    /// `arch_scale_cpu_capacity(cpu)`.
    pub capacity: u64,
    /// `sched_feat(UTIL_EST)`.
    pub util_est_enabled: bool,
}

/// A task as `cpu_util` sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TaskSignals {
    /// `task_util(p)`.
    pub util_avg: u64,
    /// `_task_util_est(p)` (added when p would move to this CPU).
    pub util_est: u32,
    /// What the execl fix subtracts from the CPU's estimate (`_task_util_est(p)`, or
    /// `_task_util_est(p) | UTIL_AVG_UNCHANGED` in v4.18).
    pub fix_amount: u32,
    /// `task_on_rq_queued(p) || current == p`.
    pub queued_or_current: bool,
    /// `task_cpu(p) == cpu`.
    pub on_this_cpu: bool,
    /// `p->se.avg.last_update_time == 0`: never attached (a new task).
    pub is_new: bool,
}

/// `dst_cpu` of `cpu_util`: where p is assumed to go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dst {
    /// `-1`: p is discounted from the CPU (the wake/exec view).
    Nowhere,
    /// `dst_cpu == cpu`: p would run here.
    ThisCpu,
    /// Another CPU.
    OtherCpu,
}

impl crate::choice::Choice for Dst {
    const WHAT: &'static str = "dst";
    const ALL: &'static [Self] = &[Dst::Nowhere, Dst::ThisCpu, Dst::OtherCpu];

    /// `none` (dst_cpu = -1), `this`, `other`: the names `pelt.cpu_util(dst=...)` takes.
    fn name(self) -> &'static str {
        match self {
            Dst::Nowhere => "none",
            Dst::ThisCpu => "this",
            Dst::OtherCpu => "other",
        }
    }
}

/// `cpu_util(cpu, p, dst_cpu, boost)` of 6.12 fair.c: the CFS utilization of a CPU,
/// optionally boosted by runnable_avg (which then also lifts the util_est sum, as
/// 7d0583cf9ec7 "runnable boosting" does), with p's contribution removed or added, at
/// least the util_est sum, clamped to the capacity. `execl_fix` selects whether an enqueued or
/// current p's own estimate is taken out of the sum (c469933e7721; always in 6.12).
pub fn cpu_util(cpu: &CpuSignals, p: Option<&TaskSignals>, dst: Dst, boost: bool, execl_fix: bool) -> u64 {
    let mut util = cpu.util_avg;
    if boost {
        util = util.max(cpu.runnable_avg);
    }
    // (runnable boosting, 7d0583cf9ec7 v6.5: runnable also lifts the estimate below)
    if let Some(p) = p {
        if p.on_this_cpu && dst != Dst::ThisCpu {
            util -= util.min(p.util_avg);
        } else if !p.on_this_cpu && dst == Dst::ThisCpu {
            util = util.wrapping_add(p.util_avg);
        }
    }
    if cpu.util_est_enabled {
        let mut est = u64::from(cpu.util_est);
        if boost {
            est = est.max(cpu.runnable_avg);
        }
        match p {
            Some(p) if dst == Dst::ThisCpu => est += u64::from(p.util_est),
            Some(p) if execl_fix && p.queued_or_current => est -= est.min(u64::from(p.fix_amount)),
            _ => {}
        }
        util = util.max(est);
    }
    util.min(cpu.capacity)
}

/// `cpu_util_cfs(cpu)` = `cpu_util(cpu, NULL, -1, 0)`: `max(util_avg, util_est)` clamped.
pub fn cpu_util_cfs(cpu: &CpuSignals) -> u64 {
    cpu_util(cpu, None, Dst::Nowhere, false, true)
}

/// `cpu_util_cfs_boost(cpu)` = `cpu_util(cpu, NULL, -1, 1)`, schedutil's input (v6.5+).
pub fn cpu_util_cfs_boost(cpu: &CpuSignals) -> u64 {
    cpu_util(cpu, None, Dst::Nowhere, true, true)
}

/// `cpu_util_without(cpu, p)` (6.12), or `cpu_util_wake(cpu, p)` of v4.17/v4.18 when
/// `execl_fix` is false/true: the CPU's utilization as if p were not there. p is ignored
/// when it belongs to another CPU or is new.
pub fn cpu_util_without(cpu: &CpuSignals, p: &TaskSignals, execl_fix: bool) -> u64 {
    if !p.on_this_cpu || p.is_new {
        return cpu_util(cpu, None, Dst::Nowhere, false, execl_fix);
    }
    cpu_util(cpu, Some(p), Dst::Nowhere, false, execl_fix)
}

/// [`cpu_util`] as its 6.12 callers reach it: a p discounted from the CPU
/// (`dst == Nowhere`, the `cpu_util_without` view) that belongs to another CPU or is new
/// is ignored, as fair.c `cpu_util_without` returns `cpu_util_cfs(cpu)` for it.
pub fn cpu_util_of(cpu: &CpuSignals, p: Option<&TaskSignals>, dst: Dst, boost: bool, execl_fix: bool) -> u64 {
    let p = p.filter(|p| !(dst == Dst::Nowhere && (!p.on_this_cpu || p.is_new)));
    cpu_util(cpu, p, dst, boost, execl_fix)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn execl_view_by_hand() {
        let cpu =
            CpuSignals { util_avg: 877, runnable_avg: 877, util_est: 881, capacity: 1024, util_est_enabled: true };
        let p = TaskSignals {
            util_avg: 877,
            util_est: 881,
            fix_amount: 881,
            queued_or_current: true,
            on_this_cpu: true,
            is_new: false,
        };
        // util 877-877 = 0; est 881 - 881 = 0 with the fix, 881 without.
        assert_eq!(cpu_util_without(&cpu, &p, true), 0);
        assert_eq!(cpu_util_without(&cpu, &p, false), 881);
        assert_eq!(cpu_util_cfs(&cpu), 881);
        // p would move here from elsewhere: 877 + 877, est 881 + 881, clamped to 1024.
        let q = TaskSignals { on_this_cpu: false, ..p };
        assert_eq!(cpu_util(&cpu, Some(&q), Dst::ThisCpu, false, true), 1024);
        let off = CpuSignals { util_est_enabled: false, runnable_avg: 900, ..cpu };
        assert_eq!(cpu_util_cfs_boost(&off), 900);
        // boosted with p discounted: util max(877, 950) - 877 = 73; est max(881, 950) - 881 = 69
        let busy = CpuSignals { runnable_avg: 950, ..cpu };
        assert_eq!(cpu_util(&busy, Some(&p), Dst::Nowhere, true, true), 73);
    }

    #[test]
    fn cpu_util_of_ignores_a_discounted_task_elsewhere_or_new() {
        use crate::choice::Choice;
        let cpu = CpuSignals { util_avg: 500, runnable_avg: 500, util_est: 0, capacity: 1024, util_est_enabled: false };
        let p = TaskSignals {
            util_avg: 200,
            util_est: 0,
            fix_amount: 0,
            queued_or_current: true,
            on_this_cpu: true,
            is_new: false,
        };
        // on this CPU: 500 - 200; new or elsewhere: ignored (500); moving here from elsewhere: 500 + 200
        assert_eq!(cpu_util_of(&cpu, Some(&p), Dst::Nowhere, false, true), 300);
        assert_eq!(cpu_util_of(&cpu, Some(&TaskSignals { is_new: true, ..p }), Dst::Nowhere, false, true), 500);
        let away = TaskSignals { on_this_cpu: false, ..p };
        assert_eq!(cpu_util_of(&cpu, Some(&away), Dst::Nowhere, false, true), 500);
        assert_eq!(cpu_util_of(&cpu, Some(&away), Dst::ThisCpu, false, true), 700);
        assert_eq!(Dst::parse("this").unwrap(), Dst::ThisCpu);
        assert_eq!(Dst::parse("x").unwrap_err().to_string(), "dst must be one of none, this, other, got 'x'");
    }
}
