//! The `Governor` trait (a cpuidle governor's `select()`/`reflect()` pair), the kernel
//! services a governor calls (the [`Cpu`] view), and the names that select a governor
//! and kernel version.

use super::states::Drv;
use super::trace::{Tick, NO_LATENCY_REQ_NS};
use crate::choice::Choice;
use crate::error::{Error, Result};
use std::fmt;

/// What the cpuidle core, the nohz tick code and PM QoS show a governor on one CPU.
///
/// The driver (see `simulate`) fills the select-time fields before each `select()` and
/// the device fields after the period; governors read them through the methods named
/// after the kernel functions.
#[derive(Debug, Clone, Copy)]
pub struct Cpu {
    /// The state table (`drv->states[]`, `dev->states_usage[].disable`).
    pub drv: Drv,
    /// HZ constants.
    pub tick: Tick,
    /// `tick_nohz_get_sleep_length()` return value, ns (≥ 0).
    pub sleep_length_ns: i64,
    /// Its `delta_next` output: `min(sleep_length, next_tick)`, ns.
    pub delta_next_ns: i64,
    /// `tick_nohz_tick_stopped()`.
    pub tick_stopped: bool,
    /// Trace latency limit in ns, `-1` = none (each kernel converts it, see the methods).
    pub latency_req_raw_ns: i64,
    /// `nr_iowait_cpu()`.
    pub nr_iowait: u32,
    /// `this_rq()->load.weight` (menu 4.18/4.19).
    pub cpu_load: u32,
    /// `local_clock()`, ns.
    pub clock_ns: u64,
    /// `dev->last_residency_ns` of the previous period (0 before the first).
    pub last_residency_ns: i64,
    /// `dev->poll_time_limit`: the poll loop of the last polling period timed out.
    pub poll_time_limit: bool,
    /// The period just ended was ended by the tick (read once by `tick_nohz_idle_got_tick()`).
    pub got_tick: bool,
}

impl Cpu {
    /// A CPU with no history.
    pub fn new(drv: Drv, tick: Tick) -> Cpu {
        Cpu {
            drv,
            tick,
            sleep_length_ns: 0,
            delta_next_ns: 0,
            tick_stopped: false,
            latency_req_raw_ns: -1,
            nr_iowait: 0,
            cpu_load: 0,
            clock_ns: 0,
            last_residency_ns: 0,
            poll_time_limit: false,
            got_tick: false,
        }
    }

    /// `cpuidle_governor_latency_req()` of the 6.x kernels: `s64` ns, 2000 s without a limit.
    #[inline]
    pub fn latency_req_ns(&self) -> i64 {
        if self.latency_req_raw_ns < 0 {
            NO_LATENCY_REQ_NS
        } else {
            self.latency_req_raw_ns
        }
    }

    /// `cpuidle_governor_latency_req()` of v4.18–v5.1: `int` µs; without a limit
    /// `PM_QOS_CPU_DMA_LAT_DEFAULT_VALUE` = 2 000 000 000; otherwise `min(ns/1000, INT_MAX)`.
    #[inline]
    pub fn latency_req_us_v4(&self) -> i32 {
        if self.latency_req_raw_ns < 0 {
            2_000_000_000
        } else {
            i32::try_from(self.latency_req_raw_ns / 1000).unwrap_or(i32::MAX)
        }
    }

    /// `dev->last_residency` of v4.18–v5.1: `int` µs, `min(ns/1000, INT_MAX)` (`ktime_us_delta`).
    #[inline]
    pub fn last_residency_us_v4(&self) -> i32 {
        i32::try_from(self.last_residency_ns.max(0) / 1000).unwrap_or(i32::MAX)
    }

    /// `tick_nohz_idle_got_tick()`: whether the tick ended the last period; clears the flag.
    #[inline]
    pub fn take_got_tick(&mut self) -> bool {
        std::mem::take(&mut self.got_tick)
    }
}

/// A cpuidle governor of one kernel version, on one CPU.
///
/// `select()` and `reflect()` are the kernel's callbacks; the driver calls them in the
/// kernel's order (select, enter, reflect). `columns()` names the governor state
/// printed after every period and `write_columns()` appends its values (the golden
/// files' columns after the 12 common ones).
pub trait Governor: Send {
    /// `select()`: the state index to enter; may clear `*stop_tick` (preset to true).
    fn select(&mut self, cpu: &Cpu, stop_tick: &mut bool) -> usize;
    /// `reflect()`: the state just left was `idx`.
    fn reflect(&mut self, cpu: &mut Cpu, idx: usize);
    /// The poll loop's time limit in ns for this kernel (`poll_idle()`).
    fn poll_limit_ns(&self, drv: &Drv, tick: Tick) -> i64 {
        cpuidle_poll_time(drv, tick)
    }
    /// Names of the state columns.
    fn columns(&self, drv: &Drv) -> Vec<String>;
    /// Append the state column values (same order and count as `columns`).
    fn write_columns(&self, out: &mut Vec<i64>);
}

/// `cpuidle_poll_time()` as in 6.12 `drivers/cpuidle/cpuidle.c` (used by the 6.x model):
/// the target residency of the first enabled state ≥ 1 with at least
/// `CPUIDLE_POLL_MIN` = 10 µs, capped at `CPUIDLE_POLL_MAX` = `TICK_NSEC/16`; that cap
/// when there is none.
pub fn cpuidle_poll_time(drv: &Drv, tick: Tick) -> i64 {
    let max = tick.nsec / 16;
    for i in 1..drv.count {
        if drv.disabled[i] {
            continue;
        }
        if drv.tr_ns[i] < 10_000 {
            continue;
        }
        return drv.tr_ns[i].min(max);
    }
    max
}

/// The governor families.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Family {
    /// `drivers/cpuidle/governors/menu.c`.
    Menu,
    /// `drivers/cpuidle/governors/teo.c`.
    Teo,
}

impl Choice for Family {
    const WHAT: &'static str = "governor";
    const ALL: &'static [Self] = &[Family::Menu, Family::Teo];

    fn name(self) -> &'static str {
        match self {
            Family::Menu => "menu",
            Family::Teo => "teo",
        }
    }
}

/// The kernel versions whose governors are replayed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kernel {
    /// v4.18 (menu).
    V4_18,
    /// v4.19 (menu).
    V4_19,
    /// v4.20 (menu).
    V4_20,
    /// v5.1 (teo as first merged).
    V5_1,
    /// 6.1.192 (menu with iowait buckets, teo with `recent`).
    V6_1,
    /// 6.6.57 (menu with iowait and 6.12's order, teo with `recent` and `tick_hits`).
    V6_6,
    /// 6.12.117 (menu without iowait, teo with `tick_hits`).
    V6_12,
    /// 6.18.35 (menu's two-sided pattern detector, teo with `tick_intercepts` and
    /// `short_idles`).
    V6_18,
}

impl Kernel {
    /// The version a replay uses when none is named (the newest long-term release
    /// whose menu and teo both have golden files against the kernel's own C).
    pub const DEFAULT: Kernel = Kernel::V6_12;

    /// All versions, newest first.
    pub const ALL: [Kernel; 8] = [
        Kernel::V6_18,
        Kernel::V6_12,
        Kernel::V6_6,
        Kernel::V6_1,
        Kernel::V5_1,
        Kernel::V4_20,
        Kernel::V4_19,
        Kernel::V4_18,
    ];

    /// The version as written on the command line (`6.12`, `4.18`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Kernel::V4_18 => "4.18",
            Kernel::V4_19 => "4.19",
            Kernel::V4_20 => "4.20",
            Kernel::V5_1 => "5.1",
            Kernel::V6_1 => "6.1",
            Kernel::V6_6 => "6.6",
            Kernel::V6_12 => "6.12",
            Kernel::V6_18 => "6.18",
        }
    }

    /// Parse `6.12`, `v6.12`, `6.12.117`, `4.18`...
    pub fn parse(s: &str) -> Result<Kernel> {
        let t = s.trim();
        let t = t.strip_prefix('v').unwrap_or(t);
        let mut parts = t.split('.');
        let major = parts.next().unwrap_or("");
        let minor = parts.next().unwrap_or("");
        let wanted = format!("{major}.{minor}");
        Kernel::ALL.into_iter().find(|k| k.name() == wanted).ok_or_else(|| {
            let names: Vec<&str> = Kernel::ALL.iter().map(|k| k.name()).collect();
            Error::domain(format!("unknown kernel version '{s}' (known: {})", names.join(", ")))
        })
    }
}

impl fmt::Display for Kernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A governor family at a kernel version: what `--governor` and `--kernel` select.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Spec {
    /// menu or teo.
    pub family: Family,
    /// The kernel version.
    pub kernel: Kernel,
}

impl Spec {
    /// Every governor/version pair that is implemented.
    pub const ALL: [Spec; 12] = [
        Spec { family: Family::Menu, kernel: Kernel::V6_18 },
        Spec { family: Family::Menu, kernel: Kernel::V6_12 },
        Spec { family: Family::Menu, kernel: Kernel::V6_6 },
        Spec { family: Family::Menu, kernel: Kernel::V6_1 },
        Spec { family: Family::Menu, kernel: Kernel::V4_20 },
        Spec { family: Family::Menu, kernel: Kernel::V4_19 },
        Spec { family: Family::Menu, kernel: Kernel::V4_18 },
        Spec { family: Family::Teo, kernel: Kernel::V6_18 },
        Spec { family: Family::Teo, kernel: Kernel::V6_12 },
        Spec { family: Family::Teo, kernel: Kernel::V6_6 },
        Spec { family: Family::Teo, kernel: Kernel::V6_1 },
        Spec { family: Family::Teo, kernel: Kernel::V5_1 },
    ];

    /// The pair for a governor name (`menu`, `teo`) and a kernel version string; an
    /// error lists what exists when the pair is not implemented.
    pub fn new(governor: &str, kernel: &str) -> Result<Spec> {
        let family = Family::parse(&governor.trim().to_ascii_lowercase())?;
        let kernel = Kernel::parse(kernel)?;
        let spec = Spec { family, kernel };
        if Spec::ALL.contains(&spec) {
            Ok(spec)
        } else {
            let have: Vec<&str> = Spec::ALL.iter().filter(|s| s.family == family).map(|s| s.kernel.name()).collect();
            Err(Error::domain(format!(
                "{} is not available for kernel {} (available: {})",
                spec.family_name(),
                kernel,
                have.join(", ")
            )))
        }
    }

    /// `menu` or `teo`.
    pub fn family_name(&self) -> &'static str {
        self.family.name()
    }
}

/// The governor name and kernel version of one entry of `idle.compare`'s list:
/// `"teo@5.1"`, `"menu:4.18"`, `"teo 6.1"`, `"teo-6.1"` are split at the first of `@`,
/// `:`, space, `-` that the text holds (tried in this order), each part trimmed; a bare
/// name (`"menu"`) takes `default_kernel`. Neither part is checked here ([`Spec::new`]
/// does).
pub fn split_spec(spec: &str, default_kernel: &str) -> (String, String) {
    for sep in ['@', ':', ' ', '-'] {
        if let Some((name, version)) = spec.split_once(sep) {
            return (name.trim().to_string(), version.trim().to_string());
        }
    }
    (spec.trim().to_string(), default_kernel.to_string())
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.family_name(), self.kernel)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::idle::states::StateTable;

    #[test]
    fn names_select_versions() {
        assert_eq!(Spec::new("teo", "6.1").unwrap(), Spec { family: Family::Teo, kernel: Kernel::V6_1 });
        assert_eq!(Spec::new("MENU", "v4.18").unwrap().kernel, Kernel::V4_18);
        assert_eq!(Kernel::parse("6.12.117").unwrap(), Kernel::V6_12);
        let e = Spec::new("teo", "4.18").unwrap_err().to_string();
        assert_eq!(e, "teo is not available for kernel 4.18 (available: 6.18, 6.12, 6.6, 6.1, 5.1)");
        assert!(Spec::new("ladder", "6.12").is_err());
        assert!(Kernel::parse("5.15").is_err());
    }

    #[test]
    fn specs_split_at_the_first_separator_kind() {
        let split = |s: &str| split_spec(s, "6.12");
        assert_eq!(split("teo@5.1"), ("teo".into(), "5.1".into()));
        assert_eq!(split("menu:4.18"), ("menu".into(), "4.18".into()));
        assert_eq!(split("teo 6.1"), ("teo".into(), "6.1".into()));
        assert_eq!(split("teo-6.1"), ("teo".into(), "6.1".into()));
        assert_eq!(split("menu"), ("menu".into(), "6.12".into()));
        // '@' is tried before '-' wherever it is; the parts are trimmed
        assert_eq!(split("teo-x@ 6.6 "), ("teo-x".into(), "6.6".into()));
        assert_eq!(split(" menu : v4.19"), ("menu".into(), "v4.19".into()));
    }

    #[test]
    fn poll_time_and_latency_conversions() {
        let x86 = StateTable::preset("intel-skx").unwrap().drv();
        let t250 = Tick::new(250).unwrap();
        // C1 (2 µs) is below CPUIDLE_POLL_MIN, C1E (20 µs) is the limit
        assert_eq!(cpuidle_poll_time(&x86, t250), 20_000);
        let arm = StateTable::preset("arm-rk3399").unwrap().drv();
        // 900 µs capped at TICK_NSEC/16
        assert_eq!(cpuidle_poll_time(&arm, Tick::new(1000).unwrap()), 62_500);
        let mut cpu = Cpu::new(x86, t250);
        assert_eq!((cpu.latency_req_ns(), cpu.latency_req_us_v4()), (2_000_000_000_000, 2_000_000_000));
        cpu.latency_req_raw_ns = 50_999;
        assert_eq!((cpu.latency_req_ns(), cpu.latency_req_us_v4()), (50_999, 50));
        cpu.latency_req_raw_ns = i64::MAX;
        assert_eq!(cpu.latency_req_us_v4(), i32::MAX);
        cpu.last_residency_ns = 3_176_995;
        assert_eq!(cpu.last_residency_us_v4(), 3176);
    }
}
