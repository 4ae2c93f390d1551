//! The axes of an lkp job (`job.yaml`), as the ncompare header prints them.
//!
//! lkp's `Job#axes` (lib/job.rb) takes the result-path keys (testcase, tbox_group,
//! rootfs, kconfig, compiler, commit, …) plus every program option the job sets, where
//! "program option" is whatever each lkp program script declares. Without lkp's program
//! tree this module approximates it from the YAML alone: every top-level scalar except
//! the bookkeeping keys below, and the scalar options nested under a test/setup program
//! (not under a monitor). The file is read with a YAML crate (anchors, aliases, merge
//! keys, flow and block collections) and its scalars typed as Ruby's Psych types them
//! ([`psych_scalar`]).

use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::{Marker, TScalarStyle};

use super::psych_scalar::{self, RubyScalar};
use crate::error::{Error, Result};

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

/// A job.yaml node with its scalars typed as Ruby's Psych types them.
#[derive(Debug, Clone)]
enum Node {
    Scalar(RubyScalar),
    Map(Vec<(String, Node)>),
    Seq(Vec<Node>),
}

/// A mapping key as text: a Symbol keeps its `:` (lkp's axes skip such keys).
fn key_text(n: &Node) -> Option<String> {
    match n {
        Node::Scalar(RubyScalar::Symbol(s)) => Some(format!(":{s}")),
        Node::Scalar(v) => Some(v.to_s().to_string()),
        _ => None,
    }
}

/// Ruby `Hash#[]=`: a key already present keeps its place and takes the new value.
fn insert(map: &mut Vec<(String, Node)>, k: String, v: Node) {
    match map.iter_mut().find(|(ok, _)| *ok == k) {
        Some(slot) => slot.1 = v,
        None => map.push((k, v)),
    }
}

/// Psych's merge key: `<<: map` merges it over the keys so far; `<<: [a, b]` merges the
/// list with the first map winning.
fn merge(map: &mut Vec<(String, Node)>, v: Node) {
    match v {
        Node::Map(m) => m.into_iter().for_each(|(k, v)| insert(map, k, v)),
        Node::Seq(items) => {
            let mut merged = Vec::new();
            for item in items.into_iter().rev() {
                if let Node::Map(m) = item {
                    m.into_iter().for_each(|(k, v)| insert(&mut merged, k, v));
                }
            }
            merged.into_iter().for_each(|(k, v)| insert(map, k, v));
        }
        Node::Scalar(_) => {}
    }
}

enum Frame {
    Map { anchor: usize, entries: Vec<(String, Node)>, key: Option<(Option<String>, bool)> },
    Seq { anchor: usize, items: Vec<Node> },
}

/// The text a node holds (keys and scalars), which aliases copy.
fn size(n: &Node) -> usize {
    match n {
        Node::Scalar(v) => v.to_s().len() + 1,
        Node::Map(m) => m.iter().map(|(k, v)| k.len() + 1 + size(v)).sum(),
        Node::Seq(items) => items.iter().map(size).sum(),
    }
}

/// Builds the first document's tree from the YAML crate's events, with at most `budget`
/// bytes of scalar text once aliases are expanded (an alias bomb stops there).
struct Builder {
    stack: Vec<Frame>,
    anchors: std::collections::HashMap<usize, (Node, usize)>,
    root: Option<Node>,
    used: usize,
    budget: usize,
}

impl Builder {
    fn new(budget: usize) -> Self {
        Builder { stack: Vec::new(), anchors: Default::default(), root: None, used: 0, budget }
    }

    fn over_budget(&self) -> bool {
        self.used > self.budget
    }

    fn complete(&mut self, node: Node, anchor: usize, may_merge: bool) {
        if anchor > 0 {
            let n = size(&node);
            self.anchors.insert(anchor, (node.clone(), n));
        }
        match self.stack.last_mut() {
            None => {
                if self.root.is_none() {
                    self.root = Some(node);
                }
            }
            Some(Frame::Seq { items, .. }) => items.push(node),
            Some(Frame::Map { entries, key, .. }) => match key.take() {
                None => *key = Some((key_text(&node), may_merge)),
                Some((Some(k), true)) if k == "<<" => merge(entries, node),
                Some((Some(k), _)) => insert(entries, k, node),
                Some((None, _)) => {} // a mapping or list as a key: not a job key
            },
        }
    }
}

impl MarkedEventReceiver for Builder {
    fn on_event(&mut self, ev: Event, _mark: Marker) {
        if self.over_budget() {
            return;
        }
        match ev {
            Event::Scalar(text, style, anchor, tag) => {
                self.used += text.len() + 1;
                let str_tag = tag.as_ref().is_some_and(|t| t.suffix == "str");
                let v = if str_tag || style != TScalarStyle::Plain {
                    RubyScalar::Text(text)
                } else {
                    psych_scalar::plain(&text)
                };
                // Psych: a `<<` key merges unless tagged !!str
                self.complete(Node::Scalar(v), anchor, !str_tag);
            }
            Event::Alias(id) => {
                let (node, n) = self.anchors.get(&id).cloned().unwrap_or((Node::Scalar(RubyScalar::Nil), 1));
                self.used += n;
                if !self.over_budget() {
                    self.complete(node, 0, false);
                }
            }
            Event::MappingStart(anchor, _) => self.stack.push(Frame::Map { anchor, entries: Vec::new(), key: None }),
            Event::SequenceStart(anchor, _) => self.stack.push(Frame::Seq { anchor, items: Vec::new() }),
            Event::MappingEnd | Event::SequenceEnd => match self.stack.pop() {
                Some(Frame::Map { anchor, entries, .. }) => self.complete(Node::Map(entries), anchor, false),
                Some(Frame::Seq { anchor, items }) => self.complete(Node::Seq(items), anchor, false),
                None => {}
            },
            _ => {}
        }
    }
}

/// The top-level mapping of a job file, read as lkp does (`YAML.unsafe_load`: the first
/// document, YAML 1.1 scalars); an error names the file and line.
fn parse(text: &str, shown: &str) -> Result<Vec<(String, Node)>> {
    let mut b = Builder::new(16 * text.len() + (1 << 16));
    Parser::new_from_str(text).load(&mut b, false).map_err(|e| {
        // an error at the end of the text is on its last line
        let line = e.marker().line().clamp(1, text.lines().count().max(1));
        Error::parse(Some(shown), Some(line), format!("not YAML: {}", e.info()))
    })?;
    if b.over_budget() {
        let msg = format!("its aliases expand to over {} bytes (a job file is far smaller)", b.budget);
        return Err(Error::parse(Some(shown), None, msg));
    }
    match b.root {
        Some(Node::Map(m)) => Ok(m),
        None | Some(Node::Scalar(RubyScalar::Nil)) => Err(Error::parse(Some(shown), None, "an empty job file")),
        Some(_) => Err(Error::parse(Some(shown), Some(1), "expected a mapping of job keys")),
    }
}

/// lkp's `rootfs_filename`: the last component after any character outside `[a-zA-Z0-9._-]`.
fn rootfs_filename(r: &str) -> String {
    r.rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '_' || c == '-')).next().unwrap_or(r).to_string()
}

/// A scalar's axis text, or `None` for nil and false (lkp: `v.to_s if v`).
fn axis_value(v: &RubyScalar) -> Option<&str> {
    match v {
        RubyScalar::Nil | RubyScalar::False => None,
        other => Some(other.to_s()),
    }
}

fn collect(map: &[(String, Node)], out: &mut Vec<(String, String)>) {
    for (k, v) in map {
        match v {
            Node::Scalar(s) if axis_value(s).is_some() => {
                out.retain(|(ok, _)| ok != k);
                out.push((k.clone(), s.to_s().to_string()));
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

/// The axes of job file `text` (named `shown` in errors), unsorted (see the module doc
/// for the rule); an error where lkp's YAML load fails.
pub fn axes(text: &str, shown: &str) -> Result<Vec<(String, String)>> {
    let top = parse(text, shown)?;
    let mut out: Vec<(String, String)> = Vec::new();
    for (k, v) in &top {
        let skip = NON_AXIS.contains(&k.as_str())
            || k.starts_with(|c: char| c.is_ascii_uppercase())
            || k.contains("initrd")
            || k.starts_with(':');
        match v {
            Node::Scalar(v) if !skip && axis_value(v).is_some() => {
                let s = if k == "rootfs" { rootfs_filename(v.to_s()) } else { v.to_s().to_string() };
                out.retain(|(ok, _)| ok != k);
                out.push((k.clone(), s));
            }
            Node::Map(m) if !skip && !MONITORS.contains(&k.as_str()) => collect(m, &mut out),
            _ => {}
        }
    }
    let testcase = top.iter().find_map(|(k, v)| match v {
        Node::Scalar(s) if k == "testcase" => Some(s.to_s()),
        _ => None,
    });
    for (k, v) in defaults(testcase) {
        if !out.iter().any(|(ok, _)| ok == k) {
            out.push((k.to_string(), v.to_string()));
        }
    }
    Ok(out)
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
        let mut ax = axes(a, "a.yaml").unwrap();
        ax.sort();
        let keys: Vec<&str> = ax.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            keys,
            ["commit", "compiler", "kconfig", "nr_task", "rootfs", "runtime", "tbox_group", "test", "testcase"]
        );
        let b = "testcase: will-it-scale\nmode: thread\nnr_task: 100%\nwill-it-scale:\n  test: page_fault1\n\
                 perf-profile:\n  delay: 20\nvmstat:\nrootfs: /osimage/debian/debian-12-x86_64.cgz # c\n";
        let ax = axes(b, "b.yaml").unwrap();
        assert!(ax.contains(&("nr_task".into(), "100%".into())));
        assert!(ax.contains(&("rootfs".into(), "debian-12-x86_64.cgz".into())));
        assert!(!ax.iter().any(|(k, _)| k == "delay" || k == "vmstat"));
        // lib/job.rb: no suite axis; rootfs and compiler default to debian-x86_64.cgz, gcc-7
        let ax = axes("suite: hackbench\ntestcase: hackbench\n", "c.yaml").unwrap();
        assert_eq!(ax.len(), 3, "{ax:?}");
        assert!(ax.contains(&("compiler".into(), "gcc-7".into())));
        assert!(ax.contains(&("rootfs".into(), "debian-x86_64.cgz".into())));
    }

    #[test]
    fn anchors_merge_keys_and_yaml_1_1_scalars_as_psych_loads_them() {
        // ruby 3.1.2: YAML.unsafe_load of this text gives
        // {"testcase"=>"hackbench", "runtime"=>5400, "nr_threads"=>8, "hackbench"=>{"mode"=>"threads",
        //  "ipc"=>"pipe", "loops"=>8, "verbose"=>false}, "vmstat"=>{"interval"=>10}}
        let job =
            "testcase: hackbench\nruntime: 1:30\nnr_threads: &n 8\nhackbench:\n  <<: &opts\n    mode: process\n    \
                   ipc: pipe\n  mode: threads\n  loops: *n\n  verbose: no\nvmstat:\n  interval: 10\n";
        let mut ax = axes(job, "job.yaml").unwrap();
        ax.sort();
        let want = [
            ("compiler", "gcc-7"),
            ("ipc", "pipe"),
            ("loops", "8"),
            ("mode", "threads"),
            ("nr_threads", "8"),
            ("rootfs", "debian-x86_64.cgz"),
            ("runtime", "5400"),
            ("testcase", "hackbench"),
        ];
        let got: Vec<(&str, &str)> = ax.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn broken_yaml_names_the_file_and_line() {
        // ruby 3.1.2: "mapping values are not allowed in this context at line 2 column 4"
        let e = axes("testcase: a\n  b: [1\n", "r/job.yaml").unwrap_err().to_string();
        assert!(e.starts_with("r/job.yaml:2: "), "{e}");
        let e = axes("- a\n- b\n", "r/job.yaml").unwrap_err().to_string();
        assert!(e.contains("expected a mapping"), "{e}");
        let e = axes("# only a comment\n", "r/job.yaml").unwrap_err().to_string();
        assert!(e.contains("empty"), "{e}");
        // an alias bomb: nine levels of nine aliases would expand to 9^9 scalars
        let mut bomb = String::from("a0: &a0 [x]\n");
        for i in 1..10 {
            bomb.push_str(&format!("a{i}: &a{i} [{}]\n", vec![format!("*a{}", i - 1); 9].join(", ")));
        }
        let e = axes(&bomb, "r/job.yaml").unwrap_err().to_string();
        assert!(e.contains("aliases expand"), "{e}");
    }
}
