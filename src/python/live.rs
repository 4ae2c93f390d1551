//! Bindings of [`crate::live`]: the PELT live check on a recorded trace and its
//! `/proc/PID/sched` readings, returned as a summary and per-reading columns.

use super::errors::run;
use crate::idle::governor::Spec;
use crate::import_notes::ImportOptions;
use crate::live::idle_check;
use crate::live::pelt_check::{check_files, PeltCheck};
use crate::live::summary::LiveCheck;
use crate::live::task_clock::{Placed, PointKind};
use crate::live::{html, text};
use crate::pelt::util_est::rule_by_name;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::PathBuf;

fn kind_name(k: PointKind) -> &'static str {
    match k {
        PointKind::Wake => "wake",
        PointKind::Pick => "pick",
        PointKind::Tick => "tick",
        PointKind::Preempt => "preempt",
        PointKind::Sleep => "sleep",
        PointKind::Seen => "seen",
    }
}

fn placed_name(p: Placed) -> &'static str {
    match p {
        Placed::Exact => "exact",
        Placed::Reading => "reading",
        Placed::Interpolated => "interpolated",
    }
}

/// The PELT live check of `pid`: (summary dict, columns dict, notes).
#[pyfunction]
#[pyo3(signature = (trace, samples, pid, rule="6.12", strict=false))]
fn live_pelt_check<'py>(
    py: Python<'py>,
    trace: PathBuf,
    samples: PathBuf,
    pid: u32,
    rule: &str,
    strict: bool,
) -> PyResult<(Bound<'py, PyDict>, Bound<'py, PyDict>, Vec<String>)> {
    let (r, notes): (PeltCheck, _) = run(py, || {
        let rule = rule_by_name(rule)?;
        check_files(&trace, &samples, pid, rule, ImportOptions { strict, sort: false })
    })?;
    let s = PyDict::new(py);
    let tl = &r.timeline;
    s.set_item("readings", r.compared.len())?;
    s.set_item("util_within_1", r.util_within(1))?;
    s.set_item("util_exact", r.util_within(0))?;
    s.set_item("util_max_error", r.util_max_error())?;
    s.set_item("util_est_exact", r.util_est_exact())?;
    s.set_item("start_last_update_time", r.start.last_update_time)?;
    s.set_item("skipped", r.skipped)?;
    s.set_item("runs", tl.runs)?;
    s.set_item("anchored_runs", tl.anchored_runs)?;
    s.set_item("anchored_readings", tl.anchored_readings)?;
    s.set_item("anchor_conflicts", tl.anchor_conflicts)?;
    s.set_item("repaired_runs", tl.repaired_runs)?;
    s.set_item("unexpected_events", tl.unexpected)?;
    s.set_item("points", tl.points.len())?;
    let count = |k: PointKind| tl.points.iter().filter(|p| p.kind == k).count();
    s.set_item("seen_only_points", count(PointKind::Seen))?;
    s.set_item("tick_points", count(PointKind::Tick))?;
    let c = PyDict::new(py);
    let col = |f: &dyn Fn(&crate::live::pelt_check::Compared) -> u64| r.compared.iter().map(f).collect::<Vec<u64>>();
    c.set_item("t_mono_ns", col(&|x| x.kernel.t_mono_ns))?;
    c.set_item("last_update_time", col(&|x| x.kernel.last_update_time))?;
    c.set_item("replay_last_update_time", col(&|x| x.replay.last_update_time))?;
    c.set_item("kernel_util_avg", col(&|x| x.kernel.util_avg))?;
    c.set_item("replay_util_avg", col(&|x| x.replay.util_avg))?;
    c.set_item("kernel_util_sum", col(&|x| x.kernel.util_sum))?;
    c.set_item("replay_util_sum", col(&|x| u64::from(x.replay.util_sum)))?;
    c.set_item("kernel_runnable_avg", col(&|x| x.kernel.runnable_avg))?;
    c.set_item("replay_runnable_avg", col(&|x| x.replay.runnable_avg))?;
    c.set_item("kernel_util_est", col(&|x| x.kernel.util_est))?;
    c.set_item("replay_util_est", col(&|x| u64::from(x.replay_util_est)))?;
    c.set_item("point", r.compared.iter().map(|x| kind_name(x.kind)).collect::<Vec<_>>())?;
    c.set_item("placed", r.compared.iter().map(|x| placed_name(x.placed)).collect::<Vec<_>>())?;
    Ok((s, c, notes.messages()))
}

/// The idle check as Python sees it: the summary (None when the CPU never idled), the
/// notes, the records of each event.
type IdleResult<'py> = (Option<Bound<'py, PyDict>>, Vec<String>, Vec<(String, u64)>);

/// The idle live check of `cpu`: (summary dict, None when the CPU never idled; notes;
/// [(event, records)]).
#[pyfunction]
#[pyo3(signature = (trace, states, cpu, governor="menu", kernel="6.12", hz=250, strict=false))]
#[allow(clippy::too_many_arguments)]
fn live_idle_check<'py>(
    py: Python<'py>,
    trace: PathBuf,
    states: PathBuf,
    cpu: u32,
    governor: &str,
    kernel: &str,
    hz: u32,
    strict: bool,
) -> PyResult<IdleResult<'py>> {
    let idle_check::FileCheck { check: r, notes, event_counts: counts } = run(py, || {
        let spec = Spec::new(governor, kernel)?;
        idle_check::check_files(&trace, &states, cpu, spec, hz, ImportOptions { strict, sort: false })
    })?;
    let s = PyDict::new(py);
    let Some(r) = r else { return Ok((None, notes.messages(), counts)) };
    s.set_item("cpu", r.cpu)?;
    s.set_item("replayed", r.spec.to_string())?;
    s.set_item("periods", r.periods)?;
    s.set_item("agree", r.agree)?;
    s.set_item("cold_start_disagree", r.cold_start_disagree)?;
    s.set_item("unknown_sleep_disagree", r.unknown_sleep_disagree)?;
    s.set_item("confusion", r.confusion)?;
    let t = r.tick;
    s.set_item("tick_decided", t.decided)?;
    s.set_item("tick_agree", t.agree)?;
    s.set_item("tick_kernel_only", t.kernel_only)?;
    s.set_item("tick_replay_only", t.replay_only)?;
    s.set_item("tick_replay_only_timer_within_tick", t.replay_only_timer_within_tick)?;
    s.set_item("tick_already_stopped", t.already_stopped)?;
    Ok((Some(s), notes.messages(), counts))
}

/// The text `schedlab live` prints, from the JSON of a check (without its columns).
#[pyfunction]
fn live_check_text(py: Python<'_>, check: &str) -> PyResult<String> {
    run(py, || Ok(text::text(&LiveCheck::from_json(check)?)))
}

/// The HTML table of a check, from its JSON (without its columns).
#[pyfunction]
fn live_check_html(py: Python<'_>, check: &str) -> PyResult<String> {
    run(py, || Ok(html::html(&LiveCheck::from_json(check)?)))
}

/// Adds the live-check functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(live_pelt_check, m)?)?;
    m.add_function(wrap_pyfunction!(live_idle_check, m)?)?;
    m.add_function(wrap_pyfunction!(live_check_text, m)?)?;
    m.add_function(wrap_pyfunction!(live_check_html, m)?)?;
    Ok(())
}
