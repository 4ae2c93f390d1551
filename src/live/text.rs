//! The live check as the text `schedlab live` prints (docs/live.md §7).

use super::summary::{or_none, share, LiveCheck};

/// What limits the tick-stop agreement, printed under it.
pub const TICK_LIMIT: &str = "tick_nohz_next_event also waits for timer-wheel timers, RCU callbacks and irq_work, which the replay's sleep length (hrtimers only) does not see";

/// The (kernel state, replay state) pairs in words.
pub fn confusion_words(c: &[(u32, u32, u64)]) -> String {
    c.iter().map(|(k, r, n)| format!("kernel {k} / replay {r}: {n}")).collect::<Vec<_>>().join(", ")
}

/// The check in one line (Python's `repr()` of a `LiveCheck`): pid, CPU, the PELT
/// figures and the idle periods.
pub fn repr_line(c: &LiveCheck) -> String {
    let (m, p, i) = (&c.meta, &c.pelt, &c.idle);
    format!(
        "<LiveCheck pid {} on CPU {}: util_avg within ±1 {}/{}, util_est exact {}/{}, {} idle periods>",
        m.pid, m.cpu, p.util_within_1, p.readings, p.util_est_exact, p.readings, i.periods
    )
}

/// The text, one figure a line.
pub fn text(c: &LiveCheck) -> String {
    let (m, p, i) = (&c.meta, &c.pelt, &c.idle);
    let n = p.readings;
    let mut lines = vec![
        format!("live check: pid {} on CPU {}, Linux {}, HZ={}", m.pid, m.cpu, m.kernel, or_none(m.hz.as_ref())),
        format!(
            "PELT util_avg within ±1 of the kernel's: {}; exact {}; max |error| {}",
            share(p.util_within_1, n),
            share(p.util_exact, n),
            p.util_max_error
        ),
        format!("util_est exact: {}", share(p.util_est_exact, n)),
        format!(
            "  readings compared: {n} distinct last_update_time after the starting one (start {}); update points {}: runs {} (anchored exactly {}, switch-in missing {}), ticks {}, seen only in /proc {}",
            p.start_last_update_time, p.points, p.runs, p.anchored_runs, p.repaired_runs, p.tick_points, p.seen_only_points
        ),
    ];
    let governor = or_none(i.governor.as_ref());
    if i.periods > 0 {
        lines.push(format!(
            "{} vs the kernel's {governor}: state choices {} of the idle periods traced on CPU {} (sysfs counted {} entries; driver {})",
            or_none(i.replayed.as_ref()),
            share(i.agree, i.periods),
            i.cpu,
            i.sysfs_entries,
            or_none(i.driver.as_ref())
        ));
        lines.push(format!(
            "  (kernel state, replay state): {}; disagreements in the first 8 periods (no history yet) {}, with an assumed sleep length {}",
            confusion_words(&i.confusion),
            i.cold_start_disagree,
            i.unknown_sleep_disagree
        ));
        lines.push(format!(
            "tick stop: {} of the periods entered with the tick running; kernel stopped, replay kept {}; replay stopped, kernel kept {} ({} ended by a timer within a tick); already stopped {}",
            share(i.tick_agree, i.tick_decided),
            i.tick_kernel_only,
            i.tick_replay_only,
            i.tick_replay_only_timer_within_tick,
            i.tick_already_stopped
        ));
        lines.push(format!("  what limits it: {TICK_LIMIT}"));
    } else {
        lines.push(format!(
            "idle: no idle period traced on CPU {} (sysfs counted {} entries; the kernel's governor {governor})",
            i.cpu, i.sysfs_entries
        ));
    }
    lines.extend(i.notes.iter().chain(&c.notes).map(|x| format!("note: {x}")));
    lines.join("\n") + "\n"
}
