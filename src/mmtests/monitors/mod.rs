//! MMTests monitors: the logs run-mmtests.sh's monitors leave beside a benchmark
//! (`iter-N/vmstat-BENCH.gz`, ...) and the tables `compare-mmtests.pl --print-monitor
//! MONITOR [--sub-heading S]` prints of them, byte for byte, per era (reference:
//! docs/mmtests-monitors.md).
//!
//! One file per monitor shape reads one iteration directory into [`Samples`]; state
//! MMTests keeps across iterations (a module's fields) or across runs (a module's
//! file-level variables, which live for the whole Perl process) is kept by the
//! monitor's reader the same way, because it changes the numbers printed.

pub mod duration;
pub mod iostat;
pub mod mpstat;
pub mod proc_interrupts;
pub mod proc_vmstat;
pub mod turbostat;
pub mod vmstat;

use super::era::{Era, Preferred};
use super::extract::{Meta, Run, Samples};
use super::logfile::{read_log, LogFile};
use super::summarise::{self, Stat, SummaryKind};
use crate::archive::tree::join;
use crate::archive::Tree;
use crate::error::{Error, Result};
use crate::table::{Cell, ChangeKind, Comparison, Direction, MmtestsMeta, Row};

/// The monitors schedlab reads, by the name `--print-monitor` takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Monitor {
    /// `duration`: the `time :: BENCH U user S system E elapsed` line of tests-timestamp.
    Duration,
    /// `vmstat`: `vmstat -n` through latency-output.
    Vmstat,
    /// `mpstat`: `mpstat -P ALL -u`, summed per NUMA node (`--sub-heading node-N`).
    Mpstat,
    /// `proc-vmstat`: /proc/vmstat sampled.
    ProcVmstat,
    /// `proc-interrupts`: /proc/interrupts sampled.
    ProcInterrupts,
    /// `iostat`: `iostat -xz` through latency-output.
    Iostat,
    /// `turbostat`: turbostat's summary row.
    Turbostat,
}

/// Every monitor name [`Monitor::parse`] accepts.
pub const MONITOR_NAMES: &[&str] =
    &["duration", "vmstat", "mpstat", "proc-vmstat", "proc-interrupts", "iostat", "turbostat"];

impl Monitor {
    /// The monitor named `s` (MMTests' spelling; ExtractFactory also accepts it without dashes).
    pub fn parse(s: &str) -> Result<Monitor> {
        Ok(match s.replace('-', "").to_ascii_lowercase().as_str() {
            "duration" => Monitor::Duration,
            "vmstat" => Monitor::Vmstat,
            "mpstat" => Monitor::Mpstat,
            "procvmstat" => Monitor::ProcVmstat,
            "procinterrupts" => Monitor::ProcInterrupts,
            "iostat" => Monitor::Iostat,
            "turbostat" => Monitor::Turbostat,
            _ => {
                return Err(Error::domain(format!(
                    "unknown MMTests monitor '{s}' (known: {})",
                    MONITOR_NAMES.join(", ")
                )))
            }
        })
    }

    /// The name MMTests gives the monitor.
    pub fn name(self) -> &'static str {
        match self {
            Monitor::Duration => "duration",
            Monitor::Vmstat => "vmstat",
            Monitor::Mpstat => "mpstat",
            Monitor::ProcVmstat => "proc-vmstat",
            Monitor::ProcInterrupts => "proc-interrupts",
            Monitor::Iostat => "iostat",
            Monitor::Turbostat => "turbostat",
        }
    }

    /// The summary type of the module (`SummariseMonitor`, `SummariseMultiops`, `SummariseSingleops`).
    fn kind(self) -> SummaryKind {
        match self {
            Monitor::Duration => SummaryKind::Singleops,
            _ => SummaryKind::Multiops,
        }
    }

    /// `_FieldLength`: the module's own, else Extract.pm's default (18 at head, 12 before).
    fn field_length(self, era: Era) -> usize {
        match self {
            Monitor::ProcInterrupts => 24,
            Monitor::Iostat => 12,
            _ if era == Era::Head => 18,
            _ => 12,
        }
    }

    /// `getPreferredValue` of operation `op`: SummariseMonitor's `Lower` (2025, head;
    /// proc-interrupts says `Higher`), or 2024's data type of the operation.
    fn preferred(self, era: Era, op: &str) -> Preferred {
        if era != Era::E2024 {
            return if self == Monitor::ProcInterrupts { Preferred::Higher } else { Preferred::Lower };
        }
        let lower = match self {
            Monitor::Duration | Monitor::Mpstat => true,
            Monitor::ProcVmstat | Monitor::ProcInterrupts | Monitor::Turbostat => false,
            Monitor::Vmstat => matches!(op, "swpd" | "free" | "us" | "sy" | "id" | "wa" | "st" | "totalcpu"),
            Monitor::Iostat => {
                matches!(op.split('-').nth(1), Some("avgqusz" | "await" | "r_await" | "w_await" | "svctm"))
            }
        };
        if lower {
            Preferred::Lower
        } else {
            Preferred::Higher
        }
    }

    /// The summary statistics (rows), in order.
    fn stats(self, era: Era) -> Vec<Stat> {
        match self {
            Monitor::Duration => vec![Stat::Value],
            Monitor::ProcInterrupts => era.rules().summary_stats(SummaryKind::Multiops),
            _ => vec![Stat::Mean, Stat::Max],
        }
    }
}

/// One iteration directory handed to a monitor's reader.
pub struct IterDir<'a> {
    /// The tree holding the results.
    pub tree: &'a dyn Tree,
    /// The `iter-N` directory (a path of `tree`).
    pub dir: String,
    /// The benchmark whose monitor logs are read (`-b`).
    pub benchmark: &'a str,
}

impl IterDir<'_> {
    /// The log `name` (or `name.gz`, `name.xz`, as Extract.pm's `open_log` tries them);
    /// None when none exists (the Perl then reads nothing).
    pub fn open(&self, name: &str) -> Result<Option<LogFile>> {
        for candidate in [format!("{name}.gz"), format!("{name}.xz"), name.to_string()] {
            let rel = join(&self.dir, &candidate);
            if self.tree.is_file(&rel) {
                return read_log(self.tree, &rel).map(Some);
            }
        }
        Ok(None)
    }

    /// The monitor log `MONITOR-BENCHMARK` (compressed or not).
    pub fn monitor_log(&self, monitor: &str) -> Result<Option<LogFile>> {
        self.open(&format!("{monitor}-{}", self.benchmark))
    }
}

/// A monitor's reader: called for every iteration of every run, in `-n` order, as one
/// Perl process would; `begin_run` marks a new run (a new module object).
pub trait Reader {
    /// A new run starts (MMTests makes a new module object: its fields start afresh).
    fn begin_run(&mut self);
    /// Read one iteration directory into `out`.
    fn read(&mut self, it: &IterDir<'_>, out: &mut Samples) -> Result<()>;
    /// Warnings about what MMTests does with this data that a user should know.
    fn warnings(&self) -> Vec<String> {
        Vec::new()
    }
}

fn reader(monitor: Monitor, era: Era, subheading: &str) -> Result<Box<dyn Reader>> {
    Ok(match monitor {
        Monitor::Duration => Box::new(duration::Duration),
        Monitor::Vmstat => Box::new(vmstat::Vmstat::new(subheading)?),
        Monitor::Mpstat => Box::new(mpstat::Mpstat::new(subheading)?),
        Monitor::ProcVmstat => Box::new(proc_vmstat::ProcVmstat::new(subheading)),
        Monitor::ProcInterrupts => Box::new(proc_interrupts::ProcInterrupts),
        Monitor::Iostat => Box::new(iostat::Iostat::new(subheading)),
        Monitor::Turbostat => Box::new(turbostat::Turbostat::new(era, subheading)),
    })
}

/// Options of [`compare_monitor`].
#[derive(Debug, Clone)]
pub struct MonitorOptions {
    /// The monitor.
    pub monitor: Monitor,
    /// The MMTests era (2018 has other monitor modules and is refused).
    pub era: Era,
    /// `--sub-heading` (empty = none).
    pub subheading: String,
}

/// The result of [`compare_monitor`]: the table and its text.
#[derive(Debug, Clone)]
pub struct MonitorReport {
    /// The table (statistic rows × runs; values only, as MMTests prints monitors).
    pub comparison: Comparison,
    /// compare-mmtests.pl's stdout for the same tree and flags.
    pub text: String,
    /// What MMTests does silently with this data.
    pub warnings: Vec<String>,
}

/// The era for a monitor table: `compat` when given, else the era
/// [`crate::mmtests::resolve_era`] finds for the benchmark's own logs, else head (the
/// monitor modules are read the same way by every era from 2024 on; the eras differ in
/// field widths and the 2024 preferred directions, see docs/mmtests-monitors.md §1).
pub fn monitor_era(tree: &dyn Tree, root: &str, benchmark: &str, first: &str, compat: Option<Era>) -> Era {
    compat.unwrap_or_else(|| {
        super::resolve_era(tree, root, benchmark, first, None).ok().filter(|e| *e != Era::E2018).unwrap_or(Era::Head)
    })
}

/// [`compare_monitor`] of the results at a path, opened as [`super::compare_at`] opens
/// it (a directory, an archive, a directory inside an archive), in the era `compat` or,
/// without it, the era [`monitor_era`] tells; returns the report and that era.
pub fn compare_monitor_at(
    dir: &std::path::Path,
    benchmark: &str,
    names: &[String],
    monitor: Monitor,
    compat: Option<Era>,
    subheading: String,
) -> Result<(MonitorReport, Era)> {
    let (tree, root) = super::open_at(dir, benchmark, names)?;
    let first = names.first().map(String::as_str).unwrap_or_default();
    let era = monitor_era(tree.as_ref(), &root, benchmark, first, compat);
    let opts = MonitorOptions { monitor, era, subheading };
    Ok((compare_monitor(tree.as_ref(), &root, benchmark, names, &opts)?, era))
}

/// The `iter-*` directories of run `name`, in the Perl glob's (lexical) order.
fn iter_dirs(tree: &dyn Tree, root: &str, name: &str) -> Result<Vec<String>> {
    let run = join(root, name);
    if !tree.is_dir(&run) {
        return Err(Error::Io {
            path: tree.display(&run),
            msg: format!("no results of '{name}' (expected {name}/iter-N/)"),
            not_found: true,
        });
    }
    let mut iters: Vec<String> = tree.list(&run)?.into_iter().filter(|n| n.starts_with("iter-")).collect();
    iters.sort();
    Ok(iters.into_iter().map(|n| join(&run, &n)).collect())
}

/// `compare-mmtests.pl -d DIR -b BENCHMARK -n NAMES --print-monitor MONITOR [--sub-heading S]`
/// on the `work/log` directory `root` of `tree`.
pub fn compare_monitor(
    tree: &dyn Tree,
    root: &str,
    benchmark: &str,
    names: &[String],
    opts: &MonitorOptions,
) -> Result<MonitorReport> {
    let (monitor, era) = (opts.monitor, opts.era);
    if era == Era::E2018 {
        return Err(Error::domain("monitors are read for the 2024, 2025 and head MMTests eras only"));
    }
    if names.is_empty() {
        return Err(Error::domain("give at least one run name (-n)"));
    }
    let mut rd = reader(monitor, era, &opts.subheading)?;
    let mut runs: Vec<Run> = Vec::with_capacity(names.len());
    for name in names {
        rd.begin_run();
        let mut samples = Samples::new(era);
        for (i, dir) in iter_dirs(tree, root, name)?.into_iter().enumerate() {
            crate::cancel::check()?;
            samples.set_iteration(i);
            rd.read(&IterDir { tree, dir, benchmark }, &mut samples)?;
        }
        let meta = Meta {
            preferred: Preferred::Lower,
            kind: monitor.kind(),
            field_length: Some(monitor.field_length(era)),
            precision: 2,
            value_label: "Duration".into(),
            ratio_preferred: None,
        };
        runs.push(Run { name: name.clone(), meta, samples });
    }
    let base = runs.first().map(|r| &r.samples).ok_or_else(|| Error::domain("no runs"))?;
    let ops = monitor.filter_ops(&base.operations(), &opts.subheading);
    if ops.is_empty() {
        return Err(Error::insufficient(format!(
            "no {} monitor data for '{}' of benchmark '{benchmark}'{} (compare-mmtests.pl dies there)",
            monitor.name(),
            names.first().map(String::as_str).unwrap_or_default(),
            if opts.subheading.is_empty() {
                String::new()
            } else {
                format!(" under sub-heading '{}'", opts.subheading)
            },
        )));
    }
    let mut comparison = build(monitor, era, benchmark, &mut runs, &ops)?;
    let text = super::render_text::render(&comparison)?;
    let warnings = rd.warnings();
    comparison.meta.warnings = warnings.clone();
    Ok(MonitorReport { comparison, text, warnings })
}

impl Monitor {
    /// `_ExactSubheading`: the sub-heading names one operation exactly (else it is a
    /// regex anchored at the start).
    fn exact_subheading(self) -> bool {
        matches!(self, Monitor::Vmstat | Monitor::ProcVmstat | Monitor::Iostat | Monitor::Turbostat)
    }

    /// The operations `--sub-heading sub` keeps (`filterSubheading`).
    fn filter_ops(self, ops: &[String], sub: &str) -> Vec<String> {
        if self.exact_subheading() && !sub.is_empty() {
            ops.iter().filter(|o| *o == sub).cloned().collect()
        } else {
            summarise::filter_ops(ops, sub)
        }
    }
}

/// The table of `runs` (each run's `meta.preferred` is set per operation here).
fn build(monitor: Monitor, era: Era, benchmark: &str, runs: &mut [Run], ops: &[String]) -> Result<Comparison> {
    let stats = monitor.stats(era);
    let rules = era.rules();
    let kernels: Vec<String> = runs.iter().map(|r| r.name.clone()).collect();
    let mut c = Comparison::new("mmtests", benchmark, kernels);
    // per operation: its direction and each run's summary
    let mut per_op = Vec::with_capacity(ops.len());
    for op in ops {
        let pref = monitor.preferred(era, op);
        let mut sums = Vec::with_capacity(runs.len());
        for run in runs.iter_mut() {
            run.meta.preferred = pref;
            let mut s = summarise::summarise(run, era, &stats, std::slice::from_ref(op))?;
            sums.push(s.per_op.remove(op).map(|o| (o.values, o.n)));
        }
        per_op.push((op, pref, sums));
    }
    for (si, &stat) in stats.iter().enumerate() {
        for (op, pref, sums) in &per_op {
            let cells = sums
                .iter()
                .map(|s| {
                    let v =
                        s.as_ref().and_then(|(vals, _)| vals.get(si)).copied().filter(|v| !v.is_nan() && *v != -1.0);
                    Cell { value: v, n: s.as_ref().map(|(_, n)| *n as u64), ..Cell::default() }
                })
                .collect();
            c.rows.push(Row {
                group: rules.stat_name(stat, *pref, "Duration"),
                name: (*op).clone(),
                direction: if stat.always_lower() || *pref == Preferred::Lower {
                    Direction::Lower
                } else {
                    Direction::Higher
                },
                change_kind: ChangeKind::Improvement,
                unit: None,
                cells,
            });
        }
    }
    c.meta.mmtests = Some(MmtestsMeta {
        values_only: true,
        era: Some(era.name().into()),
        field_length: Some(monitor.field_length(era)),
        precision: Some(2),
        monitor: Some(monitor.name().into()),
        ..Default::default()
    });
    Ok(c)
}

/// Perl's `split(/\s+/, $s)`: a leading empty field when `s` starts with whitespace,
/// trailing empty fields dropped.
pub fn perl_split_ws(s: &str) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    if s.starts_with(|c: char| c.is_ascii_whitespace()) {
        out.push("");
    }
    out.extend(s.split_ascii_whitespace());
    out
}

/// Perl's numeric value of an optional field (undef and text count as 0, as `+` sees them).
pub fn num(field: Option<&&str>) -> f64 {
    field.map_or(0.0, |s| super::perlfmt::numify(s))
}
