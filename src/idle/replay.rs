//! One CPU's replay, one idle period at a time: the idle-period model of
//! [`super::trace`] around a governor's `select()`/`reflect()`, in the kernel's order
//! (docs/idle-governors.md §2.2).
//!
//! [`Replay`] holds everything a replay carries from one period to the next (the
//! governor's state, the CPU's clock and last residency); [`Replay::step`] takes one
//! period and says what happened ([`Decision`]). Every front end drives it: the
//! collected [`super::simulate::Simulation`], the golden CSV streamed to a file
//! ([`super::golden_csv`]), the per-state counters and several governors side by side
//! ([`super::compare`]). [`replayer`] builds the replay of a governor version behind the
//! object-safe [`Step`], so that a driver of several governors steps each in turn
//! over one pass of the input.

use super::governor::{Cpu, Family, Governor, Kernel, Spec};
use super::menu::{MenuV4_18, MenuV4_19, MenuV4_20, MenuV6_1, MenuV6_12};
use super::states::{Drv, StateTable};
use super::teo::{TeoV5_1, TeoV6_1, TeoV6_12, TeoV6_18, TeoV6_6};
use super::trace::{outcome, IdlePeriod, Tick, BUSY_BETWEEN_PERIODS_NS};
use crate::choice::Choice;
use crate::error::{Error, Result};

/// What happened in one idle period: the governor's choice and how the period ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    /// The state entered.
    pub idx: u8,
    /// The governor's `stop_tick` output.
    pub stop_tick: bool,
    /// The period's length (the residency), ns.
    pub residency_ns: i64,
    /// The tick ended the period.
    pub got_tick: bool,
    /// The poll loop hit its time limit.
    pub poll_time_limit: bool,
    /// The period's `next_tick_ns` as the governor saw it: reduced into one tick period.
    pub next_tick_ns: i64,
}

/// The replay of one governor on one CPU (see the module docs).
pub struct Replay<G: Governor> {
    gov: G,
    cpu: Cpu,
    poll_limit_ns: i64,
}

impl<G: Governor> Replay<G> {
    /// A replay of `gov` (constructed for the table `drv`) at the tick `tick`, with no
    /// history.
    pub fn new(gov: G, drv: Drv, tick: Tick) -> Self {
        let poll_limit_ns = gov.poll_limit_ns(&drv, tick);
        Replay { gov, cpu: Cpu::new(drv, tick), poll_limit_ns }
    }

    /// One idle period: the governor selects, the model ends the period, the governor
    /// reflects; the CPU's clock advances by the period and the busy time after it.
    #[inline]
    pub fn step(&mut self, p: &IdlePeriod) -> Decision {
        let cpu = &mut self.cpu;
        let next_tick = cpu.tick.reduce(p.next_tick_ns);
        cpu.sleep_length_ns = p.sleep_length_ns;
        cpu.delta_next_ns = p.sleep_length_ns.min(next_tick);
        cpu.tick_stopped = p.tick_stopped;
        cpu.latency_req_raw_ns = p.latency_req_ns;
        cpu.nr_iowait = p.nr_iowait;
        cpu.cpu_load = p.cpu_load;

        let mut stop_tick = true;
        let idx = self.gov.select(cpu, &mut stop_tick).min(cpu.drv.count - 1);

        // Entering the state: poll_idle() clears the time-out flag, the model ends the
        // period, the cpuidle core records the residency.
        cpu.poll_time_limit = false;
        let polling = cpu.drv.polling.get(idx).copied().unwrap_or(false);
        let o = outcome(p, next_tick, stop_tick, polling.then_some(self.poll_limit_ns));
        cpu.poll_time_limit = o.poll_time_limit;
        cpu.got_tick = o.got_tick;
        cpu.last_residency_ns = o.end_ns;
        cpu.clock_ns = cpu.clock_ns.wrapping_add(o.end_ns as u64);
        self.gov.reflect(cpu, idx);
        cpu.clock_ns = cpu.clock_ns.wrapping_add(BUSY_BETWEEN_PERIODS_NS);
        Decision {
            idx: idx as u8, // idx < count ≤ MAX_STATES = 10
            stop_tick,
            residency_ns: o.end_ns,
            got_tick: o.got_tick,
            poll_time_limit: o.poll_time_limit,
            next_tick_ns: next_tick,
        }
    }
}

/// A replay whose governor type is chosen at run time ([`replayer`]).
pub trait Step: Send {
    /// [`Replay::step`].
    fn step(&mut self, p: &IdlePeriod) -> Decision;
    /// The names of the governor's state columns (the golden files' columns after the
    /// 12 common ones).
    fn columns(&self) -> Vec<String>;
    /// Append the governor's state after the last period (as many values as
    /// [`Step::columns`] names).
    fn write_columns(&self, out: &mut Vec<i64>);
}

impl<G: Governor> Step for Replay<G> {
    #[inline]
    fn step(&mut self, p: &IdlePeriod) -> Decision {
        Replay::step(self, p)
    }

    fn columns(&self) -> Vec<String> {
        self.gov.columns(&self.cpu.drv)
    }

    fn write_columns(&self, out: &mut Vec<i64>) {
        self.gov.write_columns(out);
    }
}

/// Call `f` with the replay of `spec` on `table` at `hz` as its own type (one
/// monomorphised loop per governor version, for the drivers that run one governor).
pub fn with_replay<T>(spec: Spec, table: &StateTable, hz: u32, f: impl ReplayFn<T>) -> Result<T> {
    let tick = Tick::new(hz)?;
    let drv = table.drv();
    match (spec.family, spec.kernel) {
        (Family::Menu, Kernel::V6_18) => f.call(Replay::new(MenuV6_12::v6_18(), drv, tick)),
        (Family::Menu, Kernel::V6_12) => f.call(Replay::new(MenuV6_12::new(), drv, tick)),
        (Family::Menu, Kernel::V6_6) => f.call(Replay::new(MenuV6_1::v6_6(), drv, tick)),
        (Family::Menu, Kernel::V6_1) => f.call(Replay::new(MenuV6_1::new(), drv, tick)),
        (Family::Menu, Kernel::V4_20) => f.call(Replay::new(MenuV4_20::new(), drv, tick)),
        (Family::Menu, Kernel::V4_19) => f.call(Replay::new(MenuV4_19::new(), drv, tick)),
        (Family::Menu, Kernel::V4_18) => f.call(Replay::new(MenuV4_18::new(), drv, tick)),
        (Family::Teo, Kernel::V6_18) => f.call(Replay::new(TeoV6_18::new(&drv), drv, tick)),
        (Family::Teo, Kernel::V6_12) => f.call(Replay::new(TeoV6_12::new(&drv), drv, tick)),
        (Family::Teo, Kernel::V6_6) => f.call(Replay::new(TeoV6_6::new(&drv), drv, tick)),
        (Family::Teo, Kernel::V6_1) => f.call(Replay::new(TeoV6_1::new(&drv), drv, tick)),
        (Family::Teo, Kernel::V5_1) => f.call(Replay::new(TeoV5_1::new(&drv), drv, tick)),
        (family, kernel) => {
            // Spec::new() refuses these; a Spec built by hand may still name one.
            Err(Error::domain(format!("{} is not available for kernel {kernel}", family.name())))
        }
    }
}

/// What [`with_replay`] calls: a function generic over the governor type (a closure
/// cannot be).
pub trait ReplayFn<T> {
    /// Run with the replay.
    fn call<G: Governor + 'static>(self, replay: Replay<G>) -> Result<T>;
}

/// The replay of `spec` on `table` at `hz`, behind [`Step`].
pub fn replayer(spec: Spec, table: &StateTable, hz: u32) -> Result<Box<dyn Step>> {
    struct Boxed;
    impl ReplayFn<Box<dyn Step>> for Boxed {
        fn call<G: Governor + 'static>(self, replay: Replay<G>) -> Result<Box<dyn Step>> {
            Ok(Box::new(replay))
        }
    }
    with_replay(spec, table, hz, Boxed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_boxed_replay_steps_as_the_typed_one() {
        let table = StateTable::preset("intel-skx").unwrap();
        let spec = Spec::new("teo", "6.12").unwrap();
        let mut boxed = replayer(spec, &table, 250).unwrap();
        let mut typed = Replay::new(TeoV6_12::new(&table.drv()), table.drv(), Tick::new(250).unwrap());
        for k in 0..200i64 {
            let p = IdlePeriod {
                sleep_length_ns: 30_000 + k * 7_919 % 3_000_000,
                next_tick_ns: 1 + k * 104_729 % 4_000_000,
                wake_ns: if k % 3 == 0 { -1 } else { k * 15_485 % 900_000 },
                latency_req_ns: -1,
                ..Default::default()
            };
            assert_eq!(boxed.step(&p), typed.step(&p), "period {k}");
        }
        let (mut a, mut b) = (Vec::new(), Vec::new());
        boxed.write_columns(&mut a);
        Step::write_columns(&typed, &mut b);
        assert_eq!(a, b);
        assert_eq!(a.len(), boxed.columns().len());
    }
}
