//! What every util-only model shares (the full-capacity and the general one): the row
//! it emits and the trait a model implements, so that the replay, the speculative split
//! and the models stand apart (docs/pelt.md).

use super::driver::Config;
use super::row::Event;
use super::sequence::Model;
use super::trace::State;

/// One event of the util-only replay: the columns of [`super::row::Row`] that it keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UtilRow {
    /// As [`super::row::Row::t_ns`].
    pub t_ns: u64,
    /// As [`super::row::Row::event`].
    pub event: Event,
    /// As [`super::row::Row::seg`].
    pub seg: u64,
    /// As [`super::row::Row::state`].
    pub state: State,
    /// As [`super::row::Row::cpu_cap`].
    pub cpu_cap: u32,
    /// As [`super::row::Row::freq_cap`].
    pub freq_cap: u32,
    /// `rq->clock_task`.
    pub clock_task: u64,
    /// `rq->clock_pelt`.
    pub clock_pelt: u64,
    /// `rq->lost_idle_time`.
    pub lost_idle_time: u64,
    /// Task `se.avg.util_avg`.
    pub p_util_avg: u64,
    /// Task `se.avg.util_sum`.
    pub p_util_sum: u32,
    /// Task `se.avg.period_contrib`.
    pub p_period_contrib: u32,
    /// Task `se.avg.last_update_time`.
    pub p_last_update_time: u64,
}

/// The columns of [`UtilRow`], by their [`super::row::COLUMNS`] names.
pub const UTIL_COLUMNS: [&str; 13] = [
    "t_ns",
    "event",
    "seg",
    "state",
    "cpu_cap",
    "freq_cap",
    "clock_task",
    "clock_pelt",
    "lost_idle_time",
    "p_util_avg",
    "p_util_sum",
    "p_period_contrib",
    "p_last_update_time",
];

/// A model of the util-only replay: its start, its guessed state after a sleep (for
/// [`super::speculate`]) and its row. Two equal states replay identically.
pub(crate) trait UtilModel: Model + Copy + Eq + Send {
    /// The CPU before the fork, as `cfg` sets it up.
    fn new(cfg: &Config) -> Self;
    /// A guess of the state just after the task went to sleep at `slept_at` (wall ns)
    /// with these capacities: the rq clock synced there, no lost idle time, the PELT
    /// position on the 1024 ns grid at that time, util_sum = util_avg = 0 (unknown).
    fn guess_after_sleep(cfg: &Config, slept_at: u64, cpu_cap: u64, freq_cap: u64) -> Self;
    /// The row of an event, from the state after it.
    fn row(&self, t_ns: u64, event: Event, seg: u64, state: State) -> UtilRow;
}
