//! The kernel version a replay follows (docs/pelt.md §9): how frequency and CPU
//! capacity enter PELT ([`Invariance`]), the util_est rule and the execl fix of that
//! version, and whether schedutil's input is boosted by runnable_avg. One table,
//! [`KERNELS`]; every front end resolves `--kernel NAME` / `kernel=` through
//! [`kernel_by_name`] and builds its [`Config`] with [`config`].

use super::directives::Directives;
use super::driver::{Config, Init, StartState, DEFAULT_START_NS};
use super::util_est::rule_by_name;
use crate::error::{Error, Result};

/// How frequency and CPU capacity scale the PELT signals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Invariance {
    /// Since 23127296889f ("sched/fair: Update scale invariance of PELT"): the rq's PELT
    /// clock advances by the elapsed time scaled by both capacities, every contribution
    /// is a full 1024 per unit, and a saturated CPU loses idle time (docs/pelt.md §4).
    Clock,
    /// Before it (4.19 and the Android kernels of that age): PELT runs on `rq_clock_task()` and
    /// `accumulate_sum` scales each contribution, `contrib = cap_scale(contrib,
    /// scale_freq)`, `util_sum += contrib * scale_cpu` (docs/pelt.md §9.1).
    Contribution,
}

/// One kernel version the replay can follow.
#[derive(Debug, PartialEq, Eq)]
pub struct Kernel {
    /// The name given to `--kernel`.
    pub name: &'static str,
    /// How capacities enter PELT.
    pub invariance: Invariance,
    /// The util_est rule of that version ([`rule_by_name`]).
    pub rule: &'static str,
    /// Whether its `cpu_util_without` has the execl fix (c469933e7721, v4.20, in 4.19.y).
    pub execl_fix: bool,
    /// Whether schedutil's input is `cpu_util_cfs_boost` (runnable boosting, v6.5);
    /// otherwise the `cpu_util_cfs_boost` column is `cpu_util_cfs` (4.19's `cpu_util`).
    pub runnable_boost: bool,
    /// Whether the sched_avg has `runnable_avg` (v5.7) rather than 4.19's
    /// `runnable_load_avg`, the load of the enqueued entities only (docs/pelt.md §9.2).
    pub runnable_avg: bool,
}

/// The kernel versions, newest first; the first is the default.
pub const KERNELS: [Kernel; 4] = [
    Kernel {
        name: "6.12",
        invariance: Invariance::Clock,
        rule: "6.12",
        execl_fix: true,
        runnable_boost: true,
        runnable_avg: true,
    },
    Kernel {
        name: "6.18",
        invariance: Invariance::Clock,
        rule: "6.18",
        execl_fix: true,
        runnable_boost: true,
        runnable_avg: true,
    },
    Kernel {
        name: "6.6",
        invariance: Invariance::Clock,
        rule: "6.6",
        execl_fix: true,
        runnable_boost: true,
        runnable_avg: true,
    },
    Kernel {
        name: "4.19",
        invariance: Invariance::Contribution,
        rule: "d519329f72",
        execl_fix: true,
        runnable_boost: false,
        runnable_avg: false,
    },
];

/// The names of [`KERNELS`], in order.
pub fn kernel_names() -> Vec<&'static str> {
    KERNELS.iter().map(|k| k.name).collect()
}

/// The kernel named `name` (a leading `v` accepted).
pub fn kernel_by_name(name: &str) -> Result<&'static Kernel> {
    let n = name.strip_prefix('v').unwrap_or(name);
    KERNELS
        .iter()
        .find(|k| k.name == n)
        .ok_or_else(|| Error::domain(format!("unknown kernel '{name}'; expected one of {}", kernel_names().join(", "))))
}

/// The kernel of [`KERNELS`] whose rules a trace of Linux `release` (`6.18.44-fc-v1272`,
/// as `uname -r` or a trace.dat's header says) follows, and whether that is exact:
/// 6.18 and later take 6.18's (later ones are assumed the same: not exact); 6.8–6.17
/// 6.12's (its util_est rule is v6.8's; 6.18's differs only above the CPU's capacity,
/// which a full-capacity task never reaches); 5.13–6.7 6.6's; 4.17–5.0 4.19's (the
/// scaled contributions before the PELT clock, util_est of v4.17). Others: `None`.
pub fn kernel_for_release(release: &str) -> Option<(&'static Kernel, bool)> {
    let mut parts = release.split(|c: char| !c.is_ascii_digit());
    let major: u32 = parts.next()?.parse().ok()?;
    let minor: u32 = parts.next()?.parse().ok()?;
    let name = |n: &str| KERNELS.iter().find(|k| k.name == n);
    match (major, minor) {
        (6, 18) => Some((name("6.18")?, true)),
        (6, 12) => Some((name("6.12")?, true)),
        (6, 6) => Some((name("6.6")?, true)),
        (4, 19) => Some((name("4.19")?, true)),
        (m, _) if m >= 7 => Some((name("6.18")?, false)),
        (6, n) if n > 18 => Some((name("6.18")?, false)),
        (6, 8..=17) => Some((name("6.12")?, false)),
        (5, 13..) | (6, 0..=7) => Some((name("6.6")?, false)),
        (4, 17..) | (5, 0) => Some((name("4.19")?, false)),
        _ => None,
    }
}

/// The default kernel (6.12).
pub fn default_kernel() -> &'static Kernel {
    &KERNELS[0]
}

/// A front end's options for a replay (see [`config`]).
#[derive(Debug, Clone, Copy)]
pub struct Options<'a> {
    /// The kernel whose model, util_est rule and execl fix apply (None: the default).
    pub kernel: Option<&'a str>,
    /// The start state's name ([`Init`]), unless `given`; `None`: the trace's own
    /// (its directives), else the kernel's fork init.
    pub init: Option<&'a str>,
    /// Whether util_est is replayed.
    pub util_est: bool,
    /// A util_est rule overriding the kernel's.
    pub rule: Option<&'a str>,
    /// The execl fix of `cpu_util_wake`, overriding the kernel's.
    pub execl_fix: Option<bool>,
    /// The tick period in ns.
    pub tick_ns: u64,
    /// The time of the fork in ns; `None`: the trace's own, else
    /// [`DEFAULT_START_NS`].
    pub start_ns: Option<u64>,
    /// A known start state (traced, or read from `/proc/PID/sched`): replaces `init`.
    pub given: Option<StartState>,
}

/// A replay's configuration from a front end's options: `kernel` (default 6.12) gives
/// the PELT model, the util_est rule and the execl fix; `rule` and `execl_fix`, when
/// given, override the last two; a `given` start state overrides `init`.
pub fn config(o: &Options<'_>) -> Result<Config> {
    config_for(o, &Directives::default())
}

/// [`config`] for a trace whose directives (docs/pelt.md §8.1) fill in what the front
/// end did not give: the kernel, the start state and the start time.
pub fn config_for(o: &Options<'_>, trace: &Directives) -> Result<Config> {
    let k = match o.kernel.or(trace.kernel.as_deref()) {
        Some(name) => kernel_by_name(name)?,
        None => default_kernel(),
    };
    let rule = rule_by_name(o.rule.unwrap_or(k.rule))?;
    // the kernel's own fix unless the rule was changed (then the rule's own version)
    let execl_fix = o.execl_fix.or(if rule.name() == k.rule { Some(k.execl_fix) } else { None });
    let init = match (o.given, o.init) {
        (Some(s), _) => Init::Given(s),
        (None, Some(name)) => <Init as crate::choice::Choice>::parse(name)?,
        (None, None) => trace.init.unwrap_or(Init::Kernel),
    };
    Ok(Config {
        init,
        util_est: o.util_est,
        rule,
        execl_fix,
        tick_ns: o.tick_ns,
        start_ns: o.start_ns.or(trace.start_ns).unwrap_or(DEFAULT_START_NS),
        kernel: k,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_defaults() {
        assert_eq!(kernel_by_name("v4.19").unwrap().invariance, Invariance::Contribution);
        assert!(kernel_by_name("5.4").unwrap_err().to_string().contains("6.12, 6.18, 6.6, 4.19"));
        let o = Options {
            kernel: Some("4.19"),
            init: Some("kernel"),
            util_est: true,
            rule: None,
            execl_fix: None,
            tick_ns: 4_000_000,
            start_ns: Some(1 << 30),
            given: None,
        };
        let c = config(&o).unwrap();
        assert_eq!((c.rule.name(), c.execl_fix), ("d519329f72", Some(true)));
        let c = config(&Options { init: Some("zero"), rule: Some("4.17"), ..o }).unwrap();
        assert_eq!((c.rule.name(), c.execl_fix, c.init), ("4.17", None, Init::Zero));
        let c = config(&Options { kernel: None, execl_fix: Some(false), ..o }).unwrap();
        assert_eq!((c.kernel.name, c.rule.name(), c.execl_fix), ("6.12", "6.12", Some(false)));
        let s = StartState { util_avg: 300, load_avg: None, runnable_avg: None, util_est: None };
        assert_eq!(config(&Options { given: Some(s), ..o }).unwrap().init, Init::Given(s));
    }

    #[test]
    fn a_release_takes_the_rules_of_its_version() {
        let k = |r: &str| kernel_for_release(r).map(|(k, exact)| (k.name, exact));
        assert_eq!(k("6.18.44-fc-v1272"), Some(("6.18", true)));
        assert_eq!(k("6.12.117"), Some(("6.12", true)));
        assert_eq!(k("6.15.0-rc1"), Some(("6.12", false)));
        assert_eq!(k("5.15.0-91-generic"), Some(("6.6", false)));
        assert_eq!(k("4.19.72"), Some(("4.19", true)));
        assert_eq!(k("4.14.1"), None);
        assert_eq!(k("5.4.0"), None);
        assert_eq!(k("banana"), None);
    }
}
