//! What one trace measured: exact counters and bounded histograms per CPU, per idle
//! state and per task group, with what the trace could not see (lost events, the time
//! before each CPU's first event) said as numbers (docs/trace-compare.md §3). One
//! summary is one run's sample of every metric; [`super::metrics`] turns it into rows.

use super::event::Loss;
use super::hist::Hist;
use super::whatif::WhatIf;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Losses kept word for word; the rest are counted.
pub const MAX_LOSSES_KEPT: usize = 20;

/// The counters of one idle state of one CPU.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateCounters {
    /// Entries that were left (`cpu_idle state=K` then its exit): the kernel's `usage`.
    pub usage: u64,
    /// Σ (exit − entry) over those entries, ns: the kernel's `time` (sysfs shows µs).
    pub time_ns: u64,
    /// Entries shorter than the state's target residency while a shallower state was
    /// enabled, by the state table (`cpuidle_enter_state()`'s `above`).
    pub above: u64,
    /// Entries long enough, less the exit latency, for the next enabled deeper state
    /// (`below`).
    pub below: u64,
    /// `cpu_idle_miss type=above` events: the kernel's own `above` counts.
    pub kernel_above: u64,
    /// `cpu_idle_miss type=below` events.
    pub kernel_below: u64,
    /// Time in the state as LISA's idle analysis counts it: from each entry to the CPU's
    /// next `cpu_idle` event, or to the end of the trace, ns.
    pub residency_ns: u64,
    /// Entries whose exit the tick had been stopped for (`tick_stop success=1` between
    /// the previous exit and the entry).
    pub tick_stopped: u64,
}

/// What one CPU did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CpuSummary {
    /// The CPU.
    pub cpu: u32,
    /// Per idle state index.
    pub states: Vec<StateCounters>,
    /// Time out of idle as LISA counts it: from each `cpu_idle` exit to the CPU's next
    /// `cpu_idle` event or the end, ns.
    pub active_ns: u64,
    /// Time the CPU's idle state was known: from its first `cpu_idle` event to the end,
    /// less the time from a loss of its events to its next `cpu_idle` event, ns.
    pub idle_known_ns: u64,
    /// An idle period open at the end of the trace (no exit): not in `usage`/`time`.
    pub idle_open_at_end: u64,
    /// Exits without their entry (before the first entry, or after lost events).
    pub idle_orphan_exits: u64,
    /// Entries that followed an entry without an exit between them (dropped).
    pub idle_unexited: u64,
    /// Time a task other than the idle task ran (from `sched_switch`), ns.
    pub busy_ns: u64,
    /// Time the running task was known: from the CPU's first `sched_switch` to the
    /// end, less what lost events hid, ns.
    pub sched_known_ns: u64,
    /// Time at each frequency (kHz → ns): from each `cpu_frequency` of the CPU to its
    /// next one or the end (LISA's frequency residency).
    pub freq_ns: BTreeMap<u64, u64>,
    /// `cpu_frequency` events of the CPU.
    pub freq_events: u64,
}

/// Scheduling of one task group (or of every task: the first, `all`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SchedSummary {
    /// `all`, `comm=PATTERN` or `pid=1,2`.
    pub name: String,
    /// Distinct pids seen.
    pub tasks: u64,
    /// Wakeup latency: the first `sched_waking`/`sched_wakeup`/`sched_wakeup_new` of a
    /// task since it was switched out, to its switch-in (perf sched timehist's
    /// `sch delay`).
    pub wakeup_latency: Hist,
    /// Run-queue wait after preemption: switched out still runnable (`R`, `R+`) to
    /// switched in again.
    pub preempt_wait: Hist,
    /// Run time of each switch-in: switch-in to switch-out on that CPU (timehist's
    /// `run time`).
    pub run: Hist,
    /// Wakeups (a task's first wakeup event since its switch-out).
    pub wakeups: u64,
    /// Switches out in a sleeping state (`nvcsw`).
    pub voluntary: u64,
    /// Switches out still runnable (`nivcsw`).
    pub involuntary: u64,
    /// `sched_migrate_task` events.
    pub migrations: u64,
    /// Σ `sched_stat_runtime` runtime, ns (perf sched latency's `Runtime`).
    pub stat_runtime_ns: u64,
    /// PELT samples of the group's tasks (`sched_pelt_se`, `sched_load_se`, `sched_util_est_se`).
    pub util: UtilSummary,
}

/// The kernel's own PELT signals of a group's tasks, as traced.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UtilSummary {
    /// Events with `util`.
    pub util_samples: u64,
    /// Σ `util`.
    pub util_sum: u64,
    /// The largest `util`.
    pub util_max: u64,
    /// Events with `util_est` (`enqueued`, `ewma`).
    pub est_samples: u64,
    /// Σ `enqueued`.
    pub est_enqueued_sum: u64,
    /// Σ `ewma`.
    pub est_ewma_sum: u64,
}

/// Intervals the metrics do not count, each because an end of it was not seen.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Excluded {
    /// Wakeups whose switch-in came after lost events (the wakeup could be stale).
    pub wakeups_after_loss: u64,
    /// Preemption waits that spanned lost events.
    pub waits_after_loss: u64,
    /// Run times that spanned lost events, or whose switch-in was not seen.
    pub runs_unknown_start: u64,
    /// Idle periods cut by lost events.
    pub idle_after_loss: u64,
}

/// Which events the trace holds (a metric needs its events).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Present {
    /// `sched_switch`.
    pub switch: bool,
    /// `sched_waking`, `sched_wakeup` or `sched_wakeup_new`.
    pub wakeup: bool,
    /// `sched_migrate_task`.
    pub migrate: bool,
    /// `sched_stat_runtime`.
    pub runtime: bool,
    /// `cpu_idle`.
    pub idle: bool,
    /// `cpu_idle_miss`.
    pub idle_miss: bool,
    /// `tick_stop`.
    pub tick_stop: bool,
    /// `cpu_frequency` (or LISA's devlib marker).
    pub frequency: bool,
    /// PELT events of tasks.
    pub pelt: bool,
}

/// Everything one trace measured.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TraceSummary {
    /// The trace's path as given.
    pub path: String,
    /// How it was read (`trace.dat version 7 (zstd)`, `text`).
    pub format: String,
    /// The first and last event's timestamps (every event), ns.
    pub start_ns: u64,
    /// See `start_ns`.
    pub end_ns: u64,
    /// Events read (of the kinds the pass reads).
    pub events: u64,
    /// Which events it holds.
    pub present: Present,
    /// Idle-state names by index (from the state table; `state<K>` without one).
    pub state_names: Vec<String>,
    /// Per CPU, by CPU number.
    pub cpus: Vec<CpuSummary>,
    /// Length of every completed idle period, all CPUs (exit − entry), ns.
    pub idle_periods: Hist,
    /// `all`, then each task group.
    pub sched: Vec<SchedSummary>,
    /// Ring-buffer overflows (the first [`MAX_LOSSES_KEPT`]).
    pub losses: Vec<Loss>,
    /// Overflows in all.
    pub loss_marks: u64,
    /// Events lost in all, where the buffers said how many.
    pub lost_events: u64,
    /// Overflows whose count the buffer did not store.
    pub losses_uncounted: u64,
    /// What the metrics leave out.
    pub excluded: Excluded,
    /// The governor what-if replays, one per governor.
    pub whatif: Vec<WhatIf>,
    /// The PELT replays of the named tasks (`--util-task`), one per task.
    #[serde(default)]
    pub util_replay: Vec<super::util_replay::UtilReplay>,
    /// Lines skipped, what was assumed and what the trace could not show, one sentence each.
    pub notes: Vec<String>,
}
