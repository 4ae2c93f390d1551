//! MMTests extractors, one target per benchmark family, on log-file bytes.
//!
//! Input: a [`super::tree`] container whose header line is `<benchmark> <era>`
//! (`2018`, `2024`, `2025`, `head`; anything else picks one of the family's
//! benchmarks and an era from the header's bytes) and whose files are one
//! iteration's log directory (`iter-N/<file>` puts a file in iteration N). The files
//! are laid out as run `a` and run `b` of a `work/log` tree of that era, and
//! [`schedlab::mmtests::compare`] runs on them (plain and `--print-ratio`).
//!
//! Checks: errors are typed (a parse error names a file of the tree); the text
//! printed stays proportional to the input; and the compare-table parser reads the
//! printed table back with the same rows, kernels and values.

use super::common::{bounded, close_opt, typed_error};
use super::tree;
use schedlab::archive::MemTree;
use schedlab::mmtests::extract::BENCHMARKS;
use schedlab::mmtests::{compare, parse_text::parse_compare, CompareOptions, Era};
use schedlab::Error;

/// The benchmarks of one family: those whose name starts with one of `prefixes`.
fn named(prefixes: &[&str]) -> Vec<&'static str> {
    BENCHMARKS.iter().copied().filter(|b| prefixes.iter().any(|p| b.starts_with(p))).collect()
}
const ERAS: [Era; 4] = [Era::E2018, Era::E2024, Era::E2025, Era::Head];

/// The benchmark and era named by the header, or picked from its bytes.
fn choose(header: &[u8], family: &[&'static str]) -> (&'static str, Era) {
    let h = String::from_utf8_lossy(header);
    let mut it = h.split_whitespace();
    if let (Some(b), Some(e)) = (it.next(), it.next()) {
        if let (Some(b), Ok(e)) = (family.iter().find(|f| **f == b), Era::parse(e)) {
            return (b, e);
        }
    }
    let sum: usize = header.iter().map(|&b| b as usize).sum();
    (family[sum % family.len()], ERAS[(sum / family.len()) % ERAS.len()])
}

/// The work/log tree of runs `a` and `b`, both holding `files`.
fn work_log(bench: &str, era: Era, files: &[(String, &[u8])]) -> MemTree {
    let mut placed: Vec<(String, &[u8])> = Vec::new();
    for name in ["a", "b"] {
        for (f, bytes) in files {
            let (iter, rest) = match f.strip_prefix("iter-").and_then(|r| r.split_once('/')) {
                Some((n, rest)) if !n.is_empty() && n.len() <= 2 && n.bytes().all(|b| b.is_ascii_digit()) => (n, rest),
                _ => ("0", f.as_str()),
            };
            let path = match era {
                Era::E2018 => format!("{bench}-{name}/noprofile/{rest}"),
                _ => format!("{name}/iter-{iter}/{bench}/logs/{rest}"),
            };
            placed.push((path, bytes));
        }
    }
    tree::mem_tree("fuzz", "", &placed)
}

fn check_error(e: &Error) {
    typed_error(e);
    if let Error::Parse { loc, .. } = e {
        let p = loc.path.as_deref().unwrap_or("");
        assert!(p.starts_with("fuzz"), "a parse error names no file of the tree: {e}");
    }
}

fn family(data: &[u8], benches: &[&'static str]) {
    let (header, files) = tree::split(data);
    let (bench, era) = choose(header, benches);
    let t = work_log(bench, era, &files);
    let names = vec!["a".to_string(), "b".to_string()];
    for print_ratio in [false, true] {
        let opts = CompareOptions { compat: Some(era), print_ratio, threads: Some(1), ..Default::default() };
        match compare(&t, "", bench, &names, &opts) {
            Ok(rep) => {
                bounded(rep.text.len(), data.len() * 2, "compare-mmtests text");
                // an operation named with whitespace (from a file name) prints as MMTests
                // prints it, but no parser can split such a row: nothing to read back
                if rep.comparison.rows.iter().any(|r| r.name.contains(char::is_whitespace) || r.name.is_empty()) {
                    continue;
                }
                let c = &rep.comparison;
                let prec: usize = c.meta.mmtests.as_ref().and_then(|m| m.precision).unwrap_or(2);
                // a value as wide as its field (MMTests prints it whole) touches the
                // operation name before it ("Amean     302222222222221.7681" is op 3 or
                // 30 or 302...): ambiguous to any reader, so nothing to read back
                let fl: usize = c.meta.mmtests.as_ref().and_then(|m| m.field_length).unwrap_or(12);
                if c.rows
                    .iter()
                    .flat_map(|r| r.cells)
                    .filter_map(|p| p.value)
                    .any(|v| format!("{v:.prec$}").len() >= fl)
                {
                    continue;
                }
                let back = parse_compare(&rep.text, "<printed>")
                    .unwrap_or_else(|e| panic!("the printed table does not parse back: {e}\n{}", rep.text));
                assert_eq!(back.rows.len(), c.rows.len(), "rows lost:\n{}", rep.text);
                for (x, y) in c.rows.iter().zip(&back.rows) {
                    assert_eq!((&x.group, &x.name), (&y.group, &y.name), "row label changed:\n{}", rep.text);
                    for (p, q) in x.cells.iter().zip(&y.cells) {
                        // MMTests prints a missing value as 0 (and NaN as NaN)
                        let pv = Some(p.value.unwrap_or(if print_ratio { f64::NAN } else { 0.0 }));
                        assert!(
                            close_opt(pv, q.value, prec),
                            "value {:?} printed as {:?}:\n{}",
                            p.value,
                            q.value,
                            rep.text
                        );
                    }
                }
            }
            Err(e) => check_error(&e),
        }
    }
}

/// sockperf-{udp,tcp}-{throughput,under-load}.
pub fn sockperf(data: &[u8]) {
    family(data, &named(&["sockperf"]))
}

/// netperf-{udp,tcp}[-rr] and the head era's netperf-ipv4-* names.
pub fn netperf(data: &[u8]) {
    family(data, &named(&["netperf"]))
}

/// tbench4/dbench4 (and head's tbench/dbench).
pub fn dbench(data: &[u8]) {
    family(data, &named(&["tbench", "dbench"]))
}

/// hackbench-{process,thread}-{pipes,sockets}.
pub fn hackbench(data: &[u8]) {
    family(data, &named(&["hackbench"]))
}

/// schbench.
pub fn schbench(data: &[u8]) {
    family(data, &named(&["schbench"]))
}
