//! The live check's figures as `schedlab.live.check` returns them (its dict without
//! the per-reading columns), read back from JSON so that the core renders them: as
//! the text `schedlab live` prints ([`super::text`]) and as HTML ([`super::html`]).

use crate::error::{Error, Result};
use serde::Deserialize;

/// The recording's `meta.json` (the fields the renderers print).
#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct Meta {
    /// The recorded task.
    pub pid: u64,
    /// The CPU it ran on.
    pub cpu: u32,
    /// The running kernel's release.
    pub kernel: String,
    /// CONFIG_HZ, when known.
    #[serde(default)]
    pub hz: Option<u32>,
}

/// The PELT/util_est replay against the `/proc/PID/sched` readings.
#[derive(Debug, Clone, Deserialize, PartialEq)]
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
}

/// The cpuidle governor's replay against the kernel's choices on the task's CPU.
#[derive(Debug, Clone, Deserialize, PartialEq)]
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
}

/// One live check.
#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct LiveCheck {
    /// The recording.
    pub meta: Meta,
    /// The PELT check.
    pub pelt: Pelt,
    /// The idle check.
    pub idle: Idle,
    /// What the PELT import assumed and skipped.
    #[serde(default)]
    pub notes: Vec<String>,
}

impl LiveCheck {
    /// The check from the JSON of `schedlab.live.check`'s result.
    pub fn from_json(text: &str) -> Result<Self> {
        serde_json::from_str(text).map_err(|e| {
            Error::parse(Some("<live check json>"), Some(e.line()), format!("invalid live check JSON: {e}"))
        })
    }
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
