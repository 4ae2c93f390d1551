//! A replay's rows as columns: one vector per output column, filled by the full replay
//! ([`driver`]) or, when only util_avg-side columns are asked for, by the util-only
//! replay ([`util_only`], [`speculate`]); the choice and the sizing live here so that
//! every front end gets the same columns (docs/pelt.md).

use crate::error::{Error, Result};
use crate::parallel;
use crate::pelt::driver::{self, Config};
use crate::pelt::kernel::Invariance;
use crate::pelt::row::{Event, Row, Sink};
use crate::pelt::speculate::{self, RowStore};
use crate::pelt::trace::{self, Segment, Segments, State, TraceColumns};
use crate::pelt::util_model::{UtilRow, UTIL_COLUMNS};
use crate::pelt::util_only;

/// One output column's values, in the dtype the column is declared with.
#[derive(Debug, Clone, PartialEq)]
pub enum Column {
    /// Times, sums, counters.
    I64(Vec<i64>),
    /// Utilization-like values and capacities.
    I32(Vec<i32>),
    /// Codes (event, state).
    U8(Vec<u8>),
    /// Flags.
    I8(Vec<i8>),
}

macro_rules! column_from {
    ($($t:ty => $v:ident),*) => {$(
        impl From<Vec<$t>> for Column {
            fn from(v: Vec<$t>) -> Self {
                Column::$v(v)
            }
        }
    )*};
}
column_from!(i64 => I64, i32 => I32, u8 => U8, i8 => I8);

/// Rows a column store holds back before writing them to its columns.
const ROWS_PER_FLUSH: usize = 256;

/// Declares the output columns once: name, numpy dtype, and the value from a [`Row`].
/// Utilization-like values are bounded by the model (≤ a few thousand), times by
/// `trace::MAX_TRACE_NS` (< 2^62) and util_est by 2^32: the conversions are exact.
macro_rules! columns {
    ($cols:ident, $row:ty, $names:ident; $($name:ident: $ty:ty = |$r:ident| $val:expr;)*) => {
        /// The rows as column vectors (only the selected columns are filled). Rows
        /// arrive one at a time and wait in `pending` until [`ROWS_PER_FLUSH`] have
        /// come; then each kept column takes them in one loop. (Pushing each value
        /// as its row came tested every column per row and reloaded each vector after
        /// every store: about 70 instructions a row for 2 columns, against ~20.)
        struct $cols {
            $($name: Option<Vec<$ty>>,)*
            events: u8,
            pending: Vec<$row>,
        }

        /// Every column name, in output order.
        pub const $names: &[&str] = &[$(stringify!($name)),*];

        impl $cols {
            /// Columns named in `select` (all when None), sized for `n` rows, keeping the
            /// events whose bit is set in `events`.
            fn new(select: Option<&[String]>, n: usize, events: u8) -> Result<Self> {
                if let Some(sel) = select {
                    if let Some(bad) = sel.iter().find(|c| !$names.contains(&c.as_str())) {
                        return Err(Error::domain(format!("unknown column '{bad}'; columns: {}", $names.join(", "))));
                    }
                }
                let want = |name: &str| select.is_none_or(|s| s.iter().any(|c| c == name));
                // try_reserve: a trace too long for memory is an error, not an abort.
                let oom = || Error::domain(format!(
                    "not enough memory for {n} rows; keep fewer columns/events, or write CSV instead"
                ));
                Ok($cols {
                    $($name: if want(stringify!($name)) {
                        let mut v = Vec::new();
                        v.try_reserve_exact(n).map_err(|_| oom())?;
                        Some(v)
                    } else {
                        None
                    },)*
                    events,
                    pending: Vec::with_capacity(ROWS_PER_FLUSH),
                })
            }

            /// Move the pending rows into the columns.
            #[inline(never)]
            fn flush(&mut self) {
                if self.pending.is_empty() {
                    return;
                }
                $(
                    if let Some(v) = &mut self.$name {
                        v.extend(self.pending.iter().map(|$r| $val));
                    }
                )*
                self.pending.clear();
            }

            /// An empty copy of this selection with room for `n` rows.
            #[allow(dead_code)]
            fn fresh_like(&self, n: usize) -> Result<Self> {
                let kept: Vec<String> = [$((stringify!($name), self.$name.is_some())),*]
                    .iter()
                    .filter(|(_, kept)| *kept)
                    .map(|(name, _)| name.to_string())
                    .collect();
                Self::new(Some(&kept), n, self.events)
            }

            /// Overwrite stored row `i`.
            #[allow(dead_code)]
            fn set_row(&mut self, i: usize, row: &$row) {
                self.flush();
                $(
                    if let Some(v) = &mut self.$name {
                        let $r = row;
                        if let Some(x) = v.get_mut(i) {
                            *x = $val;
                        }
                    }
                )*
            }

            /// Move `other`'s rows after these.
            #[allow(dead_code)]
            fn append_rows(&mut self, mut other: Self) {
                self.flush();
                other.flush();
                $(
                    if let (Some(v), Some(o)) = (&mut self.$name, &mut other.$name) {
                        v.append(o);
                    }
                )*
            }

            /// Rows there is room for.
            #[allow(dead_code)]
            fn room(&self) -> usize {
                let mut n = usize::MAX;
                $(
                    if let Some(v) = &self.$name {
                        n = n.min(v.capacity());
                    }
                )*
                if n == usize::MAX { 0 } else { n }
            }

            /// The kept columns in output order (`p_ue_enqueued` only when `enqueued`).
            fn into_columns(mut self, enqueued: bool) -> Vec<(&'static str, Column)> {
                self.flush();
                let mut out = Vec::new();
                $(
                    if let Some(v) = self.$name {
                        if stringify!($name) != "p_ue_enqueued" || enqueued {
                            out.push((stringify!($name), Column::from(v)));
                        }
                    }
                )*
                out
            }
        }

        impl Sink<$row> for $cols {
            #[inline]
            fn wants(&self, event: Event) -> bool {
                self.events & (1 << (event as u8)) != 0
            }

            #[inline(always)]
            fn row(&mut self, row: &$row) -> Result<()> {
                self.pending.push(*row);
                if self.pending.len() >= ROWS_PER_FLUSH {
                    self.flush();
                }
                Ok(())
            }
        }
    };
}

// The golden columns, then `p_ue_enqueued`.
columns! { Columns, Row, COLUMN_NAMES;
    t_ns: i64 = |r| r.t_ns as i64;
    event: u8 = |r| r.event as u8;
    seg: i64 = |r| r.seg as i64;
    state: u8 = |r| state_code(r.state);
    cpu_cap: i32 = |r| r.cpu_cap as i32;
    freq_cap: i32 = |r| r.freq_cap as i32;
    clock_task: i64 = |r| r.clock_task as i64;
    clock_pelt: i64 = |r| r.clock_pelt as i64;
    lost_idle_time: i64 = |r| r.lost_idle_time as i64;
    p_util_avg: i32 = |r| r.p_util_avg as i32;
    p_util_sum: i64 = |r| i64::from(r.p_util_sum);
    p_period_contrib: i32 = |r| r.p_period_contrib as i32;
    p_runnable_avg: i32 = |r| r.p_runnable_avg as i32;
    p_load_avg: i32 = |r| r.p_load_avg as i32;
    p_last_update_time: i64 = |r| r.p_last_update_time as i64;
    p_util_est: i32 = |r| r.p_util_est as i32;
    p_ue_unchanged: i8 = |r| i8::from(r.p_ue_unchanged);
    cfs_util_avg: i32 = |r| r.cfs_util_avg as i32;
    cfs_util_sum: i64 = |r| i64::from(r.cfs_util_sum);
    cfs_runnable_avg: i32 = |r| r.cfs_runnable_avg as i32;
    cfs_load_avg: i32 = |r| r.cfs_load_avg as i32;
    cfs_util_est: i64 = |r| i64::from(r.cfs_util_est);
    cpu_util_cfs: i32 = |r| r.cpu_util_cfs as i32;
    cpu_util_cfs_boost: i32 = |r| r.cpu_util_cfs_boost as i32;
    cpu_util_without_p: i32 = |r| r.cpu_util_without_p as i32;
    task_util_est_p: i32 = |r| r.task_util_est_p as i32;
    sugov_perf: i32 = |r| r.sugov_perf as i32;
    cpufreq_calls: i64 = |r| r.cpufreq_calls as i64;
    p_ue_enqueued: i64 = |r| i64::from(r.p_ue_enqueued);
}

// The columns the util-only replay keeps: crate::pelt::util_model::UTIL_COLUMNS, with the
// dtypes of the full list above (tests/test_pelt_util_only.py asks for every UTIL_COLUMNS
// name and compares frames, dtypes included, with the full replay's).
columns! { UtilColumns, UtilRow, UTIL_COLUMN_NAMES;
    t_ns: i64 = |r| r.t_ns as i64;
    event: u8 = |r| r.event as u8;
    seg: i64 = |r| r.seg as i64;
    state: u8 = |r| state_code(r.state);
    cpu_cap: i32 = |r| r.cpu_cap as i32;
    freq_cap: i32 = |r| r.freq_cap as i32;
    clock_task: i64 = |r| r.clock_task as i64;
    clock_pelt: i64 = |r| r.clock_pelt as i64;
    lost_idle_time: i64 = |r| r.lost_idle_time as i64;
    p_util_avg: i32 = |r| r.p_util_avg as i32;
    p_util_sum: i64 = |r| i64::from(r.p_util_sum);
    p_period_contrib: i32 = |r| r.p_period_contrib as i32;
    p_last_update_time: i64 = |r| r.p_last_update_time as i64;
}

impl RowStore for UtilColumns {
    fn fresh(&self, rows: usize) -> Result<Self> {
        self.fresh_like(rows)
    }
    fn set(&mut self, index: usize, row: &UtilRow) {
        self.set_row(index, row)
    }
    fn append(&mut self, other: Self) {
        self.append_rows(other)
    }
    fn room(&self) -> usize {
        UtilColumns::room(self)
    }
}

/// Whether only columns of the util-only replay are asked for, of a kernel it models
/// (the PELT clock: 4.19's scaled contributions are the full replay's, docs/pelt.md §9).
fn util_only_columns(sel: &Select, cfg: &Config) -> bool {
    // (a snapshot start holds the sums the util-only models do not start from)
    cfg.kernel.invariance == Invariance::Clock
        && !matches!(cfg.init, driver::Init::Snapshot(_))
        && sel.columns.as_deref().is_some_and(|s| s.iter().all(|c| UTIL_COLUMNS.contains(&c.as_str())))
}

/// The util-only replay of a trace read in place from its columns, on the default
/// number of threads ([`speculate`]).
fn util_columns_of(trace: &TraceColumns<'_>, cfg: &Config, sel: &Select) -> Result<Vec<(&'static str, Column)>> {
    let mask = event_mask(sel.events.as_deref())?;
    let hint = util_only::rows_hint(trace, cfg, |e| mask & (1 << (e as u8)) != 0);
    let mut out = UtilColumns::new(sel.columns.as_deref(), hint, mask)?;
    let threads = parallel::default_threads()?;
    parallel::install(Some(threads), || speculate::simulate_util_columns(trace, cfg, &mut out, threads))??;
    Ok(out.into_columns(false))
}

/// The state column's code: 0 running, 1 waiting, 2 sleeping.
pub fn state_code(s: State) -> u8 {
    match s {
        State::Run => 0,
        State::Wait => 1,
        State::Sleep => 2,
    }
}

/// Bit `Event as u8` set for each event named (all when None).
fn event_mask(events: Option<&[String]>) -> Result<u8> {
    let Some(names) = events else { return Ok(0xff) };
    let mut mask = 0u8;
    for n in names {
        let e = Event::ALL.iter().find(|e| e.name() == n.as_str()).ok_or_else(|| {
            let all: Vec<&str> = Event::ALL.iter().map(|e| e.name()).collect();
            Error::domain(format!("unknown event '{n}'; events: {}", all.join(", ")))
        })?;
        mask |= 1 << (*e as u8);
    }
    Ok(mask)
}

/// Which rows (events) and columns a replay returns: all when `None`.
#[derive(Debug, Clone, Default)]
pub struct Select {
    /// Column names, from [`COLUMN_NAMES`].
    pub columns: Option<Vec<String>>,
    /// Event names ([`Event::name`]).
    pub events: Option<Vec<String>>,
}

/// Replay `segs` under `cfg` into the columns `sel` asks for. When only util_avg-side
/// columns are asked for, the util-only replay gives the same values at about a third
/// of the work ([`util_only`]), split across threads; otherwise the full replay fills
/// columns sized exactly up front (no reallocation of the ~130 bytes a row).
pub fn replay_segments(segs: &[Segment], cfg: &Config, sel: &Select) -> Result<Vec<(&'static str, Column)>> {
    let mask = event_mask(sel.events.as_deref())?;
    // the util-only replay keeps one runqueue: a trace that migrates takes the full one
    let one_cpu = segs.first().is_none_or(|f| segs.iter().all(|s| s.cpu == f.cpu));
    if one_cpu && util_only_columns(sel, cfg) {
        let hint = util_only::rows_hint(segs, cfg, |e| mask & (1 << (e as u8)) != 0);
        let mut cols = UtilColumns::new(sel.columns.as_deref(), hint, mask)?;
        let threads = parallel::default_threads()?;
        parallel::install(Some(threads), || speculate::simulate_util_parallel(segs, cfg, &mut cols, threads))??;
        return Ok(cols.into_columns(false));
    }
    crate::pelt::sequence::check_ticks(segs, cfg.tick_ns)?; // before sizing
    let by_event = driver::count_rows_by_event(segs, cfg);
    let n: u64 = Event::ALL.iter().filter(|e| mask & (1 << (**e as u8)) != 0).map(|e| by_event[*e as usize]).sum();
    let n = usize::try_from(n).map_err(|_| Error::domain(format!("{n} rows do not fit in memory")))?;
    let mut cols = Columns::new(sel.columns.as_deref(), n, mask)?;
    driver::simulate(segs, cfg, &mut cols)?;
    Ok(cols.into_columns(cfg.rule.has_enqueued()))
}

/// The segments of a trace given as columns with its own ticks (`tick`: 0/1 per
/// segment, docs/pelt.md §5.3), checked as [`validate`] checks them.
pub fn segments_with_ticks(
    dur_ns: &[i64],
    state: &[u8],
    cpu_cap: &[i64],
    freq_cap: &[i64],
    tick: &[u8],
) -> Result<Vec<Segment>> {
    let cols = crate::pelt::trace::TraceColumns::new(dur_ns, state, cpu_cap, freq_cap)?;
    if tick.len() != dur_ns.len() {
        return Err(Error::parse_col(
            None,
            None,
            "tick",
            format!("{} values for {} durations", tick.len(), dur_ns.len()),
        ));
    }
    let mut segs: Vec<Segment> = (0..dur_ns.len()).map(|i| cols.get(i)).collect();
    for (s, &t) in segs.iter_mut().zip(tick) {
        s.tick = t != 0;
    }
    crate::pelt::trace::validate(&segs)?;
    Ok(segs)
}

/// Replay a trace given as columns (`dur_ns`, state letters, `cpu_cap`, `freq_cap`):
/// read in place by the util-only replay when it serves `sel`, else as segments through
/// [`replay_segments`].
pub fn replay_trace_columns(
    dur_ns: &[i64],
    state: &[u8],
    cpu_cap: &[i64],
    freq_cap: &[i64],
    cfg: &Config,
    sel: &Select,
) -> Result<Vec<(&'static str, Column)>> {
    if util_only_columns(sel, cfg) {
        let trace = TraceColumns::new(dur_ns, state, cpu_cap, freq_cap)?;
        return util_columns_of(&trace, cfg, sel);
    }
    let segs = trace::segments_from_columns(dur_ns, state, cpu_cap, freq_cap)?;
    replay_segments(&segs, cfg, sel)
}
