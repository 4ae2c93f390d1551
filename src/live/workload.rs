//! The recorded task when the recording starts it: the built-in periodic pattern or a
//! command, run by a Python interpreter child pinned to the task's CPU with the
//! recorder's own scheduling policy and nice value, which waits for one byte on its
//! standard input before it starts (so tracing is on before its first run;
//! docs/live.md §1).

use super::thread_sched::{set_nice, CpuSet, Policy};
use crate::error::{Error, Result};
use std::io::Write;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};

/// What a recording follows.
#[derive(Debug, Clone, PartialEq)]
pub enum Workload {
    /// Busy `busy_ms`, sleep `sleep_ms`, for `seconds`.
    Periodic { seconds: f64, busy_ms: f64, sleep_ms: f64 },
    /// A command (program and arguments), run until it exits.
    Command(Vec<String>),
    /// A running task, followed for the recording's seconds.
    Pid(u32),
}

impl Workload {
    /// What a recording follows given its options: the running `pid` when given, else
    /// `command` when not empty, else the periodic pattern. Durations must be finite and
    /// not negative.
    pub fn choose(
        pid: Option<u32>,
        command: Option<&[String]>,
        seconds: f64,
        busy_ms: f64,
        sleep_ms: f64,
    ) -> Result<Workload> {
        for (name, v) in [("seconds", seconds), ("busy_ms", busy_ms), ("sleep_ms", sleep_ms)] {
            if !(v.is_finite() && v >= 0.0) {
                return Err(Error::domain(format!("{name} must be a finite number ≥ 0, got {v}")));
            }
        }
        Ok(match (pid, command) {
            (Some(pid), _) => Workload::Pid(pid),
            (None, Some(argv)) if !argv.is_empty() => Workload::Command(argv.to_vec()),
            _ => Workload::Periodic { seconds, busy_ms, sleep_ms },
        })
    }
}

/// The pattern's Python code: wait for a byte, then busy-loop `busy` s and sleep
/// `sleep` s until `seconds` have passed.
pub fn periodic_code(seconds: f64, busy_ms: f64, sleep_ms: f64) -> String {
    format!(
        "import sys, time\nsys.stdin.read(1)\nend = time.monotonic() + {:?}\nwhile time.monotonic() < end:\n    \
         t = time.perf_counter()\n    while time.perf_counter() - t < {:?}: pass\n    time.sleep({:?})\n",
        seconds,
        busy_ms / 1000.0,
        sleep_ms / 1000.0
    )
}

/// The command's Python code: wait for a byte, then exec the command (same pid).
const EXEC_CODE: &str = "import os, sys\nsys.stdin.read(1)\nos.execvp(sys.argv[1], sys.argv[1:])\n";

/// A started task, killed (and reaped) on drop if it still runs.
pub struct Task {
    child: Child,
    start: Option<ChildStdin>,
}

impl Task {
    /// Start `workload` (not [`Workload::Pid`]) with interpreter `python`, pinned to
    /// `pin`, with `policy` and `nice` (the recorder's own before it went `SCHED_FIFO`).
    pub fn spawn(python: &Path, workload: &Workload, pin: CpuSet, policy: Policy, nice: i32) -> Result<Task> {
        let mut cmd = Command::new(python);
        match workload {
            Workload::Periodic { seconds, busy_ms, sleep_ms } => {
                cmd.arg("-c").arg(periodic_code(*seconds, *busy_ms, *sleep_ms));
            }
            Workload::Command(argv) => {
                cmd.arg("-c").arg(EXEC_CODE).args(argv);
            }
            Workload::Pid(pid) => return Err(Error::domain(format!("pid {pid} runs already: nothing to start"))),
        }
        cmd.stdin(Stdio::piped());
        // SAFETY: between fork and exec the child only makes system calls on values
        // prepared here (no allocation, no lock).
        unsafe {
            cmd.pre_exec(move || {
                pin.apply()?;
                policy.apply()?;
                set_nice(nice)
            });
        }
        let mut child = cmd.spawn().map_err(|e| Error::io(python, &e))?;
        let start = child.stdin.take();
        Ok(Task { child, start })
    }

    /// The task's pid.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Let the task start (one byte on its standard input, which is then closed).
    pub fn start(&mut self) {
        if let Some(mut w) = self.start.take() {
            let _ = w.write_all(b"g");
        }
    }

    /// Whether the task has exited.
    pub fn exited(&mut self) -> bool {
        !matches!(self.child.try_wait(), Ok(None))
    }
}

impl Drop for Task {
    fn drop(&mut self) {
        if !self.exited() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pid_wins_over_a_command_over_the_pattern() {
        let argv = vec!["sleep".to_string(), "1".to_string()];
        assert_eq!(Workload::choose(Some(7), Some(&argv), 1.0, 3.0, 5.0).unwrap(), Workload::Pid(7));
        assert_eq!(Workload::choose(None, Some(&argv), 1.0, 3.0, 5.0).unwrap(), Workload::Command(argv.clone()));
        let periodic = Workload::Periodic { seconds: 1.0, busy_ms: 3.0, sleep_ms: 5.0 };
        assert_eq!(Workload::choose(None, Some(&[]), 1.0, 3.0, 5.0).unwrap(), periodic);
        assert_eq!(Workload::choose(None, None, 1.0, 3.0, 5.0).unwrap(), periodic);
        let e = Workload::choose(None, None, f64::NAN, 3.0, 5.0).unwrap_err().to_string();
        assert_eq!(e, "seconds must be a finite number ≥ 0, got NaN");
        assert!(Workload::choose(None, None, 1.0, 3.0, -1.0).is_err());
    }

    #[test]
    fn the_pattern_is_busy_then_asleep_in_seconds() {
        let code = periodic_code(1.0, 3.0, 5.0);
        assert_eq!(
            code,
            "import sys, time\nsys.stdin.read(1)\nend = time.monotonic() + 1.0\nwhile time.monotonic() < end:\n    \
             t = time.perf_counter()\n    while time.perf_counter() - t < 0.003: pass\n    time.sleep(0.005)\n"
        );
        assert!(periodic_code(1.5, 0.5, 0.3).contains("< 0.0005: pass\n    time.sleep(0.0003)"));
    }
}
