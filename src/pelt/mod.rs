//! PELT and util_est replayed bit-exactly: the scheduler's utilization signals with the
//! kernel's integer math (Linux 6.12 kernel/sched/pelt.c, pelt.h, sched-pelt.h, fair.c,
//! cpufreq_schedutil.c), checked against the golden outputs of those files compiled in
//! userspace (docs/pelt.md).
//!
//! - [`consts`]: the `y^n` inverse table, `LOAD_AVG_MAX`, the dividers.
//! - [`signal`]: `decay_load`, `accumulate_sum`, `___update_load_sum`/`___update_load_avg`.
//! - [`clock`]: the PELT clock, capacity/frequency invariance and lost idle time.
//! - [`kernel`]: the kernel version a replay follows (4.19's scaled contributions or the PELT clock).
//! - [`util_est`]: the util_est rules by kernel version ([`util_est::UtilEstRule`]).
//! - [`cpu_util`]: `cpu_util_cfs`, `cpu_util_cfs_boost`, `cpu_util_without`/`cpu_util_wake`.
//! - [`schedutil`]: util → performance level → frequency.
//! - [`trace`]: the R/W/S segment trace and its CSV format.
//! - [`sequence`]: the kernel events a trace produces, in order, for any [`sequence::Model`].
//! - [`driver`]: the single-task, single-CPU event driver ([`driver::simulate`]).
//! - [`util_only`]: the same replay keeping only the task's util_avg side (a third of the work).
//! - [`full_capacity`]: [`util_only`]'s model when every capacity is 1024 (the PELT clock is the task clock).
//! - [`speculate`]: [`util_only`] split across threads by speculation, verified exactly.
//! - [`row`]: the per-event rows, their columns and the golden-identical CSV writer.
//! - [`task_events`]: a task's events read from ftrace text or a trace.dat.
//! - [`import_order`]: the importer's model of their order (the state machine).
//! - [`segment_builder`]: the segments it makes, handed on as they are final.
//! - [`ftrace`]: a task's trace from `sched_switch`/`sched_wakeup` text or a trace.dat.
//! - [`proc_sched`], [`task_clock`]: `/proc/PID/sched` readings, and the task's updates
//!   placed on its PELT clock (shared with the live check).
//! - [`cpu_capacity`]: each CPU's capacity and frequency capacity for [`ftrace`] (given, plat-info, sysfs, the trace's frequency events).

pub mod clock;
pub mod clock_import;
pub mod columns;
pub mod consts;
pub mod cpu_capacity;
pub mod cpu_util;
pub mod directives;
pub mod driver;
pub mod freq_pass;
pub mod ftrace;
pub mod full_capacity;
pub mod import_order;
pub mod kernel;
pub mod proc_sched;
pub mod row;
pub mod schedutil;
pub mod segment_builder;
pub mod sequence;
pub mod signal;
pub mod speculate;
pub mod task_clock;
pub mod task_events;
pub mod trace;
pub mod util_est;
pub mod util_model;
pub mod util_only;

pub use driver::{simulate, simulate_rows, Config, Init};
pub use kernel::{kernel_by_name, Invariance, Kernel};
pub use row::{CsvWriter, Event, Row, Sink};
pub use signal::{accumulate_pelt_segments, decay_load, SchedAvg};
pub use trace::{parse_trace_csv, read_trace_csv, Segment, State};
pub use util_est::{rule_by_name, TaskUtilEst, UtilEstRule};
