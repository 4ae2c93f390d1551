//! Which parser reads which raw output: lkp-tests runs `programs/<name>/parse` on the
//! file `<name>` of a run directory (and programs/time/parse on `*.time`).

use super::{
    aim9, analyze_suspend, avocado, blktests, cyclictest, dmesg, ebizzy, fio, hackbench, hwsim, igt, kmemleak,
    kselftests, kunit, kvm_unit_tests, leaking_addresses, libhugetlbfs_test, lkvs, lock_stat, ltp, mdadm_selftests,
    meminfo, netperf, nvml, parsers, perf_bench_futex, perf_bench_sched_messaging, perf_bench_sched_pipe,
    perf_event_tests, perf_profile, perf_sanity_tests, perf_sched, perf_stat, pmbench, proc_vmstat, qat, rdma_pyverbs,
    rt_app, schbench, sched_debug, softirqs, stderr, stress_ng, sysbench, tbench, test_bpf, unixbench, uperf,
    will_it_scale, xfstests,
};
use crate::archive::tree::join;
use crate::archive::Tree;
use crate::error::Result;

/// The lkp-tests programs schedlab parses, by name.
pub const PROGRAMS: &[&str] = &[
    "aim9",
    "analyze-suspend",
    "autonuma-benchmark",
    "avocado",
    "blktests",
    "chromeswap",
    "coremark",
    "cpufreq-stats",
    "cpuidle",
    "cyclictest",
    "dbench",
    "dmesg",
    "ebizzy",
    "fio",
    "fsmark",
    "fxmark",
    "hackbench",
    "hwsim",
    "igt",
    "interrupts",
    "iperf",
    "jitter",
    "kbuild",
    "kernbench",
    "kmemleak",
    "kmsg",
    "kselftests",
    "kunit",
    "kvm-unit-tests",
    "leaking-addresses",
    "libhugetlbfs-test",
    "lkvs",
    "lmbench3",
    "lock_stat",
    "locktorture",
    "ltp",
    "lz4-test",
    "mdadm-selftests",
    "meminfo",
    "memory--numa_stat",
    "memtier",
    "mpstat",
    "netperf",
    "netpipe",
    "nvml",
    "openssl-speed",
    "perf-bench-futex",
    "perf-bench-mem",
    "perf-bench-numa-mem",
    "perf-bench-sched-messaging",
    "perf-bench-sched-pipe",
    "perf-bench-syscall",
    "perf-c2c",
    "perf-event-tests",
    "perf-profile",
    "perf-sanity-tests",
    "perf-sched",
    "perf-stat",
    "phpbench",
    "pmbench",
    "proc-vmstat",
    "pts",
    "pybench",
    "qat",
    "rcurefscale",
    "rcuscale",
    "rcutorture",
    "rdma-pyverbs",
    "redis",
    "rt-app",
    "schbench",
    "sched_debug",
    "simoop",
    "softirqs",
    "stderr",
    "stream",
    "stress-ng",
    "sysbench-cpu",
    "sysbench-threads",
    "tbench",
    "tcrypt",
    "test-bpf",
    "time",
    "tinymembench",
    "turbostat",
    "unixbench",
    "uperf",
    "vm-scalability",
    "vmstat",
    "will-it-scale",
    "xfstests",
    "ycsb",
];

/// The programs bin/run-stats also runs when the run directory has no raw file of
/// theirs: dmesg, whose parser then reads the run's kmsg (a box without a serial
/// console; [`parse_in_run`]). (kmsg's parser on a run with only a dmesg greps lkp's
/// `/lkp/user-generated` list of printk messages, which schedlab does not have: kmsg is
/// not run then.)
pub const WITHOUT_FILE: &[&str] = &["dmesg"];

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
        "analyze-suspend" => Ok(analyze_suspend::parse(text)),
        "autonuma-benchmark" => super::autonuma_benchmark::parse(text, path),
        "avocado" => avocado::parse(text, path),
        "blktests" => blktests::parse(text, path),
        "chromeswap" => super::chromeswap::parse(text, path),
        "coremark" => super::coremark::parse(text, path),
        // programs/cpufreq-stats/parse is `cat`: the monitor already writes `key: value`
        "cpufreq-stats" => Ok(text.to_string()),
        "cpuidle" => Ok(parsers::cpuidle(text)),
        "cyclictest" => Ok(cyclictest::parse(text)),
        "dbench" => tbench::parse(text, path),
        "dmesg" => dmesg::parse(dmesg::Program::Dmesg, text, path, &dmesg::Run::default()),
        "ebizzy" => Ok(ebizzy::parse(text)),
        "fio" => fio::parse(text, path),
        "fsmark" => super::fsmark::parse(text, path),
        "fxmark" => super::fxmark::parse(text, path),
        "hackbench" => hackbench::parse(text, path),
        "hwsim" => hwsim::parse(text, path),
        "igt" => igt::parse(text, path),
        "interrupts" => Ok(parsers::interrupts(text)),
        "iperf" => super::iperf::parse(text, path),
        "jitter" => super::jitter::parse(text, path),
        "kbuild" => super::kbuild::parse(text, path),
        "kernbench" => super::kernbench::parse(text, path),
        "kmemleak" => kmemleak::parse(text, path),
        "kmsg" => dmesg::parse(dmesg::Program::Kmsg, text, path, &dmesg::Run::default()),
        "kselftests" => kselftests::parse(text, path),
        "kunit" => kunit::parse(text, path),
        "kvm-unit-tests" => kvm_unit_tests::parse(text, path),
        "leaking-addresses" => leaking_addresses::parse(text, path),
        "libhugetlbfs-test" => libhugetlbfs_test::parse(text, path),
        "lkvs" => lkvs::parse(text, path),
        "lmbench3" => super::lmbench3::parse(text, path),
        "lock_stat" => lock_stat::parse(text, path),
        "locktorture" => super::locktorture::parse(text, path),
        "ltp" => ltp::parse(text, path),
        "lz4-test" => super::lz4_test::parse(text, path),
        "mdadm-selftests" => Ok(mdadm_selftests::parse(text)),
        "meminfo" => meminfo::parse(text, path),
        "memory--numa_stat" => super::memory_numa_stat::parse(text, path),
        "memtier" => super::memtier::parse(text, path),
        "mpstat" => parsers::mpstat(text, path),
        "netperf" => Ok(netperf::parse(text)),
        "netpipe" => super::netpipe::parse(text, path),
        "nvml" => nvml::parse(text, path),
        "openssl-speed" => super::openssl_speed::parse(text, path),
        "perf-bench-futex" => Ok(perf_bench_futex::parse(text)),
        "perf-bench-mem" => super::perf_bench_mem::parse(text, path),
        "perf-bench-numa-mem" => super::perf_bench_numa_mem::parse(text, path),
        "perf-bench-sched-messaging" => Ok(perf_bench_sched_messaging::parse(text)),
        "perf-bench-sched-pipe" => Ok(perf_bench_sched_pipe::parse(text)),
        "perf-bench-syscall" => super::perf_bench_syscall::parse(text, path),
        "perf-c2c" => super::perf_c2c::parse(text, path),
        "perf-event-tests" => perf_event_tests::parse(text, path),
        "perf-profile" => perf_profile::parse(text),
        "perf-sanity-tests" => perf_sanity_tests::parse(text, path),
        "perf-sched" => perf_sched::parse(text),
        "perf-stat" => perf_stat::parse(text, path),
        "phpbench" => super::phpbench::parse(text, path),
        "pmbench" => pmbench::parse(text),
        "proc-vmstat" => proc_vmstat::parse(text, path),
        "pts" => super::pts::parse(text, path),
        "pybench" => super::pybench::parse(text, path),
        "qat" => Ok(qat::parse(text)),
        "rcurefscale" => super::rcurefscale::parse(text, path),
        "rcuscale" => super::rcuscale::parse(text, path),
        "rcutorture" => super::rcutorture::parse(text, path),
        "rdma-pyverbs" => rdma_pyverbs::parse(text, path),
        "redis" => super::redis::parse(text, path),
        "rt-app" => Ok(rt_app::parse(text)),
        "schbench" => schbench::parse(text, path),
        "sched_debug" => sched_debug::parse(text, path),
        "simoop" => super::simoop::parse(text, path),
        "softirqs" => softirqs::parse(text, path),
        "stderr" => Ok(stderr::parse(text)),
        "stream" => super::stream::parse(text, path),
        "stress-ng" => stress_ng::parse(text, path),
        "sysbench-cpu" | "sysbench-threads" => Ok(sysbench::parse(text)),
        "tbench" => tbench::parse(text, path),
        "tcrypt" => super::tcrypt::parse(text, path),
        "test-bpf" => test_bpf::parse(text, path),
        "time" => Ok(parsers::time(text)),
        "tinymembench" => super::tinymembench::parse(text, path),
        "turbostat" => Ok(parsers::turbostat(text)),
        "unixbench" => Ok(unixbench::parse(text)),
        "uperf" => Ok(uperf::parse(text)),
        "vm-scalability" => super::vm_scalability::parse(text, path),
        "vmstat" => Ok(parsers::vmstat(text)),
        "will-it-scale" => will_it_scale::parse(text, path),
        "xfstests" => xfstests::parse(text, path),
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
/// its `RESULT_ROOT` (fio reads `fio.output[.N]` there, not the raw `fio` file; dmesg
/// and kmsg read the directory's path and its `last_state`).
pub fn parse_in_run(program: &str, text: &str, path: &str, tree: &dyn Tree, dir: &str) -> Option<Result<String>> {
    match program {
        "fio" => Some(fio::parse_run(tree, dir)),
        "dmesg" | "kmsg" => {
            let which = if program == "dmesg" { dmesg::Program::Dmesg } else { dmesg::Program::Kmsg };
            let root = tree.display(dir);
            let last_state = join(dir, "last_state");
            let last_state = tree.read(&last_state).ok().map(|b| String::from_utf8_lossy(&b).into_owned());
            let run = dmesg::Run { result_root: Some(&root), last_state: last_state.as_deref() };
            let kmsg = join(dir, "kmsg");
            if which == dmesg::Program::Dmesg && !tree.is_file(&join(dir, "dmesg")) && tree.is_file(&kmsg) {
                // run without a file, lkp's dmesg parser reads RESULT_ROOT/kmsg
                let shown = tree.display(&kmsg);
                return Some(super::read_text(tree, &kmsg).and_then(|t| dmesg::parse(which, &t, &shown, &run)));
            }
            Some(dmesg::parse(which, text, path, &run))
        }
        _ => parse(program, text, path),
    }
}
