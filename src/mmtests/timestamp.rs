//! `tests-timestamp`, the log run-mmtests.sh keeps per iteration (`<run>/iter-N/tests-timestamp`):
//! which benchmarks ran, when, and with which exit code. Its lines, as run-mmtests.sh writes them:
//!
//! ```text
//! start :: 1700000000
//! test begin :: netperf-udp 1700000001
//! test end :: netperf-udp 1700000100 0
//! time :: netperf-udp 10.50 user 20.25 system 99.00 elapsed
//! finish :: 1700000200
//! ```
//!
//! (`time ::` is GNU time's `-f "time :: $TEST %U user %S system %e elapsed"`, the Duration
//! monitor's input; before MMTests 7cc7bac7 of 2024-06-05 `test end` had no exit code, and a
//! failed command's code is in GNU time's `Command exited with non-zero status N` line
//! before its `time ::` line). Other lines (`raid-create ::`, the `status ::` run-kvm.sh adds, lines of
//! older MMTests) are skipped, so a file of any era reads.

use super::logfile::{read_log, LogFile};
use crate::archive::tree::{join, Tree};

/// One benchmark's record in `tests-timestamp`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TestRecord {
    /// The benchmark (`$TEST`).
    pub benchmark: String,
    /// `test begin` time (seconds since the epoch).
    pub begin: Option<u64>,
    /// `test end` time.
    pub end: Option<u64>,
    /// The exit code of run-single-test.sh, from `test end`.
    pub exit_code: Option<i64>,
    /// User, system and elapsed seconds from `time ::`.
    pub time: Option<(f64, f64, f64)>,
}

/// What [`run_start`] is called in messages.
pub const START_SOURCE: &str = "the 'start' line of tests-timestamp";

/// The `start :: T` time of `log` (seconds since the epoch), its first such line.
pub fn start(log: &LogFile) -> Option<i64> {
    log.lines().find_map(|l| l.trim().strip_prefix("start :: ").and_then(|t| t.trim().parse().ok()))
}

/// When the run in directory `run_dir` (`work/log/<kernel>`) started: the earliest
/// [`start`] of its iterations' `iter-N/tests-timestamp`; None when no iteration
/// records one (or the run is of the 2018 layout, which keeps no such file).
pub fn run_start(tree: &dyn Tree, run_dir: &str) -> Option<i64> {
    let iters = tree.list(run_dir).ok()?;
    iters
        .iter()
        .filter(|n| n.starts_with("iter-"))
        .filter_map(|n| read_log(tree, &join(&join(run_dir, n), "tests-timestamp")).ok())
        .filter_map(|log| start(&log))
        .min()
}

/// Every benchmark `log` records, in the order they began.
pub fn parse(log: &LogFile) -> Vec<TestRecord> {
    let mut out: Vec<TestRecord> = Vec::new();
    // GNU time's own line before its `time ::` line when the command failed (MMTests
    // before 7cc7bac7 of 2024-06-05 kept the exit code only there)
    let mut time_status: Option<i64> = None;
    for line in log.lines() {
        if let Some(code) = line.trim().strip_prefix("Command exited with non-zero status ") {
            time_status = code.trim().parse().ok();
            continue;
        }
        let Some((key, rest)) = line.split_once(" :: ") else { continue };
        let f: Vec<&str> = rest.split_whitespace().collect();
        let Some(&bench) = f.first() else { continue };
        let idx = match out.iter().rposition(|r| r.benchmark == bench) {
            Some(i) if key != "test begin" => i,
            _ if matches!(key, "test begin" | "test end" | "time") => {
                out.push(TestRecord { benchmark: bench.to_string(), ..Default::default() });
                out.len() - 1
            }
            _ => continue,
        };
        let Some(rec) = out.get_mut(idx) else { continue };
        let num = |i: usize| f.get(i).and_then(|s| s.parse::<f64>().ok());
        match key {
            "test begin" => rec.begin = f.get(1).and_then(|s| s.parse().ok()),
            "test end" => {
                rec.end = f.get(1).and_then(|s| s.parse().ok());
                rec.exit_code = f.get(2).and_then(|s| s.parse().ok());
            }
            "time" => {
                if let (Some(u), Some(s), Some(e)) = (num(1), num(3), num(5)) {
                    rec.time = Some((u, s, e));
                }
                if rec.exit_code.is_none() {
                    rec.exit_code = time_status.take();
                }
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn real_layout() {
        // the lines run-mmtests.sh of 638401e0 writes (teststate_log), a failed second benchmark
        let text = "start :: 1700000000\ntest begin :: netperf-udp 1700000001\ntest end :: netperf-udp 1700000100 0\n\
                    time :: netperf-udp 10.50 user 20.25 system 99.00 elapsed\ntest begin :: hackbench-process-pipes 1700000101\n\
                    test end :: hackbench-process-pipes 1700000102 1\n\
                    time :: hackbench-process-pipes 0.00 user 0.01 system 1.00 elapsed\nfinish :: 1700000200\nstatus :: 0\n";
        let recs = parse(&LogFile { path: PathBuf::from("tests-timestamp"), text: text.into() });
        assert_eq!(recs.len(), 2);
        assert_eq!(recs[0].benchmark, "netperf-udp");
        assert_eq!((recs[0].begin, recs[0].end, recs[0].exit_code), (Some(1700000001), Some(1700000100), Some(0)));
        assert_eq!(recs[0].time, Some((10.5, 20.25, 99.0)));
        assert_eq!(recs[1].exit_code, Some(1));
        // MMTests 2020: no exit code on `test end`; GNU time's line says it
        let text = "start :: 1591989247\ntest begin :: iperf3 1591989249\ntest end :: iperf3 1591989256\n\
                    Command exited with non-zero status 255\n\
                    time :: iperf3 0.24 user 0.09 system 0.29 elapsed\nfinish :: 1591989256\nstatus :: 255\n";
        let recs = parse(&LogFile { path: PathBuf::from("tests-timestamp"), text: text.into() });
        assert_eq!((recs.len(), recs[0].end, recs[0].exit_code), (1, Some(1591989256), Some(255)));
        // the generated trees' one-line file has no benchmark records
        assert!(parse(&LogFile { path: PathBuf::new(), text: "start 1700000000\n".into() }).is_empty());
    }
}
