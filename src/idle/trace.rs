//! Idle traces and the idle-period model that turns one trace row into what a
//! governor sees and what happens after it chose (docs/idle-governors.md §2.2, and §2.3 for
//! the ≤ 5.1 kernels, whose differences live in the governor types).
//!
//! A trace row describes one idle period of one CPU:
//! `sleep_length_ns` (time to the next timer if the tick were stopped), `next_tick_ns`
//! (time to the next tick; reduced into `(0, TICK_NSEC]`), `wake_ns` (time to a non-timer
//! wakeup, `-1` = none), `tick_stopped` (0/1: the tick was already stopped on entry),
//! `latency_req_ns` (PM QoS limit, `-1` = none), and optionally `nr_iowait` (tasks in
//! iowait, read by menu ≤ 6.1) and `cpu_load` (`rq->load.weight`, read by menu 4.18/4.19).
//!
//! The model, per row (identical for every governor and version):
//! 1. `delta_tick = min(sleep_length, next_tick)`; the governor's `select()` runs with
//!    `stop_tick` preset to true.
//! 2. If the tick keeps running (`!stop_tick && !tick_stopped`): the CPU wakes at
//!    `min(wake, sleep_length)`, or at `next_tick` if that is not later (`got_tick`).
//!    Otherwise it wakes at `min(wake, sleep_length)` without a tick.
//! 3. In a polling state the poll loop gives up after the governor version's poll time
//!    limit: the period is cut there (`poll_time_limit`, no tick).
//! 4. The residency is the period's length; `local_clock()` advances by it between
//!    `select()` and `reflect()`, and by 50 µs between periods.

// Parsers of untrusted bytes: no unwrap, expect, indexing or string slicing that can panic on input.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

use crate::csv_table;
use crate::error::{Error, Result};
use std::path::Path;

/// `latency_req_ns` with no constraint, as the 6.x kernels see it: the CPU latency QoS
/// default of 2000 s, in ns.
pub const NO_LATENCY_REQ_NS: i64 = 2_000_000_000_000;

/// Time `local_clock()` advances between two idle periods (the busy time of the model).
pub const BUSY_BETWEEN_PERIODS_NS: u64 = 50_000;

/// One idle period of one CPU (a trace row).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct IdlePeriod {
    /// Time till the next timer event with the tick stopped (`tick_nohz_get_sleep_length()`), ns.
    pub sleep_length_ns: i64,
    /// Time till the next tick, ns (any positive value; the model reduces it into one tick period).
    pub next_tick_ns: i64,
    /// Time till a non-timer wakeup, ns; `-1` = none (only a timer or the tick ends the period).
    pub wake_ns: i64,
    /// The tick was already stopped when the CPU went idle (`tick_nohz_tick_stopped()`).
    pub tick_stopped: bool,
    /// PM QoS latency limit in ns; `-1` = none.
    pub latency_req_ns: i64,
    /// Tasks in iowait on this CPU (`nr_iowait_cpu()`).
    pub nr_iowait: u32,
    /// `rq->load.weight` at idle entry (menu 4.18/4.19 `get_iowait_load()`); 0 on an idle CPU.
    pub cpu_load: u32,
}

/// The HZ-derived constants (`include/linux/jiffies.h`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tick {
    /// CONFIG_HZ.
    pub hz: u32,
    /// `TICK_NSEC = (NSEC_PER_SEC + HZ/2) / HZ`.
    pub nsec: i64,
    /// `TICK_USEC = (USEC_PER_SEC + HZ/2) / HZ`.
    pub usec: u32,
}

impl Tick {
    /// The constants for `hz` (one of the kernel's choices 100, 250, 300, 1000).
    pub fn new(hz: u32) -> Result<Tick> {
        if !crate::jiffies::CONFIG_HZ.contains(&hz) {
            let hzs: Vec<String> = crate::jiffies::CONFIG_HZ.iter().map(u32::to_string).collect();
            return Err(Error::domain(format!("HZ must be one of {}, got {hz}", hzs.join(", "))));
        }
        let h = u64::from(hz);
        // at most 10^7 ns and 10^4 µs for the HZ values accepted above: the casts are exact
        Ok(Tick { hz, nsec: crate::jiffies::tick_nsec(h) as i64, usec: crate::jiffies::tick_usec(h) as u32 })
    }

    /// `next_tick_ns` reduced into `(0, TICK_NSEC]` (0 is a whole tick period away).
    #[inline]
    pub fn reduce(&self, next_tick_ns: i64) -> i64 {
        if next_tick_ns > 0 && next_tick_ns <= self.nsec {
            next_tick_ns
        } else {
            (next_tick_ns - 1).rem_euclid(self.nsec) + 1
        }
    }
}

/// How an idle period ended under the model (step 2–4 of the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// Length of the idle period (the residency), ns.
    pub end_ns: i64,
    /// The tick ended the period.
    pub got_tick: bool,
    /// The poll loop hit its time limit.
    pub poll_time_limit: bool,
}

/// The end of period `p` once the governor chose: `next_tick` already reduced,
/// `stop_tick` as the governor left it, `poll_limit_ns` = `Some(limit)` when the chosen
/// state is the polling one.
#[inline]
pub fn outcome(p: &IdlePeriod, next_tick: i64, stop_tick: bool, poll_limit_ns: Option<i64>) -> Outcome {
    let mut end = if p.wake_ns >= 0 { p.wake_ns.min(p.sleep_length_ns) } else { p.sleep_length_ns };
    let mut got_tick = false;
    if !stop_tick && !p.tick_stopped && next_tick <= end {
        end = next_tick;
        got_tick = true;
    }
    let mut poll_time_limit = false;
    if let Some(limit) = poll_limit_ns {
        if end > limit {
            end = limit;
            poll_time_limit = true;
            got_tick = false;
        }
    }
    Outcome { end_ns: end, got_tick, poll_time_limit }
}

/// The trace CSV columns that must be present, in the order of the golden files.
pub const REQUIRED_COLUMNS: [&str; 5] =
    ["sleep_length_ns", "next_tick_ns", "wake_ns", "tick_stopped", "latency_req_ns"];
/// The CONFIG_HZ a replay or an ftrace import uses when none is given (the x86
/// defconfig's and most distributions').
pub const DEFAULT_HZ: u32 = 250;

/// Optional trace columns (default 0).
pub const OPTIONAL_COLUMNS: [&str; 2] = ["nr_iowait", "cpu_load"];

/// The most tasks in iowait a trace row may give (the model's range: menu ≤ 6.1
/// multiplies the count into its performance multiplier).
pub const MAX_NR_IOWAIT: i64 = 1_000_000;

/// Check one period's values; `at` says where the row came from for the error.
fn check(p: &IdlePeriod, at: &dyn Fn(&str, String) -> Error) -> Result<()> {
    if p.sleep_length_ns < 0 {
        return Err(at("sleep_length_ns", format!("negative duration {} ns", p.sleep_length_ns)));
    }
    if p.next_tick_ns < 0 {
        return Err(at("next_tick_ns", format!("negative duration {} ns", p.next_tick_ns)));
    }
    if p.wake_ns < -1 {
        return Err(at("wake_ns", format!("negative duration {} ns (use -1 for no wakeup)", p.wake_ns)));
    }
    if p.latency_req_ns < -1 {
        return Err(at("latency_req_ns", format!("negative latency {} ns (use -1 for no limit)", p.latency_req_ns)));
    }
    if i64::from(p.nr_iowait) > MAX_NR_IOWAIT {
        return Err(at(
            "nr_iowait",
            format!("{} tasks in iowait is beyond the model's range (≤ {MAX_NR_IOWAIT})", p.nr_iowait),
        ));
    }
    Ok(())
}

/// Where a replay takes its idle periods from, one at a time: a trace file read as it
/// is replayed ([`CsvPeriods`]), or periods already in memory ([`Periods`]). A source
/// polls the stop request as it reads (docs/cancel.md).
pub trait PeriodSource {
    /// The next period; `None` at the end of the trace; an error names where the
    /// trace is wrong.
    fn next_period(&mut self) -> Result<Option<IdlePeriod>>;
}

/// Periods in memory as a [`PeriodSource`].
pub struct Periods<I>(pub I);

impl<I: Iterator<Item = IdlePeriod>> PeriodSource for Periods<I> {
    #[inline]
    fn next_period(&mut self) -> Result<Option<IdlePeriod>> {
        Ok(self.0.next())
    }
}

/// A trace CSV (header with at least [`REQUIRED_COLUMNS`]) read row by row, each row
/// checked as it is read; errors name file, line and column. Memory does not grow with
/// the trace: one row is held at a time.
pub struct CsvPeriods<'p, R: std::io::Read> {
    table: csv_table::Table<'p, R>,
    path: Option<&'p str>,
}

impl<'p, R: std::io::Read> CsvPeriods<'p, R> {
    /// Read the header of `input` (named `path` in errors).
    pub fn open(input: R, path: Option<&'p str>) -> Result<Self> {
        let spec = csv_table::Spec { what: "input", required: &REQUIRED_COLUMNS, optional: &OPTIONAL_COLUMNS };
        Ok(CsvPeriods { table: csv_table::Table::open(input, path, &spec)?, path })
    }
}

impl<R: std::io::Read> PeriodSource for CsvPeriods<'_, R> {
    #[inline]
    fn next_period(&mut self) -> Result<Option<IdlePeriod>> {
        let path = self.path;
        let Some(row) = self.table.next_int_row()? else { return Ok(None) };
        let line = row.line();
        let num = |k: usize, col: &str| -> Result<i64> { Ok(row.int(k, col)?.unwrap_or(0)) };
        let tick_stopped = match num(3, "tick_stopped")? {
            0 => false,
            1 => true,
            v => return Err(Error::parse_col(path, Some(line), "tick_stopped", format!("expected 0 or 1, got {v}"))),
        };
        let small = |k: usize, col: &str, max: i64| -> Result<u32> {
            let v = num(k, col)?;
            if v < 0 {
                return Err(Error::parse_col(path, Some(line), col, format!("expected a count ≥ 0, got {v}")));
            }
            if v > max {
                return Err(Error::parse_col(
                    path,
                    Some(line),
                    col,
                    format!("{v} is beyond the model's range (≤ {max})"),
                ));
            }
            u32::try_from(v).map_err(|_| Error::parse_col(path, Some(line), col, format!("{v} is out of range")))
        };
        let p = IdlePeriod {
            sleep_length_ns: num(0, "sleep_length_ns")?,
            next_tick_ns: num(1, "next_tick_ns")?,
            wake_ns: num(2, "wake_ns")?,
            tick_stopped,
            latency_req_ns: num(4, "latency_req_ns")?,
            nr_iowait: small(5, "nr_iowait", MAX_NR_IOWAIT)?,
            cpu_load: small(6, "cpu_load", i64::from(u32::MAX))?,
        };
        check(&p, &|col, msg| Error::parse_col(path, Some(line), col, msg))?;
        Ok(Some(p))
    }
}

/// Read a trace CSV row by row from `input` into `out` (a `Vec<IdlePeriod>`, or a
/// [`TraceTable`] of columns); see [`CsvPeriods`].
pub fn read_csv_into<R: std::io::Read>(input: R, path: Option<&str>, out: &mut impl Extend<IdlePeriod>) -> Result<()> {
    let mut rows = CsvPeriods::open(input, path)?;
    while let Some(p) = rows.next_period()? {
        out.extend(std::iter::once(p));
    }
    Ok(())
}

/// Parse a trace CSV in memory (see [`read_csv_into`]).
pub fn parse_csv<T: Default + Extend<IdlePeriod>>(bytes: &[u8], path: Option<&str>) -> Result<T> {
    let mut out = T::default();
    read_csv_into(bytes, path, &mut out)?;
    Ok(out)
}

/// Read a trace CSV file whole (see [`read_csv_into`]); [`open_csv`] reads one as it
/// is replayed.
pub fn read_csv<T: Default + Extend<IdlePeriod>>(path: &Path) -> Result<T> {
    let limit = crate::archive::tree::MAX_TRACE_FILE_BYTES;
    let input = crate::archive::dir::open_file(path, limit)?;
    let mut out = T::default();
    read_csv_into(input, Some(&path.display().to_string()), &mut out)?;
    Ok(out)
}

/// The first bytes of a file opened once (a FIFO or a pipe cannot be opened again), and
/// the reader that gives them back before the rest.
pub type Sniffed = std::io::Chain<std::io::Cursor<Vec<u8>>, std::fs::File>;

/// Open `path` once and read its first bytes (up to 16: enough to name a binary
/// format, [`crate::text_input::binary_kind`]); the reader gives the whole file.
pub fn sniff(path: &Path) -> Result<(Vec<u8>, Sniffed)> {
    use std::io::Read;
    let mut file = std::fs::File::open(path).map_err(|e| Error::io(path, &e))?;
    let mut first = vec![0u8; 16];
    let mut got = 0;
    while got < first.len() {
        match file.read(first.get_mut(got..).unwrap_or_default()) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => crate::cancel::check()?,
            Err(e) => return Err(Error::io(path, &e)),
        }
    }
    first.truncate(got);
    Ok((first.clone(), std::io::Cursor::new(first).chain(file)))
}

/// A trace CSV file opened to be read as it is replayed ([`CsvPeriods`]): opened once
/// (a FIFO or a pipe is read as it comes, to its end), with no limit on its length
/// (one row is in memory at a time), refused at once when it is a binary format and
/// at its first NUL byte or over-long line ([`crate::text_input`]). `name` is how
/// errors call it.
pub fn open_csv<'p>(path: &Path, name: &'p str) -> Result<CsvPeriods<'p, crate::text_input::TextInput<Sniffed>>> {
    let (first, input) = sniff(path)?;
    if let Some(kind) = crate::text_input::binary_kind(&first) {
        let advice = if kind == "a trace.dat" { "import it as a trace first" } else { "give the CSV itself" };
        return Err(Error::parse(Some(name), None, format!("{kind}, not an idle trace CSV: {advice}")));
    }
    CsvPeriods::open(crate::text_input::TextInput::new(input), Some(name))
}

/// A trace held as its seven columns (what the Python binding hands to numpy without a
/// copy): 56 bytes a period, filled by [`read_csv_into`] or from periods.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TraceTable {
    /// `sleep_length_ns`.
    pub sleep_length_ns: Vec<i64>,
    /// `next_tick_ns`.
    pub next_tick_ns: Vec<i64>,
    /// `wake_ns` (-1 = none).
    pub wake_ns: Vec<i64>,
    /// `tick_stopped` (0/1).
    pub tick_stopped: Vec<i64>,
    /// `latency_req_ns` (-1 = none).
    pub latency_req_ns: Vec<i64>,
    /// `nr_iowait`.
    pub nr_iowait: Vec<i64>,
    /// `cpu_load`.
    pub cpu_load: Vec<i64>,
}

impl FromIterator<IdlePeriod> for TraceTable {
    fn from_iter<I: IntoIterator<Item = IdlePeriod>>(iter: I) -> Self {
        let mut t = TraceTable::default();
        t.extend(iter);
        t
    }
}

impl Extend<IdlePeriod> for TraceTable {
    fn extend<I: IntoIterator<Item = IdlePeriod>>(&mut self, iter: I) {
        for p in iter {
            self.sleep_length_ns.push(p.sleep_length_ns);
            self.next_tick_ns.push(p.next_tick_ns);
            self.wake_ns.push(p.wake_ns);
            self.tick_stopped.push(i64::from(p.tick_stopped));
            self.latency_req_ns.push(p.latency_req_ns);
            self.nr_iowait.push(i64::from(p.nr_iowait));
            self.cpu_load.push(i64::from(p.cpu_load));
        }
    }
}

/// Columns of a trace given as arrays (e.g. numpy); all of the same length.
#[derive(Debug, Clone, Copy)]
pub struct TraceColumns<'a> {
    /// `sleep_length_ns`.
    pub sleep_length_ns: &'a [i64],
    /// `next_tick_ns`.
    pub next_tick_ns: &'a [i64],
    /// `wake_ns` (-1 = none).
    pub wake_ns: &'a [i64],
    /// `tick_stopped` (0/1).
    pub tick_stopped: &'a [i64],
    /// `latency_req_ns` (-1 = none).
    pub latency_req_ns: &'a [i64],
    /// `nr_iowait` (empty = all 0).
    pub nr_iowait: &'a [i64],
    /// `cpu_load` (empty = all 0).
    pub cpu_load: &'a [i64],
}

/// `latency_req_ns` as a replay's output shows it (the golden files' form): no request
/// (-1) is [`NO_LATENCY_REQ_NS`].
pub fn shown_latency(latency_req_ns: i64) -> i64 {
    if latency_req_ns < 0 {
        NO_LATENCY_REQ_NS
    } else {
        latency_req_ns
    }
}

impl<'a> TraceColumns<'a> {
    /// The two input columns a replay's output shows otherwise than the trace holds
    /// them, as the golden files do: `next_tick_ns` reduced into one tick period
    /// ([`Tick::reduce`]) and `latency_req_ns` ([`shown_latency`]).
    pub fn shown(&self, hz: u32) -> Result<(Vec<i64>, Vec<i64>)> {
        let tick = Tick::new(hz)?;
        let (mut next_tick, mut latency) =
            (Vec::with_capacity(self.next_tick_ns.len()), Vec::with_capacity(self.latency_req_ns.len()));
        // 10 M periods are a long loop after the replay: Ctrl-C is polled (docs/cancel.md)
        for (i, &t) in self.next_tick_ns.iter().enumerate() {
            crate::cancel::check_every(i)?;
            next_tick.push(tick.reduce(t));
        }
        for (i, &l) in self.latency_req_ns.iter().enumerate() {
            crate::cancel::check_every(i)?;
            latency.push(shown_latency(l));
        }
        Ok((next_tick, latency))
    }

    /// Check the column lengths; returns the number of periods.
    pub fn check_lengths(&self) -> Result<usize> {
        let c = self;
        let n = c.sleep_length_ns.len();
        let lens = [
            ("next_tick_ns", c.next_tick_ns.len()),
            ("wake_ns", c.wake_ns.len()),
            ("tick_stopped", c.tick_stopped.len()),
            ("latency_req_ns", c.latency_req_ns.len()),
        ];
        for (name, len) in lens {
            if len != n {
                return Err(Error::domain(format!("trace column '{name}' has {len} values, sleep_length_ns has {n}")));
            }
        }
        for (name, col) in [("nr_iowait", c.nr_iowait), ("cpu_load", c.cpu_load)] {
            if !col.is_empty() && col.len() != n {
                return Err(Error::domain(format!(
                    "trace column '{name}' has {} values, sleep_length_ns has {n}",
                    col.len()
                )));
            }
        }
        Ok(n)
    }

    /// Check lengths and values; an error names the column and the 0-based row.
    /// Returns the number of periods.
    pub fn validate(&self) -> Result<usize> {
        let n = self.check_lengths()?;
        let mut it = self.checked_periods();
        for _ in it.by_ref() {}
        match it.error {
            Some(e) => Err(e),
            None => Ok(n),
        }
    }

    /// The periods, checked one by one as they are built: iteration stops at the first
    /// invalid row and [`CheckedPeriods::error`] says which (column, 0-based row, why).
    /// Lengths must have been checked ([`TraceColumns::check_lengths`]); missing optional
    /// columns read as 0.
    pub fn checked_periods(&self) -> CheckedPeriods<'a> {
        CheckedPeriods { c: *self, i: 0, error: None }
    }
}

/// The iterator of [`TraceColumns::checked_periods`]: one pass that validates and builds.
pub struct CheckedPeriods<'a> {
    c: TraceColumns<'a>,
    i: usize,
    /// The first invalid value met, if any (iteration stopped there).
    pub error: Option<Error>,
}

impl CheckedPeriods<'_> {
    #[cold]
    fn fail(&mut self, col: &str, msg: String) -> Option<IdlePeriod> {
        self.error = Some(Error::domain(format!("trace column '{col}', row {}: {msg}", self.i)));
        None
    }
}

impl Iterator for CheckedPeriods<'_> {
    type Item = IdlePeriod;

    #[inline]
    fn next(&mut self) -> Option<IdlePeriod> {
        let i = self.i;
        if self.error.is_some() {
            return None;
        }
        let c = &self.c;
        let (Some(&sleep), Some(&next_tick), Some(&wake), Some(&ts), Some(&lat)) = (
            c.sleep_length_ns.get(i),
            c.next_tick_ns.get(i),
            c.wake_ns.get(i),
            c.tick_stopped.get(i),
            c.latency_req_ns.get(i),
        ) else {
            return None;
        };
        let iow = c.nr_iowait.get(i).copied().unwrap_or(0);
        let load = c.cpu_load.get(i).copied().unwrap_or(0);
        if sleep < 0 {
            return self.fail("sleep_length_ns", format!("negative duration {sleep} ns"));
        }
        if next_tick < 0 {
            return self.fail("next_tick_ns", format!("negative duration {next_tick} ns"));
        }
        if wake < -1 {
            return self.fail("wake_ns", format!("negative duration {wake} ns (use -1 for no wakeup)"));
        }
        if ts != 0 && ts != 1 {
            return self.fail("tick_stopped", format!("expected 0 or 1, got {ts}"));
        }
        if lat < -1 {
            return self.fail("latency_req_ns", format!("negative latency {lat} ns (use -1 for no limit)"));
        }
        if !(0..=MAX_NR_IOWAIT).contains(&iow) {
            return self.fail("nr_iowait", format!("expected a count in 0..={MAX_NR_IOWAIT}, got {iow}"));
        }
        let Ok(cpu_load) = u32::try_from(load) else {
            return self.fail("cpu_load", format!("expected a count in 0..={}, got {load}", u32::MAX));
        };
        self.i += 1;
        Some(IdlePeriod {
            sleep_length_ns: sleep,
            next_tick_ns: next_tick,
            wake_ns: wake,
            tick_stopped: ts == 1,
            latency_req_ns: lat,
            nr_iowait: iow as u32,
            cpu_load,
        })
    }
}

/// Build and check a trace from columns; an error names the column and the 0-based row.
pub fn from_columns(c: &TraceColumns<'_>) -> Result<Vec<IdlePeriod>> {
    c.check_lengths()?;
    let mut it = c.checked_periods();
    let out: Vec<IdlePeriod> = it.by_ref().collect();
    match it.error {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

/// The trace as CSV with every column (header as the golden inputs plus `cpu_load`).
pub fn to_csv(periods: &[IdlePeriod]) -> String {
    let mut out = String::from("sleep_length_ns,next_tick_ns,wake_ns,tick_stopped,latency_req_ns,nr_iowait,cpu_load\n");
    for p in periods {
        out.push_str(&format!(
            "{},{},{},{},{},{},{}\n",
            p.sleep_length_ns,
            p.next_tick_ns,
            p.wake_ns,
            u8::from(p.tick_stopped),
            p.latency_req_ns,
            p.nr_iowait,
            p.cpu_load
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tick_constants() {
        let t = Tick::new(250).unwrap();
        assert_eq!((t.nsec, t.usec), (4_000_000, 4000));
        let t = Tick::new(1000).unwrap();
        assert_eq!((t.nsec, t.usec), (1_000_000, 1000));
        assert_eq!(Tick::new(300).unwrap().nsec, 3_333_333);
        assert!(Tick::new(251).is_err());
        assert_eq!(t.reduce(3_998_726), 998_726);
        assert_eq!(t.reduce(1_000_000), 1_000_000);
        assert_eq!(t.reduce(0), 1_000_000);
    }

    #[test]
    fn outcome_follows_the_model() {
        let p = IdlePeriod { sleep_length_ns: 5_000, next_tick_ns: 3_000, wake_ns: -1, ..Default::default() };
        // tick kept: the tick comes first
        assert_eq!(outcome(&p, 3_000, false, None), Outcome { end_ns: 3_000, got_tick: true, poll_time_limit: false });
        // tick stopped by the governor: the timer
        assert_eq!(outcome(&p, 3_000, true, None), Outcome { end_ns: 5_000, got_tick: false, poll_time_limit: false });
        // polling state with a 2 µs limit
        assert_eq!(
            outcome(&p, 3_000, false, Some(2_000)),
            Outcome { end_ns: 2_000, got_tick: false, poll_time_limit: true }
        );
        // a wakeup before everything
        let w = IdlePeriod { wake_ns: 1_000, ..p };
        assert_eq!(outcome(&w, 3_000, false, None).end_ns, 1_000);
        // the tick already stopped: no tick even if the governor says keep it
        let s = IdlePeriod { tick_stopped: true, ..p };
        assert_eq!(outcome(&s, 3_000, false, None), Outcome { end_ns: 5_000, got_tick: false, poll_time_limit: false });
    }

    #[test]
    fn columns_are_checked_row_by_row() {
        let sleep = [10, 20, 30];
        let wake = [-1, 5, -3];
        let ok = [1, 1, 1];
        let zero = [0, 0, 0];
        let lat = [-1, -1, -1];
        let c = TraceColumns {
            sleep_length_ns: &sleep,
            next_tick_ns: &ok,
            wake_ns: &wake,
            tick_stopped: &zero,
            latency_req_ns: &lat,
            nr_iowait: &[],
            cpu_load: &[],
        };
        let e = from_columns(&c).unwrap_err().to_string();
        assert_eq!(e, "trace column 'wake_ns', row 2: negative duration -3 ns (use -1 for no wakeup)");
        assert!(c.validate().is_err());
        let good = TraceColumns { wake_ns: &[-1, 5, 7], ..c };
        assert_eq!(good.validate().unwrap(), 3);
        assert_eq!(
            from_columns(&good).unwrap()[1],
            IdlePeriod { sleep_length_ns: 20, next_tick_ns: 1, wake_ns: 5, latency_req_ns: -1, ..Default::default() }
        );
        let short = TraceColumns { wake_ns: &[-1], ..c };
        assert!(short.check_lengths().unwrap_err().to_string().contains("'wake_ns' has 1 values"));
    }

    #[test]
    fn csv_trace_and_bad_rows() {
        let ok: Vec<IdlePeriod> = parse_csv(
            b"sleep_length_ns,next_tick_ns,wake_ns,tick_stopped,latency_req_ns\n10,20,-1,0,-1\n",
            Some("t.csv"),
        )
        .unwrap();
        assert_eq!(
            ok[0],
            IdlePeriod { sleep_length_ns: 10, next_tick_ns: 20, wake_ns: -1, latency_req_ns: -1, ..Default::default() }
        );
        let h = "sleep_length_ns,next_tick_ns,wake_ns,tick_stopped,latency_req_ns,nr_iowait\n";
        let e = |body: &str| {
            parse_csv::<Vec<IdlePeriod>>(format!("{h}{body}").as_bytes(), Some("t.csv")).unwrap_err().to_string()
        };
        assert_eq!(e("-5,20,-1,0,-1,0\n"), "t.csv:2: column 'sleep_length_ns': negative duration -5 ns");
        assert!(e("5,20,-2,0,-1,0\n").starts_with("t.csv:2: column 'wake_ns': negative duration"));
        assert!(e("5,20,1,2,-1,0\n").starts_with("t.csv:2: column 'tick_stopped': expected 0 or 1"));
        assert!(e("5,20,1,0,-1,0\n5,20,1\n").starts_with("t.csv:3: column 'tick_stopped': missing value"));
        let e =
            parse_csv::<Vec<IdlePeriod>>(b"sleep_length_ns,next_tick_ns,tick_stopped,latency_req_ns\n", Some("t.csv"))
                .unwrap_err();
        assert!(e.to_string().starts_with("t.csv:1: column 'wake_ns': missing column"));
    }
}
