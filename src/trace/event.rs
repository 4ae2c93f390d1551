//! The events the metrics pass reads, one model for every input (trace.dat records,
//! `trace-cmd report` / tracefs text, `perf script`): what each scheduler, idle and
//! frequency event says, with the task names the metrics group tasks by
//! (docs/trace-compare.md §2).

/// A task name as the kernel keeps it: `TASK_COMM_LEN` = 16 bytes with the NUL, so at
/// most 15 bytes (a longer name read from text is cut there, as the kernel cuts it).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Comm {
    len: u8,
    bytes: [u8; 15],
}

impl Comm {
    /// The name of `b` up to its first NUL, cut at 15 bytes.
    pub fn new(b: &[u8]) -> Comm {
        let b = b.split(|&c| c == 0).next().unwrap_or_default();
        let mut c = Comm::default();
        let n = b.len().min(15);
        for (d, s) in c.bytes.iter_mut().zip(b.iter().take(n)) {
            *d = *s;
        }
        c.len = n as u8;
        c
    }

    /// The name's bytes.
    pub fn as_bytes(&self) -> &[u8] {
        self.bytes.get(..usize::from(self.len)).unwrap_or_default()
    }

    /// The name as text (bytes that are not UTF-8 replaced).
    pub fn to_text(&self) -> String {
        String::from_utf8_lossy(self.as_bytes()).into_owned()
    }

    /// True when no name is known.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl std::fmt::Debug for Comm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.to_text())
    }
}

/// The state `sched_switch` leaves its previous task in (`prev_state`), as the kernel
/// counts the switch (`__schedule()`: a task switched out while `TASK_RUNNING` is an
/// involuntary switch, `nivcsw`; any other state a voluntary one, `nvcsw`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PrevState {
    /// Still runnable (`R`, or `R+` after a preemption): it waits on the run queue.
    pub runnable: bool,
    /// The kernel's preemption mark (`R+`: `TASK_REPORT_MAX`, or `TASK_STATE_MAX` before 4.14).
    pub preempted: bool,
    /// `TASK_UNINTERRUPTIBLE` (`D`): perf sched timehist counts its wait as I/O wait.
    pub uninterruptible: bool,
    /// The task exited (`X`, `Z`).
    pub dead: bool,
    /// The kernel's number when the input gave one (trace.dat, `-R` text).
    pub raw: Option<u64>,
}

/// Which wakeup event woke a task (docs/trace-compare.md §3.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WakeKind {
    /// `sched_waking`: the waker's `try_to_wake_up()` begins (what `perf sched record`
    /// records when the kernel has it).
    Waking,
    /// `sched_wakeup`: the task is runnable.
    Wakeup,
    /// `sched_wakeup_new`: a new task is runnable for the first time.
    New,
}

/// What one event says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `sched_switch`.
    Switch {
        /// `prev_pid`.
        prev_pid: i32,
        /// `prev_comm`.
        prev_comm: Comm,
        /// `prev_state`.
        prev_state: PrevState,
        /// `next_pid`.
        next_pid: i32,
        /// `next_comm`.
        next_comm: Comm,
    },
    /// `sched_waking`, `sched_wakeup` or `sched_wakeup_new`.
    Wakeup {
        /// `pid`.
        pid: i32,
        /// `comm`.
        comm: Comm,
        /// `target_cpu`, when the event has it.
        target_cpu: Option<u32>,
        /// Which event.
        kind: WakeKind,
    },
    /// `sched_migrate_task`.
    Migrate {
        /// `pid`.
        pid: i32,
        /// `orig_cpu`.
        orig_cpu: Option<u32>,
        /// `dest_cpu`.
        dest_cpu: Option<u32>,
    },
    /// `sched_stat_runtime`: `runtime` ns of task clock since the task's last update.
    Runtime {
        /// `pid`.
        pid: i32,
        /// `runtime`, ns.
        runtime: u64,
    },
    /// `cpu_idle`: `state` entered (`None`: `PWR_EVENT_EXIT`, the CPU left idle).
    Idle {
        /// `cpu_id`.
        cpu: u32,
        /// The state index, `None` for the exit.
        state: Option<u32>,
    },
    /// `cpu_idle_miss` (Linux 6.1+): the cpuidle core counted `above` (`below` false) or
    /// `below` for the state just left.
    IdleMiss {
        /// `cpu_id`.
        cpu: u32,
        /// `state`.
        state: u32,
        /// `below` (a deeper state would have fit); false: `above` (too deep).
        below: bool,
    },
    /// `cpu_frequency` (or LISA's `cpu_frequency_devlib` marker, a snapshot).
    Frequency {
        /// `cpu_id`.
        cpu: u32,
        /// `state`, kHz.
        khz: u64,
    },
    /// `tick_stop` on the event's CPU.
    TickStop {
        /// `success`.
        success: bool,
    },
    /// A task entity's PELT signals as the kernel traced them (`sched_pelt_se`,
    /// `sched_load_se`, `sched_util_est_se`): the fields the event has.
    Pelt {
        /// `pid` (-1 for a group entity).
        pid: i32,
        /// `util` (`se.avg.util_avg`).
        util: Option<u64>,
        /// `enqueued` and `ewma` of `util_est`.
        util_est: Option<(u64, u64)>,
    },
}

/// One event of a trace, in time order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Event {
    /// Trace clock, ns.
    pub ts: u64,
    /// The CPU whose buffer recorded it.
    pub cpu: u32,
    /// Where it was read: a line of text, or a trace.dat record number.
    pub line: usize,
    /// What it says.
    pub kind: Kind,
}

/// A ring buffer that overflowed: events of `cpu` were lost before the event at `ts`
/// (read at `line`); `count` when the buffer stored how many.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Loss {
    /// The CPU whose buffer lost them.
    pub cpu: u32,
    /// The first event after the loss (trace clock, ns).
    pub ts: u64,
    /// The line or record of that event.
    pub line: usize,
    /// How many were lost, when known.
    pub count: Option<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comm_stops_at_nul_and_at_15_bytes() {
        assert_eq!(Comm::new(b"sh\0garbage").to_text(), "sh");
        assert_eq!(Comm::new(b"0123456789abcdefgh").to_text(), "0123456789abcde");
        assert!(Comm::new(b"").is_empty());
    }
}
