//! vm-scalability as lkp-tests' programs/vm-scalability/parse reads it: per sample
//! (the rates between `./case-…` lines) the summed rate and the median rate, then the
//! mean throughput, its relative standard deviation, the mean median and its spread,
//! the mean time to free memory and the bytes moved (`workload`, KiB); the same for
//! page faults (`*_fault`) when reported. Output as lkp's `printf` formats it.

use super::ruby::{self, bad_line, group, re, Lines};
use crate::error::Result;
use crate::lkp::num::{average, ruby_sum, standard_deviation, Num, Sum};
use crate::lkp::rubyfmt::{float_to_s, fmt_d_float, fmt_f, fmt_g};
use regex::Regex;
use std::sync::OnceLock;

struct Patterns {
    usecs: Regex,
    copied: Regex,
    truncated: Regex,
    faulted: Regex,
    migrated: Regex,
    remapped: Regex,
    free: Regex,
    case: Regex,
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| Patterns {
        usecs: re(r"^\.*(\d+) bytes / (\d+) usecs = (\d+) KB.s"),
        copied: re(r"(\d+) bytes \([0-9.]+ .B(?:, [0-9.]+ .iB)?\) copied, ([0-9.]+) s, ([0-9.]+) .B.s"),
        truncated: re(r"(\d+) bytes truncated in ([0-9.]+)-([0-9.]+) seconds"),
        faulted: re(r"(\d+) bytes faulted in ([0-9.]+)-([0-9.]+) seconds"),
        migrated: re(r"\d+ \* \d+ bytes migrated, \d+ usecs, (\d+) MB.s"),
        remapped: re(r"(\d+) bytes remapped, (\d+) usecs, (\d+) MB.s"),
        free: re(r"(\d+) usecs to free memory"),
        case: re(r"\./case-[a-z-]+"),
    })
}

fn sum_num(v: &[Num]) -> Num {
    match ruby_sum(v) {
        Sum::Int(i) => i64::try_from(i).map_or(Num::Float(i as f64), Num::Int),
        Sum::Float(f) => Num::Float(f),
    }
}

fn shown(n: Num) -> String {
    match n {
        Num::Int(i) => i.to_string(),
        Num::Float(f) => float_to_s(f),
    }
}

/// The rates of one kind (all or page faults) and what their samples gave.
#[derive(Default)]
struct Kind {
    kbps: Vec<Num>,
    throughput: Vec<Num>,
    median: Vec<Num>,
}

impl Kind {
    /// lkp's `add_one_sample`: the sample's sum and median; the rates are sorted in
    /// place (Ruby's sort fails on a NaN among two or more).
    fn add_sample(&mut self, out: &mut String, path: &str, line: usize) -> Result<()> {
        if self.kbps.is_empty() {
            return Ok(());
        }
        self.throughput.push(sum_num(&self.kbps));
        if self.kbps.len() > 1 && self.kbps.iter().any(|x| x.f().is_nan()) {
            return Err(bad_line(
                path,
                line,
                "a NaN rate (a zero time span) in a sample (lkp's Ruby fails sorting it)",
            ));
        }
        self.kbps.sort_by(|a, b| a.cmp_num(*b));
        let mid = self.kbps.get(self.kbps.len() / 2).copied().unwrap_or(Num::Int(0));
        self.median.push(mid);
        // lkp prints the count and the sum of the sorted rates as a comment
        out.push_str(&format!("# {} {}\n", self.kbps.len(), shown(sum_num(&self.kbps))));
        Ok(())
    }

    /// lkp's `cal_stddev`: the relative SD of the sample sums, or of one sample's rates
    /// scaled by their count.
    fn stddev(&self) -> f64 {
        if self.throughput.len() > 1 {
            return standard_deviation(&self.throughput).unwrap_or(f64::NAN)
                / average(&self.throughput).unwrap_or(f64::NAN);
        }
        standard_deviation(&self.kbps).unwrap_or(f64::NAN) * self.kbps.len() as f64
            / average(&self.kbps).unwrap_or(f64::NAN)
    }

    /// lkp's `cal_median_stddev` × 100, as `%g` prints it (the Integer 0 for one sample).
    fn median_stddev_pct(&self) -> String {
        if self.median.len() > 1 {
            let sd = standard_deviation(&self.median).unwrap_or(f64::NAN) / average(&self.median).unwrap_or(f64::NAN);
            fmt_g(sd * 100.0, 0, 6, false)
        } else {
            "0".into()
        }
    }
}

/// `printf "%d", x` of a Float (Ruby raises FloatDomainError on NaN and Infinity).
fn int_of(x: f64, what: &str, path: &str, line: usize) -> Result<String> {
    if x.is_finite() {
        Ok(fmt_d_float(x, 0))
    } else {
        Err(bad_line(path, line, format!("the mean {what} is {} (lkp's Ruby fails printing it)", float_to_s(x))))
    }
}

/// Parse vm-scalability output (`path` names it in errors).
pub fn parse(text: &str, path: &str) -> Lines {
    let p = patterns();
    let (mut all, mut fault) = (Kind::default(), Kind::default());
    let mut bytes = 0i128;
    let mut free_secs: Vec<Num> = Vec::new();
    let mut out = String::new();
    let mut lines = 0;
    for (ln, line) in ruby::lines(text).enumerate() {
        lines = ln + 1;
        let int = |c: &regex::Captures, i: usize| ruby::int(group(c, i), path, ln + 1);
        if let Some(c) = p.usecs.captures(line) {
            bytes += i128::from(int(&c, 1)?);
            all.kbps.push(Num::Int(int(&c, 3)?));
        } else if let Some(c) = p.copied.captures(line) {
            let b = int(&c, 1)?;
            bytes += i128::from(b);
            all.kbps.push(Num::Float((b >> 10) as f64 / ruby::to_f(group(&c, 2))));
        } else if let Some(c) = p.truncated.captures(line) {
            let b = int(&c, 1)?;
            bytes += i128::from(b);
            let span = ruby::to_f(group(&c, 2)) - ruby::to_f(group(&c, 3));
            all.kbps.push(Num::Float((b >> 10) as f64 / span));
        } else if let Some(c) = p.faulted.captures(line) {
            // lkp counts these bytes apart and never prints them
            let b = int(&c, 1)?;
            let span = ruby::to_f(group(&c, 2)) - ruby::to_f(group(&c, 3));
            fault.kbps.push(Num::Float((b >> 10) as f64 / span));
        } else if let Some(c) = p.migrated.captures(line) {
            bytes += i128::from(int(&c, 1)?);
            out.push_str(&format!("migrate_mbps: {}\n", group(&c, 1)));
        } else if let Some(c) = p.remapped.captures(line) {
            let b = int(&c, 1)?;
            bytes += i128::from(b);
            let k = int(&c, 2)? >> 10;
            if k == 0 {
                return Err(bad_line(path, ln + 1, "fewer than 1024 usecs remapping (lkp's Ruby divides by zero)"));
            }
            all.kbps.push(Num::Int(b.div_euclid(k)));
        } else if let Some(c) = p.free.captures(line) {
            free_secs.push(Num::Float(int(&c, 1)? as f64 / 1_000_000.0));
        } else if p.case.is_match(line) {
            all.add_sample(&mut out, path, ln + 1)?;
            fault.add_sample(&mut out, path, ln + 1)?;
            all.kbps.clear();
            fault.kbps.clear();
        }
    }
    all.add_sample(&mut out, path, lines)?;
    fault.add_sample(&mut out, path, lines)?;
    if all.throughput.is_empty() {
        return Ok(out);
    }
    let stddev = all.stddev();
    let mean = |v: &[Num]| average(v).unwrap_or(f64::NAN);
    out.push_str(&format!("throughput: {}\n", int_of(mean(&all.throughput), "throughput", path, lines)?));
    // lkp logs "incomplete output" and stops when the last sample was followed by a case line
    if all.kbps.is_empty() {
        return Ok(out);
    }
    out.push_str(&format!("stddev%:   {}\n", fmt_g(stddev * 100.0, 0, 6, false)));
    if !free_secs.is_empty() {
        out.push_str(&format!("free_time:  {}\n", fmt_g(mean(&free_secs), 0, 6, false)));
    }
    out.push_str(&format!("median: {}\n", int_of(mean(&all.median), "median", path, lines)?));
    out.push_str(&format!("median_stddev%: {}\n", all.median_stddev_pct()));
    out.push_str(&format!("workload: {}\n", fmt_f(bytes as f64 / 1024.0, 0, 2, false)));
    if !fault.throughput.is_empty() {
        out.push_str(&format!(
            "throughput_fault: {}\n",
            int_of(mean(&fault.throughput), "fault throughput", path, lines)?
        ));
        out.push_str(&format!("stddev_fault%:   {}\n", fmt_g(fault.stddev() * 100.0, 0, 6, false)));
        out.push_str(&format!("median_fault: {}\n", int_of(mean(&fault.median), "fault median", path, lines)?));
        out.push_str(&format!("median_fault_stddev%: {}\n", fault.median_stddev_pct()));
    }
    Ok(out)
}
