//! Several governors (or versions) replayed over one trace, side by side: what
//! Python's `idle.compare` and `idle.compare_summary` show (docs/idle-governors.md).
//!
//! Each entry names a governor and a version ([`GovernorArg`]: a spec string split by
//! [`split_spec`], or a pair); its label is `"<governor> <version>"` as given, and a
//! label seen before is not replayed again (the first keeps its place).

use super::governor::{split_spec, Spec};
use super::simulate::{simulate_columns, Simulation};
use super::states::StateTable;
use super::summary::{classify, summarize, StateSummary};
use super::trace::TraceColumns;
use crate::error::Result;

/// One entry of a comparison's governor list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GovernorArg {
    /// `"teo@5.1"`, `"menu:4.18"`, `"teo 6.1"`, `"teo-6.1"` or a bare name.
    Spec(String),
    /// A governor name and a version, as given.
    Pair(String, String),
}

impl GovernorArg {
    /// (governor, version): a bare name takes `default_kernel`.
    pub fn resolve(&self, default_kernel: &str) -> (String, String) {
        match self {
            GovernorArg::Spec(s) => split_spec(s, default_kernel),
            GovernorArg::Pair(g, k) => (g.clone(), k.clone()),
        }
    }
}

/// One governor's replay in a comparison.
#[derive(Debug, Clone)]
pub struct Compared {
    /// `"<governor> <version>"`, the column label.
    pub label: String,
    /// The replay (no governor state recorded).
    pub sim: Simulation,
    /// Per period: the state was too deep (woke before its target residency while a
    /// shallower state was enabled), as the kernel counts `above`.
    pub above: Vec<bool>,
    /// Per period: a deeper state would have fit, as the kernel counts `below`.
    pub below: Vec<bool>,
}

/// The distinct (label, governor, version) of `governors`, in their order.
fn distinct(governors: &[GovernorArg], default_kernel: &str) -> Vec<(String, String, String)> {
    let mut out: Vec<(String, String, String)> = Vec::new();
    for g in governors {
        let (gov, ver) = g.resolve(default_kernel);
        let label = format!("{gov} {ver}");
        if !out.iter().any(|(l, _, _)| *l == label) {
            out.push((label, gov, ver));
        }
    }
    out
}

/// Replay `trace` through each distinct entry of `governors` on `table` at `hz`, with
/// each period's above/below classification. An entry naming no implemented pair is
/// [`Spec::new`]'s error.
pub fn compare(
    governors: &[GovernorArg],
    default_kernel: &str,
    table: &StateTable,
    trace: &TraceColumns<'_>,
    hz: u32,
) -> Result<Vec<Compared>> {
    let drv = table.drv();
    let mut out = Vec::new();
    for (label, gov, ver) in distinct(governors, default_kernel) {
        let sim = simulate_columns(Spec::new(&gov, &ver)?, table, trace, hz, false)?;
        let (above, below) =
            sim.idx.iter().zip(&sim.residency_ns).map(|(&k, &d)| classify(&drv, usize::from(k), d)).unzip();
        out.push(Compared { label, sim, above, below });
    }
    Ok(out)
}

/// The per-state counters ([`summarize`]) of each distinct entry's replay, labelled;
/// `power_mw` per state overrides the table's.
pub fn compare_summary(
    governors: &[GovernorArg],
    default_kernel: &str,
    table: &StateTable,
    trace: &TraceColumns<'_>,
    hz: u32,
    power_mw: Option<&[f64]>,
) -> Result<Vec<(String, Vec<StateSummary>)>> {
    let mut out = Vec::new();
    for (label, gov, ver) in distinct(governors, default_kernel) {
        let sim = simulate_columns(Spec::new(&gov, &ver)?, table, trace, hz, false)?;
        out.push((label, summarize(table, &sim.idx, &sim.residency_ns, power_mw)?));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_as_given_and_a_repeated_one_is_replayed_once() {
        let args = [
            GovernorArg::Spec("menu".into()),
            GovernorArg::Spec("teo@5.1".into()),
            GovernorArg::Pair("menu".into(), "6.12".into()),
            GovernorArg::Spec("teo v6.1".into()),
        ];
        let d: Vec<String> = distinct(&args, "6.12").into_iter().map(|(l, _, _)| l).collect();
        assert_eq!(d, ["menu 6.12", "teo 5.1", "teo v6.1"]);
    }

    #[test]
    fn each_replay_is_classified_and_a_bad_pair_is_refused() {
        let table = StateTable::preset("intel-skx").unwrap();
        let (sleep, tick, wake, stopped, lat) = (
            vec![2_000_000i64, 30_000, 4_000_000],
            vec![1_000_000i64, 1_000_000, 1_000_000],
            vec![-1i64, 20_000, 50_000],
            vec![0i64; 3],
            vec![-1i64; 3],
        );
        let trace = TraceColumns {
            sleep_length_ns: &sleep,
            next_tick_ns: &tick,
            wake_ns: &wake,
            tick_stopped: &stopped,
            latency_req_ns: &lat,
            nr_iowait: &[],
            cpu_load: &[],
        };
        let args = [GovernorArg::Spec("menu".into()), GovernorArg::Spec("teo".into())];
        let c = compare(&args, "6.12", &table, &trace, 250).unwrap();
        assert_eq!(c.iter().map(|x| x.label.as_str()).collect::<Vec<_>>(), ["menu 6.12", "teo 6.12"]);
        for x in &c {
            assert_eq!((x.sim.len(), x.above.len(), x.below.len()), (3, 3, 3));
            let drv = table.drv();
            for i in 0..3 {
                let want = classify(&drv, usize::from(x.sim.idx[i]), x.sim.residency_ns[i]);
                assert_eq!((x.above[i], x.below[i]), want);
            }
        }
        let s = compare_summary(&args, "6.12", &table, &trace, 250, None).unwrap();
        assert_eq!(s[0].1.iter().map(|r| r.usage).sum::<u64>(), 3);
        let bad = [GovernorArg::Spec("teo:4.18".into())];
        assert!(compare(&bad, "6.12", &table, &trace, 250).unwrap_err().to_string().contains("teo is not available"));
    }
}
