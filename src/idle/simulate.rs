//! The replay drivers: one governor version over an idle trace ([`super::replay`]),
//! collected ([`Simulation`]: what it decided and, optionally, its internal state after
//! every period), streamed as the golden-file CSV ([`simulate_csv`]: the trace read and
//! the CSV written as the replay runs, in memory that does not grow with the trace),
//! and many CPUs' traces in parallel.

use super::golden_csv::GoldenCsv;
use super::governor::{Governor, Spec};
use super::replay::{with_replay, Replay, ReplayFn};
use super::states::StateTable;
use super::trace::{IdlePeriod, PeriodSource, Periods, Tick, TraceColumns};
use crate::error::Result;
use rayon::prelude::*;

pub use super::golden_csv::COMMON_COLUMNS;

/// What a governor decided over a trace, one entry per idle period.
#[derive(Debug, Clone, PartialEq)]
pub struct Simulation {
    /// Governor and kernel version.
    pub spec: Spec,
    /// CONFIG_HZ of the replay (the trace's `next_tick_ns` is reduced into one period of it).
    pub hz: u32,
    /// The state entered.
    pub idx: Vec<u8>,
    /// The governor's `stop_tick` output.
    pub stop_tick: Vec<bool>,
    /// The period's length (residency), ns.
    pub residency_ns: Vec<i64>,
    /// The tick ended the period.
    pub got_tick: Vec<bool>,
    /// The poll loop hit its time limit.
    pub poll_time_limit: Vec<bool>,
    /// Names of the governor-state columns (empty unless recorded).
    pub state_columns: Vec<String>,
    /// Governor state after each period, row-major (`len() / state_columns.len()` rows).
    pub state: Vec<i64>,
}

impl Simulation {
    /// Number of idle periods.
    pub fn len(&self) -> usize {
        self.idx.len()
    }

    /// True for an empty trace.
    pub fn is_empty(&self) -> bool {
        self.idx.is_empty()
    }
}

/// The replay collected into a [`Simulation`] (`n` periods expected).
struct Collect<'s, S: PeriodSource + ?Sized> {
    spec: Spec,
    hz: u32,
    periods: &'s mut S,
    n: usize,
    record_state: bool,
}

impl<S: PeriodSource + ?Sized> ReplayFn<Simulation> for Collect<'_, S> {
    fn call<G: Governor + 'static>(self, mut r: Replay<G>) -> Result<Simulation> {
        let (n, record_state) = (self.n, self.record_state);
        let state_columns = if record_state { super::replay::Step::columns(&r) } else { Vec::new() };
        let mut sim = Simulation {
            spec: self.spec,
            hz: self.hz,
            idx: Vec::with_capacity(n),
            stop_tick: Vec::with_capacity(n),
            residency_ns: Vec::with_capacity(n),
            got_tick: Vec::with_capacity(n),
            poll_time_limit: Vec::with_capacity(n),
            state: Vec::with_capacity(if record_state { n * state_columns.len() } else { 0 }),
            state_columns,
        };
        let mut step = 0usize;
        while let Some(p) = self.periods.next_period()? {
            crate::cancel::check_every(step)?;
            step += 1;
            let d = r.step(&p);
            sim.idx.push(d.idx);
            sim.stop_tick.push(d.stop_tick);
            sim.residency_ns.push(d.residency_ns);
            sim.got_tick.push(d.got_tick);
            sim.poll_time_limit.push(d.poll_time_limit);
            if record_state {
                super::replay::Step::write_columns(&r, &mut sim.state);
            }
        }
        Ok(sim)
    }
}

/// Replay the periods of `periods` (about `n` of them) through `spec` at `hz` on
/// `table`, collected; stops with [`crate::Error::Interrupted`] on a [`crate::cancel`]
/// request.
pub fn simulate_source<S: PeriodSource + ?Sized>(
    spec: Spec,
    table: &StateTable,
    periods: &mut S,
    n: usize,
    hz: u32,
    record_state: bool,
) -> Result<Simulation> {
    with_replay(spec, table, hz, Collect { spec, hz, periods, n, record_state })
}

/// The golden CSV of a replay written as it runs ([`simulate_csv`]).
struct StreamCsv<'s, S: PeriodSource + ?Sized, W: std::io::Write> {
    periods: &'s mut S,
    out: W,
    name: &'s str,
}

impl<S: PeriodSource + ?Sized, W: std::io::Write> ReplayFn<(W, usize)> for StreamCsv<'_, S, W> {
    fn call<G: Governor + 'static>(self, mut r: Replay<G>) -> Result<(W, usize)> {
        use super::replay::Step;
        let mut csv = GoldenCsv::new(self.out, self.name, &Step::columns(&r));
        let mut state = Vec::with_capacity(64);
        let mut step = 0usize;
        while let Some(p) = self.periods.next_period()? {
            crate::cancel::check_every(step)?;
            let d = r.step(&p);
            state.clear();
            Step::write_columns(&r, &mut state);
            csv.row(step, &p, &d, &state)?;
            step += 1;
        }
        Ok((csv.finish()?, step))
    }
}

/// Replay the periods of `periods` through `spec` at `hz` on `table` and write the
/// golden-format CSV (with the governor state) to `out` (called `name` in write
/// errors) as the replay runs: periods are read, replayed and written one at a time,
/// the output handed on in pieces of [`super::golden_csv::CHUNK_BYTES`]. Returns the
/// output and the number of periods.
pub fn simulate_csv<S: PeriodSource + ?Sized, W: std::io::Write>(
    spec: Spec,
    table: &StateTable,
    hz: u32,
    periods: &mut S,
    out: W,
    name: &str,
) -> Result<(W, usize)> {
    with_replay(spec, table, hz, StreamCsv { periods, out, name })
}

/// [`simulate_csv`] of the trace CSV file `trace` ([`super::trace::open_csv`]: read as
/// it is replayed, a FIFO or a pipe to its end) on the state table at `states`
/// ([`StateTable::load`]: a CSV, a sysfs directory or dump, or a preset name).
pub fn simulate_csv_file<W: std::io::Write>(
    spec: Spec,
    hz: u32,
    states: &std::path::Path,
    trace: &std::path::Path,
    out: W,
    name: &str,
) -> Result<(W, usize)> {
    let table = StateTable::load(states)?;
    let trace_name = trace.display().to_string();
    let mut periods = super::trace::open_csv(trace, &trace_name)?;
    simulate_csv(spec, &table, hz, &mut periods, out, name)
}

/// Replay `trace` through the governor `spec` at `hz` on the states of `table`;
/// `record_state` also keeps the governor's internal state after each period.
pub fn simulate(
    spec: Spec,
    table: &StateTable,
    trace: &[IdlePeriod],
    hz: u32,
    record_state: bool,
) -> Result<Simulation> {
    simulate_source(spec, table, &mut Periods(trace.iter().copied()), trace.len(), hz, record_state)
}

/// [`simulate`] on a trace given as columns, validated while replayed (an invalid
/// value stops the replay with an error naming its column and row), without building
/// the rows.
pub fn simulate_columns(
    spec: Spec,
    table: &StateTable,
    trace: &TraceColumns<'_>,
    hz: u32,
    record_state: bool,
) -> Result<Simulation> {
    let n = trace.check_lengths()?;
    // validated while replayed: one pass over the columns
    let mut periods = Periods(trace.checked_periods());
    let sim = simulate_source(spec, table, &mut periods, n, hz, record_state)?;
    match periods.0.error {
        Some(e) => Err(e),
        None => Ok(sim),
    }
}

/// Replay one trace per CPU in parallel (in the bounded pool of [`crate::parallel`]).
pub fn simulate_many(
    spec: Spec,
    table: &StateTable,
    traces: &[Vec<IdlePeriod>],
    hz: u32,
    record_state: bool,
    threads: Option<usize>,
) -> Result<Vec<Simulation>> {
    Tick::new(hz)?;
    // in trace order, so that the first trace's error is the one reported
    let each: Vec<Result<Simulation>> = crate::parallel::install(threads, || {
        traces.par_iter().map(|t| simulate(spec, table, t, hz, record_state)).collect()
    })?;
    each.into_iter().collect()
}

/// [`simulate_many`] on traces given as columns.
pub fn simulate_many_columns(
    spec: Spec,
    table: &StateTable,
    traces: &[TraceColumns<'_>],
    hz: u32,
    record_state: bool,
    threads: Option<usize>,
) -> Result<Vec<Simulation>> {
    Tick::new(hz)?;
    let each: Vec<Result<Simulation>> = crate::parallel::install(threads, || {
        traces
            .par_iter()
            .enumerate()
            .map(|(cpu, t)| {
                simulate_columns(spec, table, t, hz, record_state).map_err(|e| match e {
                    crate::Error::Domain(m) => crate::Error::Domain(format!("trace {cpu}: {m}")),
                    other => other,
                })
            })
            .collect()
    })?;
    each.into_iter().collect() // the first trace's error, whichever thread ends first
}

/// A replay of columns with the two input columns as its output shows them
/// ([`TraceColumns::shown`]: `next_tick_ns` reduced into one tick, `latency_req_ns`).
pub type ShownReplay = (Simulation, (Vec<i64>, Vec<i64>));

/// [`simulate_columns`] and the trace's `next_tick_ns`/`latency_req_ns` as shown
/// beside the decisions (the golden files' form).
pub fn replay_columns(
    spec: Spec,
    table: &StateTable,
    trace: &TraceColumns<'_>,
    hz: u32,
    record_state: bool,
) -> Result<ShownReplay> {
    Ok((simulate_columns(spec, table, trace, hz, record_state)?, trace.shown(hz)?))
}

/// [`simulate_many_columns`] and each trace's shown columns (see [`replay_columns`]).
pub fn replay_many_columns(
    spec: Spec,
    table: &StateTable,
    traces: &[TraceColumns<'_>],
    hz: u32,
    record_state: bool,
    threads: Option<usize>,
) -> Result<Vec<ShownReplay>> {
    let sims = simulate_many_columns(spec, table, traces, hz, record_state, threads)?;
    let shown = traces.iter().map(|c| c.shown(hz)).collect::<Result<Vec<_>>>()?;
    Ok(sims.into_iter().zip(shown).collect())
}

/// The golden-file CSV of a collected replay ([`super::golden_csv`]): the 12 common
/// columns, then the governor state columns (recorded with `record_state`). `trace`
/// must be the replayed trace. Checks for Ctrl-C as it goes (docs/cancel.md): the
/// only error.
pub fn write_csv(sim: &Simulation, trace: &[IdlePeriod], out: &mut Vec<u8>) -> Result<()> {
    let k = sim.state_columns.len();
    let mut csv = GoldenCsv::new(out, "<memory>", &sim.state_columns);
    // hz was checked when the replay ran
    let tick = Tick::new(sim.hz)?;
    for (step, p) in trace.iter().enumerate().take(sim.len()) {
        crate::cancel::check_every(step)?;
        let d = super::replay::Decision {
            idx: sim.idx[step],
            stop_tick: sim.stop_tick[step],
            residency_ns: sim.residency_ns[step],
            got_tick: sim.got_tick[step],
            poll_time_limit: sim.poll_time_limit[step],
            next_tick_ns: tick.reduce(p.next_tick_ns),
        };
        csv.row(step, p, &d, sim.state.get(step * k..(step + 1) * k).unwrap_or(&[]))?;
    }
    csv.finish()?;
    Ok(())
}
