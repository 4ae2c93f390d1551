//! `--print-monitor proc-interrupts`: interrupts per source between two samples of
//! /proc/interrupts, summed over CPUs (MMTests' MonitorProcinterrupts; docs/mmtests-monitors.md §5).
//!
//! A source's name is the text after its per-CPU counts, words joined by `-`; the
//! counts are the leading fields that end in a digit, so a chip name ending in one
//! (`PCI-MSIX-0000:00:01.0`) counts as a 0 and leaves the name to start after it.
//! Numbered MSI/queue names are folded (`MSI-N`, `TxRx-N`, `msixN`), so their queues
//! add up. A change of 10 or less is not recorded; the operations are the sources that
//! fired in a run's last iteration, sorted.

use super::{IterDir, Reader};
use crate::error::Result;
use crate::mmtests::extract::Samples;
use crate::mmtests::perlfmt::numify;
use std::collections::HashMap;

/// The proc-interrupts reader (no state across iterations but the operation list).
pub struct ProcInterrupts;

/// `s/MSI-[0-9]+/MSI-N/g` and the like: `word` followed by digits becomes `word` + `n`
/// (only the first with `all` false), written to `out`.
fn fold_into(s: &str, word: &str, n: &str, all: bool, out: &mut String) {
    out.clear();
    let mut rest = s;
    while let Some(i) = rest.find(word) {
        let (head, tail) = rest.split_at(i);
        let after = tail.get(word.len()..).unwrap_or("");
        let digits = after.len() - after.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        out.push_str(head);
        out.push_str(word);
        if digits == 0 {
            rest = after;
            continue;
        }
        out.push_str(n);
        rest = after.get(digits..).unwrap_or("");
        if !all {
            break;
        }
    }
    out.push_str(rest);
}

/// [`fold_into`] applied to `s` itself (`tmp` is scratch space); nothing to do, and no
/// copy, when `word` does not occur.
fn fold(s: &mut String, tmp: &mut String, word: &str, n: &str, all: bool) {
    if s.contains(word) {
        fold_into(s, word, n, all, tmp);
        std::mem::swap(s, tmp);
    }
}

/// The count of one /proc/interrupts line and its source's name in `source` (`tmp`
/// is scratch space); None when the line names no source.
fn parse_line(line: &str, source: &mut String, tmp: &mut String) -> Option<f64> {
    source.clear();
    let mut nr = 0.0;
    let mut reading_cpus = true;
    for e in line.split_ascii_whitespace().skip(1) {
        if reading_cpus && e.ends_with(|c: char| c.is_ascii_digit()) {
            nr += numify(e);
        } else {
            reading_cpus = false;
            if !source.is_empty() {
                source.push('-');
            }
            source.push_str(e);
        }
    }
    if source.is_empty() {
        return None;
    }
    fold(source, tmp, "msix", "N", false);
    fold(source, tmp, "MSI-", "N", true);
    fold(source, tmp, "TxRx-", "N", true);
    Some(nr)
}

impl Reader for ProcInterrupts {
    fn begin_run(&mut self) {}

    fn read(&mut self, it: &IterDir<'_>, out: &mut Samples) -> Result<()> {
        let Some(log) = it.monitor_log("proc-interrupts")? else { return Ok(()) };
        let mut start = 0.0f64;
        let mut timestamp = 0.0f64;
        // the sources of this log by first appearance; per sample, each one's count
        // (None: not in that sample)
        let mut ids: HashMap<String, usize> = HashMap::new();
        let mut names: Vec<String> = Vec::new();
        let mut counts: Vec<Option<f64>> = Vec::new();
        let mut last: Vec<Option<f64>> = Vec::new();
        let mut fired: Vec<bool> = Vec::new();
        let (mut source, mut tmp) = (String::new(), String::new());
        let mut lines = log.lines();
        while let Some(raw) = lines.next() {
            // s/.* -- //: up to the last " -- "
            let line = raw.rfind(" -- ").map_or(raw, |i| raw.get(i + 4..).unwrap_or("")).trim_start();
            let time = line
                .strip_prefix("time: ")
                .map(|r| r.split(|c: char| !c.is_ascii_digit()).next().unwrap_or(""))
                .filter(|d| !d.is_empty());
            if let Some(t) = time {
                if start == 0.0 {
                    start = numify(t);
                } else if timestamp - start > 0.0 {
                    for (id, count) in counts.iter().enumerate() {
                        let (Some(count), Some(name)) = (count, names.get(id)) else { continue };
                        let d = count - last.get(id).copied().flatten().unwrap_or(0.0);
                        if d > 10.0 {
                            out.add(name, d);
                            if let Some(f) = fired.get_mut(id) {
                                *f = true;
                            }
                        }
                    }
                }
                std::mem::swap(&mut last, &mut counts);
                counts.iter_mut().for_each(|c| *c = None);
                timestamp = numify(t);
                // the header line of CPU names
                lines.next();
                continue;
            }
            let Some(nr) = parse_line(line, &mut source, &mut tmp) else { continue };
            let id = match ids.get(source.as_str()) {
                Some(&id) => id,
                None => {
                    ids.insert(source.clone(), names.len());
                    names.push(source.clone());
                    fired.push(false);
                    names.len() - 1
                }
            };
            if counts.len() <= id {
                counts.resize(id + 1, None);
            }
            if let Some(c) = counts.get_mut(id) {
                *c = Some(c.unwrap_or(0.0) + nr);
            }
        }
        // _Operations: this iteration's fired sources, sorted (the last iteration's win)
        let mut ops: Vec<String> = names.into_iter().zip(fired).filter(|(_, f)| *f).map(|(n, _)| n).collect();
        ops.sort();
        out.set_order(ops);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_as_mmtests_names_them() {
        let parse = |line: &str| {
            let (mut s, mut t) = (String::new(), String::new());
            parse_line(line, &mut s, &mut t).map(|n| (s, n))
        };
        let (s, n) = parse("36:          0     980960 PCI-MSIX-0000:00:02.0   1-edge      virtio1-req.0").unwrap();
        assert_eq!((s.as_str(), n), ("1-edge-virtio1-req.0", 980960.0));
        let (s, _) = parse("47:  1 2  PCI-MSI 1048576-edge      eth0-TxRx-0").unwrap();
        assert_eq!(s, "PCI-MSI-N-edge-eth0-TxRx-N");
        assert_eq!(parse("ERR:          0"), None);
        let mut out = String::new();
        fold_into("a-msix12-msix3", "msix", "N", false, &mut out);
        assert_eq!(out, "a-msixN-msix3");
        fold_into("msi-MSI-x-MSI-7-MSI-", "MSI-", "N", true, &mut out);
        assert_eq!(out, "msi-MSI-x-MSI-N-MSI-");
    }
}
