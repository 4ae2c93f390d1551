//! util_est: the estimated utilization of a task, sampled when it sleeps, and its
//! sum over the tasks enqueued on a cfs_rq (kernel/sched/fair.c `util_est_enqueue`,
//! `util_est_dequeue`, `util_est_update`, `cfs_se_util_change` in pelt.h).
//!
//! The update rule changed several times (docs/pelt.md §6.4); each version
//! that schedlab replays is one small type behind [`UtilEstRule`], selected by name with
//! [`rule_by_name`]:
//!
//! | name | kernel | rule |
//! |---|---|---|
//! | `6.18` | 6.18.35 | as `6.12` without the skip of a sample above the CPU capacity |
//! | `6.12` | v6.8+ (11137d384996, 50181c0cff31), 6.12.117 | one `u32` with the MSB flag, fast up, margin, skips, `ewma -= diff/4`; sampled **before** the dequeue PELT update |
//! | `6.6` | v5.13–v6.7, 6.6.57 | `{enqueued, ewma}` with the MSB flag in `enqueued`, fast up (`UTIL_EST_FASTUP`), margins on both fields, the capacity skip; sampled **after** the dequeue |
//! | `4.17` | 7f65ea42eb00 "Add util_est on top of PELT" | `{enqueued, ewma}`, update at every sleep, both directions, no flag; sampled **after** the dequeue |
//! | `d519329f72` | v4.17 "Update util_est only on util_avg updates" | as `4.17` plus the LSB `UTIL_AVG_UNCHANGED` flag; skip when util_avg did not change |

use crate::error::{Error, Result};
use std::fmt::Debug;

/// `UTIL_AVG_UNCHANGED` since v5.13 (68d7a190682a), bit 31 of `util_est`.
pub const UTIL_AVG_UNCHANGED_MSB: u32 = 0x8000_0000;
/// `UTIL_AVG_UNCHANGED` of v4.17–v5.12, the LSB of `util_est.enqueued`.
pub const UTIL_AVG_UNCHANGED_LSB: u32 = 0x1;
/// `UTIL_EST_WEIGHT_SHIFT`: a new sample has weight 1/4.
pub const UTIL_EST_WEIGHT_SHIFT: u32 = 2;
/// `UTIL_EST_MARGIN` = `SCHED_CAPACITY_SCALE / 100` = 10 (6.12); the 4.17 rules use the
/// same 1 % margin through `within_margin`.
pub const UTIL_EST_MARGIN: u32 = 10;

/// A task's util_est storage, wide enough for every rule: 6.12 keeps its single
/// `util_est` word (EWMA | flag) in `ewma` and leaves `enqueued` at 0; v4.17–v6.7 had
/// `struct util_est { unsigned int enqueued, ewma; }`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TaskUtilEst {
    /// 6.12: the whole `p->se.avg.util_est`; older: `util_est.ewma`.
    pub ewma: u32,
    /// Older rules: `util_est.enqueued` (the last sample, with the era's flag bit).
    pub enqueued: u32,
}

/// The PELT values a rule reads when the task goes to sleep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sample {
    /// `task_util(p)` = `p->se.avg.util_avg` as last stored.
    pub util_avg: u64,
    /// `task_runnable(p)` = `p->se.avg.runnable_avg`.
    pub runnable_avg: u64,
    /// `arch_scale_cpu_capacity(cpu)`.
    pub cpu_cap: u64,
}

/// When the task's EWMA is updated relative to the dequeue's PELT update.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Timing {
    /// 6.12: `util_est_update` runs before `dequeue_entities()`, so the sample is the
    /// util_avg of the last tick/enqueue/pick (docs/pelt.md §6.3).
    BeforeDequeue,
    /// v4.17–v6.11: after the dequeue loop, with the fresh util_avg.
    AfterDequeue,
}

/// One version of the util_est rules. Implementations are stateless, `'static` values.
pub trait UtilEstRule: Debug + Send + Sync {
    /// The name [`rule_by_name`] knows it by.
    fn name(&self) -> &'static str;
    /// Where the task's EWMA update sits in `dequeue_task_fair`.
    fn timing(&self) -> Timing;
    /// `_task_util_est(p)` of this version: what the task is estimated to need.
    fn task_util_est(&self, ue: &TaskUtilEst) -> u32;
    /// What `util_est_enqueue` adds to (and `util_est_dequeue` takes from) the cfs_rq sum.
    fn cfs_amount(&self, ue: &TaskUtilEst) -> u32 {
        self.task_util_est(ue)
    }
    /// The task's EWMA update when it leaves the runqueue (`task_sleep` false for a
    /// migration, which never samples).
    fn update(&self, ue: &mut TaskUtilEst, task_sleep: bool, s: Sample);
    /// `cfs_se_util_change()`: the task's util_avg was just recomputed.
    fn util_avg_changed(&self, ue: &mut TaskUtilEst);
    /// Whether the `UTIL_AVG_UNCHANGED` flag is set (always false without a flag).
    fn unchanged(&self, ue: &TaskUtilEst) -> bool;
    /// Set the `UTIL_AVG_UNCHANGED` flag where this version keeps it (the LSB of
    /// `enqueued` for the v4.17 rules, the MSB of `enqueued` for 6.6, of the single word
    /// for 6.8+).
    fn set_unchanged(&self, ue: &mut TaskUtilEst) {
        ue.enqueued |= UTIL_AVG_UNCHANGED_LSB;
    }
    /// The task's EWMA without the flag (the `p_util_est` column).
    fn ewma(&self, ue: &TaskUtilEst) -> u32;
    /// What `cpu_util_wake`/`cpu_util_without` subtracts with the execl fix (c469933e7721).
    fn execl_fix_amount(&self, ue: &TaskUtilEst) -> u32 {
        self.task_util_est(ue)
    }
    /// Whether this version's `cpu_util_without` has the execl fix.
    fn has_execl_fix(&self) -> bool;
    /// Whether the version has the separate `enqueued` field (older rules).
    fn has_enqueued(&self) -> bool;
}

/// `within_margin(value, margin)` of v4.17 fair.c: `|value| < margin`, computed as
/// `(unsigned)(value + margin - 1) < (2 * margin - 1)` on an `int`.
#[inline]
pub fn within_margin(value: i32, margin: i32) -> bool {
    (value.wrapping_add(margin).wrapping_sub(1) as u32) < (2 * margin - 1) as u32
}

/// The single-word rules of 6.8+ (docs/pelt.md §6.3; fair.c `util_est_update`): [`V6_12`]
/// and [`V6_18`], which differ only in `capacity_skip`.
#[derive(Debug, Clone, Copy)]
pub struct OneWord {
    name: &'static str,
    /// Skip a sample above `arch_scale_cpu_capacity()` (no idle time: not a valid
    /// sample); 6.12 has it, 6.18 does not.
    capacity_skip: bool,
}

/// The 6.12 rule.
pub const V6_12: OneWord = OneWord { name: "6.12", capacity_skip: true };
/// The 6.18 rule: 6.12's without the capacity skip (docs/pelt.md §6.5).
pub const V6_18: OneWord = OneWord { name: "6.18", capacity_skip: false };

impl UtilEstRule for OneWord {
    fn name(&self) -> &'static str {
        self.name
    }
    fn timing(&self) -> Timing {
        Timing::BeforeDequeue
    }
    fn task_util_est(&self, ue: &TaskUtilEst) -> u32 {
        ue.ewma & !UTIL_AVG_UNCHANGED_MSB
    }
    fn update(&self, ue: &mut TaskUtilEst, task_sleep: bool, s: Sample) {
        if !task_sleep {
            return;
        }
        let mut ewma = ue.ewma;
        if ewma & UTIL_AVG_UNCHANGED_MSB != 0 {
            return;
        }
        let dequeued = s.util_avg as u32; // unsigned int dequeued = task_util(p)
        if ewma <= dequeued {
            ewma = dequeued;
        } else {
            let diff = ewma - dequeued;
            if diff >= UTIL_EST_MARGIN {
                if self.capacity_skip && u64::from(dequeued) > s.cpu_cap {
                    return; // no idle time: not a valid sample, flag not set
                }
                if u64::from(dequeued.wrapping_add(UTIL_EST_MARGIN)) >= s.runnable_avg {
                    ewma = (ewma << UTIL_EST_WEIGHT_SHIFT).wrapping_sub(diff) >> UTIL_EST_WEIGHT_SHIFT;
                }
                // else: the task waited for the CPU (starved); keep the EWMA
            }
        }
        ue.ewma = ewma | UTIL_AVG_UNCHANGED_MSB;
    }
    fn util_avg_changed(&self, ue: &mut TaskUtilEst) {
        ue.ewma &= !UTIL_AVG_UNCHANGED_MSB;
    }
    fn unchanged(&self, ue: &TaskUtilEst) -> bool {
        ue.ewma & UTIL_AVG_UNCHANGED_MSB != 0
    }
    fn set_unchanged(&self, ue: &mut TaskUtilEst) {
        ue.ewma |= UTIL_AVG_UNCHANGED_MSB;
    }
    fn ewma(&self, ue: &TaskUtilEst) -> u32 {
        ue.ewma & !UTIL_AVG_UNCHANGED_MSB
    }
    fn has_execl_fix(&self) -> bool {
        true
    }
    fn has_enqueued(&self) -> bool {
        false
    }
}

/// The rule of v5.13–v6.7 as in 6.6.57 (docs/pelt.md §6.5): `struct util_est {enqueued,
/// ewma}` with the MSB `UTIL_AVG_UNCHANGED` flag in `enqueued`; at a sleep with the flag
/// clear, `enqueued = task_util(p)`; with `UTIL_EST_FASTUP` an increase is taken at once;
/// when the EWMA is within 1 % of the sample only a change of `enqueued` by 1 % or more is
/// stored; a sample above the CPU's original capacity is dropped; otherwise the EWMA moves
/// a quarter of the way. Sampled after the dequeue's PELT update.
#[derive(Debug, Clone, Copy, Default)]
pub struct V6_6;

impl UtilEstRule for V6_6 {
    fn name(&self) -> &'static str {
        "6.6"
    }
    fn timing(&self) -> Timing {
        Timing::AfterDequeue
    }
    fn task_util_est(&self, ue: &TaskUtilEst) -> u32 {
        ue.ewma.max(ue.enqueued & !UTIL_AVG_UNCHANGED_MSB)
    }
    fn update(&self, ue: &mut TaskUtilEst, task_sleep: bool, s: Sample) {
        if !task_sleep || ue.enqueued & UTIL_AVG_UNCHANGED_MSB != 0 {
            return;
        }
        let last_enqueued = ue.enqueued;
        let enqueued = s.util_avg as u32; // ue.enqueued = task_util(p)
        let mut ewma = ue.ewma;
        if ewma < enqueued {
            ewma = enqueued; // UTIL_EST_FASTUP
        } else {
            // long = unsigned int difference, read back as int by within_margin()
            let last_ewma_diff = enqueued.wrapping_sub(ewma);
            let last_enqueued_diff = i64::from(last_enqueued) - i64::from(enqueued);
            if within_margin(last_ewma_diff as i32, UTIL_EST_MARGIN as i32) {
                if within_margin(last_enqueued_diff as i32, UTIL_EST_MARGIN as i32) {
                    return;
                }
            } else {
                if s.util_avg > s.cpu_cap {
                    return;
                }
                ewma = (ewma << UTIL_EST_WEIGHT_SHIFT).wrapping_add(last_ewma_diff) >> UTIL_EST_WEIGHT_SHIFT;
            }
        }
        *ue = TaskUtilEst { ewma, enqueued: enqueued | UTIL_AVG_UNCHANGED_MSB };
    }
    fn util_avg_changed(&self, ue: &mut TaskUtilEst) {
        ue.enqueued &= !UTIL_AVG_UNCHANGED_MSB;
    }
    fn unchanged(&self, ue: &TaskUtilEst) -> bool {
        ue.enqueued & UTIL_AVG_UNCHANGED_MSB != 0
    }
    fn set_unchanged(&self, ue: &mut TaskUtilEst) {
        ue.enqueued |= UTIL_AVG_UNCHANGED_MSB;
    }
    fn ewma(&self, ue: &TaskUtilEst) -> u32 {
        ue.ewma
    }
    fn has_execl_fix(&self) -> bool {
        true
    }
    fn has_enqueued(&self) -> bool {
        true
    }
}

/// The EWMA step of the v4.17 rules: `ewma = (ewma*4 + (enqueued - ewma)) / 4` with the
/// kernel's types (`unsigned int` difference widened to `long`, wrapped back into the
/// `unsigned int` EWMA). Returns `None` when within the 1 % margin (no store).
#[inline]
fn ewma_step_417(ewma: u32, enqueued: u32) -> Option<u32> {
    let last_ewma_diff = i64::from(enqueued.wrapping_sub(ewma)); // long = (unsigned int)
    if within_margin(last_ewma_diff as i32, UTIL_EST_MARGIN as i32) {
        return None;
    }
    let widened = i64::from(ewma << UTIL_EST_WEIGHT_SHIFT).wrapping_add(last_ewma_diff);
    Some((widened as u32) >> UTIL_EST_WEIGHT_SHIFT)
}

/// The original rule of 7f65ea42eb00 "sched/fair: Add util_est on top of PELT" (v4.17-rc):
/// at every sleep, `enqueued = task_util(p)` and, unless within 1 %, the EWMA moves a
/// quarter of the way in either direction. No flag, no skips.
#[derive(Debug, Clone, Copy, Default)]
pub struct V4_17;

impl UtilEstRule for V4_17 {
    fn name(&self) -> &'static str {
        "4.17"
    }
    fn timing(&self) -> Timing {
        Timing::AfterDequeue
    }
    fn task_util_est(&self, ue: &TaskUtilEst) -> u32 {
        ue.ewma.max(ue.enqueued)
    }
    fn update(&self, ue: &mut TaskUtilEst, task_sleep: bool, s: Sample) {
        if !task_sleep {
            return;
        }
        let enqueued = s.util_avg as u32;
        if let Some(ewma) = ewma_step_417(ue.ewma, enqueued) {
            *ue = TaskUtilEst { ewma, enqueued };
        }
    }
    fn util_avg_changed(&self, _ue: &mut TaskUtilEst) {}
    fn unchanged(&self, _ue: &TaskUtilEst) -> bool {
        false
    }
    fn ewma(&self, ue: &TaskUtilEst) -> u32 {
        ue.ewma
    }
    fn has_execl_fix(&self) -> bool {
        false
    }
    fn has_enqueued(&self) -> bool {
        true
    }
}

/// d519329f72 "sched/fair: Update util_est only on util_avg updates" (v4.17): the
/// original rule plus the LSB `UTIL_AVG_UNCHANGED` flag in `enqueued`, set when a sample
/// is stored and cleared by `cfs_se_util_change()`; a sleep with the flag still set
/// is skipped. The flag bit is part of the arithmetic: `enqueued = task_util | 1`, and the
/// cfs_rq sum adds and removes `_task_util_est(p) | 1`. The execl fix of c469933e7721
/// subtracts `_task_util_est(p) | 1` as well.
#[derive(Debug, Clone, Copy, Default)]
pub struct D519329f72;

impl UtilEstRule for D519329f72 {
    fn name(&self) -> &'static str {
        "d519329f72"
    }
    fn timing(&self) -> Timing {
        Timing::AfterDequeue
    }
    fn task_util_est(&self, ue: &TaskUtilEst) -> u32 {
        ue.ewma.max(ue.enqueued)
    }
    fn cfs_amount(&self, ue: &TaskUtilEst) -> u32 {
        self.task_util_est(ue) | UTIL_AVG_UNCHANGED_LSB
    }
    fn update(&self, ue: &mut TaskUtilEst, task_sleep: bool, s: Sample) {
        if !task_sleep || ue.enqueued & UTIL_AVG_UNCHANGED_LSB != 0 {
            return;
        }
        let enqueued = (s.util_avg as u32) | UTIL_AVG_UNCHANGED_LSB;
        if let Some(ewma) = ewma_step_417(ue.ewma, enqueued) {
            *ue = TaskUtilEst { ewma, enqueued };
        }
    }
    fn util_avg_changed(&self, ue: &mut TaskUtilEst) {
        ue.enqueued &= !UTIL_AVG_UNCHANGED_LSB;
    }
    fn unchanged(&self, ue: &TaskUtilEst) -> bool {
        ue.enqueued & UTIL_AVG_UNCHANGED_LSB != 0
    }
    fn ewma(&self, ue: &TaskUtilEst) -> u32 {
        ue.ewma
    }
    fn execl_fix_amount(&self, ue: &TaskUtilEst) -> u32 {
        self.task_util_est(ue) | UTIL_AVG_UNCHANGED_LSB
    }
    fn has_execl_fix(&self) -> bool {
        false
    }
    fn has_enqueued(&self) -> bool {
        true
    }
}

/// The rule a replay follows when none is named: v6.8+'s, the one of the kernels most
/// recordings come from.
pub const DEFAULT_RULE: &str = "6.12";

/// The names [`rule_by_name`] accepts, newest first.
pub const RULE_NAMES: [&str; 5] = ["6.18", "6.12", "6.6", "d519329f72", "4.17"];

/// The util_est rule called `name` (see the table in the module docs); a leading `v`
/// is accepted (`v6.12`).
pub fn rule_by_name(name: &str) -> Result<&'static dyn UtilEstRule> {
    static R618: OneWord = V6_18;
    static R612: OneWord = V6_12;
    static R66: V6_6 = V6_6;
    static R417: V4_17 = V4_17;
    static RD51: D519329f72 = D519329f72;
    let n = name.trim();
    let n = n.strip_prefix('v').unwrap_or(n);
    match n {
        "6.18" => Ok(&R618),
        "6.12" => Ok(&R612),
        "6.6" => Ok(&R66),
        "4.17" | "7f65ea42eb00" => Ok(&R417),
        "d519329f72" | "d519329f72a6" => Ok(&RD51),
        _ => Err(Error::domain(format!("unknown util_est rule '{name}'; expected one of {}", RULE_NAMES.join(", ")))),
    }
}

/// `util_est_enqueue(cfs_rq, p)`: add the task's estimate to the cfs_rq sum (`u32`, wrapping).
#[inline]
pub fn cfs_enqueue<R: UtilEstRule + ?Sized>(rule: &R, cfs_util_est: &mut u32, ue: &TaskUtilEst) {
    *cfs_util_est = cfs_util_est.wrapping_add(rule.cfs_amount(ue));
}

/// `util_est_dequeue(cfs_rq, p)`: remove the task's estimate from the cfs_rq sum, never
/// below zero (`lsub_positive`).
#[inline]
pub fn cfs_dequeue<R: UtilEstRule + ?Sized>(rule: &R, cfs_util_est: &mut u32, ue: &TaskUtilEst) {
    *cfs_util_est -= (*cfs_util_est).min(rule.cfs_amount(ue));
}

/// The inputs of [`update_each`]: per element a task's util_est storage, whether its
/// `UTIL_AVG_UNCHANGED` flag is set (non-zero), the [`Sample`] and `task_sleep`
/// (non-zero). All seven columns have the same length.
#[derive(Debug, Clone, Copy)]
pub struct UpdateInputs<'a> {
    /// [`TaskUtilEst::ewma`] (31 bits at most).
    pub ewma: &'a [u64],
    /// Non-zero: the flag is set before the update ([`UtilEstRule::set_unchanged`]).
    pub unchanged: &'a [u64],
    /// [`TaskUtilEst::enqueued`] (32 bits at most).
    pub enqueued: &'a [u64],
    /// [`Sample::util_avg`].
    pub util_avg: &'a [u64],
    /// [`Sample::runnable_avg`].
    pub runnable_avg: &'a [u64],
    /// [`Sample::cpu_cap`].
    pub cpu_cap: &'a [u64],
    /// Non-zero: the task goes to sleep (false: a migration, which never samples).
    pub task_sleep: &'a [u64],
}

/// What [`update_each`] leaves in each element: the EWMA without the flag
/// ([`UtilEstRule::ewma`]), whether the flag is set, and `enqueued`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Updated {
    /// [`UtilEstRule::ewma`] after the update.
    pub ewma: Vec<u64>,
    /// [`UtilEstRule::unchanged`] after the update (0 or 1).
    pub unchanged: Vec<u64>,
    /// [`TaskUtilEst::enqueued`] after the update.
    pub enqueued: Vec<u64>,
}

/// One `util_est_update` of the rule called `rule` ([`rule_by_name`]) per element of
/// `inputs` (fair.c `util_est_update`; the notebooks' `pelt.util_est_update`), each
/// element from its own state: the flag set first when asked, then
/// [`UtilEstRule::update`]. An `ewma` above 31 bits or an `enqueued` above 32 bits is
/// an error naming the element.
pub fn update_each(rule: &str, inputs: &UpdateInputs<'_>) -> Result<Updated> {
    let r = rule_by_name(rule)?;
    let i = inputs;
    let n = i.ewma.len();
    let lens = [i.unchanged, i.enqueued, i.util_avg, i.runnable_avg, i.cpu_cap, i.task_sleep].map(<[u64]>::len);
    if lens.iter().any(|&l| l != n) {
        return Err(Error::domain("all util_est_update inputs must have the same length"));
    }
    let mut out =
        Updated { ewma: Vec::with_capacity(n), unchanged: Vec::with_capacity(n), enqueued: Vec::with_capacity(n) };
    for k in 0..n {
        crate::cancel::check_every(k)?;
        let (ew, enq) = (i.ewma[k], i.enqueued[k]);
        if ew > u64::from(u32::MAX >> 1) || enq > u64::from(u32::MAX) {
            return Err(Error::domain(format!("element {k}: util_est values must fit 31 bits")));
        }
        let mut ue = TaskUtilEst { ewma: ew as u32, enqueued: enq as u32 };
        if i.unchanged[k] != 0 {
            r.set_unchanged(&mut ue);
        }
        let sample = Sample { util_avg: i.util_avg[k], runnable_avg: i.runnable_avg[k], cpu_cap: i.cpu_cap[k] };
        r.update(&mut ue, i.task_sleep[k] != 0, sample);
        out.ewma.push(u64::from(r.ewma(&ue)));
        out.unchanged.push(u64::from(r.unchanged(&ue)));
        out.enqueued.push(u64::from(ue.enqueued));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(util: u64, runnable: u64, cap: u64) -> Sample {
        Sample { util_avg: util, runnable_avg: runnable, cpu_cap: cap }
    }

    #[test]
    fn v6_6_by_hand() {
        let r = V6_6;
        let flag = UTIL_AVG_UNCHANGED_MSB;
        // fast up: the EWMA jumps to the sample, enqueued flagged
        let mut ue = TaskUtilEst { ewma: 100, enqueued: 100 };
        r.update(&mut ue, true, s(300, 300, 1024));
        assert_eq!(ue, TaskUtilEst { ewma: 300, enqueued: 300 | flag });
        r.update(&mut ue, true, s(100, 100, 1024)); // flag set: skipped
        assert_eq!(ue.ewma, 300);
        r.util_avg_changed(&mut ue);
        // down: ((300 << 2) + (100 - 300)) >> 2 = 1000 >> 2 = 250
        r.update(&mut ue, true, s(100, 100, 1024));
        assert_eq!(ue, TaskUtilEst { ewma: 250, enqueued: 100 | flag });
        r.util_avg_changed(&mut ue);
        // EWMA within 1 % (250 - 245 = 5) but enqueued moved by 145: only enqueued stored
        r.update(&mut ue, true, s(245, 245, 1024));
        assert_eq!(ue, TaskUtilEst { ewma: 250, enqueued: 245 | flag });
        r.util_avg_changed(&mut ue);
        // both within 1 %: nothing stored, the flag stays clear
        r.update(&mut ue, true, s(248, 248, 1024));
        assert_eq!(ue, TaskUtilEst { ewma: 250, enqueued: 245 });
        // a sample above the original capacity is dropped
        r.update(&mut ue, true, s(200, 200, 150));
        assert_eq!(ue, TaskUtilEst { ewma: 250, enqueued: 245 });
        assert_eq!(r.task_util_est(&ue), 250);
    }

    #[test]
    fn v6_18_keeps_a_sample_above_capacity() {
        // 6.12 drops a sample above the capacity (446); 6.18 takes it:
        // ((600 << 2) - (600 - 500)) >> 2 = 2300 >> 2 = 575
        let mut a = TaskUtilEst { ewma: 600, enqueued: 0 };
        let mut b = a;
        V6_12.update(&mut a, true, s(500, 500, 446));
        V6_18.update(&mut b, true, s(500, 500, 446));
        assert_eq!((a.ewma, V6_18.ewma(&b)), (600, 575));
    }

    #[test]
    fn v6_12_by_hand() {
        let r = V6_12;
        // jump up at once, flag set
        let mut ue = TaskUtilEst { ewma: 100, enqueued: 0 };
        r.update(&mut ue, true, s(300, 300, 1024));
        assert_eq!(ue.ewma, 300 | UTIL_AVG_UNCHANGED_MSB);
        // flag set: skipped
        r.update(&mut ue, true, s(100, 100, 1024));
        assert_eq!(ue.ewma, 300 | UTIL_AVG_UNCHANGED_MSB);
        r.util_avg_changed(&mut ue);
        // down by diff/4: ((300*4) - 200) >> 2 = 250
        r.update(&mut ue, true, s(100, 100, 1024));
        assert_eq!(r.ewma(&ue), 250);
        r.util_avg_changed(&mut ue);
        // starved (100 + 10 < 200): keep 250 but set the flag
        r.update(&mut ue, true, s(100, 200, 1024));
        assert_eq!(ue.ewma, 250 | UTIL_AVG_UNCHANGED_MSB);
    }

    #[test]
    fn v4_17_moves_both_ways_and_lsb_flag_counts() {
        let mut ue = TaskUtilEst::default();
        V4_17.update(&mut ue, true, s(400, 0, 1024));
        // (0*4 + 400) >> 2 = 100
        assert_eq!(ue, TaskUtilEst { ewma: 100, enqueued: 400 });
        V4_17.update(&mut ue, true, s(20, 0, 1024));
        // (400 + (20-100)) >> 2 = 320 >> 2 = 80
        assert_eq!(ue, TaskUtilEst { ewma: 80, enqueued: 20 });
        let mut ue = TaskUtilEst::default();
        D519329f72.update(&mut ue, true, s(400, 0, 1024));
        // enqueued = 400|1 = 401, ewma = 401 >> 2 = 100
        assert_eq!(ue, TaskUtilEst { ewma: 100, enqueued: 401 });
        assert!(D519329f72.unchanged(&ue));
        assert_eq!(D519329f72.cfs_amount(&ue), 401);
        D519329f72.util_avg_changed(&mut ue);
        assert_eq!(ue.enqueued, 400);
    }

    #[test]
    fn margin_is_strict() {
        assert!(within_margin(9, 10) && within_margin(-9, 10) && within_margin(0, 10));
        assert!(!within_margin(10, 10) && !within_margin(-10, 10));
    }

    #[test]
    fn names() {
        assert_eq!(rule_by_name("v6.12").unwrap().name(), "6.12");
        assert_eq!(rule_by_name("6.18").unwrap().name(), "6.18");
        assert_eq!(rule_by_name("6.6").unwrap().name(), "6.6");
        assert_eq!(rule_by_name("d519329f72").unwrap().name(), "d519329f72");
        assert!(rule_by_name("5.0").is_err());
    }

    #[test]
    fn update_each_by_hand() {
        // 6.6, as v6_6_by_hand: fast up to 300 with the MSB flag in enqueued; a flagged
        // element is skipped; a migration (task_sleep 0) never samples.
        let i = UpdateInputs {
            ewma: &[100, 300, 300],
            unchanged: &[0, 1, 0],
            enqueued: &[100, 300, 300],
            util_avg: &[300, 100, 100],
            runnable_avg: &[300, 100, 100],
            cpu_cap: &[1024, 1024, 1024],
            task_sleep: &[1, 1, 0],
        };
        let u = update_each("6.6", &i).unwrap();
        assert_eq!(u.ewma, [300, 300, 300]);
        assert_eq!(u.unchanged, [1, 1, 0]);
        assert_eq!(u.enqueued, [300 | u64::from(UTIL_AVG_UNCHANGED_MSB), 300 | u64::from(UTIL_AVG_UNCHANGED_MSB), 300]);
        let wide = UpdateInputs { ewma: &[1 << 31, 0, 0], ..i };
        assert_eq!(update_each("6.6", &wide).unwrap_err().to_string(), "element 0: util_est values must fit 31 bits");
        let short = UpdateInputs { cpu_cap: &[1024], ..i };
        assert!(update_each("6.6", &short).is_err());
        assert!(update_each("5.0", &i).is_err());
    }
}
