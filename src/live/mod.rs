//! The live check: a task recorded on the running kernel (a trace and its
//! `/proc/PID/sched` readings) replayed with schedlab's kernel math and compared with
//! what the kernel itself computed (docs/live.md).
//!
//! - [`proc_sched`]: `/proc/PID/sched` readings.
//! - [`task_clock`]: the kernel's update points (from the task's events as
//!   [`crate::pelt::ftrace::read_task_events`] reads them) of the task on its PELT clock.
//! - [`pelt_check`]: the replay from a reading's state and the comparison.
//! - [`idle_check`]: a cpuidle governor's replay against the kernel's choices.
//! - [`record`]: a recording on the running kernel (root, tracefs, trace-cmd), from the
//!   parts [`tracefs`], [`events`], [`cpuidle_sysfs`], [`probe`], [`thread_sched`],
//!   [`workload`], [`sampler`], [`extract`], [`kernel_config`], with [`restore`] undoing
//!   what it changed (SIGTERM a stop request meanwhile: [`crate::stop_signal`]);
//!   [`sys_file`] reads and writes the kernel's files.
//! - [`record_set`]: N recordings per group of settings ([`setting`]: governor, latency
//!   request, a disabled idle state), each trace bracketed by every CPU's cpuidle counters.
//! - [`check`]: both checks on a recording directory, into one [`summary::LiveCheck`]
//!   (what Python returns), rendered as text ([`text`]) and HTML ([`html`]).

pub mod check;
pub mod cpuidle_sysfs;
pub mod events;
pub mod extract;
pub mod html;
pub mod idle_check;
pub mod kernel_config;
pub mod pelt_check;
pub mod probe;
pub mod proc_sched;
pub mod record;
pub mod record_set;
pub mod restore;
pub mod sampler;
pub mod setting;
pub mod summary;
pub mod sys_file;
pub mod task_clock;
pub mod text;
pub mod thread_sched;
pub mod tracefs;
pub mod workload;
