//! The replay driver: runs one governor version over an idle trace with the period
//! model of [`super::trace`], records what it decided (and, optionally, its internal
//! state after every period), writes the golden-file CSV, and runs many CPUs' traces in
//! parallel.

use super::governor::{Cpu, Family, Governor, Kernel, Spec};
use super::menu::{MenuV4_18, MenuV4_19, MenuV4_20, MenuV6_1, MenuV6_12};
use super::states::StateTable;
use super::teo::{TeoV5_1, TeoV6_1, TeoV6_12, TeoV6_18, TeoV6_6};
use super::trace::{outcome, shown_latency, IdlePeriod, Tick, TraceColumns, BUSY_BETWEEN_PERIODS_NS};
use crate::error::Result;
use rayon::prelude::*;

/// The 12 columns every golden file starts with.
pub const COMMON_COLUMNS: [&str; 12] = [
    "step",
    "sleep_length_ns",
    "next_tick_ns",
    "wake_ns",
    "tick_stopped",
    "latency_req_ns",
    "nr_iowait",
    "idx",
    "stop_tick",
    "residency_ns",
    "got_tick",
    "poll_time_limit",
];

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

/// Replay the `n` periods of `trace` through `gov` (already constructed for `table`);
/// stops with [`crate::Error::Interrupted`] on a [`crate::cancel`] request.
pub fn run<G: Governor>(
    mut gov: G,
    spec: Spec,
    table: &StateTable,
    trace: impl Iterator<Item = IdlePeriod>,
    n: usize,
    tick: Tick,
    record_state: bool,
) -> Result<Simulation> {
    let drv = table.drv();
    let mut cpu = Cpu::new(drv, tick);
    let poll_limit = gov.poll_limit_ns(&drv, tick);
    let state_columns = if record_state { gov.columns(&drv) } else { Vec::new() };
    let mut sim = Simulation {
        spec,
        hz: tick.hz,
        idx: Vec::with_capacity(n),
        stop_tick: Vec::with_capacity(n),
        residency_ns: Vec::with_capacity(n),
        got_tick: Vec::with_capacity(n),
        poll_time_limit: Vec::with_capacity(n),
        state: Vec::with_capacity(if record_state { n * state_columns.len() } else { 0 }),
        state_columns,
    };
    let last = drv.count - 1;
    for (step, p) in trace.enumerate() {
        crate::cancel::check_every(step)?;
        let next_tick = tick.reduce(p.next_tick_ns);
        cpu.sleep_length_ns = p.sleep_length_ns;
        cpu.delta_next_ns = p.sleep_length_ns.min(next_tick);
        cpu.tick_stopped = p.tick_stopped;
        cpu.latency_req_raw_ns = p.latency_req_ns;
        cpu.nr_iowait = p.nr_iowait;
        cpu.cpu_load = p.cpu_load;

        let mut stop_tick = true;
        let idx = gov.select(&cpu, &mut stop_tick).min(last);

        // Entering the state: poll_idle() clears the time-out flag, the model ends the
        // period, the cpuidle core records the residency.
        cpu.poll_time_limit = false;
        let o = outcome(&p, next_tick, stop_tick, drv.polling[idx].then_some(poll_limit));
        cpu.poll_time_limit = o.poll_time_limit;
        cpu.got_tick = o.got_tick;
        cpu.last_residency_ns = o.end_ns;
        cpu.clock_ns = cpu.clock_ns.wrapping_add(o.end_ns as u64);
        gov.reflect(&mut cpu, idx);
        cpu.clock_ns = cpu.clock_ns.wrapping_add(BUSY_BETWEEN_PERIODS_NS);

        sim.idx.push(idx as u8);
        sim.stop_tick.push(stop_tick);
        sim.residency_ns.push(o.end_ns);
        sim.got_tick.push(o.got_tick);
        sim.poll_time_limit.push(o.poll_time_limit);
        if record_state {
            gov.write_columns(&mut sim.state);
        }
    }
    Ok(sim)
}

/// Construct the governor of `spec` for `table` and replay.
fn dispatch(
    spec: Spec,
    table: &StateTable,
    trace: impl Iterator<Item = IdlePeriod>,
    n: usize,
    hz: u32,
    record_state: bool,
) -> Result<Simulation> {
    let tick = Tick::new(hz)?;
    let drv = table.drv();
    let (t, r) = (table, record_state);
    match (spec.family, spec.kernel) {
        (Family::Menu, Kernel::V6_18) => run(MenuV6_12::v6_18(), spec, t, trace, n, tick, r),
        (Family::Menu, Kernel::V6_12) => run(MenuV6_12::new(), spec, t, trace, n, tick, r),
        (Family::Menu, Kernel::V6_6) => run(MenuV6_1::v6_6(), spec, t, trace, n, tick, r),
        (Family::Menu, Kernel::V6_1) => run(MenuV6_1::new(), spec, t, trace, n, tick, r),
        (Family::Menu, Kernel::V4_20) => run(MenuV4_20::new(), spec, t, trace, n, tick, r),
        (Family::Menu, Kernel::V4_19) => run(MenuV4_19::new(), spec, t, trace, n, tick, r),
        (Family::Menu, Kernel::V4_18) => run(MenuV4_18::new(), spec, t, trace, n, tick, r),
        (Family::Teo, Kernel::V6_18) => run(TeoV6_18::new(&drv), spec, t, trace, n, tick, r),
        (Family::Teo, Kernel::V6_12) => run(TeoV6_12::new(&drv), spec, t, trace, n, tick, r),
        (Family::Teo, Kernel::V6_6) => run(TeoV6_6::new(&drv), spec, t, trace, n, tick, r),
        (Family::Teo, Kernel::V6_1) => run(TeoV6_1::new(&drv), spec, t, trace, n, tick, r),
        (Family::Teo, Kernel::V5_1) => run(TeoV5_1::new(&drv), spec, t, trace, n, tick, r),
        (family, kernel) => {
            // Spec::new() refuses these; a Spec built by hand may still name one.
            Err(crate::Error::domain(format!(
                "{} is not available for kernel {kernel}",
                if family == Family::Menu { "menu" } else { "teo" }
            )))
        }
    }
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
    dispatch(spec, table, trace.iter().copied(), trace.len(), hz, record_state)
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
    let mut periods = trace.checked_periods();
    let sim = dispatch(spec, table, &mut periods, n, hz, record_state)?;
    match periods.error {
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

/// The golden-format CSV ([`write_csv`], with the governor state) of a replay of the
/// trace CSV file `trace` on the state table at `states` ([`StateTable::load`]: a CSV, a
/// sysfs directory or dump, or a preset name).
pub fn simulate_csv_files(spec: Spec, hz: u32, states: &std::path::Path, trace: &std::path::Path) -> Result<Vec<u8>> {
    let table = StateTable::load(states)?;
    let periods: Vec<IdlePeriod> = super::trace::read_csv(trace)?;
    let sim = simulate(spec, &table, &periods, hz, true)?;
    let mut out = Vec::new();
    write_csv(&sim, &periods, &mut out)?;
    Ok(out)
}

fn push_int(out: &mut Vec<u8>, v: i64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    let neg = v < 0;
    let mut u = v.unsigned_abs();
    loop {
        i -= 1;
        buf[i] = b'0' + (u % 10) as u8;
        u /= 10;
        if u == 0 {
            break;
        }
    }
    if neg {
        out.push(b'-');
    }
    out.extend_from_slice(&buf[i..]);
}

/// The golden-file CSV of a replay: the 12 common columns, then the governor state
/// columns (recorded with `record_state`). `trace` must be the replayed trace.
/// Checks for Ctrl-C as it goes (docs/cancel.md): the only error.
pub fn write_csv(sim: &Simulation, trace: &[IdlePeriod], out: &mut Vec<u8>) -> Result<()> {
    let mut header: Vec<&str> = COMMON_COLUMNS.to_vec();
    header.extend(sim.state_columns.iter().map(String::as_str));
    out.extend_from_slice(header.join(",").as_bytes());
    out.push(b'\n');
    let k = sim.state_columns.len();
    let rows = sim.len().min(trace.len());
    // hz was checked when the replay ran; 250 is only a fallback that cannot occur
    let tick = Tick::new(sim.hz).or_else(|_| Tick::new(250));
    out.reserve(rows * (12 + k) * 8);
    for (step, p) in trace.iter().enumerate().take(rows) {
        crate::cancel::check_every(step)?;
        let latency = shown_latency(p.latency_req_ns);
        let vals = [
            step as i64,
            p.sleep_length_ns,
            tick.as_ref().map_or(p.next_tick_ns, |t| t.reduce(p.next_tick_ns)),
            p.wake_ns,
            i64::from(p.tick_stopped),
            latency,
            i64::from(p.nr_iowait),
            i64::from(sim.idx[step]),
            i64::from(sim.stop_tick[step]),
            sim.residency_ns[step],
            i64::from(sim.got_tick[step]),
            i64::from(sim.poll_time_limit[step]),
        ];
        for (j, v) in vals.iter().enumerate() {
            if j > 0 {
                out.push(b',');
            }
            push_int(out, *v);
        }
        if let Some(state) = sim.state.get(step * k..(step + 1) * k) {
            for v in state {
                out.push(b',');
                push_int(out, *v);
            }
        }
        out.push(b'\n');
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_print_like_printf() {
        let mut out = Vec::new();
        for v in [0, 7, -1, 4_294_967_295, i64::MAX, i64::MIN] {
            push_int(&mut out, v);
            out.push(b' ');
        }
        assert_eq!(String::from_utf8(out).unwrap(), "0 7 -1 4294967295 9223372036854775807 -9223372036854775808 ");
    }
}
