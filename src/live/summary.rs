//! The live check's result ([`super::check::check_dir`]): the recording's metadata,
//! the PELT/util_est and idle figures, the per-reading columns and the notes. Python
//! receives it as a dict of the same shape (`schedlab.live.check`), and hands a dict of
//! it back to be rendered as the text `schedlab live` prints ([`super::text`]) or as
//! HTML ([`super::html`]).

use serde::{Deserialize, Serialize};

/// The recording's `meta.json`, as `schedlab.live.record` writes it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Meta {
    /// The recorded task.
    pub pid: u32,
    /// The CPU it ran on.
    pub cpu: u32,
    /// The cpuidle governor the kernel ran during the recording.
    #[serde(default)]
    pub governor: Option<String>,
    /// The running kernel's release.
    pub kernel: String,
    /// The governors the kernel offered.
    #[serde(default)]
    pub available_governors: Vec<String>,
    /// The cpuidle driver.
    #[serde(default)]
    pub cpuidle_driver: Option<String>,
    /// CONFIG_HZ, when known.
    #[serde(default)]
    pub hz: Option<u32>,
    /// `/proc/PID/sched` readings kept by the recorder.
    #[serde(default)]
    pub readings: Option<u64>,
    /// The command recorded (None: the built-in periodic pattern or a followed pid).
    #[serde(default)]
    pub command: Option<Vec<String>>,
}

/// The PELT/util_est replay against the `/proc/PID/sched` readings.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Pelt {
    /// Readings compared (distinct `last_update_time` after the starting one).
    pub readings: u64,
    /// Readings whose util_avg is within ±1 of the kernel's.
    pub util_within_1: u64,
    /// Readings whose util_avg equals the kernel's.
    pub util_exact: u64,
    /// The largest |util_avg error|.
    pub util_max_error: u64,
    /// Readings whose util_est equals the kernel's.
    pub util_est_exact: u64,
    /// The starting reading's `last_update_time`.
    pub start_last_update_time: u64,
    /// Update points of the task's PELT clock.
    pub points: u64,
    /// Runs of the task.
    pub runs: u64,
    /// Runs anchored exactly on a reading.
    pub anchored_runs: u64,
    /// Runs whose switch-in was missing from the trace.
    pub repaired_runs: u64,
    /// Tick update points.
    pub tick_points: u64,
    /// Update points seen only in `/proc`.
    pub seen_only_points: u64,
    /// Readings that could not be compared (before the trace's first point).
    #[serde(default)]
    pub skipped: u64,
    /// Readings whose `se.sum_exec_runtime` named a `sched_stat_runtime` of the trace.
    #[serde(default)]
    pub anchored_readings: u64,
    /// Readings that disagreed with an earlier one on the same event's task clock.
    #[serde(default)]
    pub anchor_conflicts: u64,
    /// Events that did not fit the task's state (skipped).
    #[serde(default)]
    pub unexpected_events: u64,
}

/// Each compared reading: the kernel's value beside the replay's.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct Columns {
    /// CLOCK_MONOTONIC of the reading, ns.
    pub t_mono_ns: Vec<u64>,
    /// The reading's `se.avg.last_update_time`.
    pub last_update_time: Vec<u64>,
    /// The replay's `last_update_time` at the same update.
    pub replay_last_update_time: Vec<u64>,
    /// `se.avg.util_avg` as the kernel printed it.
    pub kernel_util_avg: Vec<u64>,
    /// The replay's util_avg.
    pub replay_util_avg: Vec<u64>,
    /// `se.avg.util_sum` as the kernel printed it.
    pub kernel_util_sum: Vec<u64>,
    /// The replay's util_sum.
    pub replay_util_sum: Vec<u64>,
    /// `se.avg.runnable_avg` as the kernel printed it.
    pub kernel_runnable_avg: Vec<u64>,
    /// The replay's runnable_avg.
    pub replay_runnable_avg: Vec<u64>,
    /// `se.avg.util_est` as the kernel printed it.
    pub kernel_util_est: Vec<u64>,
    /// The replay's util_est.
    pub replay_util_est: Vec<u64>,
    /// The kind of update point (`wake`, `pick`, `tick`, `preempt`, `sleep`, `seen`).
    pub point: Vec<&'static str>,
    /// How the point was placed (`exact`, `reading`, `interpolated`).
    pub placed: Vec<&'static str>,
}

/// The cpuidle governor's replay against the kernel's choices on the task's CPU.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Idle {
    /// The governor the kernel ran.
    #[serde(default)]
    pub governor: Option<String>,
    /// The CPU.
    pub cpu: u32,
    /// Idle periods traced (0: nothing was replayed).
    pub periods: u64,
    /// Idle entries the sysfs usage counters counted over the recording.
    pub sysfs_entries: i64,
    /// The cpuidle driver.
    #[serde(default)]
    pub driver: Option<String>,
    /// The governors the kernel offered.
    #[serde(default)]
    pub available: Vec<String>,
    /// The governor and version replayed (`menu 6.12`).
    #[serde(default)]
    pub replayed: Option<String>,
    /// Periods where the replay chose the kernel's state.
    #[serde(default)]
    pub agree: u64,
    /// Disagreements in the first 8 periods (no history yet).
    #[serde(default)]
    pub cold_start_disagree: u64,
    /// Disagreements with an assumed sleep length.
    #[serde(default)]
    pub unknown_sleep_disagree: u64,
    /// (kernel state, replay state, periods).
    #[serde(default)]
    pub confusion: Vec<(u32, u32, u64)>,
    /// Periods entered with the tick running.
    #[serde(default)]
    pub tick_decided: u64,
    /// Of those, where the replay's tick-stop decision was the kernel's.
    #[serde(default)]
    pub tick_agree: u64,
    /// The kernel stopped the tick, the replay kept it.
    #[serde(default)]
    pub tick_kernel_only: u64,
    /// The replay stopped the tick, the kernel kept it.
    #[serde(default)]
    pub tick_replay_only: u64,
    /// Of those, periods ended by a timer within a tick.
    #[serde(default)]
    pub tick_replay_only_timer_within_tick: u64,
    /// Periods entered with the tick already stopped.
    #[serde(default)]
    pub tick_already_stopped: u64,
    /// What the idle import assumed and skipped.
    #[serde(default)]
    pub notes: Vec<String>,
    /// Records of each event in a trace.dat, by name (empty for text).
    #[serde(default)]
    pub events: std::collections::BTreeMap<String, u64>,
}

/// One live check.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct LiveCheck {
    /// The recording.
    pub meta: Meta,
    /// The PELT check.
    pub pelt: Pelt,
    /// Per compared reading (not read back: the renderers print the figures only).
    #[serde(skip_deserializing)]
    pub columns: Columns,
    /// What the PELT import assumed and skipped.
    #[serde(default)]
    pub notes: Vec<String>,
    /// The idle check.
    pub idle: Idle,
}

/// `a/n (x.x%)`, `0/0` when `n` is 0.
pub fn share(a: u64, n: u64) -> String {
    if n == 0 {
        "0/0".to_string()
    } else {
        format!("{a}/{n} ({:.1}%)", 100.0 * a as f64 / n as f64)
    }
}

/// An optional value as Python prints it (`None` when absent).
pub fn or_none<T: std::fmt::Display>(v: Option<&T>) -> String {
    v.map_or_else(|| "None".to_string(), |v| v.to_string())
}
