//! saladfork's log (`saladfork-0.log.gz`: `PARENT CHILD LATENCY`, then a line per fork with the
//! parent's and the child's CPU, zero-padded, and the latency) with `numactl --hardware` of the
//! iteration (`../../numactl.txt.gz`), as head's `saladfork/extract-report.pl` and 2024/2025's
//! `ExtractSaladfork.pm` read them: a fork is local when both CPUs are on one node
//! (docs/mmtests-extract.md).

use super::pattern::compiled;
use super::shellpack::{emit, mark_ratio, Row};
use super::{Ctx, Samples};
use crate::error::{Error, Result};
use crate::mmtests::logfile::{read_log, LogDir};
use crate::mmtests::perlfmt::{numify, perl_str};
use std::collections::HashMap;

/// One fork: whether it stayed on its node, and its latency as printed.
struct Fork {
    local: bool,
    latency: String,
}

/// The forks of the log, each line matching `([0-9]+)\s+([0-9]+)\s+([.0-9]+)`; the nodes from
/// the `node <n> cpus: <cpu> ...` lines of numactl's output (a CPU it does not list is on node
/// 0, as Perl's `==` reads an undefined value).
fn forks(dir: &LogDir<'_>, out: &mut Samples) -> Result<Vec<Fork>> {
    // <iteration>/<benchmark>/logs/../../numactl.txt.gz
    let iteration = dir.rel.rsplitn(3, '/').nth(2).unwrap_or("");
    let numactl = crate::archive::tree::join(iteration, "numactl.txt.gz");
    if dir.rel.matches('/').count() < 2 || !dir.tree.is_file(&numactl) {
        return Err(Error::parse(
            Some(&dir.tree.display(&numactl)),
            None,
            "no numactl --hardware output beside the iteration (saladfork's parser needs it to tell local \
             from remote forks)",
        ));
    }
    let node_re = compiled(r"^node ([0-9]*) cpus: (.*)")?;
    let mut node: HashMap<String, f64> = HashMap::new();
    for line in read_log(dir.tree, &numactl)?.lines() {
        if let Some(c) = node_re.captures(line) {
            let n = numify(c.get(1).map_or("", |m| m.as_str()));
            for cpu in c.get(2).map_or("", |m| m.as_str()).split(|c: char| c.is_ascii_whitespace()) {
                node.insert(cpu.to_string(), n);
            }
        }
    }
    if !dir.is_file("saladfork-0.log.gz") {
        return Err(Error::parse(Some(&dir.display()), None, "no saladfork-0.log.gz"));
    }
    let log = dir.read("saladfork-0.log.gz")?;
    out.files_read += 1;
    let re = compiled(r"([0-9]+)\s+([0-9]+)\s+([.0-9]+)")?;
    let on = |cpu: &str| node.get(&perl_str(numify(cpu).trunc())).copied().unwrap_or(0.0);
    Ok(log
        .lines()
        .filter_map(|l| re.captures(l))
        .map(|c| {
            let g = |k| c.get(k).map_or("", |m| m.as_str());
            Fork { local: on(g(1)) == on(g(2)), latency: g(3).to_string() }
        })
        .collect())
}

/// head: local forks the rows `local _ _ <n> <latency>` (a ratio operation), remote ones
/// `remote ...`, then `local_v_total _ _ 1 <local/all>` (0 without forks).
pub fn head(ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let forks = forks(dir, out)?;
    let (mut nl, mut nr) = (0, 0);
    let mut rows = Vec::new();
    for f in &forks {
        let (metric, n) = if f.local { ("local", &mut nl) } else { ("remote", &mut nr) };
        *n += 1;
        rows.push(Row {
            metric: metric.into(),
            a: "_".into(),
            b: "_".into(),
            interval: n.to_string(),
            value: f.latency.clone(),
        });
    }
    let total = nl + nr;
    let r = if total == 0 { 0.0 } else { f64::from(nl) / f64::from(total) };
    rows.push(Row {
        metric: "local_v_total".into(),
        a: "_".into(),
        b: "_".into(),
        interval: "1".into(),
        value: perl_str(r),
    });
    emit(ctx, &rows, out);
    mark_ratio(out, rows.iter().filter(|r| r.metric == "local"));
    Ok(())
}

/// 2024/2025: the latencies added to `local` or `remote` (a `NaN` placeholder for one with no
/// fork), then `local_v_total` the local share (the module divides by zero without forks).
pub fn legacy(_ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let forks = forks(dir, out)?;
    let (mut nl, mut nr) = (0u32, 0u32);
    for f in &forks {
        if f.local {
            nl += 1;
            out.add_text("local", &f.latency);
        } else {
            nr += 1;
            out.add_text("remote", &f.latency);
        }
    }
    if nl == 0 {
        out.add_text("local", "NaN");
    }
    if nr == 0 {
        out.add_text("remote", "NaN");
    }
    if nl + nr == 0 {
        return Err(Error::parse(
            Some(&dir.display()),
            None,
            "saladfork-0.log.gz holds no fork (ExtractSaladfork dies: Illegal division by zero)",
        ));
    }
    out.add("local_v_total", f64::from(nl) / f64::from(nl + nr));
    Ok(())
}
