//! The live check: a task recorded on the running kernel (a trace and its
//! `/proc/PID/sched` readings) replayed with schedlab's kernel math and compared with
//! what the kernel itself computed (docs/live.md).
//!
//! - [`proc_sched`]: `/proc/PID/sched` readings.
//! - [`task_events`]: the task's scheduler events and the ticks, from ftrace text.
//! - [`task_clock`]: the kernel's update points of the task on its PELT clock.
//! - [`pelt_check`]: the replay from a reading's state and the comparison.

pub mod pelt_check;
pub mod proc_sched;
pub mod task_clock;
pub mod task_events;
