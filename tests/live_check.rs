//! The live check on recordings of this project's machine (tests/data/live/README.md):
//! the replay against the kernel's own `/proc/PID/sched` readings.

use schedlab::import_notes::ImportOptions;
use schedlab::live::pelt_check::{check_files, PeltCheck};
use schedlab::pelt::util_est::rule_by_name;
use std::path::Path;

fn dir(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/live").join(name)
}

fn check_trace(name: &str, trace: &str, pid: u32) -> PeltCheck {
    let d = dir(name);
    let rule = rule_by_name("6.12").unwrap();
    check_files(&d.join(trace), &d.join("sched.txt"), pid, rule, ImportOptions::default()).unwrap().0
}

fn check(name: &str, pid: u32) -> PeltCheck {
    check_trace(name, "report.txt", pid)
}

#[test]
fn loaded_fifo_from_trace_dat_matches_the_kernel_at_every_reading() {
    // recorded by tools/oracles/live/record.sh while both CPUs were busy with builds:
    // the SCHED_FIFO sampler kept 304 untorn readings, the trace.dat is read directly
    let r = check_trace("loaded-fifo", "trace.dat", 25705);
    let n = r.compared.len() as u64;
    assert_eq!(n, 303, "distinct readings after the first");
    assert!(r.util_within(1) * 100 >= 99 * n, "util_avg ±1 on {} of {n}", r.util_within(1));
    assert!(r.util_est_exact() * 100 >= 95 * n, "util_est on {} of {n}", r.util_est_exact());
    for c in &r.compared {
        assert_eq!(c.replay.last_update_time, c.kernel.last_update_time, "reading at line {}", c.kernel.line);
    }
    // every run but those a reading cannot name is placed exactly
    assert!(r.timeline.anchored_runs * 100 >= 90 * r.timeline.runs, "{:?}", r.timeline);
}

#[test]
fn loaded_fifo_idle_check_says_the_cpu_never_idled() {
    // the kernel's own count: the sysfs usage of CPU 1 did not move during the recording
    let d = dir("loaded-fifo");
    let usage = |f: &str| -> Vec<u64> {
        std::fs::read_to_string(d.join(f))
            .unwrap()
            .lines()
            .filter(|l| l.contains("/usage:"))
            .map(|l| l.rsplit(':').next().unwrap().parse().unwrap())
            .collect()
    };
    assert_eq!(usage("states.txt"), usage("states-after.txt"));
    let spec = schedlab::idle::governor::Spec::new("menu", "6.12").unwrap();
    let r = schedlab::live::idle_check::check_files(
        &d.join("trace.dat"),
        &d.join("states.txt"),
        1,
        spec,
        250,
        ImportOptions::default(),
    )
    .unwrap();
    assert!(r.check.is_none());
    // the trace holds the timer events but no cpu_idle record, and says so
    assert!(r.event_counts.iter().any(|(e, n)| e == "hrtimer_expire_entry" && *n > 0), "{:?}", r.event_counts);
    assert!(r.notes.assumptions.iter().any(|a| a.starts_with("no cpu_idle record")), "{:?}", r.notes);
}

#[test]
fn periodic_a_matches_the_kernel_at_every_reading() {
    let r = check("periodic-a", 12554);
    let n = r.compared.len() as u64;
    assert_eq!(n, 183, "distinct readings after the first");
    // the acceptance: util_avg within ±1 on >= 99 %, util_est exact on >= 95 %
    assert!(r.util_within(1) * 100 >= 99 * n, "util_avg ±1 on {} of {n}", r.util_within(1));
    assert!(r.util_est_exact() * 100 >= 95 * n, "util_est on {} of {n}", r.util_est_exact());
    // a run the VM recorded without its sched_switch is repaired, not fatal
    assert_eq!(r.timeline.repaired_runs, 1);
    // the replayed last_update_time is the kernel's wherever a point was placed exactly
    for c in &r.compared {
        assert_eq!(c.replay.last_update_time, c.kernel.last_update_time, "reading at line {}", c.kernel.line);
    }
}

#[test]
fn periodic_b_sparse_readings_still_within_one() {
    // 68 readings in 1.5 s (the sampler starved): 22 of 77 runs have no reading and are
    // placed by interpolation, which costs a few ±2 readings
    let r = check("periodic-b", 1941);
    let n = r.compared.len() as u64;
    assert_eq!(n, 68);
    assert!(r.util_within(1) * 100 >= 95 * n, "util_avg ±1 on {} of {n}", r.util_within(1));
    assert!(r.util_max_error() <= 2, "max error {}", r.util_max_error());
    assert_eq!(r.util_est_exact(), n);
}

#[test]
fn a_reading_from_another_task_is_refused() {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/live/periodic-a");
    let rule = rule_by_name("6.12").unwrap();
    let e = check_files(&d.join("report.txt"), &d.join("sched.txt"), 1, rule, ImportOptions::default()).unwrap_err();
    assert!(e.to_string().contains("no /proc/PID/sched reading falls on an update point"), "{e}");
}
