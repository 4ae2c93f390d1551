//! Which parser reads which raw output: lkp-tests runs `programs/<name>/parse` on the
//! file `<name>` of a run directory (and programs/time/parse on `*.time`).

use super::{
    aim9, cyclictest, ebizzy, fio, hackbench, lock_stat, meminfo, netperf, parsers, perf_bench_futex,
    perf_bench_sched_messaging, perf_bench_sched_pipe, perf_profile, perf_sched, perf_stat, pmbench, proc_vmstat,
    rt_app, schbench, sched_debug, softirqs, stress_ng, sysbench, tbench, unixbench, uperf, will_it_scale,
};
use crate::archive::Tree;
use crate::error::Result;

/// The lkp-tests programs schedlab parses, by name.
pub const PROGRAMS: &[&str] = &[
    "aim9",
    "autonuma-benchmark",
    "chromeswap",
    "coremark",
    "cpufreq-stats",
    "cpuidle",
    "cyclictest",
    "dbench",
    "ebizzy",
    "fio",
    "fsmark",
    "fxmark",
    "hackbench",
    "interrupts",
    "iperf",
    "jitter",
    "kbuild",
    "kernbench",
    "lmbench3",
    "lock_stat",
    "locktorture",
    "lz4-test",
    "meminfo",
    "memory--numa_stat",
    "memtier",
    "mpstat",
    "netperf",
    "netpipe",
    "openssl-speed",
    "perf-bench-futex",
    "perf-bench-mem",
    "perf-bench-numa-mem",
    "perf-bench-sched-messaging",
    "perf-bench-sched-pipe",
    "perf-bench-syscall",
    "perf-c2c",
    "perf-profile",
    "perf-sched",
    "perf-stat",
    "phpbench",
    "pmbench",
    "proc-vmstat",
    "pts",
    "pybench",
    "rcurefscale",
    "rcuscale",
    "rcutorture",
    "redis",
    "rt-app",
    "sched_debug",
    "schbench",
    "simoop",
    "softirqs",
    "stream",
    "stress-ng",
    "sysbench-cpu",
    "sysbench-threads",
    "tbench",
    "tcrypt",
    "time",
    "tinymembench",
    "turbostat",
    "unixbench",
    "uperf",
    "vm-scalability",
    "vmstat",
    "will-it-scale",
    "ycsb",
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
        "autonuma-benchmark" => super::autonuma_benchmark::parse(text, path),
        "chromeswap" => super::chromeswap::parse(text, path),
        "coremark" => super::coremark::parse(text, path),
        // programs/cpufreq-stats/parse is `cat`: the monitor already writes `key: value`
        "cpufreq-stats" => Ok(text.to_string()),
        "cpuidle" => Ok(parsers::cpuidle(text)),
        "cyclictest" => Ok(cyclictest::parse(text)),
        "dbench" => tbench::parse(text, path),
        "ebizzy" => Ok(ebizzy::parse(text)),
        "fio" => fio::parse(text, path),
        "fsmark" => super::fsmark::parse(text, path),
        "fxmark" => super::fxmark::parse(text, path),
        "hackbench" => hackbench::parse(text, path),
        "interrupts" => Ok(parsers::interrupts(text)),
        "iperf" => super::iperf::parse(text, path),
        "jitter" => super::jitter::parse(text, path),
        "kbuild" => super::kbuild::parse(text, path),
        "kernbench" => super::kernbench::parse(text, path),
        "lmbench3" => super::lmbench3::parse(text, path),
        "lock_stat" => lock_stat::parse(text, path),
        "locktorture" => super::locktorture::parse(text, path),
        "lz4-test" => super::lz4_test::parse(text, path),
        "meminfo" => meminfo::parse(text, path),
        "memory--numa_stat" => super::memory_numa_stat::parse(text, path),
        "memtier" => super::memtier::parse(text, path),
        "mpstat" => parsers::mpstat(text, path),
        "netperf" => Ok(netperf::parse(text)),
        "netpipe" => super::netpipe::parse(text, path),
        "openssl-speed" => super::openssl_speed::parse(text, path),
        "perf-bench-futex" => Ok(perf_bench_futex::parse(text)),
        "perf-bench-mem" => super::perf_bench_mem::parse(text, path),
        "perf-bench-numa-mem" => super::perf_bench_numa_mem::parse(text, path),
        "perf-bench-sched-messaging" => Ok(perf_bench_sched_messaging::parse(text)),
        "perf-bench-sched-pipe" => Ok(perf_bench_sched_pipe::parse(text)),
        "perf-bench-syscall" => super::perf_bench_syscall::parse(text, path),
        "perf-c2c" => super::perf_c2c::parse(text, path),
        "perf-profile" => perf_profile::parse(text),
        "perf-sched" => perf_sched::parse(text),
        "perf-stat" => perf_stat::parse(text, path),
        "phpbench" => super::phpbench::parse(text, path),
        "pmbench" => pmbench::parse(text),
        "proc-vmstat" => proc_vmstat::parse(text, path),
        "pts" => super::pts::parse(text, path),
        "pybench" => super::pybench::parse(text, path),
        "rcurefscale" => super::rcurefscale::parse(text, path),
        "rcuscale" => super::rcuscale::parse(text, path),
        "rcutorture" => super::rcutorture::parse(text, path),
        "redis" => super::redis::parse(text, path),
        "rt-app" => Ok(rt_app::parse(text)),
        "sched_debug" => sched_debug::parse(text, path),
        "schbench" => schbench::parse(text, path),
        "simoop" => super::simoop::parse(text, path),
        "softirqs" => softirqs::parse(text, path),
        "stream" => super::stream::parse(text, path),
        "stress-ng" => stress_ng::parse(text, path),
        "sysbench-cpu" | "sysbench-threads" => Ok(sysbench::parse(text)),
        "tbench" => tbench::parse(text, path),
        "tcrypt" => super::tcrypt::parse(text, path),
        "time" => Ok(parsers::time(text)),
        "tinymembench" => super::tinymembench::parse(text, path),
        "turbostat" => Ok(parsers::turbostat(text)),
        "unixbench" => Ok(unixbench::parse(text)),
        "uperf" => Ok(uperf::parse(text)),
        "vm-scalability" => super::vm_scalability::parse(text, path),
        "vmstat" => Ok(parsers::vmstat(text)),
        "will-it-scale" => will_it_scale::parse(text, path),
        "ycsb" => super::ycsb::parse(text, path),
        _ => return None,
    })
}

/// Whether `program`'s parser reads each line of its raw output alone (its output for a
/// text is the concatenation of its outputs for the text's lines), so that a long
/// output can be parsed a piece at a time: vmstat (a header is a line without digits)
/// and cpufreq-stats (`cat`).
pub fn line_by_line(program: &str) -> bool {
    matches!(program, "vmstat" | "cpufreq-stats")
}

/// Whether bin/run-stats leaves the raw output `text` of `program` unparsed:
/// `check_empty_output` (an empty file gives no stats, except perf-profile's and
/// kernel-size's, dmesg's when the run's kmsg is not empty and kmsg's when its dmesg is
/// not; `nonempty(name)` says whether the run's file `name` has content) and
/// `check_binary_output` (a file with a NUL byte, except dmesg's, kmsg's, mpstat's and
/// iostat's). docs/lkp-stats.md §1.
pub fn skipped_raw(program: &str, text: &str, nonempty: impl Fn(&str) -> bool) -> bool {
    let parsed_empty = match program {
        "kernel-size" | "perf-profile" => true,
        "dmesg" => nonempty("kmsg"),
        "kmsg" => nonempty("dmesg"),
        _ => false,
    };
    let binary = !matches!(program, "dmesg" | "kmsg" | "mpstat" | "iostat") && text.contains('\0');
    (text.is_empty() && !parsed_empty) || binary
}

/// [`parse`] as bin/run-stats runs a parser: with the run directory `dir` of `tree` as
/// its `RESULT_ROOT` (fio reads `fio.output[.N]` there, not the raw `fio` file).
pub fn parse_in_run(program: &str, text: &str, path: &str, tree: &dyn Tree, dir: &str) -> Option<Result<String>> {
    match program {
        "fio" => Some(fio::parse_run(tree, dir)),
        _ => parse(program, text, path),
    }
}
