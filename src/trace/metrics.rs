//! The metrics of one trace as named numbers: what a [`TraceSummary`] measured, as
//! rates, shares and percentiles that compare across runs of different lengths
//! (docs/trace-compare.md §3). Each trace is one run, each metric one sample of it.

use super::hist::Hist;
use super::summary::{CpuSummary, SchedSummary, TraceSummary};
use crate::table::Direction;

/// One metric of one trace.
#[derive(Debug, Clone, PartialEq)]
pub struct Metric {
    /// Where: `machine`, `cpu3`, `all` (every task), `comm=sh`, `what-if menu 6.18`.
    pub scope: String,
    /// What: `C1 residency %`, `wakeup latency p99`.
    pub name: String,
    /// Its unit.
    pub unit: &'static str,
    /// Which way is better.
    pub direction: Direction,
    /// The value.
    pub value: f64,
}

/// The percentiles shown of a latency or a period (p50, p90, p99).
pub const PERCENTILES: [(&str, f64); 3] = [("p50", 0.5), ("p90", 0.9), ("p99", 0.99)];

struct Out {
    rows: Vec<Metric>,
    scope: String,
}

impl Out {
    fn push(&mut self, name: impl Into<String>, unit: &'static str, direction: Direction, value: Option<f64>) {
        if let Some(value) = value.filter(|v| v.is_finite()) {
            self.rows.push(Metric { scope: self.scope.clone(), name: name.into(), unit, direction, value });
        }
    }

    /// The percentiles, mean and maximum of `h` in µs.
    fn dist(&mut self, what: &str, h: &Hist, direction: Direction) {
        if h.count() == 0 {
            return;
        }
        let qs: Vec<f64> = PERCENTILES.iter().map(|p| p.1).collect();
        for ((label, _), q) in PERCENTILES.iter().zip(h.quantiles(&qs)) {
            self.push(format!("{what} {label} (µs)"), "µs", direction, q.map(|v| v / 1e3));
        }
        self.push(format!("{what} mean (µs)"), "µs", direction, h.mean().map(|v| v / 1e3));
        self.push(format!("{what} max (µs)"), "µs", direction, h.max().map(|v| v as f64 / 1e3));
    }
}

fn pct(part: u64, whole: u64) -> Option<f64> {
    (whole > 0).then(|| part as f64 * 100.0 / whole as f64)
}

/// The name of idle state `k` of `s`.
pub fn state_name(s: &TraceSummary, k: usize) -> String {
    s.state_names.get(k).cloned().unwrap_or_else(|| format!("state{k}"))
}

/// Every metric of `s` (docs/trace-compare.md §3 defines each); idle states are
/// counted up to `n_states` (at least the states of `s`' table and those it entered):
/// a state the trace never entered is there at 0, so that traces that did and did not
/// enter it compare.
pub fn metrics(s: &TraceSummary, n_states: usize) -> Vec<Metric> {
    let n_states = n_states.max(states_of(s));
    let span_s = s.end_ns.saturating_sub(s.start_ns) as f64 / 1e9;
    let rate = |n: u64| (span_s > 0.0).then(|| n as f64 / span_s);
    let mut out = Out { rows: Vec::new(), scope: "machine".into() };
    let u = Direction::Unknown;
    let lower = Direction::Lower;
    if s.present.idle {
        idle(&mut out, s, &s.cpus.iter().collect::<Vec<_>>(), &rate, n_states);
        out.dist("idle period", &s.idle_periods, u);
    }
    if s.present.switch {
        let (busy, known) = s.cpus.iter().fold((0, 0), |(b, k), c| (b + c.busy_ns, k + c.sched_known_ns));
        out.push("busy %", "%", u, pct(busy, known));
    }
    if s.present.frequency {
        frequency(&mut out, &s.cpus.iter().collect::<Vec<_>>());
    }
    for g in &s.sched {
        out.scope = g.name.clone();
        sched(&mut out, s, g, &rate, lower);
    }
    for r in &s.util_replay {
        out.scope = r.scope.clone();
        replayed(&mut out, r);
    }
    for w in &s.whatif {
        out.scope = format!("what-if {}", w.label);
        let total: u64 = w.usage.iter().sum();
        for (k, &n) in w.usage.iter().enumerate() {
            out.push(format!("{} entries %", state_name(s, k)), "%", u, pct(n, total));
        }
        out.push("above %", "%", lower, pct(w.above.iter().sum(), total));
        out.push("below %", "%", lower, pct(w.below.iter().sum(), total));
    }
    for c in &s.cpus {
        out.scope = format!("cpu{}", c.cpu);
        if s.present.idle && c.idle_known_ns > 0 {
            for k in 0..n_states {
                let r = c.states.get(k).map_or(0, |st| st.residency_ns);
                out.push(format!("{} residency %", state_name(s, k)), "%", u, pct(r, c.idle_known_ns));
            }
        }
        if s.present.switch {
            out.push("busy %", "%", u, pct(c.busy_ns, c.sched_known_ns));
        }
        if s.present.frequency {
            out.push("frequency mean (MHz)", "MHz", u, mean_khz(c).map(|k| k / 1e3));
        }
    }
    out.rows
}

/// The idle states `s` knows: its table's, and any it entered beyond them.
pub fn states_of(s: &TraceSummary) -> usize {
    s.cpus.iter().map(|c| c.states.len()).max().unwrap_or(0).max(s.state_names.len())
}

fn idle(out: &mut Out, s: &TraceSummary, cpus: &[&CpuSummary], rate: &dyn Fn(u64) -> Option<f64>, n: usize) {
    let u = Direction::Unknown;
    let known: u64 = cpus.iter().map(|c| c.idle_known_ns).sum();
    let active: u64 = cpus.iter().map(|c| c.active_ns).sum();
    out.push("active %", "%", u, pct(active, known));
    let (mut usage_all, mut stopped_all) = (0, 0);
    for k in 0..n {
        let sum = |f: &dyn Fn(&super::summary::StateCounters) -> u64| -> u64 {
            cpus.iter().filter_map(|c| c.states.get(k)).map(f).sum()
        };
        let name = state_name(s, k);
        let usage = sum(&|x| x.usage);
        usage_all += usage;
        stopped_all += sum(&|x| x.tick_stopped);
        out.push(format!("{name} residency %"), "%", u, pct(sum(&|x| x.residency_ns), known));
        out.push(format!("{name} entries/s"), "/s", u, rate(usage));
        let (above, below) = if s.present.idle_miss {
            (sum(&|x| x.kernel_above), sum(&|x| x.kernel_below))
        } else {
            (sum(&|x| x.above), sum(&|x| x.below))
        };
        if s.present.idle_miss || !s.state_names.is_empty() {
            out.push(format!("{name} above %"), "%", Direction::Lower, pct(above, usage));
            out.push(format!("{name} below %"), "%", Direction::Lower, pct(below, usage));
        }
    }
    if s.present.tick_stop {
        out.push("tick stopped %", "%", u, pct(stopped_all, usage_all));
    }
}

/// The time-weighted mean frequency of `c`, kHz.
pub fn mean_khz(c: &CpuSummary) -> Option<f64> {
    let t: u64 = c.freq_ns.values().sum();
    (t > 0).then(|| c.freq_ns.iter().map(|(&f, &d)| f as f64 * d as f64).sum::<f64>() / t as f64)
}

fn frequency(out: &mut Out, cpus: &[&CpuSummary]) {
    let mut all: std::collections::BTreeMap<u64, u64> = std::collections::BTreeMap::new();
    for c in cpus {
        for (&f, &d) in &c.freq_ns {
            *all.entry(f).or_default() += d;
        }
    }
    let total: u64 = all.values().sum();
    let merged = CpuSummary { freq_ns: all.clone(), ..CpuSummary::default() };
    out.push("frequency mean (MHz)", "MHz", Direction::Unknown, mean_khz(&merged).map(|k| k / 1e3));
    for (f, d) in all {
        out.push(format!("{} MHz residency %", f as f64 / 1e3), "%", Direction::Unknown, pct(d, total));
    }
}

fn sched(out: &mut Out, s: &TraceSummary, g: &SchedSummary, rate: &dyn Fn(u64) -> Option<f64>, lower: Direction) {
    let u = Direction::Unknown;
    if s.present.switch {
        out.dist("wakeup latency", &g.wakeup_latency, lower);
        out.dist("preemption wait", &g.preempt_wait, lower);
        out.dist("run time", &g.run, u);
        out.push("voluntary switches/s", "/s", u, rate(g.voluntary));
        out.push("involuntary switches/s", "/s", u, rate(g.involuntary));
        let span = s.end_ns.saturating_sub(s.start_ns);
        out.push("CPU time %", "%", u, (span > 0).then(|| g.run.sum() as f64 * 100.0 / span as f64));
    }
    if s.present.wakeup {
        out.push("wakeups/s", "/s", u, rate(g.wakeups));
    }
    if s.present.migrate {
        out.push("migrations/s", "/s", u, rate(g.migrations));
    }
    let ut = &g.util;
    if ut.util_samples > 0 {
        out.push("util_avg mean", "", u, Some(ut.util_sum as f64 / ut.util_samples as f64));
        out.push("util_avg max", "", u, Some(ut.util_max as f64));
    }
    if ut.est_samples > 0 {
        out.push("util_est.enqueued mean", "", u, Some(ut.est_enqueued_sum as f64 / ut.est_samples as f64));
        out.push("util_est.ewma mean", "", u, Some(ut.est_ewma_sum as f64 / ut.est_samples as f64));
    }
}

/// The replayed utilization of one named task (docs/trace-compare.md §3.4): util_avg's
/// mean, p90 and maximum, util_est's EWMA mean and maximum (and `util_est.enqueued`'s
/// mean for the kernels that have it), over the task's updates.
fn replayed(out: &mut Out, r: &super::util_replay::UtilReplay) {
    let u = Direction::Unknown;
    let p90 = |h: &Hist| h.quantiles(&[0.9]).into_iter().next().flatten();
    if r.util_avg.count() > 0 {
        out.push("util_avg mean", "", u, r.util_avg.mean());
        out.push("util_avg p90", "", u, p90(&r.util_avg));
        out.push("util_avg max", "", u, r.util_avg.max().map(|v| v as f64));
        out.push("util_est.ewma mean", "", u, r.util_est_ewma.mean());
        out.push("util_est.ewma max", "", u, r.util_est_ewma.max().map(|v| v as f64));
    }
    if r.util_est_enqueued.count() > 0 {
        out.push("util_est.enqueued mean", "", u, r.util_est_enqueued.mean());
    }
}
