//! `perf stat -a --scale -I 1000 [-x ,] -e …` as lkp-tests' programs/perf-stat/parse
//! reads it: per interval `time`, `i.<event>` (count per second), the derived `i.*`
//! metrics and `i.metric.<unit>`; at the end `ps.<event>` (the sum over complete intervals
//! per second of run time), `total.instructions` and the `overall.*` metrics.

use super::ruby::{self, bad_line, group, re, Lines, Tally};
use crate::lkp::rubyfmt::float_to_s;
use regex::Regex;
use std::fmt::Write;
use std::sync::OnceLock;

struct Patterns {
    command: Regex,
    data: Regex,
    hybrid: Regex,
    misses: Regex,
    uncore: Regex,
    cycles: Regex,
    itlb: Regex,
    cache: Regex,
    metric: Regex,
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| Patterns {
        command: re(r"perf stat .+ -e ([^ ]+) "),
        data: re(r"^\s*\d+\.\d+\W+"),
        hybrid: re(r".*/(.*)/"),
        misses: re(r"(.*)-misses"),
        uncore: re(r"(.*)UNC_M_(.*)_INSERTS"),
        cycles: re(r"(.*)cpu-cycles"),
        itlb: re(r"(.*)iTLB-load-misses"),
        cache: re(r"(.*)cache-misses"),
        metric: re(r"^[A-Z][^ ]+$"),
    })
}

/// The state of one parse: lkp's globals.
#[derive(Default)]
struct PerfStat {
    out: String,
    sum: Tally,
    nr: Tally,
    interval_sum: Tally,
    interval_nr: Tally,
    metrics: Tally,
    intervals: u64,
    /// `$latency_prev`: the last latency per key (`None` prints lkp's default 0).
    latency_prev: Vec<(String, Option<f64>)>,
}

impl PerfStat {
    fn put(&mut self, key: &str, v: f64) {
        let _ = writeln!(self.out, "{key}: {}", float_to_s(v));
    }

    /// `calc_addon_keys`: miss rates, misses per instruction/cycle, uncore latency and
    /// throughput, ipc/cpi, for the sums `which` (interval or whole run).
    fn addon_keys(&mut self, interval: f64, interval_nr: f64, prefix: &str, whole_run: bool) {
        let p = patterns();
        let (sum, nr) = if whole_run { (&self.sum, &self.nr) } else { (&self.interval_sum, &self.interval_nr) };
        let mut lines: Vec<(String, Option<f64>)> = Vec::new();
        let mut latencies: Vec<(String, Option<f64>)> = Vec::new();
        let latency_prev = &self.latency_prev;
        for (key, value) in sum.iter() {
            if let Some(c) = p.misses.captures(key) {
                let stem = group(&c, 1);
                for pfx in ["s", "-references", "-instructions"] {
                    let avalue = sum.get(&format!("{stem}{pfx}"));
                    if avalue == 0.0 {
                        continue;
                    }
                    let total = if pfx == "s" { avalue + value } else { avalue };
                    lines.push((format!("{prefix}{stem}-miss-rate%"), Some(value * 100.0 / total)));
                    break;
                }
                if value == 0.0 {
                    continue;
                }
                if let Some(c) = p.itlb.captures(key) {
                    let stem = group(&c, 1);
                    let instructions = sum.get(&format!("{stem}instructions"));
                    if instructions != 0.0 {
                        lines.push((format!("{prefix}{stem}instructions-per-iTLB-miss"), Some(instructions / value)));
                    }
                } else if let Some(c) = p.cache.captures(key) {
                    let stem = group(&c, 1);
                    let cycles = sum.get(&format!("{stem}cpu-cycles"));
                    if cycles != 0.0 {
                        lines.push((format!("{prefix}{stem}cycles-between-cache-misses"), Some(cycles / value)));
                    }
                    let instructions = sum.get(&format!("{stem}instructions"));
                    if instructions != 0.0 {
                        lines.push((format!("{prefix}{stem}MPKI"), Some(value / instructions * 1000.0)));
                    }
                }
            } else if let Some(c) = p.uncore.captures(key) {
                let (stem1, stem2) = (group(&c, 1), group(&c, 2));
                let stem = format!("{stem1}UNC_M_{stem2}");
                let occupancy_key = format!("{stem}_OCCUPANCY");
                let ticks_key = format!("{stem1}UNC_M_CLOCKTICKS");
                let ticks_sum = sum.get(&ticks_key);
                let ticks_nr = nr.get(&ticks_key);
                if sum.contains(&occupancy_key) && ticks_sum != 0.0 {
                    let latency_key = format!("{prefix}{stem}_latency_ns");
                    let latency = if value == 0.0 {
                        latencies
                            .iter()
                            .rev()
                            .chain(latency_prev.iter().rev())
                            .find(|(k, _)| *k == latency_key)
                            .and_then(|(_, v)| *v)
                    } else {
                        Some(sum.get(&occupancy_key) / value / (ticks_sum / (ticks_nr / interval_nr)) * 1e9 * interval)
                    };
                    latencies.push((latency_key.clone(), latency));
                    lines.push((latency_key, latency));
                }
                lines
                    .push((format!("{prefix}{stem}_throughput_MBps"), Some(value * 64.0 / 1024.0 / 1024.0 / interval)));
            } else if let Some(c) = p.cycles.captures(key) {
                let stem = group(&c, 1);
                let instructions = sum.get(&format!("{stem}instructions"));
                if instructions != 0.0 {
                    lines.push((format!("{prefix}{stem}ipc"), Some(instructions / value)));
                    lines.push((format!("{prefix}{stem}cpi"), Some(value / instructions)));
                }
            }
        }
        for (k, v) in latencies {
            match self.latency_prev.iter_mut().find(|(pk, _)| *pk == k) {
                Some(slot) => slot.1 = v,
                None => self.latency_prev.push((k, v)),
            }
        }
        for (k, v) in lines {
            match v {
                Some(v) => self.put(&k, v),
                None => {
                    let _ = writeln!(self.out, "{k}: 0");
                }
            }
        }
    }

    /// `output_interval(prev_time, time)`: print the interval ending at `time` and add
    /// it to the run's sums (every interval ending after 0 counts).
    fn output_interval(&mut self, prev_time: f64, time: f64) {
        if self.interval_sum.is_empty() {
            return;
        }
        let interval = time - prev_time;
        self.put("time", time);
        let rates: Vec<(String, f64)> =
            self.interval_sum.iter().map(|(k, v)| (format!("i.{k}"), v / interval)).collect();
        for (k, v) in rates {
            self.put(&k, v);
        }
        self.addon_keys(interval, 1.0, "i.", false);
        let metrics: Vec<(String, f64)> = self.metrics.iter().map(|(k, v)| (format!("i.{k}"), v)).collect();
        for (k, v) in metrics {
            self.put(&k, v);
        }
        if time > 0.0 {
            for (k, v) in self.interval_sum.iter() {
                self.sum.add(k, v);
                self.nr.add(k, self.interval_nr.get(k));
            }
            self.intervals += 1;
        }
        self.interval_sum.clear();
        self.interval_nr.clear();
        self.metrics.clear();
    }
}

/// Parse perf-stat output (`path` names it in errors). Lines are read as lkp does:
/// CSV (`-x ,`, at least 8 fields) or space-separated; hybrid `cpu_atom/<event>/`
/// names fold to `<event>`; per-socket `S<n>` lines add `S<n>.<event>`; `_IMC…`
/// suffixes are cut; `Bytes` units append `_Bytes`. The last interval, still running
/// when perf stopped, is left out, and the run time is the time of the line before
/// the last. No output when a line names none of the `-e` events (lkp exits there).
pub fn parse(text: &str, path: &str) -> Lines {
    let p = patterns();
    let mut st = PerfStat::default();
    let mut events: Vec<String> = Vec::new();
    let (mut prev_prev_time, mut prev_time, mut time) = (0.0f64, 0.0f64, 0.0f64);
    let mut metric_val = 0.0f64;
    for (ln, line) in ruby::lines(text).enumerate() {
        if let Some(c) = p.command.captures(line) {
            events = ruby::split_on(&group(&c, 1).replace(['{', '}'], ""), ',').iter().map(|s| s.to_string()).collect();
        }
        if !p.data.is_match(line) {
            continue;
        }
        let csv = line.contains(',');
        let all = if csv { ruby::split_on(line, ',') } else { ruby::split(line) };
        let Some((stime, rest)) = all.split_first() else { continue };
        let mut fields: Vec<String> = rest.iter().map(|s| s.to_string()).collect();
        if csv && fields.len() < 7 {
            continue;
        }
        let Some(f2) = fields.get_mut(2) else {
            return Err(bad_line(path, ln + 1, "expected a count, a unit and an event name after the time"));
        };
        if f2.contains('/') {
            let Some(inner) = p.hybrid.captures(f2).map(|c| group(&c, 1).to_string()) else {
                return Err(bad_line(path, ln + 1, format!("expected a PMU/event/ name, found '{f2}'")));
            };
            *f2 = inner;
        }
        if !fields.iter().any(|f| events.contains(f)) {
            return Ok(String::new());
        }
        prev_time = time;
        time = ruby::to_f(stime);
        if time - prev_time > 0.01 {
            st.output_interval(prev_prev_time, prev_time);
            prev_prev_time = prev_time;
        }
        let socket = match fields.first() {
            Some(f) if f.starts_with('S') => {
                let s = f.clone();
                fields.drain(..2.min(fields.len()));
                Some(s)
            }
            _ => None,
        };
        let unit = fields.get(1).filter(|u| *u == "Bytes").cloned();
        if csv && fields.len() > 1 {
            fields.remove(1);
        }
        let metric_key = fields.get(5).filter(|f| p.metric.is_match(f)).map(|f| {
            let m = format!("metric.{}", f.strip_suffix('\n').unwrap_or(f));
            match &socket {
                Some(s) => format!("{s}.{m}"),
                None => m,
            }
        });
        if metric_key.is_some() {
            metric_val = fields.get(4).map_or(0.0, |f| ruby::to_f(f));
        }
        let value = fields.first().map_or(0.0, |f| ruby::to_f(f));
        let Some(mut key) = fields.get(1).cloned() else {
            return Err(bad_line(path, ln + 1, "expected an event name after the count"));
        };
        if let Some(i) = key.find("_IMC") {
            key.truncate(i);
        }
        if let Some(u) = &unit {
            key = format!("{key}_{u}");
        }
        st.interval_sum.add(&key, value);
        st.interval_nr.add(&key, 1.0);
        if let Some(s) = &socket {
            let sk = format!("{s}.{key}");
            st.interval_sum.add(&sk, value);
            st.interval_nr.add(&sk, 1.0);
        }
        if let Some(m) = &metric_key {
            st.metrics.add(m, metric_val);
        }
    }
    let run_time = prev_time;
    let ps: Vec<(String, f64)> = st.sum.iter().map(|(k, v)| (format!("ps.{k}"), v / run_time)).collect();
    for (k, v) in ps {
        st.put(&k, v);
    }
    let instructions = st.sum.get("instructions");
    if instructions != 0.0 {
        st.put("total.instructions", instructions);
    }
    let intervals = st.intervals as f64;
    st.addon_keys(run_time, intervals, "overall.", true);
    Ok(st.out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intervals_rates_and_overall_by_hand() {
        let t = "perf stat -a -I 1000 -x , -e {cpu-cycles,instructions} --log-fd 1\n\
                 1.0,2000,,cpu-cycles,1,100.00,,\n1.0,1000,,instructions,1,100.00,,\n\
                 2.0,4000,,cpu-cycles,1,100.00,,\n2.0,3000,,instructions,1,100.00,,\n\
                 2.5,10,,cpu-cycles,1,100.00,,\n";
        let out = parse(t, "perf-stat").unwrap();
        // interval 1: 2000 cycles, 1000 instructions in 1 s
        assert!(out.starts_with("time: 1.0\ni.cpu-cycles: 2000.0\ni.instructions: 1000.0\ni.ipc: 0.5\ni.cpi: 2.0\n"));
        // the 2.5 s interval is dropped; run time is 2.0 s: 6000 cycles, 4000 instructions
        assert!(out.ends_with(
            "ps.cpu-cycles: 3000.0\nps.instructions: 2000.0\ntotal.instructions: 4000.0\n\
             overall.ipc: 0.6666666666666666\noverall.cpi: 1.5\n"
        ));
    }

    #[test]
    fn a_line_without_an_event_name_is_an_error() {
        let e = parse("perf stat -a -e {x} \n1.0 5\n", "ps").unwrap_err().to_string();
        assert!(e.starts_with("ps:2:"), "{e}");
    }
}
