//! `--print-monitor mpstat --sub-heading node-N`: the busy percentage (100 − %idle)
//! of `mpstat -P ALL -u`, summed over node N's CPUs per interval, with the CPU →
//! node map of cpu-topology-mmtests.txt (MMTests' MonitorMpstat and its Visualise
//! reader; docs/mmtests-monitors.md §8).
//!
//! MMTests' reader remembers the node of the first topology it renders for the
//! rest of the process, so only the first iteration of the first run reports its
//! own data; every later iteration (and run) reports that node's last sum, which is
//! 0 when the log ended on a `time:` line. schedlab prints the same and says so.

use super::{num, perl_split_ws, IterDir, Reader};
use crate::error::{Error, Result};
use crate::mmtests::extract::Samples;
use std::borrow::Cow;
use std::collections::HashMap;

/// Children by key, in first-seen order.
type Level<T> = Vec<(String, T)>;

/// A CPU topology: node → socket → llc → core → CPUs, each in first-seen order.
#[derive(Default)]
struct Topology {
    nodes: Level<Level<Level<Level<Vec<String>>>>>,
    /// CPU N → the number of its leaf path in `paths` (the last line naming it wins).
    lookup: HashMap<String, usize>,
    /// Every leaf path `node/socket/llc/core/cpu`, numbered: a sample's values are
    /// kept per path number.
    paths: HashMap<String, usize>,
}

/// The entry `key` of `v`, added at the end when new.
fn slot<'a, T: Default>(v: &'a mut Vec<(String, T)>, key: &str) -> Option<&'a mut T> {
    if !v.iter().any(|(k, _)| k == key) {
        v.push((key.to_string(), T::default()));
    }
    v.iter_mut().find(|(k, _)| k == key).map(|(_, t)| t)
}

impl Topology {
    fn parse(text: &str) -> Topology {
        let mut t = Topology::default();
        for line in text.lines() {
            // split(/\s/): single whitespace characters
            let e: Vec<&str> = line.split(|c: char| c.is_ascii_whitespace()).collect();
            let f = |i: usize| e.get(i).copied().unwrap_or("").to_string();
            let (node, socket, core, cpu) = (f(1), f(3), f(5), f(9));
            let llc = e.get(11).map_or_else(|| node.clone(), |s| s.to_string());
            let cpus = slot(&mut t.nodes, &node)
                .and_then(|s| slot(s, &socket))
                .and_then(|l| slot(l, &llc))
                .and_then(|c| slot(c, &core));
            if let Some(cpus) = cpus.filter(|c| !c.contains(&cpu)) {
                cpus.push(cpu.clone());
            }
            let n = t.paths.len();
            let path = *t.paths.entry(format!("{node}/{socket}/{llc}/{core}/{cpu}")).or_insert(n);
            t.lookup.insert(cpu, path);
        }
        t
    }

    /// The node's hierarchical sum of the CPUs' values (unset = 0), in the Perl's order.
    fn node_sum(&self, nid: &str, values: &[Option<f64>]) -> Option<f64> {
        let (node, sockets) = self.nodes.iter().find(|(n, _)| n == nid)?;
        let mut ns = 0.0;
        for (socket, llcs) in sockets {
            let mut ss = 0.0;
            for (llc, cores) in llcs {
                let mut ls = 0.0;
                for (core, cpus) in cores {
                    let mut cs = 0.0;
                    for cpu in cpus {
                        let path = self.paths.get(&format!("{node}/{socket}/{llc}/{core}/{cpu}"));
                        cs += path.and_then(|p| values.get(*p)).copied().flatten().unwrap_or(0.0);
                    }
                    ls += cs;
                }
                ss += ls;
            }
            ns += ss;
        }
        Some(ns)
    }
}

/// The mpstat reader: MMTests' process-wide state.
pub struct Mpstat {
    nid: String,
    expected_elements: Option<usize>,
    first_cpu: Option<f64>,
    /// Once the first frame is rendered: the node sum of the model it came from (the
    /// node MMTests keeps), updated while that model is the one being read.
    fixed: Option<f64>,
    iterations: usize,
}

impl Mpstat {
    /// A reader of sub-heading `node-N` (MMTests dies without one).
    pub fn new(sub: &str) -> Result<Mpstat> {
        let mut parts = sub.split('-');
        let ok = sub.starts_with("node-")
            && sub.get(5..).is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()) || r.is_empty());
        if parts.next() != Some("node") || !ok {
            return Err(Error::domain(format!(
                "mpstat needs --sub-heading node-N (a NUMA node of cpu-topology-mmtests.txt), not '{sub}' (MMTests dies)"
            )));
        }
        let nid = parts.next().unwrap_or("").to_string();
        Ok(Mpstat { nid, expected_elements: None, first_cpu: None, fixed: None, iterations: 0 })
    }
}

impl Reader for Mpstat {
    fn begin_run(&mut self) {}

    fn read(&mut self, it: &IterDir<'_>, out: &mut Samples) -> Result<()> {
        self.iterations += 1;
        let topo_log = it.open("cpu-topology-mmtests.txt")?.ok_or_else(|| Error::Io {
            path: it.tree.display(&crate::archive::tree::join(&it.dir, "cpu-topology-mmtests.txt.gz")),
            msg: "no CPU topology (MMTests' mpstat monitor dies without it)".into(),
            not_found: true,
        })?;
        let topo = Topology::parse(&topo_log.text);
        let log = it.monitor_log("mpstat")?.ok_or_else(|| Error::Io {
            path: it.tree.display(&crate::archive::tree::join(&it.dir, &format!("mpstat-{}.gz", it.benchmark))),
            msg: "no mpstat log (MMTests dies: \"Failed to open log file\")".into(),
            not_found: true,
        })?;
        let name = log.name();
        let lines: Vec<&str> = log.text.split_inclusive('\n').collect();
        let mut i = 0;
        // start(): skip to the first "time:" line, then "Linux ..." and an empty line
        while let Some(l) = lines.get(i) {
            i += 1;
            if l.starts_with("time:") {
                break;
            }
        }
        if !lines.get(i).is_some_and(|l| l.starts_with("Linux")) {
            return Err(Error::parse(Some(&name), Some(i + 1), "expected mpstat's 'Linux ...' header after the first 'time:' line (MMTests dies: \"Unexpected file format no header\")"));
        }
        if lines.get(i + 1).is_none_or(|l| *l != "\n") {
            return Err(Error::parse(
                Some(&name),
                Some(i + 2),
                "expected an empty line after mpstat's header (MMTests dies: \"Unexpected file format extra data\")",
            ));
        }
        i += 2;
        let mut reading_fixed = false;
        let op = format!("node-{}", self.nid);
        let mut values: Vec<Option<f64>> = vec![None; topo.paths.len()];
        // parseOne
        while let Some(first) = lines.get(i) {
            i += 1;
            let is_time = first.strip_prefix("time: ").is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()));
            if !is_time {
                break;
            }
            let mut expected_cpu: Option<f64> = None;
            while let Some(line) = lines.get(i) {
                i += 1;
                if line.contains("%idle") || line.contains("all") || line.starts_with("Linux") {
                    continue;
                }
                if *line == "\n" || line.is_empty() {
                    break;
                }
                let line = if line.contains(" AM") || line.contains(" PM") {
                    Cow::Owned(line.replacen(" AM", "", 1).replacen(" PM", "", 1))
                } else {
                    Cow::Borrowed(*line)
                };
                let e = perl_split_ws(&line);
                let value = 100.0 - num(e.last());
                let n = e.len().saturating_sub(1);
                let exp_el = *self.expected_elements.get_or_insert(n);
                let first_cpu = *self.first_cpu.get_or_insert(num(e.get(1)));
                let cpu = num(e.get(1));
                let mut exp = expected_cpu.unwrap_or(first_cpu - 1.0) + 1.0;
                if cpu != exp && cpu == first_cpu {
                    exp = first_cpu - 1.0;
                }
                expected_cpu = Some(exp);
                let c1 = e.get(1).copied().unwrap_or("");
                let digits = c1.strip_prefix('-').unwrap_or(c1);
                let time_ok = e.first().is_some_and(|t| {
                    let b = t.as_bytes();
                    b.len() >= 3
                        && b.first().is_some_and(u8::is_ascii_digit)
                        && b.get(1).is_some_and(u8::is_ascii_digit)
                        && b.get(2) == Some(&b':')
                });
                if exp_el != n
                    || !time_ok
                    || cpu != exp
                    || digits.is_empty()
                    || !digits.bytes().all(|b| b.is_ascii_digit())
                    || (c1.len() > 1 && c1.starts_with('0'))
                {
                    continue;
                }
                let path = topo.lookup.get(c1).ok_or_else(|| {
                    Error::parse(
                        Some(&name),
                        Some(i),
                        format!("cpu {c1} is not in cpu-topology-mmtests.txt (MMTests dies: \"Unable to identify unique key\")"),
                    )
                })?;
                if let Some(v) = values.get_mut(*path) {
                    *v = Some(value);
                }
            }
            // propogateValues on this iteration's model
            let sum = topo.node_sum(&self.nid, &values);
            if reading_fixed {
                self.fixed = sum;
            }
            if i >= lines.len() {
                break;
            }
            // renderOne: the first one fixes the node for the rest of the process
            if self.fixed.is_none() {
                self.fixed = Some(sum.ok_or_else(|| {
                    Error::domain(format!(
                        "node {} is not in {} (MMTests dies: \"Unable to identify unique key\")",
                        self.nid,
                        topo_log.name()
                    ))
                })?);
                reading_fixed = true;
            }
            out.add(&op, self.fixed.unwrap_or(0.0));
            values.iter_mut().for_each(|v| *v = None);
        }
        Ok(())
    }

    fn warnings(&self) -> Vec<String> {
        if self.iterations <= 1 {
            return Vec::new();
        }
        vec![format!(
            "MMTests' mpstat monitor keeps the node of the first iteration it reads: every later iteration and run reports {} (that node's last sum), not its own data; reproduced as compare-mmtests.pl prints it",
            crate::mmtests::perlfmt::perl_str(self.fixed.unwrap_or(0.0))
        )]
    }
}
