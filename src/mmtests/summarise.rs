//! Summary statistics of one run, exactly as MMTests' `Summarise*.pm` and
//! `Stat.pm` compute them in each era (reference: docs/mmtests.md §3, §4).
//!
//! MMTests sums in a specific order (E1+: samples sorted best first; E0: as
//! extracted), treats non-positive data under the harmonic mean specially, and
//! reads R's 7-digit output back for interval widths. These are reproduced
//! here; the general-purpose statistics in [`crate::stats`] are not used because
//! they (rightly) refuse or reorder such input.

use super::era::{Era, HmeanRule, Preferred};
use super::extract::{Run, Samples};
use super::perlfmt::{perl_str_roundtrip, r_print7, r_print7_all};
use crate::error::{Error, Result};
use crate::stats::rng::Rng;
use std::collections::HashMap;

/// R's `qnorm(0.975)`.
pub const QNORM_975: f64 = 1.959963984540054;

/// A summary type (`Summarise*.pm`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SummaryKind {
    /// Several operations, each a sample of values.
    Multiops,
    /// Multiops plus Kalibera's subselection mean (dbench4/tbench4).
    Subselection,
    /// One value per operation.
    Singleops,
    /// Latency distributions (percentile rows).
    Variabletime,
    /// head's normalised summary.
    Normalisedops,
    /// head's normalised summary for left-skewed data (tbench/dbench).
    NormalisedLeftSkewops,
}

/// One summary statistic (a row of the table).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stat {
    /// `min`.
    Min,
    /// `max`.
    Max,
    /// `_mean`: hmean when higher is better, amean otherwise.
    Mean,
    /// `_mean-P`: the mean of the best P% of samples.
    MeanBest(u32),
    /// `stddev` (E0/E1): sample σ around the arithmetic mean.
    Stddev,
    /// `coeffvar` (E0/E1): 100·σ/amean.
    CoeffVar,
    /// `stddev-_mean` (E2+): σ around the displayed mean (delta-method σ for hmean).
    StddevMean,
    /// `coeffvar-_mean` (E2+).
    CoeffVarMean,
    /// `percentile-P`: x[k−1] of the best-first order.
    Percentile(u32),
    /// `submean`: subselection mean (random upstream).
    SubMean,
    /// `submeanci`: half-width of the subselection interval.
    SubMeanCi,
    /// `_value`: the single value of a Singleops operation.
    Value,
}

impl Stat {
    /// Whether the percentage of this row is always computed as lower-is-better
    /// (`stat_compare`: stddev, coeffvar, submeanci → pndiff).
    pub fn always_lower(self) -> bool {
        matches!(self, Stat::Stddev | Stat::CoeffVar | Stat::StddevMean | Stat::CoeffVarMean | Stat::SubMeanCi)
    }
}

/// Everything computed for one operation of one run.
#[derive(Debug, Clone, Default)]
pub struct OpSummary {
    /// One value per summary statistic (NaN where MMTests has "NaN"; −1 is
    /// MMTests' "missing" sentinel of E0/E1 harmonic means).
    pub values: Vec<f64>,
    /// Number of samples.
    pub n: usize,
    /// The displayed mean (`_mean`).
    pub mean: f64,
    /// Sample σ around the arithmetic mean, NaN when n ≤ 1 (E0/E1 t-test, sdiff).
    pub sd_arith: f64,
    /// The value `--print-ratio` and the markers use (`_RatioSummaryStat[0]`).
    pub ratio_value: f64,
    /// The interval [low, high] of the ratio statistic (E2+), when defined.
    pub ci: Option<(f64, f64)>,
    /// The subselection interval's half-width (`SubAmeanCI`, `submeanci`), which the
    /// E0/E1 `--print-ratio` divides by (`cidiff`), when computed.
    pub sub_half: Option<f64>,
    /// The pooled samples, best first (E1+) or as extracted (E0).
    pub samples: Vec<f64>,
}

/// The summary of one run.
#[derive(Debug, Clone)]
pub struct RunSummary {
    /// Run name.
    pub name: String,
    /// Operations after the sub-heading filter, in MMTests' order.
    pub ops: Vec<String>,
    /// Summary of each operation.
    pub per_op: HashMap<String, OpSummary>,
    /// The statistics, in row order.
    pub stats: Vec<Stat>,
    /// Preferred direction.
    pub preferred: Preferred,
    /// The empty column of a run compare-mmtests.pl lost ([`super::lost`]): no
    /// operations, never marked.
    pub lost: bool,
}

/// Whether `label` matches the sub-heading pattern `pat` (a Perl regex: literal
/// characters, `.`, `*`, `+`, `?`, `^`, `$`, `[...]` and `\` escapes are
/// understood). `anchored_start` makes it `/^pat/` (MMTests' `filterSubheading`);
/// otherwise the match is anywhere (`/pat/`).
pub fn subheading_matches(pat: &str, label: &str, anchored_start: bool) -> bool {
    let p: Vec<char> = pat.chars().collect();
    let s: Vec<char> = label.chars().collect();
    let (p, forced) = match p.split_first() {
        Some(('^', rest)) => (rest, true),
        _ => (p.as_slice(), anchored_start),
    };
    if forced {
        return re_match(p, &s, 0);
    }
    (0..=s.len()).any(|i| re_match(p, &s, i))
}

fn atom_len(p: &[char]) -> usize {
    match p.first() {
        Some('\\') => 2.min(p.len()),
        Some('[') => p.iter().position(|&c| c == ']').map(|i| i + 1).unwrap_or(p.len()),
        Some(_) => 1,
        None => 0,
    }
}

fn atom_matches(atom: &[char], c: char) -> bool {
    match atom {
        ['.'] => true,
        ['\\', e] => match e {
            'd' => c.is_ascii_digit(),
            'w' => c.is_alphanumeric() || c == '_',
            's' => c.is_whitespace(),
            other => *other == c,
        },
        ['[', inner @ .., ']'] => {
            let (neg, mut inner) = match inner.split_first() {
                Some(('^', rest)) => (true, rest),
                _ => (false, inner),
            };
            let mut hit = false;
            loop {
                inner = match inner {
                    [lo, '-', hi, rest @ ..] => {
                        hit |= *lo <= c && c <= *hi;
                        rest
                    }
                    [x, rest @ ..] => {
                        hit |= *x == c;
                        rest
                    }
                    [] => break,
                };
            }
            hit != neg
        }
        [x] => *x == c,
        _ => false,
    }
}

fn re_match(p: &[char], s: &[char], i: usize) -> bool {
    if p.is_empty() {
        return true;
    }
    if p == ['$'] {
        return i == s.len();
    }
    // atom_len(p) ≤ p.len(), so this is never the fallback
    let (atom, rest) = p.split_at_checked(atom_len(p)).unwrap_or((p, &[]));
    match rest.split_first() {
        Some((&op @ ('*' | '+' | '?'), rest)) => {
            let mut j = i;
            let mut count = 0;
            let max = if op == '?' { 1 } else { usize::MAX };
            while count < max && s.get(j).is_some_and(|&c| atom_matches(atom, c)) {
                j += 1;
                count += 1;
            }
            let min = usize::from(op == '+');
            loop {
                if count >= min && re_match(rest, s, i + count) {
                    return true;
                }
                if count == 0 {
                    return false;
                }
                count -= 1;
            }
        }
        _ => s.get(i).is_some_and(|&c| atom_matches(atom, c)) && re_match(rest, s, i + 1),
    }
}

/// MMTests' `filterSubheading`: all operations when `sub` is empty, else those
/// matching `/^sub.*/`.
pub fn filter_ops(ops: &[String], sub: &str) -> Vec<String> {
    if sub.is_empty() {
        return ops.to_vec();
    }
    ops.iter().filter(|o| subheading_matches(sub, o, true)).cloned().collect()
}

/// compare-mmtests.pl's death summarising one run: the harmonic mean of an operation
/// whose best value is ≤ 0 divides by zero (E2, E3: docs/mmtests.md §4.2). The Perl dies
/// inside its per-run `eval`, so it loses that run and prints the rest of the table
/// ([`super::lost`], docs/mmtests.md §12).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HmeanDeath {
    /// The era whose rule died.
    pub era: Era,
    /// The run.
    pub run: String,
    /// The first operation (in summary order) whose harmonic mean divides by zero.
    pub op: String,
}

impl HmeanDeath {
    /// Why the run cannot be summarised, without its name.
    pub fn reason(&self) -> String {
        format!(
            "the harmonic mean of its operation '{}' divides by zero (its best value is 0 or less: MMTests {} dies with \"Illegal division by zero\")",
            self.op,
            self.era.name()
        )
    }

    /// The error of a summary that cannot go on without this run (a monitor's table).
    pub fn into_error(self) -> Error {
        Error::domain(format!("MMTests {} cannot summarise '{}': {}", self.era.name(), self.run, self.reason()))
    }
}

/// Why a run's summary stopped: the Perl's death, or an error of schedlab's own
/// (a stop request).
enum Stop {
    Dies,
    Error(Error),
}

impl From<Error> for Stop {
    fn from(e: Error) -> Stop {
        Stop::Error(e)
    }
}

/// Arithmetic mean in the given order; NaN for no samples or a NaN sample (E0's
/// non-numeric value).
pub fn amean(x: &[f64]) -> f64 {
    if x.is_empty() || x.iter().any(|v| v.is_nan()) {
        return f64::NAN;
    }
    let mut s = 0.0;
    for v in x {
        s += v;
    }
    s / x.len() as f64
}

/// [`hmean`] under [`HmeanRule::NanOrDie`] of samples whose first value is ≤ 0:
/// compare-mmtests.pl dies there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HmeanDies;

/// Harmonic mean in the given order with the era's rule for values ≤ 0:
/// Ok(−1) (E0/E1), Ok(NaN) or Err when the first value is ≤ 0 (E2/E3).
pub fn hmean(x: &[f64], rule: HmeanRule) -> std::result::Result<f64, HmeanDies> {
    if x.is_empty() || x.iter().any(|v| v.is_nan()) {
        return Ok(f64::NAN);
    }
    let mut s = 0.0;
    for (i, v) in x.iter().enumerate() {
        if *v <= 0.0 {
            return match rule {
                HmeanRule::MinusOne => Ok(-1.0),
                HmeanRule::NanOrDie if i == 0 => Err(HmeanDies),
                HmeanRule::NanOrDie => Ok(f64::NAN),
            };
        }
        s += 1.0 / v;
    }
    Ok(x.len() as f64 / s)
}

/// Sample σ around the arithmetic mean, NaN when n ≤ 1.
pub fn stddev_arith(x: &[f64]) -> f64 {
    if x.len() <= 1 {
        return f64::NAN;
    }
    let m = amean(x);
    if m.is_nan() {
        return f64::NAN;
    }
    let mut s = 0.0;
    for v in x {
        s += (v - m) * (v - m);
    }
    (s / (x.len() - 1) as f64).sqrt()
}

/// E2's `stddev-hmean`: sqrt(Σ(1/x − 1/H)²·H⁴/n), NaN when n ≤ 1 or H is not a mean.
pub fn stddev_hmean(x: &[f64], h: f64) -> f64 {
    if x.len() <= 1 || h.is_nan() || h == -1.0 {
        return f64::NAN;
    }
    let mut s = 0.0;
    for v in x {
        let d = 1.0 / v - 1.0 / h;
        s += d * d;
    }
    (s * h.powf(4.0) / x.len() as f64).sqrt()
}

fn coeffvar(sd: f64, mean: f64) -> f64 {
    let sd = if sd.is_nan() { 0.0 } else { sd };
    let mean = if mean.is_nan() { 0.0 } else { mean };
    if mean != 0.0 {
        (sd * 100.0) / mean
    } else {
        0.0
    }
}

/// k = max(1, int(n·P/100)), the number of "best" samples of `_mean-P`.
pub fn best_k(n: usize, p: u32) -> usize {
    ((n * p as usize) / 100).max(1)
}

struct Ctx {
    era: Era,
    pref: Preferred,
}

impl Ctx {
    fn mean(&self, x: &[f64]) -> std::result::Result<f64, Stop> {
        match self.pref {
            Preferred::Lower => Ok(amean(x)),
            Preferred::Higher => hmean(x, self.era.rules().hmean_rule()).map_err(|_| Stop::Dies),
        }
    }
}

/// Sort best first: ascending when lower is better, descending when higher is; NaNs
/// (a sample MMTests could not read) last either way. Perl's `<=>` leaves a NaN's place
/// to its merge sort; a comparison that calls NaN equal to everything is no order at
/// all (Rust's sort panics on it: found by fuzzing a dbench log).
pub fn sort_best_first(x: &mut [f64], pref: Preferred) {
    x.sort_by(|a, b| crate::order::nan_last(*a, *b));
    if pref == Preferred::Higher {
        let numbers = x.iter().take_while(|v| !v.is_nan()).count();
        if let Some(head) = x.get_mut(..numbers) {
            head.reverse();
        }
    }
}

fn stat_value(
    c: &Ctx,
    stat: Stat,
    x: &[f64],
    mean: f64,
    sub: &mut Option<(f64, f64)>,
    per_iter: &[Vec<f64>],
) -> std::result::Result<f64, Stop> {
    let n = x.len();
    let e0 = c.era == Era::E2018;
    Ok(match stat {
        Stat::Min | Stat::Max => {
            if n == 0 || (e0 && x.iter().any(|v| v.is_nan())) {
                f64::NAN
            } else {
                let lo = x.iter().copied().fold(f64::INFINITY, f64::min);
                let hi = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                if stat == Stat::Min {
                    lo
                } else {
                    hi
                }
            }
        }
        Stat::Mean => mean,
        Stat::MeanBest(p) => {
            if n == 0 {
                f64::NAN
            } else if e0 {
                let mut asc = x.to_vec();
                sort_best_first(&mut asc, Preferred::Lower);
                let t = (n * p as usize) / 100;
                let best: Vec<f64> = match c.pref {
                    // the last t, or the first t + 1, of the n ascending samples
                    Preferred::Higher => asc.iter().copied().skip(n.saturating_sub(t)).collect(),
                    Preferred::Lower => asc.iter().copied().take(t + 1).collect(),
                };
                c.mean(&best)?
            } else {
                // k ≤ n when p ≤ 100, as in every era's statistics; a larger p takes all of x
                c.mean(x.get(..best_k(n, p)).unwrap_or(x))?
            }
        }
        // the k-th best sample (k ≤ n when p ≤ 100; a larger p takes the last); NaN without samples
        Stat::Percentile(p) => x.get(best_k(n, p) - 1).or(x.last()).copied().unwrap_or(f64::NAN),
        Stat::Stddev => stddev_arith(x),
        Stat::CoeffVar => coeffvar(stddev_arith(x), amean(x)),
        Stat::StddevMean => sd_of_mean(c.pref, x, mean),
        Stat::CoeffVarMean => coeffvar(sd_of_mean(c.pref, x, mean), mean),
        Stat::SubMean | Stat::SubMeanCi => {
            if sub.is_none() {
                *sub = Some(if e0 { subselection_2018(x)? } else { subselection(per_iter, c.era)? });
            }
            let (m, h) = sub.unwrap_or((f64::NAN, f64::NAN));
            if stat == Stat::SubMean {
                m
            } else {
                h
            }
        }
        Stat::Value => {
            if n == 0 {
                f64::NAN
            } else if e0 {
                per_iter.iter().flatten().last().copied().unwrap_or(f64::NAN)
            } else {
                x.first().copied().unwrap_or(f64::NAN)
            }
        }
    })
}

fn sd_of_mean(pref: Preferred, x: &[f64], mean: f64) -> f64 {
    if x.len() <= 1 || mean.is_nan() {
        return f64::NAN;
    }
    match pref {
        Preferred::Lower => stddev_arith(x),
        Preferred::Higher => stddev_hmean(x, mean),
    }
}

/// The ±q band of the mean as E2/E3 build it: q = R's `qnorm(0.975, 0, σ)` read
/// back with 7 significant digits, σ passed to R with 15.
pub fn ci_band(mean: f64, sigma: f64) -> Option<(f64, f64)> {
    if mean.is_nan() || sigma.is_nan() || mean == -1.0 {
        return None;
    }
    let q = r_print7(perl_str_roundtrip(sigma) * QNORM_975);
    Some((mean - q, mean + q))
}

/// Kalibera's subselection mean and interval half-width over the iterations
/// (E2's subselection-confidence-interval.py algorithm, 1000 draws with
/// replacement of ⌊0.8·len⌋ samples per iteration). Upstream it is unseeded and
/// random; schedlab draws from a fixed seed so its tables are reproducible.
/// `Err(Interrupted)` on a stop request (the draws of a long log take seconds).
pub fn subselection(per_iter: &[Vec<f64>], era: Era) -> Result<(f64, f64)> {
    let draws = if era == Era::E2018 { 100 } else { 1000 };
    let mut rng = Rng::new(0x5eed_0f5b_5e1e_u64, 0);
    let mut meds = Vec::new();
    let mut vars = Vec::new();
    let mut lens = Vec::new();
    for xs in per_iter.iter().filter(|v| !v.is_empty()) {
        let l = (xs.len() as f64 * 0.8) as usize;
        if l == 0 {
            return Ok((f64::NAN, f64::NAN));
        }
        let mut means = Vec::with_capacity(draws);
        let mut vs = Vec::with_capacity(draws);
        // a mean needs no copy of its picks (the same picks and order of the sum)
        for _ in 0..draws {
            crate::cancel::check()?;
            means.push((0..l).filter_map(|_| rng.choose(xs)).sum::<f64>() / l as f64);
        }
        // one buffer for every variance's picks (two passes over them)
        let mut pick: Vec<f64> = Vec::with_capacity(l);
        for _ in 0..draws {
            crate::cancel::check()?;
            pick.clear();
            pick.extend((0..l).filter_map(|_| rng.choose(xs)));
            let m = pick.iter().sum::<f64>() / l as f64;
            vs.push(pick.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / l as f64);
        }
        meds.push(median(&mut means));
        vars.push(median(&mut vs));
        lens.push(l as f64);
    }
    if meds.is_empty() {
        return Ok((f64::NAN, f64::NAN));
    }
    let k = meds.len() as f64;
    let m = meds.iter().sum::<f64>() / k;
    let svar = vars.iter().sum::<f64>() / k;
    let smean = if meds.len() > 1 {
        meds.iter().zip(&lens).map(|(md, l)| (md - m) * (md - m) * l).sum::<f64>() / (k - 1.0)
    } else {
        0.0
    };
    let h = QNORM_975 * ((smean + svar) / lens.iter().sum::<f64>()).sqrt();
    Ok((m, h))
}

/// MMTests 2018's subselection pair (`SubAmean`, `SubAmeanCI`) of an operation's samples in
/// extraction order, as its `lib/R/subselection-confidence-interval.R` computes and prints
/// it and the Perl reads it back (docs/mmtests.md §4.8, §7.6): `L = int(0.8·n)`; the
/// median of 100 means of L samples drawn with replacement; the median `v` of 100
/// variances (divisor L − 1) of such draws; the half-width `qnorm(0.975)·sqrt(v/L)`. R
/// prints the two with 7 significant digits in one format ([`r_print7_all`]). R's NA (no
/// mean when L = 0, no variance when L ≤ 1) reaches the Perl as the string "NA", which
/// every number it takes part in reads as 0: so is it here. NaN without samples. The draws are random
/// upstream; schedlab's come from a fixed seed, so only samples without spread (every
/// draw the same) give MMTests' own numbers.
pub fn subselection_2018(x: &[f64]) -> Result<(f64, f64)> {
    const DRAWS: usize = 100;
    if x.is_empty() {
        // an operation the run lacks: MMTests has no summary of it to ask R about
        return Ok((f64::NAN, f64::NAN));
    }
    let l = (x.len() as f64 * 0.8) as usize;
    let mut rng = Rng::new(0x5eed_0f5b_5e1e_u64, 0);
    let mut pick: Vec<f64> = Vec::with_capacity(l);
    let mut draw = |rng: &mut Rng| {
        pick.clear();
        pick.extend((0..l).filter_map(|_| rng.choose(x)));
        let m = pick.iter().sum::<f64>() / l as f64;
        (m, pick.iter().map(|v| (v - m) * (v - m)).sum::<f64>())
    };
    let med = if l == 0 {
        None
    } else {
        let mut means = Vec::with_capacity(DRAWS);
        for _ in 0..DRAWS {
            crate::cancel::check()?;
            means.push(draw(&mut rng).0);
        }
        Some(median(&mut means))
    };
    let half = if l <= 1 {
        None
    } else {
        let mut vars = Vec::with_capacity(DRAWS);
        for _ in 0..DRAWS {
            crate::cancel::check()?;
            vars.push(draw(&mut rng).1 / (l - 1) as f64);
        }
        Some(QNORM_975 * (median(&mut vars) / l as f64).sqrt())
    };
    match r_print7_all(&[med, half]).as_slice() {
        [m, h] => Ok((m.unwrap_or(0.0), h.unwrap_or(0.0))),
        _ => Ok((0.0, 0.0)),
    }
}

/// The median (NaN last; of an even count the mean of the middle two), found by
/// selection rather than a full sort: the same value, a fraction of the time for the
/// subselection's 1000 draws per iteration.
fn median(v: &mut [f64]) -> f64 {
    let n = v.len();
    if n == 0 {
        return f64::NAN;
    }
    let mid = n / 2;
    let (left, hi, _) = v.select_nth_unstable_by(mid, |a, b| crate::order::nan_last(*a, *b));
    let hi = *hi;
    if !n.is_multiple_of(2) {
        return hi;
    }
    match left.iter().copied().max_by(|a, b| crate::order::nan_last(*a, *b)) {
        Some(lo) => (lo + hi) / 2.0,
        None => hi,
    }
}

/// R's `qbinom(p, size, prob)`: the smallest k with P(X ≤ k) ≥ p.
pub fn qbinom(p: f64, size: usize, prob: f64) -> usize {
    let mut cdf = 0.0;
    let target = p * (1.0 - 64.0 * f64::EPSILON);
    for k in 0..=size {
        let lp = libm::lgamma(size as f64 + 1.0) - libm::lgamma(k as f64 + 1.0) - libm::lgamma((size - k) as f64 + 1.0)
            + k as f64 * prob.ln()
            + (size - k) as f64 * (1.0 - prob).ln();
        cdf += lp.exp();
        if cdf >= target {
            return k;
        }
    }
    size
}

/// Which statistic `--print-ratio` and the markers use for a summary type, and
/// whether it has an interval (MMTests' `_RatioSummaryStat`).
pub fn ratio_stat(kind: SummaryKind) -> Stat {
    match kind {
        SummaryKind::Subselection => Stat::SubMean,
        SummaryKind::Variabletime => Stat::Percentile(95),
        SummaryKind::Singleops => Stat::Value,
        _ => Stat::Mean,
    }
}

/// A run's summary, or compare-mmtests.pl's death on it ([`HmeanDeath`]).
pub type Summarised = std::result::Result<RunSummary, HmeanDeath>;

/// Summarise one run: the statistics of `stats` for each of the operations `ops`
/// (duplicates summarised once). `Ok(Err(death))` where compare-mmtests.pl dies on the
/// run (a harmonic mean dividing by zero, E2/E3); `Err` on a stop request.
pub fn summarise(run: &Run, era: Era, stats: &[Stat], ops: &[String]) -> Result<Summarised> {
    let pref = run.meta.preferred;
    let mut per_op = HashMap::new();
    for op in ops {
        if per_op.contains_key(op) {
            continue;
        }
        crate::cancel::check()?;
        match summarise_op(&run.samples, op, era, pref, run.meta.kind, stats) {
            Ok(s) => {
                per_op.insert(op.clone(), s);
            }
            Err(Stop::Dies) => return Ok(Err(HmeanDeath { era, run: run.name.clone(), op: op.clone() })),
            Err(Stop::Error(e)) => return Err(e),
        }
    }
    Ok(Ok(RunSummary {
        name: run.name.clone(),
        ops: ops.to_vec(),
        per_op,
        stats: stats.to_vec(),
        preferred: pref,
        lost: false,
    }))
}

fn summarise_op(
    samples: &Samples,
    op: &str,
    era: Era,
    pref: Preferred,
    kind: SummaryKind,
    stats: &[Stat],
) -> std::result::Result<OpSummary, Stop> {
    let per_iter = samples.per_iteration(op);
    let mut x = samples.pooled(op);
    if era.rules().sorted_sums() {
        sort_best_first(&mut x, pref);
    }
    let c = Ctx { era, pref };
    let needs_mean = stats.iter().any(|s| matches!(s, Stat::Mean | Stat::StddevMean | Stat::CoeffVarMean))
        || ratio_stat(kind) == Stat::Mean;
    let mean = if needs_mean { c.mean(&x)? } else { f64::NAN };
    let mut sub = None;
    let mut values = Vec::with_capacity(stats.len());
    for &s in stats {
        values.push(stat_value(&c, s, &x, mean, &mut sub, per_iter)?);
    }
    let rstat = ratio_stat(kind);
    let ratio_value = match stats.iter().position(|s| *s == rstat).and_then(|i| values.get(i)) {
        Some(&v) => v,
        None => stat_value(&c, rstat, &x, mean, &mut sub, per_iter)?,
    };
    let ci = if matches!(era, Era::E2025 | Era::Head) {
        match kind {
            SummaryKind::Subselection => {
                let (m, h) = match sub {
                    Some(s) => s,
                    None => subselection(per_iter, era)?,
                };
                if m.is_nan() || h.is_nan() {
                    None
                } else {
                    Some((m - h, m + h))
                }
            }
            SummaryKind::Variabletime => {
                let n = x.len();
                if n < 2 {
                    None
                } else {
                    let lo = qbinom(0.025, n - 1, 0.95);
                    let hi = qbinom(0.975, n - 1, 0.95);
                    match (x.get(lo), x.get(hi)) {
                        (Some(a), Some(b)) => Some((*a, *b)),
                        _ => None,
                    }
                }
            }
            SummaryKind::Singleops => None,
            _ => ci_band(mean, sd_of_mean(pref, &x, mean)),
        }
    } else {
        None
    };
    let sub_half = sub.map(|(_, h)| h);
    Ok(OpSummary { values, n: x.len(), mean, sd_arith: stddev_arith(&x), ratio_value, ci, sub_half, samples: x })
}

#[cfg(test)]
mod tests {
    #[test]
    fn median_by_selection_is_the_middle_of_the_sorted_values() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), 2.5); // (2 + 3) / 2
        assert_eq!(median(&mut [f64::NAN, 1.0, 2.0]), 2.0); // sorted 1, 2, NaN
        assert_eq!(median(&mut [5.0]), 5.0);
        assert!(median(&mut []).is_nan());
    }

    use super::*;

    #[test]
    fn nans_sort_last_whichever_way_is_best() {
        let mut x = vec![3.0, f64::NAN, 1.0, 2.0, f64::NAN, 0.5];
        sort_best_first(&mut x, Preferred::Lower);
        assert_eq!(&x[..4], &[0.5, 1.0, 2.0, 3.0]);
        assert!(x[4].is_nan() && x[5].is_nan());
        sort_best_first(&mut x, Preferred::Higher);
        assert_eq!(&x[..4], &[3.0, 2.0, 1.0, 0.5]);
        assert!(x[4].is_nan() && x[5].is_nan());
    }

    #[test]
    fn means_by_hand() {
        // 3 / (1/1 + 1/2 + 1/4) = 12/7
        assert_eq!(hmean(&[4.0, 2.0, 1.0], HmeanRule::NanOrDie), Ok(3.0 / (0.25 + 0.5 + 1.0)));
        assert_eq!(hmean(&[4.0, 0.0], HmeanRule::MinusOne), Ok(-1.0));
        assert!(hmean(&[4.0, 0.0], HmeanRule::NanOrDie).unwrap().is_nan());
        assert!(hmean(&[0.0, 4.0], HmeanRule::NanOrDie).is_err());
        // σ of [1, 3] around 2: sqrt(2/1)
        assert_eq!(stddev_arith(&[1.0, 3.0]), 2f64.sqrt());
        assert!(stddev_arith(&[1.0]).is_nan());
        // H = 2 for [1, 4, 4]? 3/(1 + .25 + .25) = 2; Σ(1/x − 1/2)² = .25 + .0625 + .0625 = .375
        // sqrt(.375 · 16 / 3) = sqrt(2)
        assert!((stddev_hmean(&[1.0, 4.0, 4.0], 2.0) - 2f64.sqrt()).abs() < 1e-15);
        assert_eq!(best_k(5, 95), 4);
        assert_eq!(best_k(5, 50), 2);
        assert_eq!(best_k(1, 50), 1);
    }

    #[test]
    fn band_reads_r_back() {
        // q = round7(1.959963984540054 · 96.12) = 188.3917
        let (lo, hi) = ci_band(6160.61, 96.12).unwrap();
        assert_eq!(hi - 6160.61, 6160.61 + 188.3917 - 6160.61);
        assert_eq!(lo, 6160.61 - 188.3917);
        assert!(ci_band(1.0, f64::NAN).is_none());
    }

    #[test]
    fn subheading_regexes() {
        assert!(subheading_matches("RPS", "RPS-50th-4", true));
        assert!(!subheading_matches("RPS", "Wakeup-RPS", true));
        assert!(subheading_matches("RPS", "Wakeup-RPS", false));
        assert!(subheading_matches("Request-99.0th", "Request-99.0th-8", true));
        assert!(subheading_matches(".*-4$", "RPS-50th-4", true));
        assert!(!subheading_matches(".*-4$", "RPS-50th-40", true));
        assert!(subheading_matches("send-[0-9]+", "send-64", true));
    }

    #[test]
    fn qbinom_by_hand() {
        // Binomial(4, 0.5): cdf 1/16, 5/16, 11/16, 15/16, 1
        assert_eq!(qbinom(0.025, 4, 0.5), 0);
        assert_eq!(qbinom(0.3, 4, 0.5), 1);
        assert_eq!(qbinom(0.975, 4, 0.5), 4);
    }
}
