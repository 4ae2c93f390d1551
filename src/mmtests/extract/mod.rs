//! Extraction: benchmark log files → samples per operation, one extractor per
//! benchmark family behind [`Extractor`] (reference: docs/mmtests.md §8).
//!
//! Adding a benchmark family is one file here implementing [`Extractor`] plus one
//! line in [`EXTRACTORS`]. An extractor parses one log directory (one iteration)
//! at a time into [`Samples`], which applies the era's rule for non-numeric
//! values and keeps operations in the order MMTests registers them.

pub mod aim9;
pub mod apachebench;
pub mod awk_bench;
pub mod blogbench;
pub mod bonniepp;
pub mod coremark;
pub mod cyclictest;
pub mod dbench;
pub mod easywave;
pub mod ebizzy;
pub mod fsmark;
pub mod futexbench;
pub mod gnu_time;
pub mod hackbench;
pub mod io_uring;
pub mod iperf3;
pub mod libmicro;
pub mod line_parse;
pub mod lmbench;
pub mod ltp;
pub mod memtier;
pub mod netperf;
pub mod pattern;
pub mod perfnuma;
pub mod perl_scan;
pub mod pgbench;
pub mod pistress;
pub mod pmqtest;
pub mod redis;
pub mod rtmigration;
pub mod saladfork;
pub mod schbench;
pub mod shellpack;
pub mod simoop;
pub mod sockperf;
pub mod spec;
pub mod specjbb;
pub mod sstartup;
pub mod stream;
pub mod stressng;
pub mod stutterp;
pub mod sysjitter;
pub mod thpchallenge;
pub mod unixbenchd;
pub mod wis;

use super::era::{Era, Preferred};
use super::logfile::LogDir;
use super::perlfmt;
use super::summarise::SummaryKind;
use crate::archive::Tree;
use crate::error::{Error, Result};
use std::collections::HashMap;

/// What an extractor is asked to read.
#[derive(Debug, Clone)]
pub struct Ctx {
    /// The MMTests version whose rules apply.
    pub era: Era,
    /// The benchmark name as given to `-b`.
    pub benchmark: String,
    /// `--sub-heading`, empty when not given.
    pub subheading: String,
}

/// Facts MMTests' module sets for a benchmark.
#[derive(Debug, Clone, PartialEq)]
pub struct Meta {
    /// `getPreferredValue`.
    pub preferred: Preferred,
    /// The summary type (`Summarise*.pm`).
    pub kind: SummaryKind,
    /// `_FieldLength` (None = the era's default).
    pub field_length: Option<usize>,
    /// `_Precision` / `DecimalPlaces`.
    pub precision: usize,
    /// `_Opname`, the row label of Singleops tables.
    pub value_label: String,
    /// `getRatioPreferredValue` where it differs from `preferred`: 2024's `--print-ratio`
    /// takes a module without a data type for lower is better while its operations are
    /// higher is better; each compared pair is then swapped (docs/mmtests.md §7.3).
    pub ratio_preferred: Option<Preferred>,
}

/// One benchmark family's log parser.
pub trait Extractor: Sync {
    /// A short name of the family (for messages).
    fn family(&self) -> &'static str;
    /// Whether this family reads `benchmark` in `era`.
    fn handles(&self, era: Era, benchmark: &str) -> bool;
    /// The module facts for `ctx`.
    fn meta(&self, ctx: &Ctx) -> Meta;
    /// Parse one iteration's log directory into `out`.
    fn extract_dir(&self, ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()>;
}

/// Every hand-written extractor, tried in order (then the declarative [`spec::SPECS`]).
pub static EXTRACTORS: &[&dyn Extractor] =
    &[&sockperf::Sockperf, &netperf::Netperf, &dbench::Dbench, &hackbench::Hackbench, &schbench::Schbench];

/// The extractor for `benchmark` in `era`, if any.
pub fn find(era: Era, benchmark: &str) -> Option<&'static dyn Extractor> {
    EXTRACTORS
        .iter()
        .copied()
        .find(|e| e.handles(era, benchmark))
        .or_else(|| spec::SPECS.iter().find(|s| s.handles(era, benchmark)).map(|s| s as &dyn Extractor))
}

/// Every benchmark some era's extractor reads, family by family (sockperf, netperf,
/// tbench/dbench, hackbench, schbench, then the declarative families of [`spec::SPECS`]).
pub const BENCHMARKS: &[&str] = &[
    "sockperf-udp-throughput",
    "sockperf-tcp-throughput",
    "sockperf-udp-under-load",
    "sockperf-tcp-under-load",
    "netperf-udp",
    "netperf-tcp",
    "netperf-udp-rr",
    "netperf-tcp-rr",
    "netperf-ipv4-udp",
    "netperf-ipv4-tcp",
    "netperf-ipv4-udp-rr",
    "netperf-ipv4-tcp-rr",
    "netperf-unix",
    "tbench4",
    "dbench4",
    "tbench",
    "dbench",
    "hackbench-process-pipes",
    "hackbench-process-sockets",
    "hackbench-thread-pipes",
    "hackbench-thread-sockets",
    "schbench",
    "kernbench",
    "gitsource",
    "gitcheckout",
    "poundsyscall",
    "usemem",
    "autonumabench",
    "nas",
    "trunc",
    "xfsrepair",
    "perfpipe",
    "perfsyscall",
    "sembench",
    "sysbenchcpu",
    "sysbenchmutex",
    "wis",
    "xsbench",
    "sqlite",
    "pedsort",
    "coremark",
    "ebizzy",
    "aim9",
    "stream",
    "perffutexwake",
    "libmicro",
    "siege",
    "sysbench",
    "sysbenchthread",
    "mutilate",
    "stockfish",
    "pmqtest",
    "cyclictest",
    "futexwait",
    "phpbench",
    "netpipe",
    "stressng",
    "redis",
    "unixbenchd",
    "pistress",
    "apachebench",
    "iperf3",
    "iperf3-ipv4-tcp",
    "iperf3-ipv4-udp",
    "iperf3-ipv6-tcp",
    "iperf3-ipv6-udp",
    "pgbench",
    "blogbench",
    "fsmark",
    "redis-memtier",
    "sysjitter",
    "futexbench",
    "futexbench-hash",
    "futexbench-lock-pi",
    "futexbench-requeue",
    "futexbench-requeue-pi",
    "futexbench-wake",
    "futexbench-wake-parallel",
    "specjbb",
    "io_uring",
    "wis-pf",
    "lmbench-lat_ctx",
    "lmbench-lat_proc",
    "rtmigration",
    "saladfork",
    "easywave",
    "stutterp",
    "perfnuma",
    "thpchallenge",
    "simoop",
    "sstartup",
    "bonniepp",
    "ltp",
    "lmbench",
];

/// Benchmarks known in an era (for messages).
pub fn known_benchmarks(era: Era) -> Vec<&'static str> {
    BENCHMARKS.iter().copied().filter(|b| find(era, b).is_some()).collect()
}

/// Samples of one run: per operation, per iteration, in extraction order.
#[derive(Debug, Clone, Default)]
pub struct Samples {
    drop_non_numeric: bool,
    iteration: usize,
    order: Vec<String>,
    index: HashMap<String, usize>,
    /// op index → iteration → values (NaN = a value MMTests 2018 cannot use).
    data: Vec<Vec<Vec<f64>>>,
    explicit: Option<Vec<String>>,
    ratio_ops: Option<Vec<String>>,
    /// Problems worth telling the user (a value MMTests silently defaults, ...).
    pub warnings: Vec<String>,
    /// Files read, for error messages.
    pub files_read: usize,
    /// Files read that held no result (an extractor that counts such a file as 0, as
    /// MMTests' netperf does, says so here): all of them means the benchmark aborted.
    pub results_missing: usize,
}

impl Samples {
    /// An empty set for `era`.
    pub fn new(era: Era) -> Self {
        Samples { drop_non_numeric: era.rules().drops_non_numeric(), ..Default::default() }
    }

    fn slot(&mut self, op: &str) -> usize {
        if let Some(&i) = self.index.get(op) {
            return i;
        }
        let i = self.order.len();
        self.order.push(op.to_string());
        self.index.insert(op.to_string(), i);
        self.data.push(Vec::new());
        i
    }

    /// Samples added from now on belong to iteration `i` (`nextIteration`).
    pub fn set_iteration(&mut self, i: usize) {
        self.iteration = i;
    }

    /// Register `op` without a sample (MMTests does so for a dropped value).
    pub fn register(&mut self, op: &str) {
        self.slot(op);
    }

    /// Add a sample given as the text the log holds: E1+ drop a value that is not
    /// a number (`looks_like_number`) but keep the operation; E0 keeps it, and a
    /// value not matching `/^[-0-9]+/` makes the statistics NaN.
    pub fn add_text(&mut self, op: &str, text: &str) {
        let v = if self.drop_non_numeric {
            if !perlfmt::looks_like_number(text) {
                self.register(op);
                return;
            }
            perlfmt::numify(text)
        } else if perlfmt::e0_numeric(text) {
            perlfmt::numify(text)
        } else {
            f64::NAN
        };
        self.add(op, v);
    }

    /// Add a numeric sample.
    pub fn add(&mut self, op: &str, v: f64) {
        let i = self.slot(op);
        let it = self.iteration;
        if let Some(per_iter) = self.data.get_mut(i) {
            if per_iter.len() <= it {
                per_iter.resize(it + 1, Vec::new());
            }
            if let Some(vals) = per_iter.get_mut(it) {
                vals.push(v);
            }
        }
    }

    /// Set the operation order explicitly (`_Operations`).
    pub fn set_order(&mut self, ops: Vec<String>) {
        for o in &ops {
            self.slot(o);
        }
        self.explicit = Some(ops);
    }

    /// Add to the ratio operations (`_RatioOperations`; duplicates are kept).
    pub fn push_ratio_op(&mut self, op: &str) {
        self.ratio_ops.get_or_insert_with(Vec::new).push(op.to_string());
    }

    /// Operations in MMTests' order.
    pub fn operations(&self) -> Vec<String> {
        self.explicit.clone().unwrap_or_else(|| self.order.clone())
    }

    /// `_RatioOperations`, if the module set any.
    pub fn ratio_operations(&self) -> Option<&[String]> {
        self.ratio_ops.as_deref()
    }

    /// Samples of `op` per iteration (empty when unknown).
    pub fn per_iteration(&self, op: &str) -> &[Vec<f64>] {
        self.index.get(op).and_then(|&i| self.data.get(i)).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Samples of `op`, all iterations pooled in iteration order.
    pub fn pooled(&self, op: &str) -> Vec<f64> {
        self.per_iteration(op).iter().flatten().copied().collect()
    }

    /// Whether any operation is known.
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// Whether some operation has a sample.
    pub fn has_values(&self) -> bool {
        self.data.iter().flatten().any(|v| !v.is_empty())
    }
}

/// One run's extraction: the module facts and the samples.
#[derive(Debug, Clone)]
pub struct Run {
    /// The run (kernel) name.
    pub name: String,
    /// Module facts.
    pub meta: Meta,
    /// The samples.
    pub samples: Samples,
}

/// Extract run `name` of `ctx.benchmark` under `root` (the `work/log` directory,
/// a path of `tree`; "" = its root) with the era's layout.
pub fn extract_run(ctx: &Ctx, tree: &dyn Tree, root: &str, name: &str) -> Result<Run> {
    let ex = find(ctx.era, &ctx.benchmark).ok_or_else(|| {
        Error::domain(format!(
            "MMTests {} has no extractor for benchmark '{}' (known: {})",
            ctx.era.name(),
            ctx.benchmark,
            known_benchmarks(ctx.era).join(", ")
        ))
    })?;
    if !tree.is_dir(root) {
        return Err(Error::Io {
            path: tree.display(root),
            msg: "no such directory (the MMTests work/log directory)".into(),
            not_found: true,
        });
    }
    let dirs = ctx.era.rules().log_dirs(tree, root, &ctx.benchmark, name)?;
    if dirs.iter().all(|d| only_mmtests_log(tree, d)) {
        return Err(Error::insufficient(format!(
            "benchmark '{}' failed for '{name}'{}: {} holds only mmtests.log, what MMTests keeps of a \
             benchmark that failed (compare-mmtests.pl dies when such a run is the baseline and prints \
             0.00 for it otherwise){}",
            ctx.benchmark,
            exit_code_note(tree, &dirs, &ctx.benchmark),
            dirs.first().map(|d| tree.display(d)).unwrap_or_default(),
            dirs.iter().find_map(|d| fatal_line(tree, d)).map(|l| format!("; {l}")).unwrap_or_default(),
        )));
    }
    let mut samples = Samples::new(ctx.era);
    for (i, d) in dirs.iter().enumerate() {
        samples.iteration = i;
        ex.extract_dir(ctx, &LogDir::new(tree, d), &mut samples)?;
    }
    let all_missing = samples.files_read > 0 && samples.results_missing == samples.files_read;
    if !samples.has_values() || all_missing {
        let shown = dirs.first().map(|d| tree.display(d)).unwrap_or_default();
        let note = exit_code_note(tree, &dirs, &ctx.benchmark);
        let fatal = dirs.iter().find_map(|d| fatal_line(tree, d));
        if let (0, Some(fatal)) = (samples.files_read, &fatal) {
            // no result file at all, and MMTests' own log says the shellpack gave up
            return Err(Error::insufficient(format!(
                "benchmark '{}' failed for '{name}'{note}: {shown} holds no {} result file, and {fatal} \
                 (compare-mmtests.pl dies when such a run is the baseline and prints 0.00 for it otherwise)",
                ctx.benchmark,
                ex.family(),
            )));
        }
        let detail = if all_empty(tree, &dirs) {
            format!("every log file under {shown} is empty")
        } else if all_missing {
            format!("none of the {} result files under {shown} holds a result", samples.files_read)
        } else {
            return Err(Error::parse(
                Some(&shown),
                None,
                format!("no {} results found for '{name}' ({} log files read){note}", ex.family(), samples.files_read),
            ));
        };
        return Err(Error::insufficient(format!(
            "benchmark '{}' aborted for '{name}'{note}: {detail} (compare-mmtests.pl prints a table of \
             0.00 there, or dies when it is the baseline)",
            ctx.benchmark,
        )));
    }
    Ok(Run { name: name.to_string(), meta: ex.meta(ctx), samples })
}

/// Whether the log directory `dir` holds nothing but MMTests' own `mmtests.log`.
fn only_mmtests_log(tree: &dyn Tree, dir: &str) -> bool {
    tree.list(dir)
        .map(|names| names.iter().all(|n| matches!(n.as_str(), "mmtests.log" | "mmtests.log.gz" | "mmtests.log.xz")))
        .unwrap_or(false)
}

/// The last line of `dir`'s `mmtests.log` where a shellpack gave up (`FATAL ...`, else
/// `ERROR ...`), as "<file> line N: <line>"; None when there is none.
fn fatal_line(tree: &dyn Tree, dir: &str) -> Option<String> {
    let log = LogDir::new(tree, dir).open_log("mmtests.log").ok()??;
    let last = |word: &str| {
        log.lines().enumerate().filter(|(_, l)| l.trim_start().starts_with(word)).last().map(|(i, l)| (i, l.trim()))
    };
    let (i, line) = last("FATAL").or_else(|| last("ERROR"))?;
    Some(format!("{} line {}: {line}", log.name(), i + 1))
}

/// Whether every file of the log directories is empty once decompressed.
fn all_empty(tree: &dyn Tree, dirs: &[String]) -> bool {
    dirs.iter().all(|d| {
        let dir = LogDir::new(tree, d);
        dir.list()
            .map(|names| names.iter().filter(|n| dir.is_file(n)).all(|n| dir.read(n).is_ok_and(|l| l.text.is_empty())))
            .unwrap_or(false)
    })
}

/// " (exit code C in tests-timestamp)" when the iteration's `tests-timestamp` (two levels
/// above a log directory) records a non-zero exit code for `benchmark`; "" otherwise.
fn exit_code_note(tree: &dyn Tree, dirs: &[String], benchmark: &str) -> String {
    for d in dirs {
        let Some(iter_dir) = d.strip_suffix(&format!("/{benchmark}/logs")) else { continue };
        let Ok(log) = super::logfile::read_log(tree, &crate::archive::tree::join(iter_dir, "tests-timestamp")) else {
            continue;
        };
        let code = super::timestamp::parse(&log)
            .into_iter()
            .filter(|r| r.benchmark == benchmark)
            .find_map(|r| r.exit_code.filter(|c| *c != 0));
        if let Some(c) = code {
            return format!(" (exit code {c} in {})", log.name());
        }
        let records = super::timestamp::parse(&log);
        let started = super::timestamp::start(&log).is_some();
        if started && !records.iter().any(|r| r.benchmark == benchmark && r.begin.is_some()) {
            return format!(
                " ({} has no 'test begin' line for it: the run stopped before the benchmark began, as when \
                 its installation fails)",
                log.name()
            );
        }
    }
    String::new()
}

/// Split on whitespace after stripping leading whitespace (Perl `split(/\s+/, $line)`
/// after `s/^\s+//`).
pub fn fields(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// Perl's `split(/\s+/, $line)`: runs of whitespace separate, a leading run gives an empty
/// first field, trailing empty fields are dropped.
pub fn perl_split_ws(line: &str) -> Vec<&str> {
    let ws = |c: char| matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c');
    let mut f: Vec<&str> = Vec::new();
    if line.starts_with(ws) {
        f.push("");
    }
    f.extend(line.split(ws).filter(|w| !w.is_empty()));
    if f.len() == 1 && f.first().is_some_and(|w| w.is_empty()) {
        f.clear(); // a line of blanks: its one field is empty and trailing
    }
    f
}

/// The thread count the futexbench and will-it-scale modules read from a log's name: the last
/// `-` field with `s/.log//` applied (the first `log` after another character, and that
/// character, removed: `4.log` is `4`).
pub fn thread_of_log(name: &str) -> String {
    let last = name.rsplit('-').next().unwrap_or_default();
    let cut = last.char_indices().skip(1).find(|&(i, _)| last.get(i..).is_some_and(|r| r.starts_with("log")));
    match cut {
        Some((i, _)) => {
            let start = last.get(..i).and_then(|h| h.char_indices().last()).map_or(0, |(j, _)| j);
            format!("{}{}", last.get(..start).unwrap_or_default(), last.get(i + 3..).unwrap_or_default())
        }
        None => last.to_string(),
    }
}

/// `s` split after its longest prefix of characters matching `f`:
/// `split_prefix("12.5 ms", |c| c.is_ascii_digit() || c == '.')` is `("12.5", " ms")`.
pub fn split_prefix(s: &str, f: impl Fn(char) -> bool) -> (&str, &str) {
    let end = s.char_indices().find(|&(_, c)| !f(c)).map_or(s.len(), |(i, _)| i);
    // end is a char boundary (from char_indices), so this is never the fallback
    s.split_at_checked(end).unwrap_or((s, ""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_keep_order_and_era_rules() {
        let mut s = Samples::new(Era::E2025);
        s.add_text("b", "1.5");
        s.add_text("a", "x");
        s.add_text("b", "2");
        assert_eq!(s.operations(), vec!["b".to_string(), "a".to_string()]);
        assert_eq!(s.pooled("b"), vec![1.5, 2.0]);
        assert!(s.pooled("a").is_empty());
        assert_eq!(perl_split_ws("  a b\t c  "), ["", "a", "b", "c"]);
        assert_eq!(perl_split_ws("a  b"), ["a", "b"]);
        assert_eq!(thread_of_log("hash-4.log"), "4");
        assert_eq!(thread_of_log("wis-page_fault1-processes-16.log"), "16");
        assert_eq!(thread_of_log("x-4.log.gz"), "4.gz");
        assert!(perl_split_ws("").is_empty() && perl_split_ws("  ").is_empty());
        let mut s = Samples::new(Era::E2018);
        s.add_text("a", "x");
        assert!(s.pooled("a")[0].is_nan());
    }
}
