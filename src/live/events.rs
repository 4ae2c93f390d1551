//! The trace events a recording enables in its instance, and the pid filters of the
//! task's own scheduler events (docs/live.md §1).

/// The events recorded, as `system/event` under the instance's `events/`.
pub const EVENTS: [&str; 13] = [
    "sched/sched_switch",
    "sched/sched_wakeup",
    "sched/sched_wakeup_new",
    "sched/sched_migrate_task",
    "sched/sched_stat_runtime",
    "power/cpu_idle",
    "timer/hrtimer_start",
    "timer/hrtimer_cancel",
    "timer/hrtimer_expire_entry",
    "timer/tick_stop",
    "timer/timer_start",
    "timer/timer_cancel",
    "timer/timer_expire_entry",
];

/// The filter of `event` keeping only task `pid`'s records (the five scheduler events
/// naming a task), None for the others (recorded whole on the task's CPU).
pub fn pid_filter(event: &str, pid: u32) -> Option<String> {
    match event {
        "sched/sched_switch" => Some(format!("prev_pid == {pid} || next_pid == {pid}")),
        "sched/sched_wakeup" | "sched/sched_wakeup_new" | "sched/sched_migrate_task" | "sched/sched_stat_runtime" => {
            Some(format!("pid == {pid}"))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_task_events_are_filtered_to_its_pid() {
        assert_eq!(pid_filter("sched/sched_switch", 42).unwrap(), "prev_pid == 42 || next_pid == 42");
        assert_eq!(pid_filter("sched/sched_stat_runtime", 42).unwrap(), "pid == 42");
        assert_eq!(pid_filter("power/cpu_idle", 42), None);
        assert_eq!(EVENTS.iter().filter(|e| pid_filter(e, 1).is_some()).count(), 5);
    }
}
