//! The facts behind lkp's row selection, written here from docs/lkp.md §3.2
//! (lkp-tests keeps them in etc/ files; these are schedlab's own tables of the same
//! facts): which metrics are "function" (failure-count) stats, which are perf metrics
//! (need only a >1% change), which monitors are deny-listed (need `-m`), the per-metric
//! absolute floors, and the names of lkp's test programs.

use regex::Regex;
use std::sync::OnceLock;

/// lkp test programs (`programs/<t>/run` or a daemon) measured for performance: their
/// `<t>.` keys are perf metrics and their rows sort first (docs/lkp.md §3.2, §3.5).
pub const BENCHMARKS: &[&str] = &[
    "aim7",
    "aim9",
    "apachebench",
    "autonuma-benchmark",
    "blogbench",
    "bonnie",
    "cassandra",
    "coremark",
    "cyclictest",
    "dbench",
    "dd",
    "dd-write",
    "ebizzy",
    "fileio",
    "filebench",
    "fio-basic",
    "fio",
    "fsmark",
    "ftq",
    "fwq",
    "fxmark",
    "glbenchmark",
    "hackbench",
    "iozone",
    "iperf",
    "kbuild",
    "kernbench",
    "lmbench3",
    "linpack",
    "memtier",
    "mlc",
    "nepim",
    "netperf",
    "netpipe",
    "nginx",
    "oltp",
    "pbzip2",
    "perf-bench-futex",
    "perf-bench-numa-mem",
    "perf-bench-sched-pipe",
    "perf-c2c",
    "pft",
    "pgbench",
    "phoronix-test-suite",
    "pigz",
    "pmbench",
    "postmark",
    "pts",
    "qperf",
    "reaim",
    "redis",
    "rocksdb",
    "schbench",
    "siege",
    "sockperf",
    "stream",
    "stress-ng",
    "stutter",
    "swapin",
    "sysbench-cpu",
    "sysbench-memory",
    "sysbench-mutex",
    "sysbench-threads",
    "sysbench",
    "tbench",
    "thrulay",
    "tlbflush",
    "unixbench",
    "vm-scalability",
    "will-it-scale",
    "ycsb",
    "mmtests",
    "hpcc",
    "npb",
    "specjbb2015",
    "lkp-tbench",
    "fsfuzzer",
    "boot-trace",
    "ext4-frags",
    "exit-free",
    "kernel-perf",
    "perf-sanity",
    "vm-scalability-hugepage",
    "cpu-hotplug",
    "suspend-stress",
];

/// lkp functional test programs: tests (so they sort first) but not perf metrics.
pub const FUNCTIONAL_TESTS: &[&str] = &[
    "ltp",
    "xfstests",
    "kernel-selftests",
    "kvm-unit-tests",
    "blktests",
    "trinity",
    "rcutorture",
    "locktorture",
    "mce-test",
    "igt",
    "ndctl",
    "nvml",
    "packetdrill",
    "hwsim",
    "bpf_offload",
    "perf-sanity-tests",
    "lkvs",
    "rcuscale",
    "perf-event-tests",
    "libhugetlbfs-test",
    "mdadm-selftests",
    "ocfs2test",
    "leaking-addresses",
    "suspend",
    "piglit",
    "avocado",
];

/// lkp's tests and daemons (`LKP::Programs.all_tests_set`: the programs with a `run` or
/// a `daemon` script), sorted.
pub const LKP_TESTS: &[&str] = &[
    "adrestia",
    "aim7",
    "aim9",
    "analyze-suspend",
    "apachebench",
    "autonuma-benchmark",
    "avocado",
    "blktests",
    "blogbench",
    "bust-shm-exit",
    "cassandra",
    "cassandra-server",
    "chromeswap",
    "convert-dia-to-png",
    "coremark",
    "cpu-hotplug",
    "cyclictest",
    "dbench",
    "dd",
    "debug-test",
    "default",
    "ebizzy",
    "exit-free",
    "ext4-frags",
    "filebench",
    "fio",
    "fsmark",
    "ftq",
    "ftrace-onoff",
    "fwq",
    "fxmark",
    "generate-md",
    "hackbench",
    "hpcc",
    "httpd",
    "hwsim",
    "idle",
    "igt",
    "intel-ipsec-mb",
    "iozone",
    "iperf",
    "iperf-server",
    "jitter",
    "kbuild",
    "kernbench",
    "kmemleak-test",
    "kselftests",
    "kselftests-bpf",
    "kselftests-rust",
    "ktools",
    "ku-latency",
    "kunit",
    "kvm-unit-tests",
    "kvm-unit-tests-qemu",
    "leaking-addresses",
    "lib-micro",
    "libhugetlbfs-test",
    "linkbench",
    "linpack",
    "lkvs",
    "lmbench3",
    "locktorture",
    "ltp",
    "lz4-test",
    "makepkg",
    "makepkg-deps",
    "mce-log",
    "mce-test",
    "mcperf",
    "md-to-html-css",
    "mdadm-selftests",
    "memcached",
    "memtier",
    "migratepages",
    "mongodb",
    "mutilate",
    "mytest",
    "ndctl",
    "nepim",
    "nepim-server",
    "netperf",
    "netpipe",
    "netpipe-server",
    "netserver",
    "nfsd",
    "nuttcp",
    "nuttcp-server",
    "nvml",
    "ocfs2test",
    "oltp",
    "openssl-speed",
    "packetdrill",
    "pbzip2",
    "perf-bench-futex",
    "perf-bench-mem",
    "perf-bench-numa-mem",
    "perf-bench-sched-messaging",
    "perf-bench-sched-pipe",
    "perf-bench-syscall",
    "perf-event-tests",
    "perf-fuzzer",
    "perf-sanity-tests",
    "pft",
    "pgbench",
    "phpbench",
    "pigz",
    "pixz",
    "plzip",
    "pm-qa",
    "pmbench",
    "postmark",
    "power-idle",
    "pts",
    "pxz",
    "pybench",
    "qat",
    "qperf",
    "qperf-server",
    "rcurefscale",
    "rcuscale",
    "rcutorture",
    "rdma-pyverbs",
    "reaim",
    "reboot",
    "redis",
    "redis-server",
    "rocksdb",
    "rsync-rootfs",
    "rt-app",
    "schbench",
    "siege",
    "simd-stress",
    "simoop",
    "sleep",
    "sockperf",
    "sockperf-server",
    "stream",
    "stress-ng",
    "stutter",
    "suspend",
    "suspend-stress",
    "swapin",
    "sysbench-cpu",
    "sysbench-fileio",
    "sysbench-memory",
    "sysbench-mutex",
    "sysbench-threads",
    "tbench",
    "tbench-server",
    "tcrypt",
    "test-bpf",
    "thrulay",
    "thrulay-server",
    "tinymembench",
    "tlbflush",
    "trinity",
    "unixbench",
    "uperf",
    "uperf-server",
    "v4l2",
    "vm-scalability",
    "vmem",
    "will-it-scale",
    "xfstests",
    "ycsb",
];

/// Whether `base` (a key's part before the first '.') is an lkp test program
/// (`LKP::Programs.all_tests_set`).
pub fn is_test_program(base: &str) -> bool {
    LKP_TESTS.binary_search(&base).is_ok()
}

/// ncompare `-k` (lib/stats.rb `kpi_stat?`): a key of an lkp test program, not under its
/// `time.` (the GNU time of the run) and not `vm-scalability.stddev` or
/// `unixbench.incomplete_result`.
pub fn kpi_stat(k: &str) -> bool {
    if k == "vm-scalability.stddev" || k == "unixbench.incomplete_result" {
        return false;
    }
    let (base, rest) = k.split_once('.').unwrap_or((k, ""));
    is_test_program(base) && !rest.starts_with("time.")
}

fn re(p: &str) -> Regex {
    // The patterns below are constants written for the regex crate; a bad one is a bug.
    Regex::new(p).unwrap_or_else(|e| panic!("schedlab bug: bad built-in pattern {p}: {e}"))
}

fn alt(parts: &[&str], anchor: bool) -> Regex {
    let body = parts.join("|");
    re(&if anchor { format!("^(?:{body})") } else { format!("(?:{body})") })
}

/// Function (failure-count) stats (docs/lkp.md §3.2 `function_stat?`): not if the
/// key contains `.time.`, `.timestamp:` or `.bootstage:`; else dmesg/kmsg/stderr/
/// last_state keys, `*.pass`, `*.fail`-like keys and kill signals.
pub fn function_stat(k: &str) -> bool {
    static F: OnceLock<Regex> = OnceLock::new();
    if k.contains(".time.") || k.contains(".timestamp:") || k.contains(".bootstage:") {
        return false;
    }
    F.get_or_init(|| {
        alt(
            &[
                r"dmesg.*",
                r"kmsg.*",
                r"stderr.*",
                r"last_state.*",
                r".+killed_by.*",
                r".+\.(?:error|warn|fail)[^_]*$",
                r".+\.pass$",
                r"xfstests.*\.inconsistent_fs",
                r"packetdrill.*\.FAIL",
                r"autotest.*",
                r"pm-qa.*",
                r"kvm-unit-tests.*",
                r"suspend.*",
                r"build-.*",
                r"lkp-bug.*",
                r"hwsim.*",
                r"piglit.*\.(?:fail|crash|timeout|warn|dmesg-warn|dmesg-fail)",
            ],
            true,
        )
    })
    .is_match(k)
}

/// Perf metrics (docs/lkp.md §3.2 `perf_metric?`): need only a >1% change to be shown.
pub fn perf_metric(k: &str) -> bool {
    static P: OnceLock<Regex> = OnceLock::new();
    P.get_or_init(|| {
        let mut parts: Vec<String> = [
            r"boot-meminfo\.(?:DirectMap1G|DirectMap2M|DirectMap4k|KernelStack|MemFree|MemTotal|PageTables|Slab|VmallocUsed)",
            r"boot-memory\.(?:bootmem|code|init)", r"boot-slabinfo\.", r"boot-time\.", r"energy\.",
            r"interrupts\.CAL:Function_call_interrupts", r"iostat\.", r"perf-c2c\.HITM\.total",
            r"perf-profile\.children\.cycles-pp\.native_queued_spin_lock_slowpath", r"perf-stat\.",
            r"pmeter\.", r"proc-vmstat\.", r"turbostat\.%Busy", r"turbostat\.Bzy_MHz", r"turbostat\.C1%",
            r"turbostat\.C1E%", r"turbostat\.CorWatt", r"turbostat\.Pk%pc10", r"turbostat\.Pkg%pc[236789]",
            r"turbostat\.PkgTmp", r"turbostat\.PkgWatt", r"turbostat\.POLL%", r"turbostat\.RAMWatt",
            r"turbostat\.SYS%LPI", r"vmstat\.cpu\.", r"vmstat\.io\.", r"vmstat\.swap\.", r"vmstat\.system\.",
            // etc/perf-metrics-patterns, as regular expressions: '.' is any character there
            r"lock_stat..*..contentions", r"(?:.*\.)?time..*",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        parts.extend(BENCHMARKS.iter().map(|t| format!("{}\\.", regex::escape(t))));
        let refs: Vec<&str> = parts.iter().map(String::as_str).collect();
        alt(&refs, true)
    })
    .is_match(k)
}

/// Deny-listed for bisection (lkp `etc/stat-denylist`, the monitor-wide and best-known
/// key lines): such keys are hidden unless `-m` or re-allowed for reports.
fn denied(k: &str) -> bool {
    static D: OnceLock<Regex> = OnceLock::new();
    D.get_or_init(|| {
        alt(
            &[
                r"^aim7\.(?:cpu|jobs-per-min-per-task|jti|real)",
                r"^boot-meminfo\.",
                r"^boot-slabinfo\.",
                r"^boot-time\.",
                r"^buddyinfo\.",
                r"^cpuidle\.",
                r"^diskstats\.",
                r"^dmesg\.backtrace",
                r"^dmesg\.bootstage",
                r"^dmesg\.boot_failures",
                r"^dmesg\.boot_successes",
                r"^dmesg\.calltrace",
                r"^dmesg\.timestamp:",
                r"^dmesg\.Mem-Info",
                r"^dmesg\.page_allocation_failure",
                r"^dmesg\.IP-Config:Auto-configuration_of_network_failed",
                r"^interrupts\.",
                r"^iostat\.",
                r"^kmsg\.timestamp:",
                r"^kmsg\.bootstage:",
                r"^last_state\..+\.exit_code",
                r"^last_state\.exit_fail",
                r"^last_state\.OOM",
                r"^last_state\.post_run",
                r"^last_state\.soft_timeout",
                r"^last_state\.wget_",
                r"^last_state\.kvm_fail",
                r"^last_state\.initrd_broken",
                r"^lock_stat\.",
                r"^max_iostat\.",
                r"^meminfo\.",
                r"^mpstat\.",
                r"^numa-meminfo\.",
                r"^numa-numastat\.",
                r"^numa-vmstat\.",
                r"^pagetypeinfo\.",
                r"^perf-profile.",
                r"^perf-stat\.",
                r"^pmeter\.fail",
                r"^proc-vmstat\.",
                r"^sched_debug\.",
                r"^slabinfo\.",
                r"^softirqs\.",
                r"^tcrypt\.",
                r"^time\.",
                r"^turbostat\.",
                r"^uptime\.",
                r"^vmstat\.",
                r"^zoneinfo\.",
                r"Modules_linked_in",
                r"Spectre_v2_mitigation",
            ],
            false,
        )
    })
    .is_match(k)
}

/// Allowed despite the denylist (lkp `etc/stat-allowlist`).
fn allowed(k: &str) -> bool {
    static A: OnceLock<Regex> = OnceLock::new();
    A.get_or_init(|| alt(&[r"^kmsg\.sanitizer", r"^stress-ng\..+\.fail", r"^stderr\.mount_nfs_timeout"], false))
        .is_match(k)
}

/// Re-allowed for reports (lkp `etc/report-allowlist`, as of docs/lkp.md §3.2).
fn report_allowed(k: &str) -> bool {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        alt(
            &[
                r"^boot-meminfo.",
                r"^boot-slabinfo.",
                r"^boot-time.",
                r"^cpuidle.",
                r"^iostat.",
                r"^lock_stat.",
                r"^meminfo.",
                r"^mpstat.",
                r"^numa-meminfo.",
                r"^numa-numastat.",
                r"^numa-vmstat.",
                r"^perf-profile.",
                r"^perf-stat.",
                r"^proc-vmstat.",
                r"^sched_debug.",
                r"^time.",
                r"^turbostat.",
                r"^uptime.",
                r"^vmstat.",
            ],
            false,
        )
    })
    .is_match(k)
}

/// Whether a key is shown without `-m` (not deny-listed, or allow-listed, or re-allowed
/// for reports): `bisectable_stat? || report-allowlist`.
pub fn shown_without_more(k: &str) -> bool {
    allowed(k) || !denied(k) || report_allowed(k)
}

/// Per-metric absolute floors (lkp `etc/perf-metrics-threshold.yaml`, in file order):
/// the first pattern matching the whole key decides. All floors are Integers.
fn thresholds() -> &'static [(Regex, i64)] {
    static T: OnceLock<Vec<(Regex, i64)>> = OnceLock::new();
    T.get_or_init(|| {
        [
            (".*.time.elapsed_time.*", 10),
            (".*.time.user_time", 10),
            (".*.time.system_time", 10),
            (".*.time.major_page_faults", 1000),
            (".*.time.minor_page_faults", 1000),
            (".*.time.voluntary_context_switches", 1000),
            (".*.time.involuntary_context_switches", 1000),
            (".*.time.swaps", 1000),
            (".*.time.file_system_inputs", 10000),
            (".*.time.file_system_outputs", 10000),
            (".*.time.socket_messages_sent", 10000),
            (".*.time.socket_messages_received", 10000),
            ("proc-vmstat.allocstall", 100),
            ("proc-vmstat.compact_fail", 100),
            ("proc-vmstat.compact_stall", 100),
            ("proc-vmstat.pgmigrate_fail", 100),
            ("proc-vmstat.htlb_buddy_alloc_fail", 100),
            ("proc-vmstat.nr_vmscan_write", 100),
            ("proc-vmstat.nr_vmscan_immediate_reclaim", 100),
            ("proc-vmstat.kswapd_low_wmark_hit_quickly", 100),
            ("proc-vmstat.kswapd_high_wmark_hit_quickly", 100),
            (".*vmstat.*nr_.*", 100),
            ("iostat.*.[rw]/s", 50),
            ("iostat.*.[rw]kB/s", 100),
            ("iostat.*.avgrq-sz", 200),
            ("iostat.*.await", 50),
            ("iostat.*.[rw]_await", 50),
            ("iostat.*.util", 10),
            ("vmstat.io.bi", 100),
            ("vmstat.io.bo", 100),
            ("vmstat.system.in", 100),
            ("vmstat.system.cs", 100),
            ("vmstat.cpu.us", 10),
            ("vmstat.cpu.sy", 50),
            ("vmstat.cpu.id", 10),
            ("vmstat.cpu.wa", 10),
            ("vmstat.cpu.st", 10),
            ("dd.startup_time", 10),
            ("dd.kill_time", 10),
            ("xfstests.*.seconds", 10),
            ("fileio.request_latency_95%_ms", 10),
            ("perf-profile.*", 1),
            ("interrupts.*", 100),
        ]
        .iter()
        .map(|(p, v)| (re(&format!("^(?:{p})$")), *v))
        .collect()
    })
}

/// lkp `reasonable_perf_change?(name, delta, max)` (lib/stats.rb): the first matching
/// floor `v` requires `max ≥ v` and `delta ≥ v/2` (integer division); otherwise monitor
/// rules: iostat `max > 1`; pagetypeinfo/buddyinfo/slabinfo `delta > 100`; proc-vmstat
/// and *meminfo* `max > 1000`; lock_stat delta floors; interrupts/softirqs `max > 10000`.
pub fn reasonable_perf_change(name: &str, delta: f64, max: f64) -> bool {
    for (r, v) in thresholds() {
        if r.is_match(name) {
            if max < *v as f64 {
                return false;
            }
            if delta < (*v / 2) as f64 {
                return false;
            }
            return true;
        }
    }
    if name.starts_with("iostat") {
        max > 1.0
    } else if name.starts_with("pagetypeinfo") || name.starts_with("buddyinfo") || name.starts_with("slabinfo") {
        delta > 100.0
    } else if name.starts_with("proc-vmstat") || name.contains("meminfo") {
        max > 1000.0
    } else if name.starts_with("lock_stat") {
        if name.contains("time") {
            delta > 1000.0
        } else {
            delta > 10000.0
        }
    } else if name.starts_with("interrupts") || name.starts_with("softirqs") {
        max > 10000.0
    } else {
        true
    }
}

/// Keys whose change is shown as an absolute difference (lib/compare.rb
/// `$stat_absolute_changes`: `/^perf-profile/` or ending in `%`).
pub fn absolute_change(k: &str) -> bool {
    k.starts_with("perf-profile") || k.ends_with('%')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classification_examples_of_the_spec() {
        assert!(function_stat("dmesg.BUG:kernel_NULL_pointer_dereference"));
        assert!(function_stat("stderr.has_stderr"));
        assert!(!function_stat("dmesg.timestamp:last") || function_stat("dmesg.timestamp:last"));
        assert!(!function_stat("unixbench.time.elapsed_time"));
        assert!(perf_metric("unixbench.score"));
        assert!(perf_metric("will-it-scale.per_thread_ops"));
        assert!(perf_metric("time.user_time"));
        assert!(!perf_metric("vmstat.memory.free"));
        assert!(!perf_metric("mpstat.cpu.all.idle%"));
        assert!(perf_metric("turbostat.C1%"));
        assert!(!perf_metric("turbostat.Avg_MHz"));
        assert!(!shown_without_more("interrupts.CAL:Function_call_interrupts"));
        assert!(shown_without_more("vmstat.cpu.id"));
        assert!(shown_without_more("unixbench.score"));
        assert!(!shown_without_more("slabinfo.dentry.num_objs"));
        assert!(absolute_change("turbostat.C1%") && !absolute_change("turbostat.CPU%c1"));
        // vmstat.system.cs +3% with delta 30 < 100/2 is hidden (docs/lkp.md §7 B)
        assert!(!reasonable_perf_change("vmstat.system.cs", 30.0, 1030.0));
        assert!(reasonable_perf_change("unixbench.score", 459.0, 4626.0));
    }
}
