//! cpuidle governor simulation: the kernel's `menu` and `teo` governors of several
//! versions replayed bit-exactly over idle traces (docs/idle-governors.md).
//!
//! - [`states`]: idle-state tables (CSV, sysfs, presets) and the kernel's view of them;
//!   [`state_source`]: a table from a path, a preset name or columns.
//! - [`trace`]: idle traces and the idle-period model (docs/idle-governors.md §2.2) every replay uses.
//! - [`governor`]: the [`Governor`] trait, the kernel services it sees, version names.
//! - [`menu`], [`teo`]: one type per governor version behind the trait.
//! - [`replay`]: one CPU's replay, one period at a time (every driver below steps it).
//! - [`simulate`]: the replay drivers: collected, streamed as the golden CSV
//!   ([`golden_csv`]), many CPUs in parallel.
//! - [`summary`]: per-state usage/time/above/below, exit latency paid, energy.
//! - [`compare`]: several governors or versions over one trace, side by side.
//! - [`ftrace`]: idle traces from `trace-cmd report` / tracefs text or a trace.dat;
//!   [`ftrace_cpu`]: the importer's model of one CPU's event order (losses included);
//!   [`ftrace_import`]: the model of the whole trace's order, streaming the periods out.
//!   [`ftrace_replay`]: one CPU of a trace replayed as it is imported.
//! - [`synth`]: seeded synthetic idle patterns.

pub mod compare;
pub mod frame_columns;
pub mod ftrace;
pub mod ftrace_cpu;
pub mod ftrace_import;
pub mod ftrace_replay;
pub mod golden_csv;
pub mod governor;
pub mod menu;
pub mod replay;
pub mod simulate;
pub mod state_source;
pub mod states;
pub mod summary;
pub mod synth;
pub mod teo;
pub mod trace;

pub use governor::{Cpu, Family, Governor, Kernel, Spec};
pub use simulate::{
    simulate, simulate_columns, simulate_many, simulate_many_columns, write_csv, Simulation, COMMON_COLUMNS,
};
pub use states::{IdleState, StateTable};
pub use summary::{summarize, StateSummary};
pub use trace::{IdlePeriod, Tick};
