//! Which parser reads which raw output: lkp-tests runs `programs/<name>/parse` on the
//! file `<name>` of a run directory (and programs/time/parse on `*.time`).

use super::{
    aim9, hackbench, netperf, parsers, perf_bench_futex, perf_bench_sched_messaging, perf_stat, rt_app, schbench,
    stress_ng, tbench, unixbench, uperf, will_it_scale,
};
use crate::error::Result;

/// The lkp-tests programs schedlab parses, by name.
pub const PROGRAMS: &[&str] = &[
    "aim9",
    "cpuidle",
    "hackbench",
    "interrupts",
    "mpstat",
    "netperf",
    "perf-bench-futex",
    "perf-bench-sched-messaging",
    "perf-stat",
    "rt-app",
    "schbench",
    "stress-ng",
    "tbench",
    "time",
    "turbostat",
    "unixbench",
    "uperf",
    "vmstat",
    "will-it-scale",
];

/// The program whose parser reads the raw file `name` of a run directory.
pub fn for_file(name: &str) -> Option<&'static str> {
    if let Some(p) = PROGRAMS.iter().find(|p| **p == name) {
        return Some(p);
    }
    (name.ends_with(".time") && !name.contains(".json") && name.len() > 5).then_some("time")
}

/// Run `program`'s parser on `text` (the raw output, `path` naming it in errors): its
/// `key: value` lines, as lkp's parser prints them; None for a program schedlab does
/// not parse.
pub fn parse(program: &str, text: &str, path: &str) -> Option<Result<String>> {
    Some(match program {
        "aim9" => Ok(aim9::parse(text)),
        "cpuidle" => Ok(parsers::cpuidle(text)),
        "hackbench" => hackbench::parse(text, path),
        "interrupts" => Ok(parsers::interrupts(text)),
        "mpstat" => parsers::mpstat(text, path),
        "netperf" => Ok(netperf::parse(text)),
        "perf-bench-futex" => Ok(perf_bench_futex::parse(text)),
        "perf-bench-sched-messaging" => Ok(perf_bench_sched_messaging::parse(text)),
        "perf-stat" => perf_stat::parse(text, path),
        "rt-app" => Ok(rt_app::parse(text)),
        "schbench" => schbench::parse(text, path),
        "stress-ng" => stress_ng::parse(text, path),
        "tbench" => tbench::parse(text, path),
        "time" => Ok(parsers::time(text)),
        "turbostat" => Ok(parsers::turbostat(text)),
        "unixbench" => Ok(unixbench::parse(text)),
        "uperf" => Ok(uperf::parse(text)),
        "vmstat" => Ok(parsers::vmstat(text)),
        "will-it-scale" => will_it_scale::parse(text, path),
        _ => return None,
    })
}
