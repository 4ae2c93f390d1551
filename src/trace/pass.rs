//! The metrics pass over one trace, or many in parallel: its events streamed through
//! the [`Machine`], the governor what-if replayed when asked, and what the trace could
//! not show said in its notes (docs/trace-compare.md §3).

use super::groups::{Groups, Selector};
use super::inputs::TraceInput;
use super::machine::{excluded_notes, Machine, SliceRow};
use super::source::{self, Item, Read};
use super::summary::TraceSummary;
use super::util_replay::{self, Finder, UtilTask};
use super::whatif::{self, Governors};
use crate::error::{Error, Result};
use crate::idle::states::StateTable;
use crate::import_notes::{ImportNotes, ImportOptions};
use rayon::prelude::*;

/// What a pass computes besides the fixed metrics.
#[derive(Debug, Clone)]
pub struct Options {
    /// The idle-state table (names, and the target residencies and exit latencies of
    /// the kernel's above/below rule): `--states`.
    pub states: Option<StateTable>,
    /// Task groups besides every task.
    pub groups: Groups,
    /// Governors to replay each trace's idle periods through.
    pub governors: Governors,
    /// CONFIG_HZ of the traced kernel (the what-if's tick).
    pub hz: u32,
    /// Malformed lines: skipped and counted, or the error.
    pub import: ImportOptions,
    /// Tasks whose util_avg/util_est are replayed from their scheduling events
    /// (`--util-task`, docs/trace-compare.md §3.4).
    pub util_tasks: Vec<UtilTask>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            states: None,
            groups: Groups::default(),
            governors: Governors::default(),
            hz: crate::live::kernel_config::DEFAULT_HZ,
            import: ImportOptions::default(),
            util_tasks: Vec::new(),
        }
    }
}

impl Options {
    /// Options from a front end's values: a state table (path, sysfs directory, dump,
    /// CSV or preset), task names and pid lists, governor specs.
    pub fn from_named(
        states: Option<&str>,
        comms: &[String],
        pid_lists: &[String],
        governors: &[String],
        hz: u32,
        strict: bool,
    ) -> Result<Options> {
        crate::idle::Tick::new(hz)?;
        let states = states.map(|s| StateTable::load(std::path::Path::new(s))).transpose()?;
        let mut sel: Vec<Selector> = comms.iter().map(|c| Selector::Comm(c.clone())).collect();
        for p in pid_lists {
            sel.push(Selector::parse_pids(p)?);
        }
        let governors = Governors::new(governors)?;
        if !governors.is_empty() && states.is_none() {
            return Err(Error::domain("the governor what-if replays on a state table: give one (--states)"));
        }
        Ok(Options {
            states,
            groups: Groups::new(sel)?,
            governors,
            hz,
            import: ImportOptions { strict, sort: false },
            util_tasks: Vec::new(),
        })
    }

    /// These options with the tasks of `names` replayed (`--util-task`: a task name, or
    /// a pid when all digits; docs/trace-compare.md §3.4).
    pub fn with_util_tasks(mut self, names: &[String]) -> Result<Options> {
        self.util_tasks = names.iter().map(|n| UtilTask::parse(n)).collect::<Result<_>>()?;
        Ok(self)
    }
}

/// The summary of one trace; `rows` also receives every `sched_switch` as perf sched
/// timehist computes it.
pub fn summarize_with_rows(
    input: &TraceInput,
    opts: &Options,
    rows: Option<&mut dyn FnMut(SliceRow)>,
) -> Result<TraceSummary> {
    let name = input.name();
    let mut notes = ImportNotes::default();
    let drv = opts.states.as_ref().map(StateTable::drv);
    let mut m = Machine::new(drv, &opts.groups, Some(&name));
    if let Some(r) = rows {
        m = m.with_rows(r);
    }
    let mut finder = Finder::new(&opts.util_tasks);
    let mut feed = |item: Item| match item {
        Item::Event(e) => {
            finder.event(&e);
            m.event(&e)
        }
        Item::Loss(l) => m.loss(l),
    };
    let mut member = None;
    let read: Read = match input {
        TraceInput::File(p) => source::read_path(p, opts.import, &mut notes, &mut feed)?,
        TraceInput::Member { tree, rel } => {
            let bytes = crate::archive::Tree::read(tree.as_ref(), rel)?;
            let read = source::read_bytes(&bytes, &name, opts.import, &mut notes, &mut feed)?;
            member = Some(bytes);
            read
        }
    };
    let (Some(start), Some(end)) = (read.start_ns, read.end_ns) else {
        return Err(Error::parse(Some(&name), None, "no events with a timestamp: not a trace"));
    };
    let mut s = m.finish_at(start, end);
    s.format = read.format;
    if let Some(t) = &opts.states {
        s.state_names = t.states().iter().map(|st| st.name.clone()).collect();
        let seen = s.cpus.iter().map(|c| c.states.len()).max().unwrap_or(0);
        if seen > t.len() {
            notes.assume(format!(
                "the trace enters idle state {} but the state table has {} states: above/below are not counted for it",
                seen - 1,
                t.len()
            ));
        }
    }
    let mut replay_notes = Vec::new();
    util_replay::replay_all(input, member.as_deref(), finder, &mut s, opts.hz, opts.import, &mut replay_notes)?;
    if !opts.governors.is_empty() {
        let table = opts.states.as_ref().ok_or_else(|| Error::domain("the governor what-if needs a state table"))?;
        let import = whatif::import(member.as_deref(), &name, opts.hz, opts.import)?;
        for n in import.notes.messages() {
            notes.assume(format!("what-if: {n}"));
        }
        s.whatif = opts.governors.replay(&import, table, opts.hz)?;
    }
    let mut all = notes.messages();
    all.extend(replay_notes);
    all.extend(coverage_notes(&s));
    s.notes = all;
    Ok(s)
}

/// What the trace could not show, one sentence each (docs/trace-compare.md §5).
pub fn coverage_notes(s: &TraceSummary) -> Vec<String> {
    let mut out = Vec::new();
    if s.loss_marks > 0 {
        let uncounted = if s.losses_uncounted > 0 {
            format!(" (and {} overflows of unknown size)", s.losses_uncounted)
        } else {
            String::new()
        };
        let first: Vec<String> = s
            .losses
            .iter()
            .take(5)
            .map(|l| {
                let n = l.count.map_or("some".to_string(), |c| c.to_string());
                format!(
                    "CPU {} lost {n} before {}.{:09} s (line {})",
                    l.cpu,
                    l.ts / 1_000_000_000,
                    l.ts % 1_000_000_000,
                    l.line
                )
            })
            .collect();
        out.push(format!(
            "ring buffer overflowed {} time(s), {} events lost{uncounted}: {}",
            s.loss_marks,
            s.lost_events,
            first.join("; ")
        ));
    }
    out.extend(excluded_notes(&s.excluded));
    let open: u64 = s.cpus.iter().map(|c| c.idle_open_at_end).sum();
    if open > 0 {
        out.push(format!(
            "{open} idle period(s) open at the end of the trace: in the residency, not in entries or time"
        ));
    }
    let orphan: u64 = s.cpus.iter().map(|c| c.idle_orphan_exits).sum();
    let unexited: u64 = s.cpus.iter().map(|c| c.idle_unexited).sum();
    if orphan + unexited > 0 {
        out.push(format!(
            "{orphan} idle exit(s) without their entry and {unexited} entry(ies) without their exit were not counted"
        ));
    }
    let p = s.present;
    let missing: Vec<&str> = [
        (!p.switch, "sched_switch (scheduling metrics)"),
        (!p.wakeup, "sched_wakeup/sched_waking (wakeup latency)"),
        (!p.idle, "cpu_idle (idle metrics)"),
        (!p.frequency, "cpu_frequency (frequency residency)"),
    ]
    .into_iter()
    .filter_map(|(m, what)| m.then_some(what))
    .collect();
    if !missing.is_empty() {
        out.push(format!("not in the trace: {}", missing.join(", ")));
    }
    out
}

/// [`summarize_with_rows`] without the rows.
pub fn summarize(input: &TraceInput, opts: &Options) -> Result<TraceSummary> {
    summarize_with_rows(input, opts, None)
}

/// Summarize `inputs` in parallel on at most `threads` threads, in input order; the
/// first failing input's error (in input order) is the error.
pub fn summarize_all(inputs: &[TraceInput], opts: &Options, threads: Option<usize>) -> Result<Vec<TraceSummary>> {
    let each: Vec<Result<TraceSummary>> =
        crate::parallel::install(threads, || inputs.par_iter().map(|i| summarize(i, opts)).collect())?;
    each.into_iter().collect()
}
