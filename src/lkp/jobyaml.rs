//! The axes of an lkp job (`job.yaml`), as the ncompare header prints them.
//!
//! lkp's `Job#axes` (lib/job.rb) takes the result-path keys (testcase, tbox_group,
//! rootfs, kconfig, compiler, commit, …) plus every program option the job sets, where
//! "program option" is whatever each lkp program script declares. Without lkp's program
//! tree this module approximates it from the YAML alone: every top-level scalar except
//! the bookkeeping keys below, and the scalar options nested under a test/setup program
//! (not under a monitor). It reads the block-mapping subset of YAML job files use and
//! ignores what it does not understand (lists, multi-line strings).

/// Top-level job keys that are bookkeeping, not axes.
const NON_AXIS: &[&str] = &[
    "suite",
    "category",
    "testbox",
    "queue",
    "user",
    "job_origin",
    "jobfile",
    "job_file",
    "arch",
    "kernel",
    "result_root",
    "id",
    "model",
    "nr_node",
    "nr_cpu",
    "memory",
    "hdd_partitions",
    "ssd_partitions",
    "swap_partitions",
    "rootfs_partition",
    "brand",
    "branch",
    "enqueue_time",
    "dequeue_time",
    "bootloader_append",
    "kernel_cmdline",
    "repeat_to",
    "schedule_notify_address",
    "timeout",
    "head_commit",
    "base_commit",
    "kconfig_url",
    "job_state",
    "loadavg",
    "last_kernel",
    "host",
    "cpu_info",
    "bios",
    "need_kconfig",
    "need_memory",
    "need_cpu",
    "os",
    "os_arch",
    "os_version",
    "submit_id",
    "group_id",
    "email",
    "upload_dirs",
    "result_service",
    "LKP_SERVER",
    "lkp_initrd",
];

/// Monitors: their nested options are not axes (lib/job.rb `each_param`).
const MONITORS: &[&str] = &[
    "vmstat",
    "mpstat",
    "turbostat",
    "perf-profile",
    "perf-stat",
    "interrupts",
    "cpuidle",
    "proc-vmstat",
    "meminfo",
    "numa-meminfo",
    "numa-vmstat",
    "numa-numastat",
    "slabinfo",
    "softirqs",
    "sched_debug",
    "iostat",
    "diskstats",
    "buddyinfo",
    "pagetypeinfo",
    "zoneinfo",
    "lock_stat",
    "uptime",
    "kmsg",
    "heartbeat",
    "energy",
    "pmeter",
    "boot-time",
    "boot-meminfo",
    "latency_stats",
    "proc-stat",
    "ftrace",
    "watchdog",
    "oom-killer",
    "nfsstat",
    "perf-c2c",
    "perf-sched",
    "pmu-tools",
    "sched-debug",
    "cpufreq-stats",
    "debug-monitor",
    "memmap",
];

#[derive(Debug)]
enum Node {
    Scalar(String),
    Map(Vec<(String, Node)>),
    Null,
}

fn unquote(v: &str) -> String {
    let v = v.trim();
    let quoted = |q: char| v.strip_prefix(q).and_then(|inner| inner.strip_suffix(q));
    quoted('"').or_else(|| quoted('\'')).unwrap_or(v).to_string()
}

fn strip_comment(line: &str) -> &str {
    // a '#' starting a comment: at the start or after whitespace, outside quotes
    let mut quote: Option<char> = None;
    let mut prev_space = true;
    for (i, c) in line.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => quote = Some(c),
            // i is a char boundary (from char_indices): get() always succeeds
            None if c == '#' && prev_space => return line.get(..i).unwrap_or(line),
            None => {}
        }
        prev_space = c.is_whitespace();
    }
    line
}

/// Parse the block-mapping subset; unknown constructs are skipped.
fn parse(text: &str) -> Vec<(String, Node)> {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .map(strip_comment)
        .filter(|l| !l.trim().is_empty() && l.trim() != "---" && l.trim() != "...")
        .map(|l| (l.len() - l.trim_start().len(), l.trim_end()))
        .collect();
    let mut pos = 0;
    parse_map(&lines, &mut pos, 0)
}

fn parse_map(lines: &[(usize, &str)], pos: &mut usize, indent: usize) -> Vec<(String, Node)> {
    let mut out = Vec::new();
    while let Some(&(ind, line)) = lines.get(*pos) {
        if ind < indent {
            break;
        }
        *pos += 1;
        if ind > indent {
            continue; // stray deeper line (e.g. a multi-line value)
        }
        let body = line.trim_start();
        if body.starts_with("- ") || body == "-" {
            continue;
        }
        let Some((k, v)) = body.split_once(':').filter(|(_, v)| v.is_empty() || v.starts_with(' ')) else {
            continue;
        };
        let key = unquote(k);
        let v = v.trim();
        if v.is_empty() {
            match lines.get(*pos) {
                Some(&(next, l)) if next > indent && !l.trim_start().starts_with('-') => {
                    out.push((key, Node::Map(parse_map(lines, pos, next))));
                }
                _ => out.push((key, Node::Null)),
            }
        } else if v == "~"
            || v == "null"
            || v.starts_with('|')
            || v.starts_with('>')
            || v.starts_with('[')
            || v.starts_with('{')
        {
            out.push((key, Node::Null));
        } else {
            out.push((key, Node::Scalar(unquote(v))));
        }
    }
    out
}

/// lkp's `rootfs_filename`: the last component after any character outside `[a-zA-Z0-9._-]`.
fn rootfs_filename(r: &str) -> String {
    r.rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '_' || c == '-')).next().unwrap_or(r).to_string()
}

fn collect(map: &[(String, Node)], out: &mut Vec<(String, String)>) {
    for (k, v) in map {
        match v {
            Node::Scalar(s) if s != "false" => {
                out.retain(|(ok, _)| ok != k);
                out.push((k.clone(), s.clone()));
            }
            Node::Map(m) if !MONITORS.contains(&k.as_str()) => collect(m, out),
            _ => {}
        }
    }
}

/// lkp's defaults for result-path axes a job leaves out (`Job#axes`): `rootfs` and
/// `compiler` where the testcase's result path has them (lib/result.rb `PATH_SCHEME`).
fn defaults(testcase: Option<&str>) -> &'static [(&'static str, &'static str)] {
    const ROOTFS: (&str, &str) = ("rootfs", "debian-x86_64.cgz");
    const COMPILER: (&str, &str) = ("compiler", "gcc-7");
    match testcase {
        Some("health-stats" | "hwinfo" | "kvm-kernel-boot-test") => &[],
        Some("deploy-clang") => &[ROOTFS],
        _ => &[ROOTFS, COMPILER],
    }
}

/// The axes of a job file, unsorted (see the module doc for the rule).
pub fn axes(text: &str) -> Vec<(String, String)> {
    let top = parse(text);
    let mut out: Vec<(String, String)> = Vec::new();
    for (k, v) in &top {
        let skip = NON_AXIS.contains(&k.as_str())
            || k.starts_with(|c: char| c.is_ascii_uppercase())
            || k.contains("initrd")
            || k.starts_with(':');
        match v {
            Node::Scalar(s) if !skip && s != "false" => {
                let s = if k == "rootfs" { rootfs_filename(s) } else { s.clone() };
                out.retain(|(ok, _)| ok != k);
                out.push((k.clone(), s));
            }
            Node::Map(m) if !skip && !MONITORS.contains(&k.as_str()) => collect(m, &mut out),
            _ => {}
        }
    }
    let testcase = top.iter().find_map(|(k, v)| match v {
        Node::Scalar(s) if k == "testcase" => Some(s.as_str()),
        _ => None,
    });
    for (k, v) in defaults(testcase) {
        if !out.iter().any(|(ok, _)| ok == k) {
            out.push((k.to_string(), v.to_string()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes_of_the_golden_jobs() {
        // golden/lkp/scenario_a_raw/.../0/job.yaml
        let a = "---\ntestcase: unixbench\ncategory: benchmark\nruntime: 30s\nnr_task: 1\nunixbench:\n  test: execl\n\
                 tbox_group: lkp-ivb-d04\ntestbox: lkp-ivb-d04\nkconfig: x86_64-rhel\ncompiler: gcc-7\n\
                 rootfs: debian-x86_64.cgz\ncommit: a07630b8b2c16f82a2d7b5ecfa4a1c0a8e0c5a01\n";
        let mut ax = axes(a);
        ax.sort();
        let keys: Vec<&str> = ax.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            keys,
            ["commit", "compiler", "kconfig", "nr_task", "rootfs", "runtime", "tbox_group", "test", "testcase"]
        );
        let b = "testcase: will-it-scale\nmode: thread\nnr_task: 100%\nwill-it-scale:\n  test: page_fault1\n\
                 perf-profile:\n  delay: 20\nvmstat:\nrootfs: /osimage/debian/debian-12-x86_64.cgz # c\n";
        let ax = axes(b);
        assert!(ax.contains(&("nr_task".into(), "100%".into())));
        assert!(ax.contains(&("rootfs".into(), "debian-12-x86_64.cgz".into())));
        assert!(!ax.iter().any(|(k, _)| k == "delay" || k == "vmstat"));
        // lib/job.rb: no suite axis; rootfs and compiler default to debian-x86_64.cgz, gcc-7
        let ax = axes("suite: hackbench\ntestcase: hackbench\n");
        assert_eq!(ax.len(), 3, "{ax:?}");
        assert!(ax.contains(&("compiler".into(), "gcc-7".into())));
        assert!(ax.contains(&("rootfs".into(), "debian-x86_64.cgz".into())));
    }
}
