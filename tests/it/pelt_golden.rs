//! The PELT/util_est golden files of the kernel oracle (tests/data/pelt: the kernel's own
//! pelt.c/fair.c compiled unmodified in userspace by tools/oracles/kernel; MANIFEST.txt
//! names the sources; goldens.csv lists each golden with its kernels, trace and options):
//! every value must be reproduced exactly. The top-level files are
//! 6.12.117's; `6.6/` holds 6.6.57's; 6.18.35's scenario files are byte-identical to
//! 6.12's (compared with cmp when they were made: MANIFEST.txt), so only its
//! `util_est_update.csv` differs and is kept. `4.19/` holds 4.19.72's: the PELT of
//! scaled contributions on the unscaled clock (docs/pelt.md §9), replayed with
//! `--kernel 4.19`; its decay golden is byte-identical to 6.12's.

use schedlab::pelt::driver::{simulate, Config, Init};
use schedlab::pelt::row::CsvWriter;
use schedlab::pelt::signal::{decay_load, SchedAvg};
use schedlab::pelt::trace::read_trace_csv;
use schedlab::pelt::util_est::{rule_by_name, Sample, TaskUtilEst, UTIL_AVG_UNCHANGED_MSB};
use std::path::PathBuf;

fn data(name: &str) -> PathBuf {
    crate::goldens::dir("pelt").join(name)
}

fn csv_rows(name: &str) -> (Vec<String>, Vec<Vec<u64>>) {
    let text = std::fs::read_to_string(data(name)).unwrap();
    let mut lines = text.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(str::to_string).collect();
    let rows = lines.map(|l| l.split(',').map(|f| f.parse::<u64>().unwrap()).collect()).collect();
    (header, rows)
}

#[test]
fn decay_load_golden() {
    let (h, rows) = csv_rows("pelt_decay_load.csv");
    assert_eq!(h, ["val", "n", "decay_load"]);
    assert!(rows.len() > 3000);
    for r in &rows {
        assert_eq!(decay_load(r[0], r[1]), r[2], "decay_load({}, {})", r[0], r[1]);
    }
}

#[test]
fn accumulate_golden() {
    let (h, rows) = csv_rows("pelt_accumulate.csv");
    assert_eq!(
        h,
        [
            "step",
            "delta_ns",
            "load",
            "runnable",
            "running",
            "ret_sum",
            "ret_avg",
            "last_update_time",
            "load_sum",
            "runnable_sum",
            "util_sum",
            "period_contrib",
            "load_avg",
            "runnable_avg",
            "util_avg"
        ]
    );
    assert_eq!(rows.len(), 20000);
    // One sched_avg, zeroed, clock at 1000 periods; `now` advances by delta_ns.
    let mut now: u64 = 1_048_576_000;
    let mut sa = SchedAvg::at(now);
    for r in &rows {
        now += r[1];
        let ret = sa.update_load_sum(now, r[2], r[3], r[4] != 0);
        if ret {
            sa.update_load_avg(1024);
        }
        let got = [
            u64::from(ret),
            u64::from(ret),
            sa.last_update_time,
            sa.load_sum,
            sa.runnable_sum,
            u64::from(sa.util_sum),
            u64::from(sa.period_contrib),
            sa.load_avg,
            sa.runnable_avg,
            sa.util_avg,
        ];
        assert_eq!(&got[..], &r[5..], "step {}", r[0]);
    }
}

#[test]
fn util_est_update_golden() {
    for (rule, file) in [("6.12", "util_est_update.csv"), ("6.18", "6.18/util_est_update.csv")] {
        let (h, rows) = csv_rows(file);
        assert_eq!(
            h,
            ["step", "cpu_cap", "ewma_in", "flag_in", "util_avg", "runnable_avg", "task_sleep", "ewma_out", "flag_out"]
        );
        assert_eq!(rows.len(), 20000);
        let rule = rule_by_name(rule).unwrap();
        for r in &rows {
            let mut ue =
                TaskUtilEst { ewma: r[2] as u32 | if r[3] != 0 { UTIL_AVG_UNCHANGED_MSB } else { 0 }, enqueued: 0 };
            rule.update(&mut ue, r[6] != 0, Sample { util_avg: r[4], runnable_avg: r[5], cpu_cap: r[1] });
            let got = (u64::from(rule.ewma(&ue)), u64::from(rule.unchanged(&ue)));
            assert_eq!(got, (r[7], r[8]), "{file} step {}", r[0]);
        }
    }
}

#[test]
fn util_est_update_golden_6_6() {
    let (h, rows) = csv_rows("6.6/util_est_update.csv");
    assert_eq!(
        h,
        [
            "step",
            "cpu_cap",
            "ewma_in",
            "flag_in",
            "enqueued_in",
            "util_avg",
            "runnable_avg",
            "task_sleep",
            "ewma_out",
            "flag_out",
            "enqueued_out"
        ]
    );
    assert_eq!(rows.len(), 20000);
    let rule = rule_by_name("6.6").unwrap();
    for r in &rows {
        let flag = if r[3] != 0 { UTIL_AVG_UNCHANGED_MSB } else { 0 };
        let mut ue = TaskUtilEst { ewma: r[2] as u32, enqueued: r[4] as u32 | flag };
        rule.update(&mut ue, r[7] != 0, Sample { util_avg: r[5], runnable_avg: r[6], cpu_cap: r[1] });
        let got =
            (u64::from(ue.ewma), u64::from(rule.unchanged(&ue)), u64::from(ue.enqueued & !UTIL_AVG_UNCHANGED_MSB));
        assert_eq!(got, (r[8], r[9], r[10]), "step {}", r[0]);
    }
}

fn replay(trace: &str, init: Init, util_est: bool, rule: &str) -> String {
    let segs = read_trace_csv(&data(trace)).unwrap();
    let cfg = if rule == "4.19" {
        // the kernel choice: its PELT, its util_est rule (d519329f72) and execl fix
        let init = if init == Init::Zero { "zero" } else { "kernel" };
        let c = schedlab::pelt::kernel::config(&schedlab::pelt::kernel::Options {
            kernel: Some("4.19"),
            init: Some(init),
            util_est,
            rule: None,
            execl_fix: None,
            tick_ns: 4_000_000,
            start_ns: Some(1_048_576_000),
            given: None,
        });
        c.unwrap()
    } else {
        Config { init, util_est, rule: rule_by_name(rule).unwrap(), ..Config::default() }
    };
    let rule = cfg.rule;
    let mut w = CsvWriter::new(Vec::new(), rule.has_enqueued(), "<memory>").unwrap();
    simulate(&segs, &cfg, &mut w).unwrap();
    String::from_utf8(w.finish().unwrap()).unwrap()
}

fn check_rule(trace: &str, golden: &str, init: Init, util_est: bool, rule: &str) {
    let want = std::fs::read_to_string(data(golden)).unwrap();
    let got = replay(trace, init, util_est, rule);
    if got != want {
        let (gl, wl): (Vec<&str>, Vec<&str>) = (got.lines().collect(), want.lines().collect());
        for (i, (g, w)) in gl.iter().zip(&wl).enumerate() {
            assert_eq!(g, w, "{golden} ({rule}): first difference at line {}", i + 1);
        }
        assert_eq!(gl.len(), wl.len(), "{golden}: row count");
        panic!("{golden}: differs (line ends?)");
    }
}

/// Every replay golden of tests/data/pelt/goldens.csv, replayed with the rule of every
/// kernel whose oracle wrote it (6.12's top-level files are 6.18's too; the migrations were
/// run on 6.12 and 4.19): the 6.12 scenarios, 6.6's, 4.19's (with the kernel choice).
#[test]
fn every_replay_golden_is_reproduced() {
    let mut checked = 0;
    for g in crate::goldens::read("pelt").iter().filter(|g| g.get("kind") == "replay") {
        let trace = g.get("trace");
        let init = match g.get("init") {
            "kernel" => Init::Kernel,
            "zero" => Init::Zero,
            other => panic!("{}: init {other}", g.file()),
        };
        for kernel in g.list("kernels") {
            check_rule(trace, g.file(), init, g.flag("util_est"), kernel);
            checked += 1;
        }
    }
    // 7 scenarios of 6.12 (as 6.12 and 6.18) and its migration; 7 of 6.6; 8 of 4.19
    assert_eq!(checked, 7 * 2 + 1 + 7 + 8);
}

/// The goldens of other kinds, each read by its own test above or below.
const CHECKED_BY_NAME: [&str; 7] = [
    "pelt_decay_load.csv",
    "pelt_accumulate.csv",
    "util_est_update.csv",
    "6.18/util_est_update.csv",
    "6.6/util_est_update.csv",
    "4.19/pelt_accumulate.csv",
    "4.19/util_est_update.csv",
];

#[test]
fn every_golden_of_the_manifest_is_checked() {
    let mut others: Vec<String> = crate::goldens::read("pelt")
        .iter()
        .filter(|g| g.get("kind") != "replay")
        .map(|g| g.file().to_string())
        .collect();
    others.sort();
    let mut named = CHECKED_BY_NAME.map(String::from).to_vec();
    named.sort();
    assert_eq!(others, named);
}

#[test]
fn accumulate_golden_4_19() {
    // 4.19's ___update_load_sum/___update_load_avg with random capacities at each step:
    // the contribution scaled by the frequency, util by the CPU capacity too
    use schedlab::pelt::signal::Scale;
    let (h, rows) = csv_rows("4.19/pelt_accumulate.csv");
    assert_eq!(h[5..7], ["cpu_cap", "freq_cap"]);
    assert_eq!(h[11], "runnable_load_sum");
    assert_eq!(rows.len(), 20000);
    let mut now: u64 = 1_048_576_000;
    let mut sa = SchedAvg::at(now);
    let mut scaled = 0;
    for r in &rows {
        now += r[1];
        let scale = Scale { cpu: r[5], freq: r[6] };
        scaled += usize::from(r[5] != 1024 || r[6] != 1024);
        let ret = sa.update_scaled(now, r[2], r[3], r[4] != 0, (1024, 1024), scale);
        let got = [
            u64::from(ret),
            u64::from(ret),
            sa.last_update_time,
            sa.load_sum,
            sa.runnable_sum, // runnable_load_sum
            u64::from(sa.util_sum),
            u64::from(sa.period_contrib),
            sa.load_avg,
            sa.runnable_avg,
            sa.util_avg,
        ];
        assert_eq!(&got[..], &r[7..], "step {}", r[0]);
    }
    assert!(scaled > 15000, "{scaled}");
}

#[test]
fn util_est_update_golden_4_19() {
    // 4.19's util_est_dequeue(task_sleep) is the d519329f72 rule (LSB flag)
    let (h, rows) = csv_rows("4.19/util_est_update.csv");
    assert_eq!(h[4], "enqueued_in");
    let rule = rule_by_name(schedlab::pelt::kernel::kernel_by_name("4.19").unwrap().rule).unwrap();
    for r in &rows {
        let mut ue = TaskUtilEst { ewma: r[2] as u32, enqueued: r[4] as u32 | u32::from(r[3] != 0) };
        rule.update(&mut ue, r[7] != 0, Sample { util_avg: r[5], runnable_avg: r[6], cpu_cap: r[1] });
        let got = (u64::from(ue.ewma), u64::from(rule.unchanged(&ue)), u64::from(ue.enqueued & !1));
        assert_eq!(got, (r[8], r[9], r[10]), "step {}", r[0]);
    }
}

#[test]
fn count_rows_is_exact() {
    use schedlab::pelt::driver::{count_rows, count_rows_by_event};
    use schedlab::pelt::row::Count;
    for trace in ["periodic25", "periodic50", "step10to80", "execl_like", "invariance"] {
        let segs = read_trace_csv(&data(&format!("inputs/pelt_{trace}.csv"))).unwrap();
        for tick_ns in [4_000_000, 1_000_000, 3_333_333] {
            let cfg = Config { tick_ns, ..Config::default() };
            let mut c = Count::default();
            simulate(&segs, &cfg, &mut c).unwrap();
            assert_eq!(count_rows(&segs, &cfg), c.0, "{trace} tick {tick_ns}");
            let rows = schedlab::pelt::simulate_rows(&segs, &cfg).unwrap();
            let by = count_rows_by_event(&segs, &cfg);
            for e in schedlab::pelt::Event::ALL {
                assert_eq!(by[e as usize], rows.iter().filter(|r| r.event == e).count() as u64, "{trace} {e:?}");
            }
        }
    }
}
