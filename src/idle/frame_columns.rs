//! A replay's result as the columns of `idle.simulate`'s DataFrame: every decision
//! column widened to int64 and the two shown input columns. Built in Rust without the
//! GIL, checking for Ctrl-C as it goes (docs/cancel.md §1):
//! over 10 M periods the widening is seconds of work after the replay, and a stop
//! requested then must end the call too.

use super::simulate::{ShownReplay, Simulation};
use crate::error::Result;

/// The columns `idle.simulate` shows, each one value per idle period.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FrameColumns {
    /// `next_tick_ns` reduced into one tick period.
    pub next_tick_ns: Vec<i64>,
    /// `latency_req_ns`, "none" shown as the golden files show it.
    pub latency_req_ns: Vec<i64>,
    /// The state entered.
    pub idx: Vec<i64>,
    /// The governor's `stop_tick` (0/1).
    pub stop_tick: Vec<i64>,
    /// The period's residency, ns.
    pub residency_ns: Vec<i64>,
    /// The tick ended the period (0/1).
    pub got_tick: Vec<i64>,
    /// The poll loop hit its time limit (0/1).
    pub poll_time_limit: Vec<i64>,
    /// Names of the governor-state columns.
    pub state_columns: Vec<String>,
    /// The governor state after each period, row-major.
    pub state: Vec<i64>,
}

/// `v` widened to int64, checking for Ctrl-C every [`crate::cancel::EVERY`] values.
fn widen<T: Copy + Into<i64>>(v: &[T]) -> Result<Vec<i64>> {
    let mut out = Vec::with_capacity(v.len());
    for (i, &x) in v.iter().enumerate() {
        crate::cancel::check_every(i)?;
        out.push(x.into());
    }
    Ok(out)
}

/// The DataFrame columns of a replay and its shown input columns.
pub fn frame_columns(replay: ShownReplay) -> Result<FrameColumns> {
    let (sim, (next_tick_ns, latency_req_ns)) = replay;
    let Simulation { idx, stop_tick, residency_ns, got_tick, poll_time_limit, state_columns, state, .. } = sim;
    crate::cancel::check()?;
    Ok(FrameColumns {
        next_tick_ns,
        latency_req_ns,
        idx: widen(&idx)?,
        stop_tick: widen(&stop_tick)?,
        residency_ns,
        got_tick: widen(&got_tick)?,
        poll_time_limit: widen(&poll_time_limit)?,
        state_columns,
        state,
    })
}
