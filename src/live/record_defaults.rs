//! The defaults of a recording (`live.record`, `live.record_sets`, `schedlab live run`
//! and `live sets`), defined once here and served to Python (docs/live.md §1).

/// What a recording does when the caller does not say.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RecordDefaults {
    /// The built-in pattern's duration, and how long a pid is followed, s.
    pub seconds: f64,
    /// The pattern's busy time per period, ms.
    pub busy_ms: f64,
    /// The pattern's sleep per period, ms.
    pub sleep_ms: f64,
    /// The cpuidle governor used during a single recording (the replay's own).
    pub governor: &'static str,
    /// The tracefs instance's buffer per CPU, kB.
    pub buffer_kb: u64,
    /// The `/proc/PID/sched` sampler's sleep between two readings, µs.
    pub sample_us: f64,
    /// Recordings per group of a set.
    pub runs: usize,
}

/// The defaults: the built-in pattern busy 3 ms and asleep 5 ms for 1 s, the menu
/// governor, 4 MiB of buffer per CPU, a `/proc` reading every 100 µs, five runs per
/// group (with four per side an exact Mann-Whitney p can already fall below 0.05).
pub const RECORD_DEFAULTS: RecordDefaults = RecordDefaults {
    seconds: 1.0,
    busy_ms: 3.0,
    sleep_ms: 5.0,
    governor: "menu",
    buffer_kb: 4096,
    sample_us: 100.0,
    runs: 5,
};
