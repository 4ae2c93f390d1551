//! The single-task, single-CPU trace driver of docs/pelt.md §5.2: replays a
//! [`Segment`] trace through the 6.12 scheduler call order (fork, wakeup, pick, tick,
//! preemption by a non-CFS task, sleep) with one nice-0 task and its cfs_rq, and reports
//! one [`Row`] per kernel-visible event.
//!
//! Call order, as the userspace oracle that produced the golden files runs the kernel's
//! own fair.c/pelt.c (each update accounts the elapsed interval with the *old* flags):
//! - **fork** (at `start_ns`, CPU idle): `init_entity_runnable_average`,
//!   `post_init_entity_util_avg` (or util 0 with [`Init::Zero`]), `util_est_enqueue`,
//!   `update_load_avg(DO_ATTACH)` → `attach_entity_load_avg`, weight and counts added.
//! - **wakeup** (S → R/W): a `wake_pre` row with the stale state, then `update_rq_clock`
//!   (idle → the PELT clock syncs), `util_est_enqueue`, `update_load_avg` of the sleeping
//!   entity and the cfs_rq, weight and counts added.
//! - **pick** (→ R): `update_rq_clock`, `set_next_entity` → `update_load_avg`, curr = task.
//! - **tick** (every `tick_ns` of wall time, at multiples of it, while R):
//!   `update_rq_clock`, `entity_tick` → `update_load_avg(curr)`.
//! - **preempt** (R → W): `update_rq_clock`, `put_prev_entity` → `update_load_avg`,
//!   curr = none; a non-CFS task runs (the PELT clock keeps scaling).
//! - **sleep** (R → S): `update_rq_clock`, `util_est_dequeue`, then (6.12) `util_est_update`
//!   *before* `dequeue_entity` → `update_load_avg`, weight and counts removed
//!   (v4.17 rules: the util_est update after it), then `set_next_task_idle` →
//!   `update_idle_rq_clock_pelt` (lost idle time).
//! - **end**: `update_rq_clock` at the end of the last segment.
//!
//! Choices the reference leaves open, made here and documented:
//! - A segment's capacities apply after the events at its start (so the `wake`/`run` rows
//!   of a segment still show the previous capacities, as in the golden files), and the
//!   fork sees capacity 1024.
//! - A tick falling exactly at the end of a running segment happens before the
//!   boundary's events; ticks exactly at the start of a running segment that follows a
//!   sleep do not happen (the CPU was idle).
//! - Consecutive segments in the same state only change the capacities; if they differ,
//!   the rq clock is updated at the boundary (no row), so that each part of the time is
//!   scaled by its own capacities.
//! - No tick while W (the other class owns the tick) or S (nohz idle).

use super::clock::{Curr, RqClock};
use super::consts::{NICE_0_WEIGHT, PELT_MIN_DIVIDER, SCHED_CAPACITY_SCALE};
use super::cpu_util::{cpu_util_cfs, cpu_util_cfs_boost, cpu_util_without, CpuSignals, TaskSignals};
use super::kernel::{default_kernel, Invariance, Kernel};
use super::row::{Event, Row, Sink};
use super::schedutil::sugov_perf;
use super::sequence::{replay, Model};
use super::signal::{pelt_divider, Scale, SchedAvg};
use super::trace::{validate, Segment, State, TraceReader};
use super::util_est::{
    cfs_dequeue, cfs_enqueue, rule_by_name, D519329f72, Sample, TaskUtilEst, Timing, UtilEstRule, V4_17, V6_12, V6_18,
    V6_6,
};
use crate::error::{Error, Result};

/// How a new task's utilization starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Init {
    /// `post_init_entity_util_avg`: half the spare capacity (512 on an empty CPU).
    Kernel,
    /// util_avg and runnable_avg start at 0 (load_avg still starts at the weight).
    Zero,
    /// A task already alive when the trace starts, in a known state (docs/pelt.md §10):
    /// it arrives with these averages and is attached as the kernel attaches a migrated
    /// task (`attach_entity_load_avg`: the sums recomputed from the averages at the
    /// cfs_rq's position).
    Given(StartState),
    /// A task alive when the trace starts whose whole PELT state is known exactly (a
    /// `/proc/PID/sched` reading at the replay's start, docs/pelt.md §12): the sums,
    /// averages and `last_update_time` as the kernel had them; no attach (the task is
    /// already on the cfs_rq, which the replay holds as the task alone).
    Snapshot(StartSnapshot),
}

/// A task's `se.avg` and util_est as a `/proc/PID/sched` reading shows them, the
/// exact state a replay starts from ([`Init::Snapshot`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StartSnapshot {
    /// `se.avg.last_update_time` (PELT clock ns); `period_contrib` is taken as
    /// `(last_update_time >> 10) % 1024` (the cfs_rq's clock started at 0: every update
    /// on a multiple of 1024 ns, docs/live.md §2).
    pub last_update_time: u64,
    /// `se.avg.load_sum`.
    pub load_sum: u64,
    /// `se.avg.runnable_sum`.
    pub runnable_sum: u64,
    /// `se.avg.util_sum`.
    pub util_sum: u32,
    /// `se.avg.load_avg`.
    pub load_avg: u64,
    /// `se.avg.runnable_avg`.
    pub runnable_avg: u64,
    /// `se.avg.util_avg`.
    pub util_avg: u64,
    /// `se.avg.util_est` as printed (6.8+: the one word).
    pub util_est: u32,
}

impl StartSnapshot {
    /// The `sched_avg` it describes.
    pub fn sched_avg(&self) -> SchedAvg {
        SchedAvg {
            last_update_time: self.last_update_time,
            load_sum: self.load_sum,
            runnable_sum: self.runnable_sum,
            util_sum: self.util_sum,
            period_contrib: ((self.last_update_time >> 10) % 1024) as u32,
            load_avg: self.load_avg,
            runnable_avg: self.runnable_avg,
            util_avg: self.util_avg,
        }
    }
}

/// The averages of a task known at the start of a replay (a traced PELT event, a
/// `/proc/PID/sched` snapshot): docs/pelt.md §10.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StartState {
    /// `se.avg.util_avg`.
    pub util_avg: u64,
    /// `se.avg.load_avg`; the nice-0 weight when not known.
    pub load_avg: Option<u64>,
    /// `se.avg.runnable_avg` (4.19: `runnable_load_avg`); when not known, util_avg
    /// (4.19: the load).
    pub runnable_avg: Option<u64>,
    /// `se.avg.util_est`: the EWMA and, before 6.8, `enqueued` (raw, with the flag);
    /// 0 when not known.
    pub util_est: Option<(u32, u32)>,
}

impl Init {
    /// The util_avg a util-only replay starts its task with.
    pub fn util_avg(&self) -> u64 {
        match self {
            // post_init_entity_util_avg on an empty CPU of capacity 1024: (1024 - 0) / 2
            Init::Kernel => SCHED_CAPACITY_SCALE / 2,
            Init::Zero => 0,
            Init::Given(s) => s.util_avg,
            Init::Snapshot(s) => s.util_avg,
        }
    }
}

impl crate::choice::Choice for Init {
    const WHAT: &'static str = "init";
    const ALL: &'static [Self] = &[Init::Kernel, Init::Zero];

    fn name(self) -> &'static str {
        match self {
            Init::Kernel => "kernel",
            Init::Zero => "zero",
            // a start state is given as its values, never by a name (not in ALL)
            Init::Given(_) => "given",
            Init::Snapshot(_) => "snapshot",
        }
    }
}

/// `TICK_NSEC` of [`crate::jiffies::DEFAULT_HZ`] (250: 4,000,000 ns), as the golden files use.
pub const DEFAULT_TICK_NS: u64 = crate::jiffies::tick_nsec(crate::jiffies::DEFAULT_HZ);
/// The fork time of the golden files: 1000 PELT periods (1000 × 1,048,576 ns).
pub const DEFAULT_START_NS: u64 = 1_048_576_000;

/// Options of a simulation.
#[derive(Debug, Clone, Copy)]
pub struct Config {
    /// New-task initialization.
    pub init: Init,
    /// `sched_feat(UTIL_EST)`.
    pub util_est: bool,
    /// The util_est rule version.
    pub rule: &'static dyn UtilEstRule,
    /// Force `cpu_util_without`/`cpu_util_wake` with (true) or without (false) the execl
    /// fix; `None` uses the rule's own version (6.12: with, 4.17 rules: without).
    pub execl_fix: Option<bool>,
    /// `TICK_NSEC`; ticks fall on multiples of it.
    pub tick_ns: u64,
    /// Wall time of the fork (ns), at least 1024.
    pub start_ns: u64,
    /// The kernel version whose PELT arithmetic is replayed (docs/pelt.md §9); its
    /// util_est rule and execl fix are the defaults of [`super::kernel::config`].
    pub kernel: &'static Kernel,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            init: Init::Kernel,
            util_est: true,
            rule: rule_by_name(super::util_est::DEFAULT_RULE).unwrap_or(&super::util_est::V6_12),
            execl_fix: None,
            tick_ns: DEFAULT_TICK_NS,
            start_ns: DEFAULT_START_NS,
            kernel: default_kernel(),
        }
    }
}

impl Config {
    /// Refuse a start time outside 1024..2^62 ns or a zero tick period.
    pub fn check(&self) -> Result<()> {
        if self.start_ns < 1024 || self.start_ns > i64::MAX as u64 / 2 {
            return Err(Error::domain(format!("start_ns must be in 1024..2^62, got {}", self.start_ns)));
        }
        if self.tick_ns == 0 {
            return Err(Error::domain("tick_ns must be > 0"));
        }
        Ok(())
    }

    /// `TICK_NSEC` for a HZ value as the kernel defines it: `(NSEC_PER_SEC + HZ/2) / HZ`.
    pub fn tick_ns_for_hz(hz: u64) -> Result<u64> {
        if hz == 0 || hz > 100_000 {
            return Err(Error::domain(format!("HZ must be in 1..100000, got {hz}")));
        }
        Ok(crate::jiffies::tick_nsec(hz))
    }
}

#[derive(Debug, Clone, Copy, Default)]
struct Task {
    avg: SchedAvg,
    ue: TaskUtilEst,
    on_rq: bool,
}

#[derive(Debug, Clone, Copy, Default)]
struct CfsRq {
    avg: SchedAvg,
    util_est: u32,
    /// `scale_load_down(cfs_rq->load.weight)`.
    load_weight: u64,
    /// `h_nr_running` (no delayed dequeue is modelled).
    h_nr_running: u64,
    /// `cfs_rq->curr == &p->se`.
    curr: bool,
    /// `cfs_rq->removed`: the averages of a task that left, subtracted at the next update.
    removed: Removed,
}

/// `cfs_rq->removed` (`remove_entity_load_avg`), applied by `update_cfs_rq_load_avg`.
#[derive(Debug, Clone, Copy, Default)]
struct Removed {
    nr: u32,
    util_avg: u64,
    load_avg: u64,
    runnable_avg: u64,
}

/// `sub_positive(ptr, val)` of fair.c on an `unsigned long`: 0 rather than below.
fn sub_positive(v: &mut u64, by: u64) {
    *v -= (*v).min(by);
}

/// The simulated CPU: clocks, the task, its cfs_rq and the cpufreq call count; generic
/// over the util_est rule so that the built-in rules are called statically.
struct Cpu<'r, R: UtilEstRule + ?Sized> {
    cfg: Config,
    rule: &'r R,
    execl_fix: bool,
    clock: RqClock,
    cpu_cap: u64,
    freq_cap: u64,
    task: Task,
    cfs: CfsRq,
    cpufreq_calls: u64,
    /// The CPU the task is on (the segments' `cpu`).
    cpu_id: u32,
    /// The runqueues the task left (clock and cfs_rq by CPU), each idle since.
    parked: Vec<(u32, RqClock, CfsRq)>,
}

impl<'r, R: UtilEstRule + ?Sized> Cpu<'r, R> {
    fn new(cfg: Config, rule: &'r R) -> Self {
        Cpu {
            cfg,
            rule,
            execl_fix: cfg.execl_fix.unwrap_or_else(|| rule.has_execl_fix()),
            clock: RqClock::new(cfg.start_ns),
            cpu_cap: SCHED_CAPACITY_SCALE,
            freq_cap: SCHED_CAPACITY_SCALE,
            task: Task::default(),
            cfs: CfsRq::default(),
            cpufreq_calls: 0,
            cpu_id: 0,
            parked: Vec::new(),
        }
    }

    #[inline]
    fn update_rq_clock(&mut self, now: u64) {
        match self.cfg.kernel.invariance {
            Invariance::Clock => self.clock.update(now, self.cpu_cap, self.freq_cap),
            // 4.19: PELT runs on rq_clock_task (an unscaled clock never loses idle time)
            Invariance::Contribution => self.clock.update(now, SCHED_CAPACITY_SCALE, SCHED_CAPACITY_SCALE),
        }
    }

    /// 4.19's contribution scaling at this update, or None for the PELT clock.
    #[inline]
    fn scale(&self) -> Option<Scale> {
        match self.cfg.kernel.invariance {
            Invariance::Clock => None,
            Invariance::Contribution => Some(Scale { freq: self.freq_cap, cpu: self.cpu_cap }),
        }
    }

    /// `update_load_avg(cfs_rq, se, flags)` with `DO_ATTACH` when `attach`.
    #[inline]
    fn update_load_avg(&mut self, attach: bool) {
        let now = self.clock.pelt_now();
        // Once attached, the task and its cfs_rq sit at the same clock position and are
        // always updated together: they take the same step (computed once).
        let cfs_step = self.cfs.avg.step(now);
        let se = &self.task.avg;
        if se.last_update_time != 0 {
            let step = if se.last_update_time == self.cfs.avg.last_update_time
                && se.period_contrib == self.cfs.avg.period_contrib
            {
                cfs_step
            } else {
                se.step(now)
            };
            let load = u64::from(self.task.on_rq);
            let curr = self.cfs.curr;
            let changed = match self.scale() {
                None => self.task.avg.update_with_step(&step, load, load, curr, NICE_0_WEIGHT),
                Some(sc) => {
                    let w = (NICE_0_WEIGHT, NICE_0_WEIGHT); // se_weight, se_runnable
                    self.task.avg.update_with_step_scaled(&step, load, load, curr, w, sc)
                }
            };
            if changed && self.cfg.util_est {
                self.rule.util_avg_changed(&mut self.task.ue);
            }
        }
        let scale = self.scale();
        let removed = self.apply_removed();
        let cfs = &mut self.cfs;
        let (lw, nr, curr) = (cfs.load_weight, cfs.h_nr_running, cfs.curr);
        let decayed = removed
            | match scale {
                None => cfs.avg.update_with_step(&cfs_step, lw, nr, curr, 1),
                // runnable: scale_load_down(cfs_rq->runnable_weight), 1024 a nice-0 task
                Some(sc) => cfs.avg.update_with_step_scaled(&cfs_step, lw, nr * NICE_0_WEIGHT, curr, (1, 1), sc),
            };
        if self.cfg.kernel.invariance == Invariance::Contribution {
            // 4.19: update_cfs_rq_load_avg() itself calls cfs_rq_util_change() when the
            // cfs_rq decayed, and attach_entity_load_avg() calls it again
            if decayed {
                self.cpufreq_calls += 1;
            }
            if self.task.avg.last_update_time == 0 && attach {
                self.attach();
            }
        } else if self.task.avg.last_update_time == 0 && attach {
            self.attach();
        } else if decayed {
            self.cpufreq_calls += 1; // cfs_rq_util_change
        }
    }

    /// The `removed` part of `update_cfs_rq_load_avg`: the averages of a task that
    /// migrated away, and `avg * divider` from the sums (`sub_positive`, the `u32`
    /// util_sum's subtrahend truncated to it); in 6.6–6.18 the sums are then kept at least
    /// `avg * PELT_MIN_DIVIDER` (`max_t(u32, ...)`), not in 4.19. Returns whether there
    /// was anything (the cfs_rq then counts as decayed).
    fn apply_removed(&mut self) -> bool {
        let r = std::mem::take(&mut self.cfs.removed);
        if r.nr == 0 {
            return false;
        }
        let floor = self.cfg.kernel.runnable_avg;
        let divider = u64::from(pelt_divider(&self.cfs.avg));
        let min = u64::from(PELT_MIN_DIVIDER);
        let a = &mut self.cfs.avg;
        sub_positive(&mut a.load_avg, r.load_avg);
        sub_positive(&mut a.load_sum, r.load_avg.wrapping_mul(divider));
        if floor {
            a.load_sum = u64::from((a.load_sum as u32).max(a.load_avg.wrapping_mul(min) as u32));
        }
        sub_positive(&mut a.util_avg, r.util_avg);
        let by = r.util_avg.wrapping_mul(divider) as u32;
        a.util_sum -= a.util_sum.min(by);
        if floor {
            a.util_sum = a.util_sum.max(a.util_avg.wrapping_mul(min) as u32);
            sub_positive(&mut a.runnable_avg, r.runnable_avg);
            sub_positive(&mut a.runnable_sum, r.runnable_avg.wrapping_mul(divider));
            a.runnable_sum = u64::from((a.runnable_sum as u32).max(a.runnable_avg.wrapping_mul(min) as u32));
        }
        true
    }

    /// The waking task moves to `cpu` (docs/pelt.md §11): `migrate_task_rq_fair` →
    /// `remove_entity_load_avg` (the task synced to its cfs_rq's last update, which an
    /// idle CPU did not advance, and its averages queued for removal there; 6.0+'s
    /// `migrate_se_pelt_lag` is not replayed), `last_update_time = 0`; the wakeup's
    /// enqueue then attaches it to `cpu`'s cfs_rq (idle since the start, or since the
    /// task left it).
    fn migrate_to(&mut self, cpu: u32, now: u64, sync_lag_ns: Option<u64>) {
        if cpu == self.cpu_id {
            return;
        }
        if let Some(lag) = sync_lag_ns {
            // the trace saw the old CPU's cfs_rq updated then (other tasks, blocked-load
            // updates): an update of it with the task blocked, on its idle clock
            // (update_cfs_rq_load_avg alone: the blocked task is synced below)
            self.update_rq_clock(now.saturating_sub(lag));
            let at = self.clock.pelt_now();
            self.apply_removed();
            let step = self.cfs.avg.step(at);
            let c = &mut self.cfs;
            match self.cfg.kernel.invariance {
                Invariance::Clock => c.avg.update_with_step(&step, 0, 0, false, 1),
                Invariance::Contribution => {
                    let sc = Scale { freq: self.freq_cap, cpu: self.cpu_cap };
                    c.avg.update_with_step_scaled(&step, 0, 0, false, (1, 1), sc)
                }
            };
        }
        let lut = self.cfs.avg.last_update_time;
        let a = &mut self.task.avg;
        match self.cfg.kernel.invariance {
            // __update_load_avg_blocked_se: no contribution, so no scaling
            Invariance::Clock => a.update(lut, 0, 0, false, NICE_0_WEIGHT),
            Invariance::Contribution => {
                let sc = Scale { freq: self.freq_cap, cpu: self.cpu_cap };
                a.update_scaled(lut, 0, 0, false, (NICE_0_WEIGHT, NICE_0_WEIGHT), sc)
            }
        };
        let r = &mut self.cfs.removed;
        r.nr += 1;
        r.util_avg = r.util_avg.wrapping_add(a.util_avg);
        r.load_avg = r.load_avg.wrapping_add(a.load_avg);
        r.runnable_avg = r.runnable_avg.wrapping_add(a.runnable_avg);
        a.last_update_time = 0;
        let (clock, cfs) = match self.parked.iter().position(|p| p.0 == cpu) {
            Some(i) => {
                let (_, clock, cfs) = self.parked.swap_remove(i);
                (clock, cfs)
            }
            None => (RqClock::new(self.cfg.start_ns), CfsRq::default()),
        };
        self.parked.push((self.cpu_id, self.clock, self.cfs));
        (self.clock, self.cfs, self.cpu_id) = (clock, cfs, cpu);
    }

    /// `attach_entity_load_avg(cfs_rq, se)` (with `enqueue_load_avg`).
    fn attach(&mut self) {
        if !self.cfg.kernel.runnable_avg {
            return self.attach_4_19();
        }
        let divider = pelt_divider(&self.cfs.avg);
        let se = &mut self.task.avg;
        se.last_update_time = self.cfs.avg.last_update_time;
        se.period_contrib = self.cfs.avg.period_contrib;
        se.util_sum = se.util_avg.wrapping_mul(u64::from(divider)) as u32;
        se.runnable_sum = se.runnable_avg.wrapping_mul(u64::from(divider));
        se.load_sum = se.load_avg.wrapping_mul(u64::from(divider));
        se.load_sum = if NICE_0_WEIGHT < se.load_sum { se.load_sum / NICE_0_WEIGHT } else { 1 };
        let c = &mut self.cfs.avg;
        c.load_avg = c.load_avg.wrapping_add(se.load_avg);
        c.load_sum = c.load_sum.wrapping_add(NICE_0_WEIGHT.wrapping_mul(se.load_sum));
        c.util_avg = c.util_avg.wrapping_add(se.util_avg);
        c.util_sum = c.util_sum.wrapping_add(se.util_sum);
        c.runnable_avg = c.runnable_avg.wrapping_add(se.runnable_avg);
        c.runnable_sum = c.runnable_sum.wrapping_add(se.runnable_sum);
        self.cpufreq_calls += 1; // cfs_rq_util_change
    }

    /// 4.19's `attach_entity_load_avg`: `load_sum = load_avg * divider / se_weight`
    /// (0 allowed), `runnable_load_sum = load_sum`, and only the load and util added to
    /// the cfs_rq (its runnable load is that of the enqueued entities, added by
    /// `enqueue_runnable_load_avg`, docs/pelt.md §9.2).
    fn attach_4_19(&mut self) {
        let divider = u64::from(pelt_divider(&self.cfs.avg));
        let se = &mut self.task.avg;
        se.last_update_time = self.cfs.avg.last_update_time;
        se.period_contrib = self.cfs.avg.period_contrib;
        se.util_sum = se.util_avg.wrapping_mul(divider) as u32;
        se.load_sum = se.load_avg.wrapping_mul(divider) / NICE_0_WEIGHT;
        se.runnable_sum = se.load_sum; // runnable_load_sum
        let c = &mut self.cfs.avg;
        c.load_avg = c.load_avg.wrapping_add(se.load_avg);
        c.load_sum = c.load_sum.wrapping_add(NICE_0_WEIGHT.wrapping_mul(se.load_sum));
        c.util_avg = c.util_avg.wrapping_add(se.util_avg);
        c.util_sum = c.util_sum.wrapping_add(se.util_sum);
        self.cpufreq_calls += 1; // cfs_rq_util_change
    }

    /// 4.19's `enqueue_runnable_load_avg` (true) / `dequeue_runnable_load_avg` (false):
    /// the cfs_rq's runnable load follows the enqueued entities.
    fn runnable_load(&mut self, enqueue: bool) {
        if self.cfg.kernel.runnable_avg {
            return;
        }
        let (se, c) = (&self.task.avg, &mut self.cfs.avg);
        let sum = NICE_0_WEIGHT.wrapping_mul(se.runnable_sum); // se_runnable(se) * runnable_load_sum
        if enqueue {
            c.runnable_avg = c.runnable_avg.wrapping_add(se.runnable_avg);
            c.runnable_sum = c.runnable_sum.wrapping_add(sum);
        } else {
            c.runnable_avg -= c.runnable_avg.min(se.runnable_avg); // sub_positive
            c.runnable_sum -= c.runnable_sum.min(sum);
        }
    }

    /// `post_init_entity_util_avg(p)` of 6.12.
    fn post_init_entity_util_avg(&mut self) {
        let cap = (self.cpu_cap as i64 - self.cfs.avg.util_avg as i64) / 2;
        let sa = &mut self.task.avg;
        if cap > 0 {
            if self.cfs.avg.util_avg != 0 {
                let util =
                    self.cfs.avg.util_avg.wrapping_mul(NICE_0_WEIGHT) / self.cfs.avg.load_avg.wrapping_add(1).max(1);
                sa.util_avg = util.min(cap as u64);
            } else {
                sa.util_avg = cap as u64;
            }
        }
        if self.cfg.kernel.runnable_avg {
            sa.runnable_avg = sa.util_avg; // 4.19 keeps runnable_load_avg = the weight
        }
    }

    fn util_est_enqueue(&mut self) {
        if self.cfg.util_est {
            cfs_enqueue(self.rule, &mut self.cfs.util_est, &self.task.ue);
        }
    }

    /// `enqueue_entity`'s PELT part plus `account_entity_enqueue` and the counts.
    fn enqueue_entity(&mut self) {
        self.update_load_avg(true);
        self.runnable_load(true);
        self.cfs.load_weight += NICE_0_WEIGHT;
        self.cfs.h_nr_running += 1;
        self.task.on_rq = true;
    }

    fn sample(&self) -> Sample {
        Sample { util_avg: self.task.avg.util_avg, runnable_avg: self.task.avg.runnable_avg, cpu_cap: self.cpu_cap }
    }

    fn fork(&mut self) {
        // init_entity_runnable_average: everything 0 but load_avg = the weight (4.19:
        // runnable_load_avg too).
        let runnable_avg = if self.cfg.kernel.runnable_avg { 0 } else { NICE_0_WEIGHT };
        self.task.avg = SchedAvg { load_avg: NICE_0_WEIGHT, runnable_avg, ..SchedAvg::default() };
        self.task.ue = TaskUtilEst::default();
        match self.cfg.init {
            Init::Kernel => self.post_init_entity_util_avg(),
            Init::Zero => {}
            Init::Given(s) => {
                let a = &mut self.task.avg;
                a.util_avg = s.util_avg;
                a.load_avg = s.load_avg.unwrap_or(NICE_0_WEIGHT);
                a.runnable_avg =
                    s.runnable_avg.unwrap_or(if self.cfg.kernel.runnable_avg { s.util_avg } else { a.load_avg });
                if let Some((ewma, enqueued)) = s.util_est {
                    self.task.ue = TaskUtilEst { ewma, enqueued };
                }
            }
            Init::Snapshot(s) => {
                // already attached: the cfs_rq holds the task alone, at its position
                self.task.avg = s.sched_avg();
                self.task.ue = TaskUtilEst { ewma: s.util_est, enqueued: 0 };
                let a = self.task.avg;
                self.cfs.avg = SchedAvg { load_sum: NICE_0_WEIGHT.wrapping_mul(a.load_sum), ..a };
            }
        }
        self.update_rq_clock(self.cfg.start_ns);
        self.util_est_enqueue();
        self.enqueue_entity();
    }

    fn wake(&mut self, now: u64) {
        self.update_rq_clock(now);
        self.util_est_enqueue();
        self.enqueue_entity();
    }

    fn pick(&mut self, now: u64) {
        self.update_rq_clock(now);
        self.update_load_avg(false); // set_next_entity, se->on_rq
        self.cfs.curr = true;
        self.clock.curr = Curr::Task;
    }

    fn tick(&mut self, now: u64) {
        self.update_rq_clock(now);
        self.update_load_avg(false);
    }

    fn preempt(&mut self, now: u64) {
        self.update_rq_clock(now);
        self.update_load_avg(false); // put_prev_entity, prev->on_rq
        self.cfs.curr = false;
        self.clock.curr = Curr::Other;
    }

    fn sleep(&mut self, now: u64) {
        self.update_rq_clock(now);
        let rule = self.rule;
        if self.cfg.util_est && rule.timing() == Timing::BeforeDequeue {
            cfs_dequeue(rule, &mut self.cfs.util_est, &self.task.ue);
            let s = self.sample();
            rule.update(&mut self.task.ue, true, s);
        }
        // dequeue_entity: update with the old flags, then account_entity_dequeue.
        self.update_load_avg(false);
        self.runnable_load(false);
        self.cfs.load_weight -= NICE_0_WEIGHT.min(self.cfs.load_weight);
        self.cfs.h_nr_running = self.cfs.h_nr_running.saturating_sub(1);
        self.task.on_rq = false;
        if self.cfg.util_est && rule.timing() == Timing::AfterDequeue {
            cfs_dequeue(rule, &mut self.cfs.util_est, &self.task.ue);
            let s = self.sample();
            rule.update(&mut self.task.ue, true, s);
        }
        // put_prev_entity (not on_rq: no update), curr = NULL; set_next_task_idle.
        self.cfs.curr = false;
        self.clock.switch_to_idle(self.cfs.avg.util_sum);
    }

    #[inline]
    fn row(&self, t_ns: u64, event: Event, seg: u64, state: State) -> Row {
        let rule = self.rule;
        let ue = &self.task.ue;
        let cpu = CpuSignals {
            util_avg: self.cfs.avg.util_avg,
            runnable_avg: self.cfs.avg.runnable_avg,
            util_est: self.cfs.util_est,
            capacity: self.cpu_cap,
            util_est_enabled: self.cfg.util_est,
        };
        let task_est = rule.task_util_est(ue);
        let p = TaskSignals {
            util_avg: self.task.avg.util_avg,
            util_est: task_est,
            fix_amount: rule.execl_fix_amount(ue),
            queued_or_current: self.task.on_rq || self.clock.curr == Curr::Task,
            on_this_cpu: true,
            is_new: self.task.avg.last_update_time == 0,
        };
        let boost = if self.cfg.kernel.runnable_boost { cpu_util_cfs_boost(&cpu) } else { cpu_util_cfs(&cpu) };
        Row {
            t_ns,
            event,
            seg,
            state,
            cpu_cap: self.cpu_cap as u32,
            freq_cap: self.freq_cap as u32,
            clock_task: self.clock.clock_task,
            clock_pelt: self.clock.clock_pelt,
            lost_idle_time: self.clock.lost_idle_time,
            p_util_avg: self.task.avg.util_avg,
            p_util_sum: self.task.avg.util_sum,
            p_period_contrib: self.task.avg.period_contrib,
            p_runnable_avg: self.task.avg.runnable_avg,
            p_load_avg: self.task.avg.load_avg,
            p_last_update_time: self.task.avg.last_update_time,
            p_util_est: rule.ewma(ue),
            p_ue_unchanged: rule.unchanged(ue),
            p_ue_enqueued: ue.enqueued,
            cfs_util_avg: self.cfs.avg.util_avg,
            cfs_util_sum: self.cfs.avg.util_sum,
            cfs_runnable_avg: self.cfs.avg.runnable_avg,
            cfs_load_avg: self.cfs.avg.load_avg,
            cfs_util_est: self.cfs.util_est,
            cpu_util_cfs: cpu_util_cfs(&cpu),
            cpu_util_cfs_boost: boost,
            cpu_util_without_p: cpu_util_without(&cpu, &p, self.execl_fix),
            task_util_est_p: self.task.avg.util_avg.max(u64::from(task_est)),
            sugov_perf: sugov_perf(boost, self.cpu_cap),
            cpufreq_calls: self.cpufreq_calls,
        }
    }
}

/// Replay `trace` with `cfg`, handing every event's row to `sink` in time order.
/// Returns the number of rows. The trace is validated first ([`validate`]).
///
/// The built-in rules (recognised by [`UtilEstRule::name`]) are dispatched statically;
/// any other implementation is called through `dyn`.
pub fn simulate<S: Sink + ?Sized>(trace: &[Segment], cfg: &Config, sink: &mut S) -> Result<u64> {
    validate(trace)?;
    cfg.check()?;
    match cfg.rule.name() {
        "6.18" => run(trace, Cpu::new(*cfg, &V6_18), sink),
        "6.12" => run(trace, Cpu::new(*cfg, &V6_12), sink),
        "6.6" => run(trace, Cpu::new(*cfg, &V6_6), sink),
        "4.17" => run(trace, Cpu::new(*cfg, &V4_17), sink),
        "d519329f72" => run(trace, Cpu::new(*cfg, &D519329f72), sink),
        _ => run(trace, Cpu::new(*cfg, cfg.rule), sink),
    }
}

/// [`simulate`] of a trace CSV read a segment at a time ([`TraceReader`]): memory does
/// not grow with the trace; a row is handed on before the next segment is read.
pub fn simulate_stream<In: std::io::Read, S: Sink + ?Sized>(
    reader: &mut TraceReader<'_, In>,
    cfg: &Config,
    sink: &mut S,
) -> Result<u64> {
    cfg.check()?;
    let Some(first) = reader.next_segment()? else {
        return Err(Error::parse(None, None, "the trace has no segments"));
    };
    let tick_ns = if reader.has_ticks() { super::sequence::NO_GRID } else { cfg.tick_ns };
    match cfg.rule.name() {
        "6.18" => run_stream(first, reader, tick_ns, Cpu::new(*cfg, &V6_18), sink),
        "6.12" => run_stream(first, reader, tick_ns, Cpu::new(*cfg, &V6_12), sink),
        "6.6" => run_stream(first, reader, tick_ns, Cpu::new(*cfg, &V6_6), sink),
        "4.17" => run_stream(first, reader, tick_ns, Cpu::new(*cfg, &V4_17), sink),
        "d519329f72" => run_stream(first, reader, tick_ns, Cpu::new(*cfg, &D519329f72), sink),
        _ => run_stream(first, reader, tick_ns, Cpu::new(*cfg, cfg.rule), sink),
    }
}

fn run_stream<In: std::io::Read, R: UtilEstRule + ?Sized, S: Sink + ?Sized>(
    first: Segment,
    reader: &mut TraceReader<'_, In>,
    tick_ns: u64,
    mut cpu: Cpu<'_, R>,
    sink: &mut S,
) -> Result<u64> {
    let start_ns = cpu.cfg.start_ns;
    cpu.cpu_id = first.cpu; // forked there
    super::sequence::replay_stream(
        first,
        || reader.next_segment(),
        start_ns,
        tick_ns,
        &mut cpu,
        |cpu: &Cpu<'_, R>, t, ev, seg, st| {
            if sink.wants(ev) {
                sink.row(&cpu.row(t, ev, seg, st))
            } else {
                Ok(())
            }
        },
    )
}

fn run<R: UtilEstRule + ?Sized, S: Sink + ?Sized>(trace: &[Segment], mut cpu: Cpu<'_, R>, sink: &mut S) -> Result<u64> {
    let (start_ns, tick_ns) = (cpu.cfg.start_ns, cpu.cfg.tick_ns);
    cpu.cpu_id = trace.first().map_or(0, |s| s.cpu); // forked there
    replay(
        trace,
        start_ns,
        tick_ns,
        &mut cpu,
        |cpu: &Cpu<'_, R>, t, ev, seg, st| {
            if sink.wants(ev) {
                sink.row(&cpu.row(t, ev, seg, st))
            } else {
                Ok(())
            }
        },
    )
}

impl<R: UtilEstRule + ?Sized> Model for Cpu<'_, R> {
    #[inline]
    fn fork(&mut self) {
        Cpu::fork(self)
    }
    #[inline]
    fn wake(&mut self, now: u64) {
        Cpu::wake(self, now)
    }
    #[inline]
    fn pick(&mut self, now: u64) {
        Cpu::pick(self, now)
    }
    #[inline]
    fn tick(&mut self, now: u64) {
        Cpu::tick(self, now)
    }
    #[inline]
    fn preempt(&mut self, now: u64) {
        Cpu::preempt(self, now)
    }
    #[inline]
    fn sleep(&mut self, now: u64) {
        Cpu::sleep(self, now)
    }
    #[inline]
    fn other_runs(&mut self) {
        self.clock.curr = Curr::Other;
    }
    #[inline]
    fn update_rq_clock(&mut self, now: u64) {
        Cpu::update_rq_clock(self, now)
    }
    #[inline]
    fn capacities(&self) -> (u64, u64) {
        (self.cpu_cap, self.freq_cap)
    }
    #[inline]
    fn set_capacities(&mut self, cpu_cap: u64, freq_cap: u64) {
        self.cpu_cap = cpu_cap;
        self.freq_cap = freq_cap;
    }
    #[inline]
    fn migrate(&mut self, cpu: u32, now: u64, sync_lag_ns: Option<u64>) {
        Cpu::migrate_to(self, cpu, now, sync_lag_ns)
    }
}

/// The exact number of rows of each [`Event`] (indexed by `Event as usize`) that
/// [`simulate`] produces for a (valid) trace, computed without simulating (to size
/// output buffers).
pub fn count_rows_by_event(trace: &[Segment], cfg: &Config) -> [u64; 8] {
    use super::trace::Segments;
    let explicit = trace.has_ticks();
    let tick = cfg.tick_ns.max(1);
    let mut n = [0u64; 8];
    let mut add = |e: Event, k: u64| {
        if let Some(c) = n.get_mut(e as usize) {
            *c += k;
        }
    };
    add(Event::Fork, 1);
    add(Event::End, 1);
    let mut t = cfg.start_ns;
    let mut prev: Option<State> = None;
    for seg in trace {
        match (prev, seg.state) {
            (Some(p), s) if p == s => {}
            (None, State::Run) | (Some(State::Wait), State::Run) => add(Event::Run, 1),
            (None, _) => {}
            (Some(State::Sleep), s) => {
                add(Event::WakePre, 1);
                add(Event::Wake, 1);
                if s == State::Run {
                    add(Event::Run, 1);
                }
            }
            (Some(State::Run), State::Wait) => add(Event::Preempt, 1),
            (Some(State::Run), State::Sleep) => add(Event::Sleep, 1),
            // same state (handled above) or W -> S (refused by validate())
            (Some(State::Wait), _) | (Some(State::Run), State::Run) => {}
        }
        let end = t.saturating_add(seg.dur_ns);
        if explicit {
            add(Event::Tick, u64::from(seg.tick));
        } else if seg.state == State::Run {
            add(Event::Tick, end / tick - t / tick);
        }
        t = end;
        prev = Some(seg.state);
    }
    n
}

/// The exact number of rows [`simulate`] produces for a (valid) trace.
pub fn count_rows(trace: &[Segment], cfg: &Config) -> u64 {
    count_rows_by_event(trace, cfg).iter().sum()
}

/// Where [`simulate_csv`] writes the rows.
pub enum CsvOutput<'a, W: std::io::Write> {
    /// A file created (or truncated) at the path.
    File(&'a std::path::Path),
    /// A writer (a front end's stream, named `<stdout>` in errors).
    Write(W),
    /// A buffer returned to the caller.
    Memory,
}

/// Replay `trace` and write its rows as the golden-identical CSV ([`super::row::CsvWriter`],
/// with the `enqueued` column when the config's util_est rule has one) to `out`; the
/// bytes are returned for [`CsvOutput::Memory`] only. The buffer is reserved once from
/// the exact row count (about 170 bytes a row) rather than doubled through hundreds of MB;
/// when that much memory is not available it grows as needed.
pub fn simulate_csv<W: std::io::Write>(
    trace: &[Segment],
    cfg: &Config,
    out: CsvOutput<'_, W>,
) -> Result<Option<Vec<u8>>> {
    let reserve = match out {
        CsvOutput::Memory => usize::try_from(count_rows(trace, cfg).saturating_mul(170)).unwrap_or(usize::MAX),
        _ => 0,
    };
    write_csv(Slice(trace), cfg, out, reserve)
}

/// [`simulate_csv`] of a trace read a segment at a time: the rows are written as the
/// trace is read, to the file `out` or the writer.
pub fn simulate_csv_stream<In: std::io::Read, W: std::io::Write>(
    reader: &mut TraceReader<'_, In>,
    cfg: &Config,
    out: CsvOutput<'_, W>,
) -> Result<Option<Vec<u8>>> {
    write_csv(Stream(reader), cfg, out, 0)
}

/// A replay that can feed any sink: a trace held as a slice, or read as a stream (one
/// writer of the CSV for both, each replay monomorphised for its sink).
trait Replay {
    fn run<S: Sink>(self, cfg: &Config, sink: &mut S) -> Result<u64>;
}

struct Slice<'t>(&'t [Segment]);
struct Stream<'r, 'l, In: std::io::Read>(&'r mut TraceReader<'l, In>);

impl Replay for Slice<'_> {
    fn run<S: Sink>(self, cfg: &Config, sink: &mut S) -> Result<u64> {
        simulate(self.0, cfg, sink)
    }
}

impl<In: std::io::Read> Replay for Stream<'_, '_, In> {
    fn run<S: Sink>(self, cfg: &Config, sink: &mut S) -> Result<u64> {
        simulate_stream(self.0, cfg, sink)
    }
}

/// Run `replay` into the CSV writer for `out` (`reserve` bytes reserved up front for
/// [`CsvOutput::Memory`]).
fn write_csv<R: Replay, W: std::io::Write>(
    replay: R,
    cfg: &Config,
    out: CsvOutput<'_, W>,
    reserve: usize,
) -> Result<Option<Vec<u8>>> {
    use super::row::CsvWriter;
    let enq = cfg.rule.has_enqueued();
    match out {
        CsvOutput::File(p) => {
            let f = std::fs::File::create(p).map_err(|e| Error::io(p, &e))?;
            let mut w = CsvWriter::new(std::io::BufWriter::new(f), enq, &p.display().to_string())?;
            replay.run(cfg, &mut w)?;
            w.finish()?;
            Ok(None)
        }
        CsvOutput::Write(sink) => {
            let mut w = CsvWriter::new(sink, enq, "<stdout>")?;
            replay.run(cfg, &mut w)?;
            w.finish()?;
            Ok(None)
        }
        CsvOutput::Memory => {
            let mut buf = Vec::new();
            let _ = buf.try_reserve_exact(reserve);
            let mut w = CsvWriter::new(buf, enq, "<memory>")?;
            replay.run(cfg, &mut w)?;
            Ok(Some(w.finish()?))
        }
    }
}

/// Replay `trace` and collect the rows.
pub fn simulate_rows(trace: &[Segment], cfg: &Config) -> Result<Vec<Row>> {
    validate(trace)?;
    let n = usize::try_from(count_rows(trace, cfg)).unwrap_or(usize::MAX);
    let mut rows = Vec::new();
    rows.try_reserve_exact(n)
        .map_err(|_| Error::domain(format!("not enough memory for {n} rows; use a streaming Sink")))?;
    simulate(trace, cfg, &mut rows)?;
    Ok(rows)
}
