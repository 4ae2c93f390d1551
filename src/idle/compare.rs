//! Several governors (or versions) replayed over one trace, side by side: what
//! Python's `idle.compare` and `idle.compare_summary` show (docs/idle-governors.md).
//!
//! Each entry names a governor and a version ([`GovernorArg`]: a spec string split by
//! [`split_spec`], or a pair); its label is `"<governor> <version>"` as given, and a
//! label seen before is not replayed again (the first keeps its place).

use super::golden_csv::{push_int, CHUNK_BYTES};
use super::governor::{split_spec, Spec};
use super::replay::{replayer, Decision, Step};
use super::simulate::Simulation;
use super::states::{Drv, StateTable};
use super::summary::{classify, Counters, StateSummary};
use super::trace::{IdlePeriod, PeriodSource, Periods, TraceColumns};
use crate::error::{Error, Result};

/// One entry of a comparison's governor list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GovernorArg {
    /// `"teo@5.1"`, `"menu:4.18"`, `"teo 6.1"`, `"teo-6.1"` or a bare name.
    Spec(String),
    /// A governor name and a version, as given.
    Pair(String, String),
}

impl GovernorArg {
    /// (governor, version): a bare name takes `default_kernel`.
    pub fn resolve(&self, default_kernel: &str) -> (String, String) {
        match self {
            GovernorArg::Spec(s) => split_spec(s, default_kernel),
            GovernorArg::Pair(g, k) => (g.clone(), k.clone()),
        }
    }
}

/// One governor's replay in a comparison.
#[derive(Debug, Clone)]
pub struct Compared {
    /// `"<governor> <version>"`, the column label.
    pub label: String,
    /// The replay (no governor state recorded).
    pub sim: Simulation,
    /// Per period: the state was too deep (woke before its target residency while a
    /// shallower state was enabled), as the kernel counts `above`.
    pub above: Vec<bool>,
    /// Per period: a deeper state would have fit, as the kernel counts `below`.
    pub below: Vec<bool>,
}

/// The distinct (label, governor, version) of `governors`, in their order.
fn distinct(governors: &[GovernorArg], default_kernel: &str) -> Vec<(String, String, String)> {
    let mut out: Vec<(String, String, String)> = Vec::new();
    for g in governors {
        let (gov, ver) = g.resolve(default_kernel);
        let label = format!("{gov} {ver}");
        if !out.iter().any(|(l, _, _)| *l == label) {
            out.push((label, gov, ver));
        }
    }
    out
}

/// The governors of a comparison replayed side by side over one pass of a trace: each
/// period is read once and stepped through every distinct governor in turn, so a trace
/// streamed from a file (or a FIFO) is read once whatever the number of governors.
pub struct SideBySide {
    /// `(label, replay)` of each distinct entry, in the list's order.
    replays: Vec<(String, Spec, Box<dyn Step>)>,
    drv: Drv,
    hz: u32,
}

impl SideBySide {
    /// The replays of the distinct entries of `governors` (a bare name at
    /// `default_kernel`) on `table` at `hz`; an entry naming no implemented pair is
    /// [`Spec::new`]'s error, an empty list an error.
    pub fn new(governors: &[GovernorArg], default_kernel: &str, table: &StateTable, hz: u32) -> Result<Self> {
        let mut replays = Vec::new();
        for (label, gov, ver) in distinct(governors, default_kernel) {
            let spec = Spec::new(&gov, &ver)?;
            replays.push((label, spec, replayer(spec, table, hz)?));
        }
        if replays.is_empty() {
            return Err(Error::domain("no governor to compare: give at least one"));
        }
        Ok(SideBySide { replays, drv: table.drv(), hz })
    }

    /// The column labels (`"<governor> <version>"` as given), in order.
    pub fn labels(&self) -> Vec<String> {
        self.replays.iter().map(|(l, _, _)| l.clone()).collect()
    }

    /// Step every governor through period `p`; `f` sees each one's index, decision and
    /// above/below classification.
    #[inline]
    pub fn step(
        &mut self,
        p: &IdlePeriod,
        mut f: impl FnMut(usize, &Decision, bool, bool) -> Result<()>,
    ) -> Result<()> {
        for (i, (_, _, r)) in self.replays.iter_mut().enumerate() {
            let d = r.step(p);
            let (above, below) = classify(&self.drv, usize::from(d.idx), d.residency_ns);
            f(i, &d, above, below)?;
        }
        Ok(())
    }
}

/// Replay `trace` through each distinct entry of `governors` on `table` at `hz`, with
/// each period's above/below classification. An entry naming no implemented pair is
/// [`Spec::new`]'s error.
pub fn compare(
    governors: &[GovernorArg],
    default_kernel: &str,
    table: &StateTable,
    trace: &TraceColumns<'_>,
    hz: u32,
) -> Result<Vec<Compared>> {
    let n = trace.check_lengths()?;
    let mut side = SideBySide::new(governors, default_kernel, table, hz)?;
    let mut out: Vec<Compared> = side
        .replays
        .iter()
        .map(|(label, spec, _)| Compared {
            label: label.clone(),
            sim: Simulation {
                spec: *spec,
                hz,
                idx: Vec::with_capacity(n),
                stop_tick: Vec::with_capacity(n),
                residency_ns: Vec::with_capacity(n),
                got_tick: Vec::with_capacity(n),
                poll_time_limit: Vec::with_capacity(n),
                state_columns: Vec::new(),
                state: Vec::new(),
            },
            above: Vec::with_capacity(n),
            below: Vec::with_capacity(n),
        })
        .collect();
    let mut periods = trace.checked_periods();
    for (row, p) in periods.by_ref().enumerate() {
        crate::cancel::check_every(row)?;
        side.step(&p, |i, d, above, below| {
            if let Some(c) = out.get_mut(i) {
                c.sim.idx.push(d.idx);
                c.sim.stop_tick.push(d.stop_tick);
                c.sim.residency_ns.push(d.residency_ns);
                c.sim.got_tick.push(d.got_tick);
                c.sim.poll_time_limit.push(d.poll_time_limit);
                c.above.push(above);
                c.below.push(below);
            }
            Ok(())
        })?;
    }
    match periods.error {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

/// The per-state counters ([`super::summary::summarize`]) of each distinct entry's
/// replay of the periods of `periods`, labelled, gathered as the trace is read (memory
/// does not grow with it); `power_mw` per state overrides the table's.
pub fn compare_summary_source<S: PeriodSource + ?Sized>(
    governors: &[GovernorArg],
    default_kernel: &str,
    table: &StateTable,
    periods: &mut S,
    hz: u32,
    power_mw: Option<&[f64]>,
) -> Result<Vec<(String, Vec<StateSummary>)>> {
    let mut side = SideBySide::new(governors, default_kernel, table, hz)?;
    let mut counters = vec![Counters::new(table); side.replays.len()];
    let mut row = 0usize;
    while let Some(p) = periods.next_period()? {
        crate::cancel::check_every(row)?;
        side.step(&p, |i, d, _, _| match counters.get_mut(i) {
            Some(c) => c.add(row, usize::from(d.idx), d.residency_ns),
            None => Ok(()),
        })?;
        row += 1;
    }
    side.labels().into_iter().zip(counters).map(|(label, c)| Ok((label, c.finish(table, power_mw)?))).collect()
}

/// [`compare_summary_source`] of a trace given as columns.
pub fn compare_summary(
    governors: &[GovernorArg],
    default_kernel: &str,
    table: &StateTable,
    trace: &TraceColumns<'_>,
    hz: u32,
    power_mw: Option<&[f64]>,
) -> Result<Vec<(String, Vec<StateSummary>)>> {
    trace.check_lengths()?;
    let mut periods = Periods(trace.checked_periods());
    let out = compare_summary_source(governors, default_kernel, table, &mut periods, hz, power_mw)?;
    match periods.0.error {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

/// The columns each governor gets in [`compare_csv`], after the label.
pub const COMPARE_COLUMNS: [&str; 6] = ["idx", "stop_tick", "residency_ns", "got_tick", "above", "below"];

/// Several governors side by side over the periods of `periods`, as CSV written to
/// `out` (called `name` in write errors) as the trace is read: `step`, the five
/// required trace columns as the governors saw them (`next_tick_ns` reduced,
/// `latency_req_ns` shown as the golden files show it), then for each distinct
/// governor `<label>:<column>` of [`COMPARE_COLUMNS`]. Returns the output and the
/// number of periods.
pub fn compare_csv<S: PeriodSource + ?Sized, W: std::io::Write>(
    governors: &[GovernorArg],
    default_kernel: &str,
    table: &StateTable,
    hz: u32,
    periods: &mut S,
    mut out: W,
    name: &str,
) -> Result<(W, usize)> {
    let mut side = SideBySide::new(governors, default_kernel, table, hz)?;
    let tick = super::trace::Tick::new(side.hz)?;
    let mut buf: Vec<u8> = Vec::with_capacity(CHUNK_BYTES + 4096);
    let mut header = vec!["step".to_string()];
    header.extend(super::trace::REQUIRED_COLUMNS.iter().map(|c| (*c).to_string()));
    for label in side.labels() {
        header.extend(COMPARE_COLUMNS.iter().map(|c| format!("{label}:{c}")));
    }
    buf.extend_from_slice(header.join(",").as_bytes());
    buf.push(b'\n');
    let write = |out: &mut W, buf: &mut Vec<u8>| -> Result<()> {
        out.write_all(buf).map_err(|e| Error::io(name, &e))?;
        buf.clear();
        Ok(())
    };
    let mut row = 0usize;
    while let Some(p) = periods.next_period()? {
        crate::cancel::check_every(row)?;
        let shown = [
            row as i64,
            p.sleep_length_ns,
            tick.reduce(p.next_tick_ns),
            p.wake_ns,
            i64::from(p.tick_stopped),
            super::trace::shown_latency(p.latency_req_ns),
        ];
        for (j, v) in shown.iter().enumerate() {
            if j > 0 {
                buf.push(b',');
            }
            push_int(&mut buf, *v);
        }
        side.step(&p, |_, d, above, below| {
            for v in [
                i64::from(d.idx),
                i64::from(d.stop_tick),
                d.residency_ns,
                i64::from(d.got_tick),
                i64::from(above),
                i64::from(below),
            ] {
                buf.push(b',');
                push_int(&mut buf, v);
            }
            Ok(())
        })?;
        buf.push(b'\n');
        if buf.len() >= CHUNK_BYTES {
            write(&mut out, &mut buf)?;
        }
        row += 1;
    }
    write(&mut out, &mut buf)?;
    out.flush().map_err(|e| Error::io(name, &e))?;
    Ok((out, row))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_as_given_and_a_repeated_one_is_replayed_once() {
        let args = [
            GovernorArg::Spec("menu".into()),
            GovernorArg::Spec("teo@5.1".into()),
            GovernorArg::Pair("menu".into(), "6.12".into()),
            GovernorArg::Spec("teo v6.1".into()),
        ];
        let d: Vec<String> = distinct(&args, "6.12").into_iter().map(|(l, _, _)| l).collect();
        assert_eq!(d, ["menu 6.12", "teo 5.1", "teo v6.1"]);
    }

    #[test]
    fn each_replay_is_classified_and_a_bad_pair_is_refused() {
        let table = StateTable::preset("intel-skx").unwrap();
        let (sleep, tick, wake, stopped, lat) = (
            vec![2_000_000i64, 30_000, 4_000_000],
            vec![1_000_000i64, 1_000_000, 1_000_000],
            vec![-1i64, 20_000, 50_000],
            vec![0i64; 3],
            vec![-1i64; 3],
        );
        let trace = TraceColumns {
            sleep_length_ns: &sleep,
            next_tick_ns: &tick,
            wake_ns: &wake,
            tick_stopped: &stopped,
            latency_req_ns: &lat,
            nr_iowait: &[],
            cpu_load: &[],
        };
        let args = [GovernorArg::Spec("menu".into()), GovernorArg::Spec("teo".into())];
        let c = compare(&args, "6.12", &table, &trace, 250).unwrap();
        assert_eq!(c.iter().map(|x| x.label.as_str()).collect::<Vec<_>>(), ["menu 6.12", "teo 6.12"]);
        for x in &c {
            assert_eq!((x.sim.len(), x.above.len(), x.below.len()), (3, 3, 3));
            let drv = table.drv();
            for i in 0..3 {
                let want = classify(&drv, usize::from(x.sim.idx[i]), x.sim.residency_ns[i]);
                assert_eq!((x.above[i], x.below[i]), want);
            }
        }
        let s = compare_summary(&args, "6.12", &table, &trace, 250, None).unwrap();
        assert_eq!(s[0].1.iter().map(|r| r.usage).sum::<u64>(), 3);
        let bad = [GovernorArg::Spec("teo:4.18".into())];
        assert!(compare(&bad, "6.12", &table, &trace, 250).unwrap_err().to_string().contains("teo is not available"));
    }
}
