//! Which way is better for lkp metrics: schedlab's own table of the common metric
//! families (the robot's table shows no direction at all; docs/lkp.md §3.6).
//!
//! Written from published facts about the benchmarks (throughputs, scores and operation
//! rates are higher-is-better; latencies, run times, noise and power are lower-is-better),
//! in the spirit of lkp's `kpi_stat_direction`: the first pattern matching the whole key
//! decides; no match is `Unknown` (most monitor counters: a change in context switches
//! or interrupts is neither good nor bad by itself).

use crate::table::Direction;
use regex::Regex;
use std::sync::OnceLock;

/// (pattern matching the whole key, higher is better). Order matters: specific first.
const TABLE: &[(&str, bool)] = &[
    // failure counts and functional results
    (r"(?:dmesg|kmsg|stderr|last_state)\..*", false),
    (r".+\.(?:fail|error|warn|crash|timeout)", false),
    (r".+\.pass", true),
    // latencies, response times, noise: lower is better
    (r".*latenc(?:y|ies).*", false),
    (r".*\.(?:avg|max|min|p\d+|\d+(?:\.\d+)?%?)_?lat(?:_ns|_us|_ms)?", false),
    (r".*_lat(?:ency)?(?:_[a-z]+)?(?:_ns|_us|_ms)?", false),
    (r"ftq\..+\.noise.*", false),
    (r"fwq\..+\.noise.*", false),
    (r"cyclictest\..*", false),
    (r"schbench\..*(?:latency|lat).*", false),
    (r"schbench\..*rps.*", true),
    // elapsed/run times of a fixed amount of work: lower is better
    (r".*\.time\.elapsed_time(?:\.max)?", false),
    (r"kbuild\..*_per_iteration", false),
    (r"kernbench\.(?:elapsed|user|system)_time", false),
    (r"dd\..+_time(?:_ms)?", false),
    (r"pts\..+\.seconds", false),
    (r"hackbench\.(?:time|seconds).*", false),
    (r"perf-bench-sched-pipe\.(?:usec_per_op|msec_per_op|time)", false),
    (r"perf-bench-futex\..*(?:usec|time).*", false),
    (r"fsmark\.app_overhead", false),
    (r"boot-time\..*", false),
    (r"boot-memory\..*", false),
    (r"xfstests\..+\.seconds", false),
    (r".*\.runtime", false),
    // power and energy: lower is better (lkp etc/index-power.yaml: PkgWatt -1)
    (r"turbostat\.(?:PkgWatt|RAMWatt|CorWatt|GFXWatt)", false),
    (r"pmeter\.Average_Active_Power", false),
    (r"pmeter\.performance_per_watt", true),
    (r"energy\..*", false),
    // throughputs, scores, rates: higher is better
    (r"unixbench\.(?:score|throughput|workload)", true),
    (r"will-it-scale\..+_ops", true),
    (r"will-it-scale\.(?:workload|scalability)", true),
    (r"aim7\.jobs-per-min", true),
    (r"aim9\..+\.ops_per_s", true),
    (r"reaim\.(?:jobs_per_min|jobs_per_min_child|max_jobs_per_min|parent_time)", true),
    (r"fio\..+_(?:iops|bw_MBps|bw)", true),
    (r"fio\..+_lat_.*", false),
    (r"fsmark\.files_per_sec", true),
    (r"netperf\.Throughput.*", true),
    (r"iperf\..+_bps", true),
    (r"vm-scalability\.(?:throughput|median|workload)", true),
    (r"stress-ng\..+\.ops(?:_per_sec)?", true),
    (r"ebizzy\.throughput.*", true),
    (r"hackbench\.throughput", true),
    (r"pgbench\..*tps.*", true),
    (r"sysbench-.*\.(?:events_per_sec|transfer_rate|.*per_second)", true),
    (r"tbench\.throughput-MB/sec", true),
    (r"dbench\.throughput-MB/sec", true),
    (r"blogbench\.(?:read|write)_score", true),
    (r"pft\.faults_per_sec_per_cpu", true),
    (r"pmbench\.throughput.*", true),
    (r"stream\..+_bandwidth_MBps", true),
    (r"lmbench3\..+\.(?:bandwidth|MB/sec).*", true),
    (r"mlc\..*bandwidth.*", true),
    (r"redis\..*(?:requests_per_sec|ops).*", true),
    (r"memtier\..*ops_per_sec.*", true),
    (r"sockperf\..*(?:msg_per_sec|throughput).*", true),
    (r"swapin\.throughput", true),
    (r"perf-bench-numa-mem\..*GB_per_sec.*", true),
    (r"ycsb\..*throughput.*", true),
    (r".+\.(?:throughput|score|workload|ops_per_sec|ops|iops|bandwidth|bw|tps|qps|rps)", true),
    (r".+\.(?:operations|transactions|requests)_per_s(?:ec)?", true),
    (r".+_per_sec", true),
];

fn compiled() -> &'static [(Regex, bool)] {
    static C: OnceLock<Vec<(Regex, bool)>> = OnceLock::new();
    C.get_or_init(|| {
        TABLE.iter().filter_map(|(p, h)| Regex::new(&format!("^(?:{p})$")).ok().map(|r| (r, *h))).collect()
    })
}

/// The direction of an lkp metric (see the module doc), `Unknown` when no family matches.
///
/// ```
/// use schedlab::lkp::direction::direction;
/// use schedlab::table::Direction;
/// assert_eq!(direction("unixbench.score"), Direction::Higher);
/// assert_eq!(direction("unixbench.time.elapsed_time"), Direction::Lower);
/// assert_eq!(direction("vmstat.system.cs"), Direction::Unknown);
/// ```
pub fn direction(key: &str) -> Direction {
    compiled().iter().find(|(r, _)| r.is_match(key)).map_or(Direction::Unknown, |(_, h)| Direction::from_higher(*h))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families() {
        assert_eq!(compiled().len(), TABLE.len(), "every pattern compiles");
        assert_eq!(direction("will-it-scale.per_thread_ops"), Direction::Higher);
        assert_eq!(direction("schbench.latency_90%_us"), Direction::Lower);
        assert_eq!(direction("kbuild.buildtime_per_iteration"), Direction::Lower);
        assert_eq!(direction("fio.read_iops"), Direction::Higher);
        assert_eq!(direction("turbostat.PkgWatt"), Direction::Lower);
        assert_eq!(direction("dmesg.BUG:kernel_NULL_pointer_dereference"), Direction::Lower);
        assert_eq!(direction("interrupts.CAL:Function_call_interrupts"), Direction::Unknown);
        assert_eq!(direction("mpstat.cpu.all.idle%"), Direction::Unknown);
    }
}
