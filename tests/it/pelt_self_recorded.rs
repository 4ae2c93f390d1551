//! The import on the PELT clock (docs/pelt.md §12) against the kernel's own values: two
//! recordings of a task that logged its own /proc/self/sched (tests/data/live/self-a,
//! self-b), imported and replayed through the core's API with nothing given but the
//! trace, each reading compared with the replay row of the same `last_update_time`.

use schedlab::import_notes::ImportOptions;
use schedlab::pelt::cpu_capacity::Platform;
use schedlab::pelt::ftrace::{read_ftrace, Start};
use schedlab::pelt::kernel::{config_for, Options};

fn check(name: &str, pid: u32) -> (usize, usize, usize, usize) {
    let dir = std::path::Path::new("tests/data/live").join(name);
    let t = read_ftrace(&dir.join("trace.dat"), pid, &Platform::default(), ImportOptions::default()).unwrap();
    assert!(matches!(t.start, Start::Snapshot(_)), "{:?}", t.notes);
    assert_eq!(t.kernel, Some("6.18"));
    assert!(t.segments.iter().any(|s| s.tick), "the kernel's ticks are in the segments");
    let d = t.directives();
    let o = Options {
        kernel: None,
        init: None,
        util_est: true,
        rule: None,
        execl_fix: None,
        tick_ns: 4_000_000,
        start_ns: None,
        given: None,
    };
    let cfg = config_for(&o, &d).unwrap();
    assert_eq!(cfg.rule.name(), "6.18");
    let rows = schedlab::pelt::simulate_rows(&t.segments, &cfg).unwrap();
    let text = std::fs::read_to_string(dir.join("sched.txt")).unwrap();
    let mut readings = schedlab::pelt::proc_sched::parse_samples(&text, None).unwrap();
    readings.dedup_by_key(|s| s.last_update_time);
    let start = rows[0].p_last_update_time;
    let (mut n, mut within, mut exact, mut ue) = (0, 0, 0, 0);
    for s in readings.iter().filter(|s| s.last_update_time > start) {
        n += 1;
        let Some(r) = rows.iter().rev().find(|r| r.p_last_update_time == s.last_update_time) else { continue };
        let d = s.util_avg.abs_diff(r.p_util_avg);
        within += usize::from(d <= 1);
        exact += usize::from(d == 0);
        ue += usize::from(s.util_est == u64::from(r.p_util_est));
    }
    (n, within, exact, ue)
}

#[test]
fn every_reading_within_one_and_util_est_exact() {
    // recorded here (tests/data/live/README.md): self-a 59 distinct readings after the start
    // reading, self-b 408 (counted by hand in tests/test_pelt_self_recorded.py); every one within ±1 of the kernel's util_avg and its util_est exact
    for (name, pid, readings) in [("self-a", 21678, 59), ("self-b", 20319, 408)] {
        let (n, within, exact, ue) = check(name, pid);
        println!("{name}: util_avg within 1 {within}/{n} (exact {exact}), util_est {ue}/{n}");
        assert_eq!((n, within, ue), (readings, readings, readings), "{name}");
    }
}
