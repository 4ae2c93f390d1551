//! The compare engine of `lkp ncompare` (lib/compare.rb `Compare`, lib/stats.rb
//! `StatCompare`/`_get_changed_stats`, lib/changed_stat.rb), after docs/lkp.md §3:
//! which metrics become rows, their averages, population SDs and changes, the failure
//! section with its `%reproduction` off-by-one, and the row order. Several heads are each
//! compared with the one base.

use super::matrix::{Matrix, ResultRoot};
use super::num::{average, ruby_sum, standard_deviation, Num, Sum};
use super::rules;
use crate::error::{Error, Result};
use std::borrow::Borrow;
use std::borrow::Cow;
use std::cmp::Ordering;
use std::collections::HashMap;

/// ncompare's options.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Options {
    /// `-a`: every key of every matrix, no significance filter.
    pub all_keys: bool,
    /// `-m`: also deny-listed monitors (interrupts, slabinfo, softirqs, …).
    pub more: bool,
    /// `-k`: only the rows of test programs' own metrics ([`rules::kpi_stat`]).
    pub kpi: bool,
    /// `-p VALUE`: the perf-profile threshold, a Float; None = lkp's default, the
    /// Integer 5 (docs/lkp.md §3.2 step 4).
    pub perf_profile_threshold: Option<f64>,
    /// sbin/compare's `--variance N`: a perf stat changed when one side's spread
    /// relative to its median is over N times the other's; no key at all with fewer
    /// than 10 runs on either side (docs/lkp.md §3.10). ncompare has no such flag.
    pub variance: Option<f64>,
    /// lkp's `Comparer#gap` (no command-line flag sets it): a perf stat changed when
    /// the gap between the two ranges is over `gap` times the medians' difference
    /// (docs/lkp.md §3.10).
    pub gap: Option<f64>,
    /// sbin/compare's `--regression-only`: failure stats the head no longer has (a
    /// fix) are left out, and kmsg stats after a dmesg fix (docs/lkp.md §3.10).
    /// ncompare has no such flag.
    pub regression_only: bool,
}

/// lkp's perf-profile threshold default (an Integer, so the perf-profile rule only applies
/// when the medians are Integers too; docs/lkp.md §3.2 step 4).
const PERF_PROFILE_THRESHOLD: i64 = 5;
/// lkp's MAX_RATIO, an Integer.
const MAX_RATIO: i64 = 5;

/// One row of the table.
#[derive(Debug, Clone, PartialEq)]
pub struct StatRow {
    /// Metric name.
    pub key: String,
    /// A function (failure-count) stat, shown in the `fail:runs` section.
    pub failure: bool,
    /// Raw values per root (None where the key is absent): complete runs for perf stats,
    /// all runs for function stats.
    pub values: Vec<Option<Vec<Num>>>,
    /// Run count per root (`matrix_cols`).
    pub runs: Vec<usize>,
    /// Function stats: the fail count per root (`sum` of the values).
    pub fails: Vec<f64>,
    /// Perf stats: arithmetic mean per root over all samples (0 where absent).
    pub avgs: Vec<f64>,
    /// Perf stats: population SD per root, −1 for fewer than two samples.
    pub stddevs: Vec<f64>,
    /// Perf stats: the quantity the `±` cell tests and prints, as lkp computes it:
    /// `100·sd/avg` where avg ≠ 0, else the SD itself (−1 = no SD).
    pub rel_stddevs: Vec<f64>,
    /// Change of each head against the base: percent, absolute (`abs_change`), or for
    /// function stats the `%reproduction` difference.
    pub changes: Vec<f64>,
    /// The change is an absolute difference (keys ending in `%` or `perf-profile*`).
    pub abs_change: bool,
    /// Per head: whether lkp's own rule (range separation and thresholds, without `-a`)
    /// selects this key for that head.
    pub robot: Vec<bool>,
}

/// The result of comparing heads with a base.
#[derive(Debug, Clone)]
pub struct CompareResult {
    /// Commit labels, base first.
    pub commits: Vec<String>,
    /// Job axes of each root (sorted by key).
    pub axes: Vec<Vec<(String, String)>>,
    /// Rows in lkp's order (function stats and perf stats interleaved as sorted; the
    /// renderer prints function stats first).
    pub rows: Vec<StatRow>,
    /// Options used.
    pub options: Options,
    /// The compare axes (ncompare `-c`, default `commit`): `commits` holds each root's
    /// values of them, joined by '/'.
    pub compare_keys: Vec<String>,
    /// The header names each root's full axes rather than the ones they share (lkp's
    /// `compare_different_rts`, from an `-o` with several axes).
    pub per_root_axes: bool,
}

/// lkp's `StatSummary` of one side of a key: the sorted values kept, their min, upper
/// median and max.
#[derive(Debug, Clone, PartialEq)]
pub struct StatSummary {
    /// The values sorted, leading −1 ("no data") and the margins dropped.
    pub sorted: Vec<Num>,
    /// The smallest kept value.
    pub min: Num,
    /// The upper median of the kept values (`sorted[n/2]`), lkp's `mean`.
    pub mean: Num,
    /// The largest kept value.
    pub max: Num,
}

impl StatSummary {
    /// `len`: max − min.
    pub fn len(&self) -> Num {
        self.max.minus(self.min)
    }
}

fn sort_nums(v: &[Num]) -> Vec<Num> {
    let mut s = v.to_vec();
    s.sort_by(|a, b| a.cmp_num(*b));
    s
}

/// lkp `StatSummary`: sort, drop leading −1 ("no data"), trim `min(len>>5, max_margin)`
/// from each end; min, **upper median** (`s[len/2]`), max. None when nothing is left.
fn summary(arr: &[Num], max_margin: usize) -> Option<StatSummary> {
    if arr.is_empty() {
        return None;
    }
    let margin = (arr.len() >> 5).min(max_margin);
    let mut s = sort_nums(arr);
    let lead = s.iter().take_while(|x| x.eq_num(Num::Int(-1))).count();
    s.drain(..lead);
    let n = s.len() as isize;
    let start = margin as isize;
    let end = n - margin as isize - 1;
    if start >= n || end < start {
        return None;
    }
    s.truncate(end as usize + 1);
    s.drain(..start as usize);
    let (min, mean, max) = (*s.first()?, *s.get(s.len() / 2)?, *s.last()?);
    Some(StatSummary { sorted: s, min, mean, max })
}

/// What lkp's `StatCompare#process` returns for a key that changed: both sides'
/// summaries and `calc_stats_metrics` (docs/lkp.md §3.2).
#[derive(Debug, Clone, PartialEq)]
pub struct StatChange {
    /// The head's summary.
    pub a: StatSummary,
    /// The base's summary.
    pub b: StatSummary,
    /// A function (failure-count) stat.
    pub function: bool,
    /// The larger median over the smaller (a Float), or the Integer 5 (MAX_RATIO) when
    /// the smaller is not positive or the ratio is above 5.
    pub ratio: Num,
    /// The larger median minus the smaller.
    pub delta: Num,
    /// The head's spread (`a.len`), or the base's when the head has at most two values
    /// and a smaller spread.
    pub x: Num,
    /// The gap between the ranges (the higher side's min − the lower's max; the Integer
    /// 0 when they overlap).
    pub y: Num,
    /// The base's spread (`b.len`).
    pub z: Num,
    /// The larger of both maxima.
    pub max: Num,
    /// The head's run count (`nr_run`: its values, padded to its run count).
    pub runs: usize,
}

impl StatChange {
    /// sbin/compare's interval column: `[ %-10.5g - %-10.5g ] -- [ … ]`, head then base.
    pub fn interval(&self) -> String {
        let g = |n: Num| format!("{:<10}", crate::lkp::rubyfmt::fmt_g(n.f(), 0, 5, false));
        format!("[ {} - {} ] -- [ {} - {} ]", g(self.a.min), g(self.a.max), g(self.b.min), g(self.b.max))
    }
}

/// The state lkp keeps in its options hash across keys (and heads) of one compare:
/// `has_boot_fix`, set by `--regression-only` at a dmesg stat the head no longer has.
#[derive(Debug, Default)]
struct Critical {
    has_boot_fix: bool,
}

fn gt(a: Num, b: Num) -> bool {
    a.cmp_num(b) == Ordering::Greater
}

fn max_num(a: Num, b: Num) -> Num {
    if gt(b, a) {
        b
    } else {
        a
    }
}

/// The monitors of base `b` that matter to the lock_stat/perf-profile exception of
/// `StatCompare#process` (`monitored_by_b?`): whether any key of `b` has the base
/// (the part before the first '.') `lock_stat`, and `perf-profile`. One pass over `b`.
#[derive(Debug, Clone, Copy, Default)]
struct Monitored {
    lock_stat: bool,
    perf_profile: bool,
}

impl Monitored {
    fn of(b: &Matrix) -> Monitored {
        let mut m = Monitored::default();
        for k in b.keys() {
            match key_base(k) {
                "lock_stat" => m.lock_stat = true,
                "perf-profile" => m.perf_profile = true,
                _ => {}
            }
        }
        m
    }

    /// Whether `k` is a lock_stat/perf-profile key whose monitor ran in the base.
    fn covers(self, k: &str) -> bool {
        (self.lock_stat && k.starts_with("lock_stat.")) || (self.perf_profile && k.starts_with("perf-profile."))
    }
}

/// `StatCompare#process` for one key: how head `a` changed against base `b` (whose
/// monitors are `monitored`), None when it did not (or lkp's rules leave it out).
fn changed_stat(
    k: &str,
    a: &Matrix,
    b: &Matrix,
    monitored: Monitored,
    incomplete: bool,
    opt: Options,
    critical: &mut Critical,
) -> Option<StatChange> {
    let cols_a = a.cols();
    let cols_b = b.cols();
    let is_function = rules::function_stat(k);
    // skip_stat?
    if incomplete && !(k.starts_with("dmesg.") || k.starts_with("last_state.") || k.starts_with("stderr.")) {
        return None;
    }
    if !opt.more && !rules::shown_without_more(k) {
        return None;
    }
    if is_function {
        if skip_function_stat(k, b) {
            return None;
        }
    } else if cols_a < 3 && cols_b < 3 {
        return None;
    }
    // the base must have the metric (newly added monitors have nothing to compare)
    if !(b.contains(k) || is_function || monitored.covers(k)) {
        return None;
    }
    // calculate_matrix_values
    let mut max_margin = if is_function { 0 } else { 3 };
    let mut b_k: Vec<Num> = b.get(k).map(|v| v.to_vec()).unwrap_or_default();
    if b_k.len() < cols_b {
        b_k.resize(cols_b, Num::Int(0));
    }
    let mut a_k: Vec<Num> = a.get(k).map(|v| v.to_vec()).unwrap_or_default();
    if a_k.len() < cols_a {
        a_k.resize(cols_a, Num::Int(0));
    }
    let sb = summary(&b_k, max_margin)?;
    if b_k.len() <= 3 && max_margin > 1 {
        max_margin = 1;
    }
    let sa = summary(&a_k, max_margin)?;
    // changed_stats?
    // the threshold applies when it has the Ruby class of the head's median
    let threshold = match (opt.perf_profile_threshold, sa.mean) {
        (None, Num::Int(_)) => Some(Num::Int(PERF_PROFILE_THRESHOLD)),
        (Some(t), Num::Float(_)) => Some(Num::Float(t)),
        _ => None,
    };
    let changed = if let (true, Some(t)) = (k.starts_with("perf-profile."), threshold) {
        gt(sa.mean, t) || gt(sb.mean, t)
    } else if is_function {
        !sa.max.eq_num(sb.max)
    } else if let Some(v) = opt.variance {
        // changed_perf_stat? with options['variance']
        let (la, lb) = (sa.len().f(), sb.len().f());
        la * sb.mean.f() > v * lb * sa.mean.f() || lb * sa.mean.f() > v * la * sb.mean.f()
    } else if let Some(g) = opt.gap {
        // gap?: the ranges apart by more than `gap` times the medians' difference
        (gt(sb.min, sa.max) && sb.min.minus(sa.max).f() > sb.mean.minus(sa.mean).f() * g)
            || (gt(sa.min, sb.max) && sa.min.minus(sb.max).f() > sa.mean.minus(sb.mean).f() * g)
    } else {
        (gt(sb.min, sa.mean) && gt(sb.mean, sa.max)) || (gt(sa.min, sb.mean) && gt(sa.mean, sb.max))
    };
    if !changed {
        return None;
    }
    // skip_critical_stat?
    if opt.regression_only && is_function {
        if sa.max.is_zero() {
            if k.starts_with("dmesg.") {
                critical.has_boot_fix = true;
            }
            return None;
        }
        if critical.has_boot_fix && k.starts_with("kmsg.") {
            return None;
        }
    }
    // calc_stats_metrics
    let max = max_num(sb.max, sa.max);
    let (mut x, z) = (sa.len(), sb.len());
    if sa.sorted.len() <= 2 && gt(z, x) {
        x = z;
    }
    let (high, low) = if gt(sa.mean, sb.mean) { (&sa, &sb) } else { (&sb, &sa) };
    let mut y = high.min.minus(low.max);
    let delta = high.mean.minus(low.mean);
    let mut ratio = if low.mean.is_positive() { Num::Float(high.mean.f() / low.mean.f()) } else { Num::Int(MAX_RATIO) };
    if gt(Num::Int(0), y) {
        y = Num::Int(0);
    }
    if gt(ratio, Num::Int(MAX_RATIO)) {
        ratio = Num::Int(MAX_RATIO);
    }
    let change = StatChange { a: sa, b: sb, function: is_function, ratio, delta, x, y, z, max, runs: a_k.len() };
    // skip_small_change? (perf-profile keys are exempt: the -p option is always set)
    if k.starts_with("perf-profile.") {
        return Some(change);
    }
    let r = ratio.f();
    if r <= 1.01 || !(r > 1.05 || rules::perf_metric(k)) || !rules::reasonable_perf_change(k, delta.f(), max.f()) {
        return None;
    }
    Some(change)
}

/// `skip_function_stat?`: `*.error/warn/fail` keys need `<base>.pass` in the base; `*.pass`
/// keys need a `<base>.(error|warn|fail)` there (not for dmesg/kmsg/last_state/stderr).
fn skip_function_stat(k: &str, b: &Matrix) -> bool {
    if ["dmesg.", "kmsg.", "last_state.", "stderr."].iter().any(|p| k.starts_with(p)) {
        return false;
    }
    let stat_base = k.rsplit_once('.').map_or(k, |(base, _)| base);
    let last = k.rsplit('.').next().unwrap_or("");
    if k.contains('.') && matches!(last, "error" | "warn" | "fail") && !b.contains(&format!("{stat_base}.pass")) {
        return true;
    }
    if k.contains('.') && last == "pass" {
        let any = ["error", "warn", "fail"].iter().any(|s| b.contains(&format!("{stat_base}.{s}")));
        if !any {
            return true;
        }
    }
    false
}

/// A metric name as the compared matrices hold it: metric `i` of matrix `m` (the first
/// matrix that has it), 8 bytes where a `String` or `&str` takes 24 or 16 (the memory bound of
/// memory bound: a compare where every metric changed keeps one per metric, per head).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct KeyRef {
    m: u32,
    i: u32,
}

/// The [`KeyRef`] of `k`: where the first of `ms` that has it holds it. Every key a
/// compare sees is one of `ms`'s (their complete and filtered copies only drop keys).
fn key_ref(ms: &[&Matrix], k: &str) -> Result<KeyRef> {
    ms.iter()
        .enumerate()
        .find_map(|(m, x)| Some(KeyRef { m: u32::try_from(m).ok()?, i: u32::try_from(x.index_of(k)?).ok()? }))
        .ok_or_else(|| Error::Internal(format!("compare: metric '{k}' is in none of the compared matrices")))
}

/// The name of `r` ("" for a reference no matrix of `ms` gave).
fn key_name<'a>(ms: &[&'a Matrix], r: KeyRef) -> &'a str {
    ms.get(r.m as usize).and_then(|m| m.key_at(r.i as usize)).unwrap_or("")
}

/// One `__get_changed_stats` pass: each key of head `a` that changed against base `b`
/// given to `f` with its change, in lkp's order. lkp first gives `a` every key of `b`
/// it lacks (all zeros); those keys are taken here in the order they would have been
/// appended, without copying `a`. With `variance`, no key when either side has fewer
/// than 10 runs.
fn each_changed(
    a: &Matrix,
    b: &Matrix,
    incomplete: bool,
    opt: Options,
    critical: &mut Critical,
    mut f: impl FnMut(&str, StatChange) -> Result<()>,
) -> Result<()> {
    if opt.variance.is_some() && (a.cols() < 10 || b.cols() < 10) {
        return Ok(());
    }
    let monitored = Monitored::of(b);
    let b_only = b.keys().filter(|k| !a.contains(k));
    for (i, k) in a.keys().chain(b_only).enumerate() {
        crate::cancel::check_every(i)?;
        if let Some(change) = changed_stat(k, a, b, monitored, incomplete, opt, critical) {
            f(k, change)?;
        }
    }
    Ok(())
}

/// lkp's `__get_changed_stats(a, b, false, options)`: the keys of head `a` that
/// changed against base `b` under `opt` ([`Options::all_keys`] and
/// [`Options::kpi`] aside), in lkp's order, each with how it changed (docs/lkp.md
/// §3.2). lkp returns nil where this is empty because of [`Options::variance`].
pub fn changed_stats(a: &Matrix, b: &Matrix, opt: Options) -> Result<Vec<(String, StatChange)>> {
    let mut out = Vec::new();
    each_changed(a, b, false, opt, &mut Critical::default(), |k, c| {
        out.push((k.to_string(), c));
        Ok(())
    })?;
    Ok(out)
}

/// `_get_changed_stats(a = head, b = base)`, including the incomplete-run two passes:
/// the second on the head without its incomplete runs, and on the base filtered in place
/// (lkp's one deep copy of the base is shared by all heads, so later heads see it
/// filtered). The changed keys, each a key of the compared matrices `ms`.
fn get_changed_stats(
    a: &Matrix,
    b: &mut Cow<Matrix>,
    opt: Options,
    critical: &mut Critical,
    ms: &[&Matrix],
) -> Result<Vec<KeyRef>> {
    let key = "last_state.is_incomplete_run";
    let incomplete = a.contains(key) || b.contains(key);
    let mut out = Vec::new();
    let mut push = |k: &str, _: StatChange| {
        out.push(key_ref(ms, k)?);
        Ok(())
    };
    each_changed(a, b, incomplete, opt, critical, &mut push)?;
    if !incomplete {
        return Ok(out);
    }
    let a = a.complete();
    b.to_mut().filter_incomplete_run();
    if a.stats_source.is_none() || b.stats_source.is_none() {
        return Ok(out);
    }
    each_changed(&a, b, false, opt, critical, &mut push)?;
    Ok(out)
}

/// Per head, the keys lkp's rule selects (in selection order). lkp's options hash, and
/// so the `--regression-only` state, is shared by the heads.
fn selected_per_head(ms: &[&Matrix], opt: Options) -> Result<Vec<Vec<KeyRef>>> {
    let Some((base, heads)) = ms.split_first() else { return Ok(Vec::new()) };
    let mut base = Cow::Borrowed(*base);
    let mut critical = Critical::default();
    heads.iter().map(|head| get_changed_stats(head, &mut base, opt, &mut critical, ms)).collect()
}

/// The keys shown: every key with `-a`, else the union over heads of the changed keys;
/// and per key, for each head in turn, whether lkp's rule selects it (`heads` flags a
/// key). Each key is a [`KeyRef`] into the matrices rather than a copy of its name
/// (the memory bound of docs/readers.md §10).
fn changed_keys(ms: &[&Matrix], opt: Options) -> Result<(Vec<KeyRef>, Vec<bool>)> {
    let per_head = selected_per_head(ms, Options { all_keys: false, ..opt })?;
    let mut keys: Vec<KeyRef> = Vec::new();
    if opt.all_keys {
        for (m, x) in ms.iter().enumerate() {
            let earlier = ms.get(..m).unwrap_or_default();
            for i in 0..x.len() {
                let Some(k) = x.key_at(i) else { continue };
                if !earlier.iter().any(|e| e.contains(k)) {
                    let too_many = || Error::Internal("compare: more than 2^32 metrics".into());
                    keys.push(KeyRef {
                        m: u32::try_from(m).map_err(|_| too_many())?,
                        i: u32::try_from(i).map_err(|_| too_many())?,
                    });
                }
            }
        }
    }
    // a flag per metric of every matrix (a byte each where a hash set of the keys took
    // some 16: the memory bound of docs/readers.md §10) at `slot`
    let starts: Vec<usize> = ms.iter().scan(0, |n, m| Some(std::mem::replace(n, *n + m.len()))).collect();
    let total = ms.iter().map(|m| m.len()).sum();
    let slot = |r: KeyRef| starts.get(r.m as usize).map(|s| s + r.i as usize);
    let flags = |keys: &[KeyRef]| {
        let mut f = vec![false; total];
        for s in keys.iter().filter_map(|&r| slot(r)) {
            if let Some(x) = f.get_mut(s) {
                *x = true;
            }
        }
        f
    };
    if !opt.all_keys {
        let mut seen = vec![false; total];
        for &k in per_head.iter().flatten() {
            if let Some(x) = slot(k).and_then(|s| seen.get_mut(s)) {
                if !*x {
                    *x = true;
                    keys.push(k);
                }
            }
        }
    }
    if opt.kpi {
        keys.retain(|&k| rules::kpi_stat(key_name(ms, k)));
    }
    keys.shrink_to_fit();
    let per_head: Vec<Vec<bool>> = per_head.iter().map(|v| flags(v)).collect();
    let robot = keys
        .iter()
        .flat_map(|&k| per_head.iter().map(move |f| slot(k).and_then(|s| f.get(s)).copied().unwrap_or(false)))
        .collect();
    Ok((keys, robot))
}

/// `calc_stat_change`: fails and `%reproduction` for function stats; averages, SDs and
/// changes for perf stats.
fn calc_row(key: &str, ms: &[&Matrix], cms: &[Cow<Matrix>]) -> StatRow {
    let failure = rules::function_stat(key);
    let tms: Vec<&Matrix> = if failure { ms.to_vec() } else { cms.iter().map(|m| &**m).collect() };
    let values: Vec<Option<Vec<Num>>> = tms.iter().map(|m| m.get(key).map(|v| v.to_vec())).collect();
    let runs: Vec<usize> = tms.iter().map(|m| m.cols()).collect();
    let mut row = StatRow {
        key: key.to_string(),
        failure,
        values: values.clone(),
        runs: runs.clone(),
        fails: vec![],
        avgs: vec![],
        stddevs: vec![],
        rel_stddevs: vec![],
        changes: vec![],
        abs_change: false,
        robot: vec![],
    };
    if failure {
        row.fails = values.iter().map(|v| v.as_deref().map_or(Sum::Int(0), ruby_sum).f()).collect();
        let runs_f = |i: usize| runs.get(i).copied().unwrap_or(0) as f64;
        let reproduce0 = row.fails.first().copied().unwrap_or(0.0) / runs_f(0);
        // lib/compare.rb indexes the run counts with the head's position among the heads,
        // so head j is divided by the runs of root j-1 (the base for one head).
        row.changes = row.fails.iter().skip(1).enumerate().map(|(i, f)| 100.0 * (f / runs_f(i) - reproduce0)).collect();
    } else {
        row.avgs = values.iter().map(|v| v.as_deref().and_then(average).unwrap_or(0.0)).collect();
        row.stddevs = values
            .iter()
            .map(|v| match v {
                Some(v) if v.len() > 1 => standard_deviation(v).unwrap_or(-1.0),
                _ => -1.0,
            })
            .collect();
        row.rel_stddevs =
            row.avgs.iter().zip(&row.stddevs).map(|(a, sd)| if *a != 0.0 { 100.0 * sd / a } else { *sd }).collect();
        let avg0 = row.avgs.first().copied().unwrap_or(0.0);
        if rules::absolute_change(key) {
            row.abs_change = true;
            row.changes = row.avgs.iter().skip(1).map(|a| a - avg0).collect();
        } else {
            let a0 = if avg0 == 0.0 { 1e-100 } else { avg0 };
            row.changes = row.avgs.iter().skip(1).map(|a| 100.0 * (a - a0) / a0).collect();
        }
    }
    row
}

fn key_base(k: &str) -> &str {
    k.split('.').next().unwrap_or(k)
}

/// `Compare.sort_stats`: the order of the `n` rows whose keys are `key(i)` (and whose
/// changes, `heads` per key, are `changes`): by (rows of the same monitor, starting at
/// −10000 for function stats, 0 for test programs), then the key (perf-profile by its
/// first two parts), then the changes. A stable sort of the indices: ties keep the
/// keys' order.
fn sort_order<'a>(n: usize, key: impl Fn(usize) -> &'a str, changes: &[f64], heads: usize) -> Vec<u32> {
    let mut count: HashMap<&str, i64> = HashMap::new();
    for k in (0..n).map(&key) {
        let c = count.entry(key_base(k)).or_insert(if rules::function_stat(k) { -10_000 } else { 0 });
        *c += 1;
    }
    for (base, c) in count.iter_mut() {
        if *c > 0 && rules::is_test_program(base) {
            *c = 0;
        }
    }
    // perf-profile keys sort by their first two '.'-separated parts (a prefix of the key)
    let sort_key = |k: &'a str| -> &'a str {
        if key_base(k) == "perf-profile" {
            match k.match_indices('.').nth(1) {
                Some((at, _)) => k.get(..at).unwrap_or(k),
                None => k,
            }
        } else {
            k
        }
    };
    let changes_of = |i: usize| changes.get(i * heads..(i + 1) * heads).unwrap_or_default();
    let mut order: Vec<u32> = (0..n).filter_map(|i| u32::try_from(i).ok()).collect();
    order.sort_by(|&i, &j| {
        let (i, j) = (i as usize, j as usize);
        let (a, b) = (key(i), key(j));
        let ca = count.get(key_base(a)).copied().unwrap_or(0);
        let cb = count.get(key_base(b)).copied().unwrap_or(0);
        ca.cmp(&cb).then_with(|| sort_key(a).cmp(sort_key(b))).then_with(|| {
            let (x, y) = (changes_of(i), changes_of(j));
            for (x, y) in x.iter().zip(y) {
                match x.total_cmp(y) {
                    Ordering::Equal => continue,
                    o => return o,
                }
            }
            x.len().cmp(&y.len())
        })
    });
    order
}

fn compare_refs(matrixes: &[&Matrix], opt: Options) -> Result<Vec<StatRow>> {
    let plan = RowPlan::new(matrixes, opt)?;
    let mut rows = Vec::with_capacity(plan.len());
    for i in 0..plan.len() {
        crate::cancel::check_every(i)?;
        rows.extend(plan.row(i));
    }
    Ok(rows)
}

/// The rows of a compare before they are made: the keys shown, in lkp's order, and what
/// each row needs. A row is made when asked for ([`RowPlan::row`]), so that a caller can
/// turn each into its own form and drop it before the next (the memory bound of docs/readers.md §10:
/// all rows at once cost some 650 bytes a metric).
pub struct RowPlan<'a> {
    matrixes: Vec<&'a Matrix>,
    /// lkp's complete_matrix copies: only a matrix with incomplete runs differs.
    complete: Vec<Cow<'a, Matrix>>,
    /// The keys shown, each where a matrix holds its name.
    keys: Vec<KeyRef>,
    /// Per key, for each head in turn, whether lkp's own rule selects it.
    robot: Vec<bool>,
    /// The indices of `keys` in row order.
    order: Vec<u32>,
}

impl<'a> RowPlan<'a> {
    /// The plan of comparing heads with a base (`matrixes[0]`), as `lkp ncompare` does:
    /// the keys and their order (each row's changes are computed once here for the
    /// sort, and again when the row is made). Polls [`crate::cancel`] every 4096 metrics.
    pub fn new(matrixes: &[&'a Matrix], opt: Options) -> Result<RowPlan<'a>> {
        let complete: Vec<Cow<Matrix>> =
            matrixes
                .iter()
                .map(|m| {
                    if m.contains("last_state.is_incomplete_run") {
                        Cow::Owned(m.complete())
                    } else {
                        Cow::Borrowed(*m)
                    }
                })
                .collect();
        let (keys, robot) = changed_keys(matrixes, opt)?;
        let heads = matrixes.len().saturating_sub(1);
        let mut changes: Vec<f64> = Vec::with_capacity(keys.len() * heads);
        for (i, &k) in keys.iter().enumerate() {
            crate::cancel::check_every(i)?;
            let r = calc_row(key_name(matrixes, k), matrixes, &complete);
            changes.extend(r.changes.iter().copied().chain(std::iter::repeat(f64::NAN)).take(heads));
        }
        if u32::try_from(keys.len()).is_err() {
            return Err(Error::Internal("compare: more than 2^32 metrics".into()));
        }
        let order = sort_order(keys.len(), |i| keys.get(i).map_or("", |&k| key_name(matrixes, k)), &changes, heads);
        drop(changes);
        Ok(RowPlan { matrixes: matrixes.to_vec(), complete, keys, robot, order })
    }

    /// The number of rows.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// Whether there is no row.
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// The bytes of all the rows' metric names.
    pub fn name_bytes(&self) -> usize {
        self.keys.iter().map(|&k| key_name(&self.matrixes, k).len()).sum()
    }

    /// The number of per-run samples of all the rows (each row's values in each root,
    /// as [`RowPlan::row`] takes them), without making the rows.
    pub fn sample_count(&self) -> usize {
        let count = |k: &str, ms: &mut dyn Iterator<Item = &Matrix>| ms.map(|m| m.get(k).map_or(0, |v| v.len())).sum();
        self.keys
            .iter()
            .map(|&k| key_name(&self.matrixes, k))
            .map(|k| -> usize {
                if rules::function_stat(k) {
                    count(k, &mut self.matrixes.iter().copied())
                } else {
                    count(k, &mut self.complete.iter().map(|m| &**m))
                }
            })
            .sum()
    }

    /// Whether row `i` is a function (failure-count) stat, without making it.
    pub fn failure(&self, i: usize) -> bool {
        self.key(i).is_some_and(rules::function_stat)
    }

    fn key(&self, i: usize) -> Option<&'a str> {
        self.order.get(i).and_then(|&k| self.keys.get(k as usize)).map(|&k| key_name(&self.matrixes, k))
    }

    /// Row `i` in lkp's order (None past the end).
    pub fn row(&self, i: usize) -> Option<StatRow> {
        let at = *self.order.get(i)? as usize;
        let k = key_name(&self.matrixes, *self.keys.get(at)?);
        let mut r = calc_row(k, &self.matrixes, &self.complete);
        let heads = self.matrixes.len().saturating_sub(1);
        r.robot = self.robot.get(at * heads..(at + 1) * heads).unwrap_or_default().to_vec();
        Some(r)
    }
}

/// Compare result roots (owned, borrowed or shared): the first is the base.
pub fn compare_roots<R: Borrow<ResultRoot>>(roots: &[R], opt: Options) -> Result<CompareResult> {
    compare_group(&roots.iter().map(Borrow::borrow).collect::<Vec<_>>(), opt, &["commit".to_string()], false)
}

/// Compare one group of result roots (the first is the base) across `compare_keys`
/// (docs/lkp.md §3.9); `per_root_axes` as in [`CompareResult`].
pub fn compare_group(
    roots: &[&ResultRoot],
    opt: Options,
    compare_keys: &[String],
    per_root_axes: bool,
) -> Result<CompareResult> {
    let ms: Vec<&Matrix> = roots.iter().map(|r| &r.matrix).collect();
    Ok(CompareResult { rows: compare_refs(&ms, opt)?, ..compare_header(roots, opt, compare_keys, per_root_axes) })
}

/// [`compare_group`] without its rows (`rows` empty): the commits, axes and options, for
/// a caller that makes the rows one at a time from a [`RowPlan`] of the roots' matrices.
pub fn compare_header(
    roots: &[&ResultRoot],
    opt: Options,
    compare_keys: &[String],
    per_root_axes: bool,
) -> CompareResult {
    let label = |r: &ResultRoot| -> String {
        if compare_keys == ["commit"] {
            return r.commit();
        }
        let vals: Vec<&str> =
            r.axes.iter().filter(|(k, _)| compare_keys.contains(k)).map(|(_, v)| v.as_str()).collect();
        vals.join("/")
    };
    CompareResult {
        commits: roots.iter().map(|r| label(r)).collect(),
        axes: roots.iter().map(|r| r.axes.clone()).collect(),
        rows: Vec::new(),
        options: opt,
        compare_keys: compare_keys.to_vec(),
        per_root_axes,
    }
}
