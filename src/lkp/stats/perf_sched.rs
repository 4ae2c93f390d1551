//! `perf sched timehist` with call chains (`perf sched record -g`) as lkp-tests'
//! programs/perf-sched/parse reads it (docs/lkp.md §4): every line with a chain
//! (`f1 <- f2 <- …`) counts its wait time and scheduling delay for the chain's first
//! five `.`-separated components; totals over all chains, then per chain (most samples
//! first) the max and mean wait, delay and their sum, chains with few and short waits
//! left out.

use super::ruby::{self, Lines};
use crate::lkp::num::{ruby_sum_f0, Num};
use crate::lkp::rubyfmt::float_to_s;
use std::collections::HashMap;

/// Wait times, scheduling delays and their sums (rounded to 3 digits) of one chain.
#[derive(Default)]
struct Chain {
    series: [Vec<f64>; 3],
}

/// `(v.sum(0.0) / v.size).round(3)`.
fn average(v: &[f64]) -> f64 {
    let nums: Vec<Num> = v.iter().map(|&x| Num::Float(x)).collect();
    ruby::round(ruby_sum_f0(&nums) / v.len() as f64, 3)
}

/// `v.max` (the first largest).
fn max(v: &[f64]) -> f64 {
    v.iter().copied().fold(f64::NEG_INFINITY, |m, x| if x > m { x } else { m })
}

/// Parse `perf sched timehist` output.
pub fn parse(text: &str) -> Lines {
    let mut keys: Vec<String> = Vec::new();
    let mut chains: Vec<Chain> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for (ln, line) in ruby::lines(text).enumerate() {
        crate::cancel::check_every(ln)?;
        if !line.contains(" <- ") {
            continue;
        }
        let joined = line.replace(" <- ", ".");
        let data = ruby::split(&joined);
        let at = |back: usize| data.len().checked_sub(back).and_then(|i| data.get(i)).map_or(0.0, |s| ruby::to_f(s));
        let last = data.last().copied().unwrap_or("");
        let key = ruby::split_on(last, '.').into_iter().take(5).collect::<Vec<_>>().join(".");
        let i = *index.entry(key.clone()).or_insert_with(|| {
            keys.push(key);
            chains.push(Chain::default());
            chains.len() - 1
        });
        let (wait, delay) = (at(4), at(3));
        if let Some(c) = chains.get_mut(i) {
            c.series[0].push(wait);
            c.series[1].push(delay);
            c.series[2].push(ruby::round(wait + delay, 3));
        }
    }
    let mut out = String::new();
    if chains.is_empty() {
        return Ok(out);
    }
    let mut compare_average = 0.0;
    let mut compare_count = 0usize;
    for (i, name) in ["total_wait_time", "total_sch_delay", "total_wait_and_delay"].iter().enumerate() {
        let v: Vec<f64> = chains.iter().flat_map(|c| c.series.get(i).into_iter().flatten().copied()).collect();
        let avg = average(&v);
        if i == 2 {
            compare_average = avg;
            compare_count = (v.len() as f64 * 0.005) as usize;
            out.push_str(&format!("{name}.count.ms: {}\n", v.len()));
        }
        out.push_str(&format!("{name}.max.ms: {}\n", float_to_s(max(&v))));
        out.push_str(&format!("{name}.average.ms: {}\n", float_to_s(avg)));
    }
    // sort_by sample count (Ruby 3.1's sort_by on glibc 2.36 is stable), then from the end
    let mut order: Vec<usize> = (0..chains.len()).collect();
    order.sort_by_key(|&i| chains.get(i).map_or(0, |c| c.series[0].len()));
    for &i in order.iter().rev() {
        let (Some(k), Some(c)) = (keys.get(i), chains.get(i)) else { continue };
        for (j, name) in ["wait_time", "sch_delay", "wait_and_delay"].iter().enumerate() {
            let v = c.series.get(j).map_or(&[][..], Vec::as_slice);
            let avg = average(v);
            if j == 2 {
                if avg < compare_average && v.len() < compare_count {
                    continue;
                }
                out.push_str(&format!("{name}.count.{k}: {}\n", v.len()));
            }
            out.push_str(&format!("{name}.max.ms.{k}: {}\n", float_to_s(max(v))));
            out.push_str(&format!("{name}.avg.ms.{k}: {}\n", float_to_s(avg)));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_chains_prints_nothing() {
        assert_eq!(parse("   1.0 [0000]  a[1]  0.000  0.000  0.1\n").unwrap(), "");
    }
}
