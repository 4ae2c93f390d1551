//! Why did it change: the metrics of kernel traces (idle states, wakeups, run queues,
//! frequency, utilization, a governor what-if) and sets of traces compared between
//! kernels or settings with the project's verdicts (docs/trace-compare.md).
//!
//! - [`event`]: the one event model of every input; [`dat`] decodes trace.dat records
//!   into it, [`text`] text lines; [`source`] streams a trace's events in time order.
//! - [`machine`]: the state machine that turns events into completed intervals;
//!   [`hist`] holds durations in bounded memory for exact percentiles; [`groups`] the
//!   task groups.
//! - [`summary`]: what one trace measured; [`metrics`] its named values.
//! - [`whatif`]: the trace's idle periods replayed through other governors.
//! - [`util_replay`]: named tasks' util_avg/util_est replayed from their scheduling events.
//! - [`perf_latency`]: `perf sched latency`'s per-task table, as perf computes it;
//!   [`task_states`]: the time in each task state, as LISA counts it.
//! - [`inputs`]: the traces of a group (files, directories, archives); [`pass`] one
//!   trace's (or many traces') metrics pass; [`compare`] the groups compared.

// Parsers of untrusted bytes: no unwrap, expect, indexing or string slicing that can panic on input.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

pub mod compare;
pub mod dat;
pub mod event;
pub mod groups;
pub mod hist;
pub mod inputs;
pub mod machine;
pub mod metrics;
pub mod pass;
pub mod perf_latency;
pub mod source;
pub mod summary;
pub mod task_states;
pub mod text;
pub mod util_replay;
pub mod whatif;

pub use compare::{CompareOptions, Group};
pub use pass::Options;
pub use summary::TraceSummary;

use crate::archive::Limits;
use crate::error::Result;
use crate::table::Comparison;
use std::path::PathBuf;

/// One group as a front end gives it: a name, the paths of its traces (files,
/// directories, archives) and the governor its kernel ran (a spec, `menu`, `teo@6.12`).
#[derive(Debug, Clone)]
pub struct GroupPaths {
    /// The group's name.
    pub name: String,
    /// Its paths.
    pub paths: Vec<PathBuf>,
    /// Its governor, when known.
    pub governor: Option<String>,
}

/// Summarize every trace of `groups` (in parallel on `threads`) and compare them: the
/// whole of `schedlab trace compare`. Each group's own governor is replayed with the
/// extra ones of `opts.governors`.
pub fn compare_paths(
    groups: &[GroupPaths],
    opts: &Options,
    copts: &CompareOptions,
    limits: &Limits,
) -> Result<Comparison> {
    let own: Vec<Option<String>> = groups
        .iter()
        .map(|g| g.governor.as_deref().map(whatif::Governors::label_of).transpose())
        .collect::<Result<_>>()?;
    let mut opts = opts.clone();
    if own.iter().any(Option::is_some) {
        let specs: Vec<String> = groups.iter().filter_map(|g| g.governor.clone()).collect();
        opts.governors = opts.governors.with(&specs)?;
        if opts.states.is_none() {
            return Err(crate::Error::domain("the governor what-if replays on a state table: give one (--states)"));
        }
    }
    let mut inputs = Vec::new();
    let mut bounds = Vec::new();
    for g in groups {
        let start = inputs.len();
        inputs.extend(inputs::expand_all(&g.paths, limits)?);
        bounds.push(start..inputs.len());
    }
    let mut all = pass::summarize_all(&inputs, &opts, copts.threads)?.into_iter();
    let mut out = Vec::with_capacity(groups.len());
    for ((g, r), gov) in groups.iter().zip(bounds).zip(own) {
        out.push(Group { name: g.name.clone(), traces: all.by_ref().take(r.len()).collect(), governor: gov });
    }
    compare::compare(&out, copts)
}
