//! From one run's raw outputs to its `stats.json`, and from runs to a commit's
//! `matrix.json`/`avg.json`/`stddev.json`, as lkp-tests does it (bin/run-stats +
//! programs/*/parse, sbin/dump-stat, lib/matrix.rb `create_stats_matrix` and `unite_to`),
//! after docs/lkp.md §2 and §4. The JSON files are written as Ruby writes them.

pub mod aim9;
pub mod autonuma_benchmark;
pub mod chromeswap;
pub mod coremark;
pub mod cyclictest;
pub mod ebizzy;
pub mod fio;
pub mod fsmark;
pub mod fxmark;
pub mod hackbench;
pub mod iperf;
pub mod jitter;
pub mod kbuild;
pub mod kernbench;
pub mod latency_table;
pub mod lkp_programs;
pub mod lkp_stats;
pub mod lmbench3;
pub mod lock_stat;
pub mod locktorture;
pub mod lz4_test;
pub mod meminfo;
pub mod memory_numa_stat;
pub mod memtier;
pub mod netperf;
pub mod netpipe;
pub mod ojson;
pub mod openssl_speed;
pub mod parsers;
pub mod perf_bench_futex;
pub mod perf_bench_mem;
pub mod perf_bench_numa_mem;
pub mod perf_bench_sched_messaging;
pub mod perf_bench_sched_pipe;
pub mod perf_bench_syscall;
pub mod perf_c2c;
pub mod perf_profile;
pub mod perf_sched;
pub mod perf_stat;
pub mod phpbench;
pub mod pmbench;
pub mod proc_vmstat;
pub mod program;
pub mod pts;
pub mod pybench;
pub mod rcurefscale;
pub mod rcuscale;
pub mod rcutorture;
pub mod redis;
pub mod rt_app;
pub mod ruby;
pub mod schbench;
pub mod sched_debug;
pub mod simoop;
pub mod softirqs;
pub mod stream;
pub mod stress_ng;
pub mod sysbench;
pub mod tbench;
pub mod tcrypt;
pub mod tinymembench;
pub mod unixbench;
pub mod uperf;
pub mod vm_scalability;
pub mod will_it_scale;
pub mod ycsb;

use super::matrix::{io_msg, STATS_SOURCE};
use super::num::{ruby_sum, ruby_sum_f0, standard_deviation, Num, Sum};
use super::num_column::NumColumn;
use super::rubyfmt::{pretty_json, Json};
use crate::archive::tree::join;
use crate::archive::Tree;
use crate::error::{Error, Result};
use ojson::JValue;
use regex::Regex;
use std::sync::OnceLock;

/// One monitor's series (`<run>/<monitor>.json`): keys in order, one value per record.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Series {
    /// `<group>.<key>` names in first-seen order.
    pub keys: Vec<String>,
    /// Values per key, parallel to `keys` (8 bytes a value: the memory bound of docs/readers.md §10).
    pub values: Vec<NumColumn>,
    /// lkp keeps it gzipped, as `<monitor>.json.gz` (sbin/dump-stat compresses a series
    /// of over 1000 values, counted as keys × the fewest records of a key), which puts
    /// it after the plain `.json` series in stats.json (docs/lkp.md §2.2).
    pub gzipped: bool,
}

impl Series {
    /// As Ruby writes it (`JSON.pretty_generate`).
    pub fn to_json(&self) -> String {
        pretty_json(&Json::Obj(
            self.keys.iter().zip(&self.values).map(|(k, v)| (k.clone(), nums_json(&v.to_vec()))).collect(),
        ))
    }
}

fn num_json(n: Num) -> Json {
    match n {
        Num::Int(i) => Json::Int(i),
        Num::Float(f) => Json::Float(f),
    }
}

fn nums_json(v: &[Num]) -> Json {
    Json::Arr(v.iter().map(|n| num_json(*n)).collect())
}

/// lkp's `String#numeric?`: an optionally signed decimal number with optional exponent.
fn numeric(v: &str) -> bool {
    let b = v.as_bytes();
    let digit_at = |i: usize| b.get(i).is_some_and(u8::is_ascii_digit);
    let mut i = 0;
    if matches!(b.get(i), Some(b'+' | b'-')) {
        i += 1;
    }
    let start = i;
    while digit_at(i) {
        i += 1;
    }
    let mut digits = i > start;
    if b.get(i) == Some(&b'.') {
        i += 1;
        let f = i;
        while digit_at(i) {
            i += 1;
        }
        digits |= i > f;
    }
    if !digits {
        return false;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let e = i;
        while digit_at(i) {
            i += 1;
        }
        if i == e {
            return false;
        }
    }
    i == b.len()
}

/// The most values (keys × records, zero-fill included) [`dump_stat`] builds from one
/// raw output (2^25: 512 MiB of values).
pub const MAX_SERIES_VALUES: usize = 1 << 25;

/// lkp's `etc/valid-range-<monitor>.yaml` (lib/bounds.rb `valid_stats_range?`): for a
/// key of that monitor (its part before the first '.') matching a pattern whole, the
/// value must lie in `[min, max]`.
const VALID_RANGES: &[(&str, &str, i64, i64)] = &[
    ("iostat", r"^iostat.*.util$", 0, 300),
    ("iostat", r"^iostat.cpu.*$", 0, 110),
    ("turbostat", r"^turbostat..*Watt$", 0, 10000),
    ("vmstat", r"^vmstat.cpu.*$", 0, 110),
];

/// Whether `v` is inside every valid range that applies to `key` (docs/lkp.md §4).
pub fn valid_stats_range(key: &str, v: Num) -> bool {
    static R: OnceLock<Vec<(&'static str, Regex, i64, i64)>> = OnceLock::new();
    let ranges = R.get_or_init(|| {
        VALID_RANGES
            .iter()
            .map(|&(m, p, lo, hi)| (m, Regex::new(p).unwrap_or_else(|e| panic!("schedlab bug: {e}")), lo, hi))
            .collect()
    });
    let monitor = key.split('.').next().unwrap_or("");
    ranges.iter().filter(|(m, re, _, _)| *m == monitor && re.is_match(key)).all(|&(_, _, lo, hi)| {
        v.cmp_num(Num::Int(lo)) != std::cmp::Ordering::Less && v.cmp_num(Num::Int(hi)) != std::cmp::Ordering::Greater
    })
}

/// The monitors whose records may differ in length (sbin/dump-stat
/// `UNSTRUCTURED_MONITORS`): their last record is never truncated.
const UNSTRUCTURED: &[&str] = &["ftrace", "perf-stat", "sched_debug", "slabinfo", "meminfo"];

/// sbin/dump-stat: `key: value` lines → series of `<group>.<key>`. A key seen again
/// starts a new record; a key first seen late is front-filled with 0; a value is a Float
/// iff it contains '.', else `to_i`; a non-numeric value, or one outside the key's valid
/// range ([`valid_stats_range`]), drops its record (once per such value, as lkp deletes
/// by index: two in one record drop that record and the next); keys that are all zero
/// are removed (not `dmesg.timestamp*`); an incomplete last record (one key a value
/// short, counted before those removals) is truncated except for the [`UNSTRUCTURED`]
/// monitors. A key with whitespace is an error (`path`, `line`
/// name the parser output). After docs/lkp.md §4.
pub fn dump_stat(group: &str, lines: &str, path: &str) -> Result<Series> {
    let mut d = DumpStat::new(group, path);
    d.lines(lines)?;
    Ok(d.finish())
}

/// [`dump_stat`] fed a piece of the parser output at a time, so that a long raw output
/// need not be turned into one text first (the memory bound of docs/readers.md §10).
#[derive(Debug)]
pub struct DumpStat<'a> {
    group: &'a str,
    path: &'a str,
    s: Series,
    index: std::collections::HashMap<String, usize>,
    record_index: usize,
    invalid: Vec<usize>,
    message_lines: bool,
    // values held, zero-fill included (a key first seen late costs one per earlier record)
    held: usize,
    // lines fed so far
    ln: usize,
}

impl<'a> DumpStat<'a> {
    /// Nothing read yet of monitor `group`'s parser output (`path` names it in errors).
    pub fn new(group: &'a str, path: &'a str) -> Self {
        DumpStat {
            group,
            path,
            s: Series::default(),
            index: std::collections::HashMap::new(),
            record_index: 0,
            invalid: Vec::new(),
            message_lines: group == "dmesg" || group == "kmsg",
            held: 0,
            ln: 0,
        }
    }

    /// Read the `key: value` lines of `lines` (whole lines; line numbers go on from the
    /// previous call's).
    pub fn lines(&mut self, lines: &str) -> Result<()> {
        for line in lines.lines() {
            let ln = self.ln;
            self.ln += 1;
            crate::cancel::check_every(ln)?;
            self.line(ln, line)?;
        }
        Ok(())
    }

    fn line(&mut self, ln: usize, line: &str) -> Result<()> {
        let (group, path) = (self.group, self.path);
        if line.starts_with('#') {
            return Ok(());
        }
        let Some((k, v)) = line.split_once(": ") else { return Ok(()) };
        let v = v.trim();
        if v.is_empty() || (self.message_lines && (k.starts_with("message:") || k.starts_with("pattern:"))) {
            return Ok(());
        }
        let key = format!("{group}.{k}");
        let s = &mut self.s;
        let i = *self.index.entry(key.clone()).or_insert_with(|| {
            s.keys.push(key.clone());
            s.values.push(NumColumn::default());
            s.keys.len() - 1
        });
        let Some(col) = s.values.get_mut(i) else { return Ok(()) };
        let size = col.len();
        if self.record_index < size {
            self.record_index = size;
        }
        let record_index = self.record_index;
        self.held = self.held.saturating_add(record_index - size.min(record_index) + 1);
        if self.held > MAX_SERIES_VALUES {
            return Err(Error::parse(
                Some(path),
                Some(ln + 1),
                format!("more than {MAX_SERIES_VALUES} values (keys × records), the most schedlab reads from one raw output"),
            ));
        }
        while col.len() < record_index {
            col.push(Num::Int(0));
        }
        if key.contains([' ', '\t']) {
            return Err(Error::parse(Some(path), Some(ln + 1), format!("whitespace in stats name '{key}'")));
        }
        if !numeric(v) {
            self.invalid.push(record_index);
            return Ok(());
        }
        let n = if v.contains('.') {
            Num::Float(ruby::to_f(v))
        } else {
            // beyond i64 Ruby keeps an exact Bignum; the nearest double is closer to it
            // than a saturated i64
            v.parse::<i64>().map_or_else(|_| Num::Float(ruby::to_f(v)), Num::Int)
        };
        if !valid_stats_range(&key, n) {
            self.invalid.push(record_index);
            return Ok(());
        }
        col.push(n);
        Ok(())
    }

    /// The series, after lkp's removals (all-zero keys, invalid records, an incomplete
    /// last record).
    pub fn finish(self) -> Series {
        let (group, s, invalid) = (self.group, self.s, self.invalid);
        // the record counts as lkp takes them: over every key, before the zero keys and the
        // invalid records are removed (so a file with a dropped record is not truncated)
        let max_cols = s.values.iter().map(NumColumn::len).max().unwrap_or(0);
        let min_cols = s.values.iter().map(NumColumn::len).min().unwrap_or(0);
        // drop all-zero keys (the kept columns are moved, not copied)
        let mut keep: Vec<(String, NumColumn)> = Vec::new();
        for (k, v) in s.keys.into_iter().zip(s.values) {
            let zero = !k.starts_with("dmesg.timestamp")
                && v.get(0).is_none_or(|x| x.is_zero())
                && v.last().is_none_or(|x| x.is_zero())
                && ruby_sum(&v.to_vec()).f() == 0.0;
            if !zero {
                keep.push((k, v));
            }
        }
        if group != "ftrace" && !invalid.is_empty() {
            for (_, col) in keep.iter_mut() {
                let mut v = col.to_vec();
                for &record in invalid.iter().rev() {
                    if record < v.len() {
                        v.remove(record);
                    }
                }
                *col = v.into_iter().collect();
            }
        }
        if min_cols + 1 == max_cols && !UNSTRUCTURED.contains(&group) {
            for (_, v) in keep.iter_mut() {
                if v.len() == max_cols {
                    v.pop();
                }
            }
        }
        // lkp writes no file when the first or the last key has no values left
        if keep.first().is_some_and(|(_, v)| v.is_empty()) || keep.last().is_some_and(|(_, v)| v.is_empty()) {
            keep.clear();
        }
        let gzipped = keep.len().saturating_mul(min_cols) > 1000;
        let (keys, mut values): (Vec<String>, Vec<NumColumn>) = keep.into_iter().unzip();
        for v in &mut values {
            v.shrink_to_fit();
        }
        Series { keys, values, gzipped }
    }
}

/// lkp-tests' etc/event-counter-prefixes (bbbc29c49): cumulative counters, so a run's
/// value is last − first. Literal prefixes (`softirq.` does not cover `softirqs.`).
const EVENT_COUNTER_PREFIXES: &[&str] = &[
    "cpuidle.",
    "diskstats.io_ticks.",
    "diskstats.read_ios.",
    "diskstats.read_merges.",
    "diskstats.read_sectors.",
    "diskstats.read_ticks.",
    "diskstats.write_ios.",
    "diskstats.write_merges.",
    "diskstats.write_sectors.",
    "diskstats.write_ticks.",
    "energy.",
    "ethtool.",
    "interrupts.",
    "numa-numastat.",
    "numa-vmstat.nr_dirtied",
    "numa-vmstat.nr_vmscan_immediate_reclaim",
    "numa-vmstat.nr_written",
    "numa-vmstat.numa_",
    "pmu-numa.total_moved",
    "proc-vmstat.allocstall",
    "proc-vmstat.compact_",
    "proc-vmstat.htlb_buddy_alloc_",
    "proc-vmstat.kswapd_",
    "proc-vmstat.nr_dirtied",
    "proc-vmstat.nr_promoted",
    "proc-vmstat.nr_promote_fail",
    "proc-vmstat.nr_promote_isolate_fail",
    "proc-vmstat.nr_promote_ratelimit",
    "proc-vmstat.nr_vmscan_immediate_reclaim",
    "proc-vmstat.nr_written",
    "proc-vmstat.numa_",
    "proc-vmstat.pageoutrun",
    "proc-vmstat.pg",
    "proc-vmstat.pswp",
    "proc-vmstat.slabs_scanned",
    "proc-vmstat.thp_",
    "proc-vmstat.unevictable_pgs_",
    "proc-vmstat.zone_reclaim_failed",
    "softirq.",
];

/// lkp-tests' etc/event-counter-patterns (bbbc29c49), joined into one regular
/// expression that may match anywhere in the key (lib/lkp_pattern.rb, `name =~`).
const EVENT_COUNTER_PATTERNS: &[&str] = &[
    "numa-vmstat.node[0-9]+.nr_dirtied",
    "numa-vmstat.node[0-9]+.nr_vmscan_immediate_reclaim",
    "numa-vmstat.node[0-9]+.nr_written",
    "numa-vmstat.node[0-9]+.numa_",
    "numa-vmstat.node[0-9]+.pg",
];

/// lkp-tests' etc/independent-counter-prefixes (bbbc29c49): each record counts
/// separately, so a run's value is their sum.
const INDEPENDENT_COUNTER_PREFIXES: &[&str] = &[
    "perf-stat.overall.",
    "perf-stat.ps.",
    "perf-stat.total.",
    "pmu-tools.",
    "time.file_system_inputs",
    "time.file_system_outputs",
    "time.involuntary_context_switches",
    "time.major_page_faults",
    "time.minor_page_faults",
    "time.percent_of_cpu_this_job_got",
    "time.socket_messages_received",
    "time.socket_messages_sent",
    "time.swaps",
    "time.system_time",
    "time.user_time",
    "time.voluntary_context_switches",
];

/// lkp-tests' etc/add-max-latency (bbbc29c49), each matched whole (`^pattern$`).
const ADD_MAX_LATENCY: &[&str] = &[
    r".*time.elapsed_time",
    r"iostat\..*\.(await|r_await|w_await|svctm|avgqu-sz)",
    r"numa-meminfo\.node[0-9]\.AnonPages",
];

/// Event counters: cumulative, so a run's value is last − first (lib/matrix.rb
/// `event_counter?`).
fn event_counter(k: &str) -> bool {
    static R: OnceLock<Regex> = OnceLock::new();
    EVENT_COUNTER_PREFIXES.iter().any(|p| k.starts_with(p))
        || R.get_or_init(|| {
            Regex::new(&format!("({})", EVENT_COUNTER_PATTERNS.join("|")))
                .unwrap_or_else(|e| panic!("schedlab bug: built-in pattern: {e}"))
        })
        .is_match(k)
}

/// Independent counters: each record counts separately, so a run's value is their sum
/// (lib/matrix.rb `independent_counter?`).
fn independent_counter(k: &str) -> bool {
    INDEPENDENT_COUNTER_PREFIXES.iter().any(|p| k.starts_with(p))
}

/// Keys that also get `<key>.max` (lib/stats.rb `add_max_latency?`).
fn add_max(k: &str) -> bool {
    static R: OnceLock<Vec<Regex>> = OnceLock::new();
    R.get_or_init(|| {
        ADD_MAX_LATENCY
            .iter()
            .map(|p| Regex::new(&format!("^{p}$")).unwrap_or_else(|e| panic!("schedlab bug: {e}")))
            .collect()
    })
    .iter()
    .any(|r| r.is_match(k))
}

/// The first largest of `first` and `rest`.
fn max_of(first: Num, rest: &[Num]) -> Num {
    rest.iter().fold(first, |m, x| if x.cmp_num(m) == std::cmp::Ordering::Greater { *x } else { m })
}

/// `create_stats_matrix`: one scalar per key from each monitor series (in the order
/// given: [`run_monitors`] gives lkp's): a single record as is; independent counters summed; event counters last −
/// first; else the mean (`sum(0.0)/n`); plus `.max` for latency-like keys and
/// `perf-stat.overall.path-length` when one `*.workload` exists.
pub fn reduce(monitors: &[(String, Series)]) -> Vec<(String, Num)> {
    let mut stats: Vec<(String, Num)> = Vec::new();
    let mut pos = std::collections::HashMap::new();
    for (monitor, s) in monitors {
        let time_key = format!("{monitor}.time");
        for (k, v) in s.keys.iter().zip(&s.values) {
            if *k == time_key {
                continue;
            }
            let v = &v.to_vec()[..];
            let Some((&first, rest)) = v.split_first() else { continue };
            let val = match rest.last() {
                None => first,
                Some(_) if independent_counter(k) => match ruby_sum(v) {
                    Sum::Int(i) => i64::try_from(i).map_or(Num::Float(i as f64), Num::Int),
                    Sum::Float(f) => Num::Float(f),
                },
                Some(&last) if event_counter(k) => last.minus(first),
                Some(_) => Num::Float(ruby_sum_f0(v) / v.len() as f64),
            };
            push_stat(&mut stats, &mut pos, k.clone(), val);
            if add_max(k) {
                push_stat(&mut stats, &mut pos, format!("{k}.max"), max_of(first, rest));
            }
        }
    }
    let workloads: Vec<Num> = stats.iter().filter(|(k, _)| k.ends_with(".workload")).map(|(_, v)| *v).collect();
    if let ([workload], Some((_, ins))) =
        (&workloads[..], stats.iter().find(|(k, _)| k == "perf-stat.total.instructions"))
    {
        let pl = ins.f() / workload.f();
        push_stat(&mut stats, &mut pos, "perf-stat.overall.path-length".into(), Num::Float(pl));
    }
    stats
}

/// Set stat `k` (a later value replaces an earlier one in place); `pos` indexes `stats`
/// by key, so that a run with many keys costs linear time.
fn push_stat(stats: &mut Vec<(String, Num)>, pos: &mut std::collections::HashMap<String, usize>, k: String, v: Num) {
    match pos.get(&k).and_then(|&i| stats.get_mut(i)) {
        Some(slot) => slot.1 = v,
        None => {
            pos.insert(k.clone(), stats.len());
            stats.push((k, v));
        }
    }
}

/// Read the raw file `rel` of `tree` as UTF-8 text; unreadable or non-UTF-8 files are
/// parse errors naming the file (and the line of the first bad byte).
pub fn read_text(tree: &dyn Tree, rel: &str) -> Result<String> {
    let shown = tree.display(rel);
    let bytes = tree
        .read(rel)
        .map_err(|e| Error::parse(Some(&shown), None, format!("cannot read raw output: {}", io_msg(&e))))?
        .into_owned();
    String::from_utf8(bytes).map_err(|e| {
        let upto = e.utf8_error().valid_up_to();
        let line = e.as_bytes().get(..upto).unwrap_or_default().iter().filter(|&&b| b == b'\n').count() + 1;
        Error::parse(Some(&shown), Some(line), "not UTF-8 text")
    })
}

/// Parse every known raw output of the run directory `rel` of `tree` into monitor
/// series, as bin/run-stats and sbin/dump-stat make them (an empty or binary raw output
/// gives none: [`program::skipped_raw`]), plus the `<monitor>.json` and
/// `<monitor>.json.gz` files of monitors without a raw parser that lib/matrix.rb
/// `create_stats_matrix` takes ([`lkp_programs::takes`]); in the order it reads them:
/// the plain `.json` series by file name, then the gzipped ones (docs/lkp.md §2.2).
pub fn run_monitors(tree: &dyn Tree, rel: &str) -> Result<Vec<(String, Series)>> {
    let shown = tree.display(rel);
    let names = tree
        .list(rel)
        .map_err(|e| Error::parse(Some(&shown), None, format!("cannot list run directory: {}", io_msg(&e))))?;
    let nonempty = |name: &str| {
        let p = join(rel, name);
        tree.is_file(&p) && tree.read(&p).is_ok_and(|b| !b.is_empty())
    };
    let mut out: Vec<(String, Series)> = Vec::new();
    for name in &names {
        let Some(program) = program::for_file(name) else { continue };
        let path = join(rel, name);
        if !tree.is_file(&path) {
            continue;
        }
        let text = read_text(tree, &path)?;
        if program::skipped_raw(program, &text, nonempty) {
            continue;
        }
        let p = tree.display(&path);
        let mut d = DumpStat::new(name, &p);
        if program::line_by_line(program) {
            // its output is that of each line alone: parsed a piece at a time, the output
            // of the whole file is never held (the memory bound of docs/readers.md §10)
            for piece in pieces(&text, 1 << 20) {
                let Some(lines) = program::parse(program, piece, &p) else { break };
                d.lines(&lines?)?;
            }
        } else {
            let Some(lines) = program::parse_in_run(program, &text, &p, tree, rel) else { continue };
            drop(text);
            d.lines(&lines?)?;
        }
        let s = d.finish();
        if !s.keys.is_empty() {
            out.push((name.clone(), s));
        }
    }
    for name in &names {
        let (monitor, gzipped) = match (name.strip_suffix(".json.gz"), name.strip_suffix(".json")) {
            (Some(m), _) => (m, true),
            (None, Some(m)) => (m, false),
            _ => continue,
        };
        if monitor == "stats" || monitor == "matrix" || !lkp_programs::takes(monitor) {
            continue;
        }
        if out.iter().any(|(g, _)| g == monitor) {
            continue;
        }
        let path = join(rel, name);
        if !tree.is_file(&path) {
            continue;
        }
        let m = super::matrix::Matrix::read(tree, &path)?;
        let values = m.iter().map(|(_, v)| v.iter().collect()).collect();
        out.push((monitor.to_string(), Series { keys: m.keys().map(str::to_string).collect(), values, gzipped }));
    }
    // create_stats_matrix's Dir["*.{json,json.gz}"]: the .json files sorted, then the .json.gz
    out.sort_by(|a, b| {
        let file = |(m, s): &(String, Series)| (s.gzipped, format!("{m}.json"));
        file(a).cmp(&file(b))
    });
    Ok(out)
}

/// `text` cut into pieces of whole lines of about `size` bytes (a longer line is a piece).
fn pieces(text: &str, size: usize) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let cut = rest
            .get(size.min(rest.len())..)
            .and_then(|tail| tail.find('\n'))
            .map_or(rest.len(), |i| size.min(rest.len()) + i + 1);
        let (piece, tail) = rest.split_at(cut);
        rest = tail;
        Some(piece)
    })
}

/// The stats.json content of the run directory `rel` of `tree`, computed from its raw outputs.
pub fn run_stats(tree: &dyn Tree, rel: &str) -> Result<Vec<(String, Num)>> {
    let monitors = run_monitors(tree, rel)?;
    let stats = reduce(&monitors);
    // a value beyond f64 (a count of hundreds of digits, a ratio over a zero workload)
    // averages to Infinity or NaN, as in Ruby, whose JSON writer refuses both: lkp
    // writes no stats.json
    if let Some((k, v)) = stats.iter().find(|(_, v)| !v.f().is_finite()) {
        // the raw output the key came from (`vmstat`), or the monitor's `<name>.json`
        let file = monitors
            .iter()
            .filter(|(m, _)| k.starts_with(&format!("{m}.")))
            .flat_map(|(m, _)| [join(rel, m), join(rel, &format!("{m}.json"))])
            .find(|f| tree.is_file(f));
        let shown = tree.display(file.as_deref().unwrap_or(rel));
        return Err(Error::parse(
            Some(&shown),
            None,
            format!("'{k}' comes to {}, which stats.json cannot hold (a value out of range)", v.f()),
        ));
    }
    Ok(stats)
}

/// stats.json text (Ruby's pretty JSON).
pub fn stats_json(stats: &[(String, Num)]) -> String {
    pretty_json(&Json::Obj(stats.iter().map(|(k, v)| (k.clone(), num_json(*v))).collect()))
}

/// Read a run's existing `stats.json`, the file `rel` of `tree`.
pub fn read_stats_json(tree: &dyn Tree, rel: &str) -> Result<Vec<(String, JValue)>> {
    let shown = tree.display(rel);
    let bytes = tree.read(rel).map_err(|e| Error::parse(Some(&shown), None, format!("cannot read: {}", io_msg(&e))))?;
    match ojson::parse(&bytes, &shown)? {
        JValue::Obj(o) => Ok(o),
        _ => Err(Error::parse(Some(&shown), None, "stats.json must be a JSON object")),
    }
}

/// The files of `unite`: matrix.json, avg.json and stddev.json texts.
#[derive(Debug, Clone, PartialEq)]
pub struct United {
    /// matrix.json (as saved: before zero-filling).
    pub matrix: String,
    /// avg.json.
    pub avg: String,
    /// stddev.json.
    pub stddev: String,
}

fn jnum(v: &JValue, key: &str, path: &str) -> Result<Num> {
    match v {
        JValue::Int(i) => Ok(Num::Int(*i)),
        JValue::Float(f) => Ok(Num::Float(*f)),
        _ => Err(Error::parse(Some(path), None, format!("stats.json value of '{key}' is not a number"))),
    }
}

/// lib/matrix.rb `unite_to` for a fresh result root, over run directories given as
/// (tree, directory in it, stats_source label): append each run's stats (from its
/// stats.json if present, else computed from raw outputs) as one column with
/// `stats_source` = `<label>/stats.json`; drop per-CPU sched_debug keys and keys that are
/// all Integer 0; then avg.json and stddev.json over the zero-filled matrix.
pub fn unite(runs: &[(&dyn Tree, &str, &str)]) -> Result<United> {
    let mut keys: Vec<String> = Vec::new();
    let mut cols: Vec<Vec<Json>> = Vec::new();
    let mut index: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for &(tree, dir, label) in runs {
        let sj = join(dir, "stats.json");
        let mut stats: Vec<(String, Json)> = if tree.is_file(&sj) {
            let shown = tree.display(&sj);
            read_stats_json(tree, &sj)?
                .into_iter()
                .map(|(k, v)| jnum(&v, &k, &shown).map(|n| (k, num_json(n))))
                .collect::<Result<_>>()?
        } else {
            run_stats(tree, dir)?.into_iter().map(|(k, v)| (k, num_json(v))).collect()
        };
        stats.retain(|(k, _)| k != STATS_SOURCE);
        stats.push((STATS_SOURCE.to_string(), Json::Str(format!("{label}/stats.json"))));
        let columns = cols.iter().map(Vec::len).max().unwrap_or(0);
        for (k, v) in stats {
            let i = *index.entry(k.clone()).or_insert_with(|| {
                keys.push(k.clone());
                cols.push(Vec::new());
                keys.len() - 1
            });
            // index maps each key to its column, pushed together above
            if let Some(col) = cols.get_mut(i) {
                while col.len() < columns {
                    col.push(Json::Int(0));
                }
                col.push(v);
            }
        }
    }
    static SCHED: OnceLock<Regex> = OnceLock::new();
    let sched =
        SCHED.get_or_init(|| Regex::new(r"^sched_debug.*\.[0-9]+$").unwrap_or_else(|e| panic!("schedlab bug: {e}")));
    let kept: Vec<(String, Vec<Json>)> = keys
        .into_iter()
        .zip(cols)
        .filter(|(k, v)| !sched.is_match(k) && !v.is_empty() && !v.iter().all(|x| *x == Json::Int(0)))
        .collect();
    let matrix = pretty_json(&Json::Obj(kept.iter().map(|(k, v)| (k.clone(), Json::Arr(v.clone()))).collect()));
    let n = kept.iter().find(|(k, _)| k == STATS_SOURCE).map_or(0, |(_, v)| v.len());
    let mut avg = Vec::new();
    let mut sd = Vec::new();
    for (k, v) in &kept {
        if k == STATS_SOURCE {
            continue;
        }
        let mut nums: Vec<Num> = v
            .iter()
            .map(|x| match x {
                Json::Int(i) => Ok(Num::Int(*i)),
                Json::Float(f) => Ok(Num::Float(*f)),
                _ => Err(Error::parse(None, None, format!("matrix value of '{k}' is not a number"))),
            })
            .collect::<Result<_>>()?;
        nums.resize(n.max(nums.len()), Num::Int(0));
        let (a, d) = (super::num::average(&nums), standard_deviation(&nums));
        // values near f64's limit sum to Infinity or NaN, as in Ruby, whose JSON writer
        // refuses them: lkp writes no avg.json or stddev.json then
        if let Some(x) = [a, d].into_iter().flatten().find(|x| !x.is_finite()) {
            return Err(Error::domain(format!(
                "'{k}': its average or standard deviation over the runs comes to {x}, which avg.json and \
                 stddev.json cannot hold (values out of range)"
            )));
        }
        avg.push((k.clone(), a.map_or(Json::Int(0), Json::Float)));
        sd.push((k.clone(), d.map_or(Json::Int(0), Json::Float)));
    }
    Ok(United { matrix, avg: pretty_json(&Json::Obj(avg)), stddev: pretty_json(&Json::Obj(sd)) })
}

/// The run directories (`<digits>/`) of the result root `rel` of `tree`, in numeric
/// order: their paths in `tree`.
pub fn run_dirs(tree: &dyn Tree, rel: &str) -> Result<Vec<String>> {
    let shown = tree.display(rel);
    let names = tree
        .list(rel)
        .map_err(|e| Error::parse(Some(&shown), None, format!("cannot list result root: {}", io_msg(&e))))?;
    let mut runs: Vec<(u64, String)> = names
        .into_iter()
        .filter_map(|name| {
            let n: u64 = name.parse().ok()?;
            let p = join(rel, &name);
            tree.is_dir(&p).then_some((n, p))
        })
        .collect();
    runs.sort();
    Ok(runs.into_iter().map(|(_, p)| p).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dump_stat_records_zero_fill_and_invalid() {
        let s = dump_stat("g", "a: 1\nb: 2.5\na: 3\nb: x\nc: 7\na: 0\nb: 1.0\nc: 8\n", "p").unwrap();
        // records: {a:1,b:2.5} {a:3,b:x → dropped,c:7} {a:0,b:1.0,c:8}; c front-filled with 0
        assert_eq!(s.keys, ["g.a", "g.b", "g.c"]);
        assert_eq!(s.values[0], [Num::Int(1), Num::Int(0)]);
        assert_eq!(s.values[1], [Num::Float(2.5), Num::Float(1.0)]);
        assert_eq!(s.values[2], [Num::Int(0), Num::Int(8)]);
        assert!(dump_stat("g", "a b: 1\n", "p").unwrap_err().to_string().starts_with("p:1:"));
        let z = dump_stat("g", "a: 0\na: 0\nb: 1\n", "p").unwrap();
        assert_eq!(z.keys, ["g.b"]);
    }

    #[test]
    fn pieces_are_whole_lines() {
        let t = "ab\ncd\nefgh\n\nx";
        assert_eq!(pieces(t, 1).collect::<Vec<_>>(), ["ab\n", "cd\n", "efgh\n", "\nx"]);
        assert_eq!(pieces(t, 4).collect::<String>(), t);
        assert_eq!(pieces(t, 100).collect::<Vec<_>>(), [t]);
        assert_eq!(pieces("", 4).count(), 0);
    }

    #[test]
    fn a_value_beyond_f64_is_an_error_naming_its_file() {
        let mut t = crate::archive::MemTree::new("r");
        t.add_file("0/vmstat.json", br#"{"vmstat.system.in": [1e308, 1e308], "vmstat.cpu.id": [1, 2]}"#.to_vec());
        t.add_file("0/meminfo.json", br#"{"meminfo.Active": [1, 3]}"#.to_vec());
        // Ruby 3.1: `[1e308, 1e308].sum / 2` is NaN (Array#sum's compensated sum), and
        // `JSON.pretty_generate` raises "1003: NaN not allowed in JSON"
        let e = run_stats(&t, "0").unwrap_err().to_string();
        assert!(e.contains("0/vmstat.json") && e.contains("'vmstat.system.in' comes to NaN"), "{e}");
        t.add_file("0/vmstat.json", br#"{"vmstat.system.in": [1e307, 1e307]}"#.to_vec());
        assert!(run_stats(&t, "0").is_ok());
        // and two runs of 1e308 average to NaN in unite: refused the same way
        let mut u = crate::archive::MemTree::new("u");
        for r in ["0", "1"] {
            u.add_file(&format!("{r}/stats.json"), br#"{"vmstat.system.in": 1e308}"#.to_vec());
        }
        let e = unite(&[(&u, "0", "0"), (&u, "1", "1")]).unwrap_err().to_string();
        assert!(e.contains("'vmstat.system.in'") && e.contains("comes to NaN"), "{e}");
    }

    #[test]
    fn numeric_values() {
        assert!(numeric("1") && numeric("-2.5") && numeric("1e5") && numeric(".5"));
        assert!(!numeric("x") && !numeric("1e") && !numeric("") && !numeric("1.2.3"));
    }
}
