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
use std::collections::{BTreeMap, BTreeSet};

/// The proc-interrupts reader (no state across iterations but the operation list).
pub struct ProcInterrupts;

/// `s/MSI-[0-9]+/MSI-N/g` and the like: `word` followed by digits becomes `word` + `n`.
fn fold(s: &str, word: &str, n: &str, all: bool) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find(word) {
        let (head, tail) = rest.split_at(i);
        let after = tail.get(word.len()..).unwrap_or("");
        let digits = after.len() - after.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        out.push_str(head);
        if digits == 0 {
            out.push_str(word);
            rest = after;
            continue;
        }
        out.push_str(word);
        out.push_str(n);
        rest = after.get(digits..).unwrap_or("");
        if !all {
            out.push_str(rest);
            return out;
        }
    }
    out.push_str(rest);
    out
}

/// The (source, count) of one /proc/interrupts line, if it names a source.
fn parse_line(line: &str) -> Option<(String, f64)> {
    let elements: Vec<&str> = line.split_ascii_whitespace().collect();
    let mut source = String::new();
    let mut nr = 0.0;
    let mut reading_cpus = true;
    for e in elements.iter().skip(1) {
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
    let source = fold(&source, "msix", "N", false);
    let source = fold(&source, "MSI-", "N", true);
    let source = fold(&source, "TxRx-", "N", true);
    Some((source, nr))
}

impl Reader for ProcInterrupts {
    fn begin_run(&mut self) {}

    fn read(&mut self, it: &IterDir<'_>, out: &mut Samples) -> Result<()> {
        let Some(log) = it.monitor_log("proc-interrupts")? else { return Ok(()) };
        let mut start = 0.0f64;
        let mut timestamp = 0.0f64;
        let mut sources: BTreeMap<String, f64> = BTreeMap::new();
        let mut last: BTreeMap<String, f64> = BTreeMap::new();
        let mut fired: BTreeSet<String> = BTreeSet::new();
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
                    for (source, count) in &sources {
                        let d = count - last.get(source).copied().unwrap_or(0.0);
                        if d > 10.0 {
                            out.add(source, d);
                            fired.insert(source.clone());
                        }
                    }
                }
                last = std::mem::take(&mut sources);
                timestamp = numify(t);
                // the header line of CPU names
                lines.next();
                continue;
            }
            if let Some((source, nr)) = parse_line(line) {
                *sources.entry(source).or_insert(0.0) += nr;
            }
        }
        // _Operations: this iteration's fired sources (the last iteration's win)
        out.set_order(fired.into_iter().collect());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_as_mmtests_names_them() {
        let (s, n) = parse_line("36:          0     980960 PCI-MSIX-0000:00:02.0   1-edge      virtio1-req.0").unwrap();
        assert_eq!((s.as_str(), n), ("1-edge-virtio1-req.0", 980960.0));
        let (s, _) = parse_line("47:  1 2  PCI-MSI 1048576-edge      eth0-TxRx-0").unwrap();
        assert_eq!(s, "PCI-MSI-N-edge-eth0-TxRx-N");
        assert_eq!(parse_line("ERR:          0"), None);
        assert_eq!(fold("a-msix12-msix3", "msix", "N", false), "a-msixN-msix3");
    }
}
