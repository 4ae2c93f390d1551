//! Which MMTests era wrote a run's logs, told from the files themselves: the log
//! layout, file names and line formats that only some eras' shellpacks write, and
//! last which eras' extractors find results at all. The era comes with the reason,
//! naming the file (and line) that decided it, or saying that the files cannot tell
//! and which default was taken (reference: docs/mmtests.md §0.1).

use super::era::Era;
use super::extract::{self, Ctx};
use super::logfile::{read_log, LogDir};
use crate::archive::tree::join;
use crate::archive::Tree;
use crate::error::{Error, Result};

/// The era chosen for a run and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Detection {
    /// The era whose rules apply.
    pub era: Era,
    /// Whether the files (or `--compat`) decided it; false when they cannot tell
    /// and `era` is the default.
    pub decided: bool,
    /// Why: the marker (file, line) or "cannot tell ..., using ...".
    pub reason: String,
    /// The eras the files leave (newest first; `era` is the first): one when decided.
    pub candidates: Vec<Era>,
}

/// What a marker looks at in one iteration's log directory.
enum Probe {
    /// A file name (the test gets the name).
    FileName(fn(&str) -> bool),
    /// A line starting with the text, in the files whose name passes the test.
    LineStart(fn(&str) -> bool, &'static str),
    /// The benchmark's `test end` line without an exit code in the iteration's
    /// `tests-timestamp` (two levels above the log directory).
    TestEndWithoutCode,
}

/// A file name or line format that only `eras` write for the benchmarks `applies` accepts.
struct Marker {
    applies: fn(&str) -> bool,
    probe: Probe,
    eras: &'static [Era],
    why: &'static str,
}

fn any(_: &str) -> bool {
    true
}

fn is_hackbench(b: &str) -> bool {
    b.starts_with("hackbench")
}

fn is_schbench(b: &str) -> bool {
    b == "schbench"
}

fn digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit())
}

/// `hackbench-<groups>` (head: every iteration and retry appended to one file).
fn hackbench_one_file(n: &str) -> bool {
    n.strip_prefix("hackbench-").is_some_and(digits)
}

/// `hackbench-<groups>-<iteration>` (2024, 2025 and MMTests since 2018).
fn hackbench_per_iteration(n: &str) -> bool {
    n.strip_prefix("hackbench-").and_then(|r| r.split_once('-')).is_some_and(|(g, i)| digits(g) && digits(i))
}

fn benchlog(n: &str) -> bool {
    n.starts_with("benchlog-")
}

fn schbench_log(n: &str) -> bool {
    n.starts_with("schbench-") && n.ends_with(".log")
}

/// The markers, tried in order; each narrows the candidate eras.
static MARKERS: &[Marker] = &[
    Marker {
        applies: any,
        probe: Probe::FileName(benchlog),
        eras: &[Era::Head],
        why: "only MMTests head's shellpacks write benchlog-<parameters> files",
    },
    Marker {
        applies: is_hackbench,
        probe: Probe::FileName(hackbench_one_file),
        eras: &[Era::Head],
        why: "MMTests head appends every iteration (and retry) to one hackbench-<groups> file",
    },
    Marker {
        applies: is_hackbench,
        probe: Probe::FileName(hackbench_per_iteration),
        eras: &[Era::E2018, Era::E2024, Era::E2025],
        why: "MMTests before head writes one hackbench-<groups>-<iteration> file per iteration",
    },
    Marker {
        applies: is_schbench,
        probe: Probe::LineStart(schbench_log, "Latency percentiles (usec)"),
        eras: &[Era::E2018, Era::E2024],
        why: "schbench before 2023 prints 'Latency percentiles (usec)' blocks, which only the 2018 and 2024 \
              extractors read (2025 and head read '<Metric> Latencies percentiles' blocks)",
    },
    Marker {
        applies: is_schbench,
        probe: Probe::LineStart(schbench_log, "Wakeup Latencies percentiles"),
        eras: &[Era::E2025, Era::Head],
        why: "schbench since 2023 prints 'Wakeup Latencies percentiles' blocks, which the 2025 and head \
              extractors read",
    },
    // last: the benchmark's own files say more (the schbench format above)
    Marker {
        applies: any,
        probe: Probe::TestEndWithoutCode,
        eras: &[Era::E2018, Era::E2024],
        why: "run-mmtests.sh writes 'test end :: <benchmark> <time>' without the exit code before MMTests \
              7cc7bac7 (2024-06-05), so these logs are older than the 2025 rules (2024-11-28)",
    },
];

/// The eras that have an extractor for `benchmark` (head reads the legacy names
/// `netperf-{udp,tcp}[-rr]` only through a prefix fallback, so it is not a candidate
/// for them), newest first.
pub fn knowing(benchmark: &str) -> Vec<Era> {
    let legacy_name = matches!(benchmark, "netperf-udp" | "netperf-tcp" | "netperf-udp-rr" | "netperf-tcp-rr");
    Era::newest_first()
        .into_iter()
        .filter(|e| extract::find(*e, benchmark).is_some() && !(legacy_name && *e == Era::Head))
        .collect()
}

fn names(eras: &[Era]) -> String {
    eras.iter().map(|e| e.name()).collect::<Vec<_>>().join(", ")
}

/// The eras that can have written run `first`'s logs of `benchmark` under the
/// `work/log` directory `root` of `tree`, newest first, and why the others were
/// left out: of the eras that know the benchmark, those whose log layout holds the
/// logs (all that know it when none does), narrowed by the [`MARKERS`] found in the
/// run's first log directory. Reads no log but the markers' few files.
pub fn narrow(tree: &dyn Tree, root: &str, benchmark: &str, first: &str) -> Result<(Vec<Era>, Vec<String>)> {
    let known = knowing(benchmark);
    if known.is_empty() {
        return Err(no_extractor(benchmark));
    }
    let laid_out: Vec<Era> =
        known.iter().copied().filter(|e| e.rules().log_dirs(tree, root, benchmark, first).is_ok()).collect();
    let Some(&newest) = laid_out.first() else {
        let why = format!("no MMTests layout holds logs of '{benchmark}' for '{first}'");
        return Ok((known, vec![why]));
    };
    let mut reasons: Vec<String> = Vec::new();
    if laid_out == [Era::E2018] {
        reasons.push(format!("the logs are in the 2018 layout {benchmark}-{first}/noprofile"));
    } else if [Era::Head, Era::E2025, Era::E2024].iter().any(|e| !known.contains(e)) {
        reasons.push(format!("only MMTests {} have an extractor for '{benchmark}'", names(&known)));
    }
    let mut candidates = laid_out;
    if let Some(dir) = newest.rules().log_dirs(tree, root, benchmark, first)?.into_iter().next() {
        let log_dir = LogDir::new(tree, &dir);
        for m in MARKERS.iter().filter(|m| (m.applies)(benchmark)) {
            let Some(at) = find_marker(&log_dir, benchmark, &m.probe) else { continue };
            let narrowed: Vec<Era> = candidates.iter().copied().filter(|e| m.eras.contains(e)).collect();
            if !narrowed.is_empty() && narrowed != candidates {
                candidates = narrowed;
                reasons.push(format!("{at}: {}", m.why));
            }
        }
    }
    Ok((candidates, reasons))
}

/// The era of run `first`'s logs of `benchmark` under the `work/log` directory `root`
/// of `tree`: `compat` when given; else the eras [`narrow`] leaves, narrowed further to
/// those whose extractor finds results in the run; when several eras remain the
/// newest is the default and the reason says the files cannot tell.
pub fn detect(tree: &dyn Tree, root: &str, benchmark: &str, first: &str, compat: Option<Era>) -> Result<Detection> {
    if let Some(e) = compat {
        return Ok(Detection { era: e, decided: true, reason: format!("--compat {}", e.name()), candidates: vec![e] });
    }
    let (mut candidates, mut reasons) = narrow(tree, root, benchmark, first)?;
    if candidates.len() > 1 {
        let reading: Vec<Era> = candidates
            .iter()
            .copied()
            .filter(|e| {
                let ctx = Ctx { era: *e, benchmark: benchmark.to_string(), subheading: String::new() };
                extract::extract_run(&ctx, tree, root, first).is_ok()
            })
            .collect();
        if !reading.is_empty() && reading.len() < candidates.len() {
            reasons.push(format!(
                "only the extractor of MMTests {} finds results in the logs of '{first}' ({} find none)",
                names(&reading),
                names(&candidates.iter().copied().filter(|e| !reading.contains(e)).collect::<Vec<_>>())
            ));
            candidates = reading;
        }
    }
    let era = candidates.first().copied().unwrap_or(Era::Head);
    Ok(decision(era, candidates, reasons))
}

/// The [`Detection`] of `era`, the first of `candidates`, with `reasons`.
pub fn decision(era: Era, candidates: Vec<Era>, reasons: Vec<String>) -> Detection {
    if candidates.len() == 1 {
        return Detection { era, decided: true, reason: reasons.join("; "), candidates };
    }
    let others: Vec<String> = candidates
        .iter()
        .filter(|e| **e != era)
        .map(|e| format!("pass --compat {} if MMTests {} wrote them", e.name(), e.written()))
        .collect();
    let mut reason = format!(
        "the files cannot tell MMTests {} apart (they write these logs alike); using {} ({})",
        names(&candidates),
        era.name(),
        others.join("; ")
    );
    if !reasons.is_empty() {
        reason = format!("{}; {reason}", reasons.join("; "));
    }
    Detection { era, decided: false, reason, candidates }
}

/// Where `probe` matches in `dir` (the log directory of `benchmark`): "<file>" or
/// "<file> line N"; None when it does not.
fn find_marker(dir: &LogDir<'_>, benchmark: &str, probe: &Probe) -> Option<String> {
    if let Probe::TestEndWithoutCode = probe {
        let iteration = dir.rel.strip_suffix(&format!("/{benchmark}/logs"))?;
        let log = read_log(dir.tree, &join(iteration, "tests-timestamp")).ok()?;
        let line = log.lines().position(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            matches!(f[..], ["test", "end", "::", b, t] if b == benchmark && digits(t))
        })?;
        return Some(format!("{} line {}", log.name(), line + 1));
    }
    let names = dir.list().ok()?;
    match probe {
        Probe::TestEndWithoutCode => None,
        Probe::FileName(test) => names.iter().find(|n| test(n)).map(|n| dir.tree.display(&dir.join(n))),
        Probe::LineStart(test, prefix) => names.iter().filter(|n| test(n)).find_map(|n| {
            let log = dir.read(n).ok()?;
            let line = log.lines().position(|l| l.starts_with(prefix))?;
            Some(format!("{} line {}", log.name(), line + 1))
        }),
    }
}

/// The error for a benchmark no era has an extractor for, listing the known ones.
pub fn no_extractor(benchmark: &str) -> Error {
    Error::domain(format!(
        "no MMTests version has an extractor for benchmark '{benchmark}' (known: {})",
        Era::newest_first()
            .into_iter()
            .flat_map(extract::known_benchmarks)
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::MemTree;

    #[test]
    fn hackbench_file_names() {
        assert!(hackbench_one_file("hackbench-16"));
        assert!(!hackbench_one_file("hackbench-16-1"));
        assert!(hackbench_per_iteration("hackbench-16-1"));
        assert!(!hackbench_per_iteration("hackbench-16"));
        assert!(!hackbench_per_iteration("hackbench-x-1"));
    }

    #[test]
    fn compat_overrides_and_benchlog_means_head() {
        let mut t = MemTree::new("t.tar");
        t.add_file("k/iter-0/stream/logs/benchlog-1-_-1", b"x\n".to_vec());
        let d = detect(&t, "", "stream", "k", Some(Era::E2024)).unwrap();
        assert_eq!((d.era, d.decided, d.reason.as_str()), (Era::E2024, true, "--compat 2024"));
        let d = detect(&t, "", "stream", "k", None).unwrap();
        assert_eq!(d.era, Era::Head);
        assert!(d.decided && d.reason.contains("k/iter-0/stream/logs/benchlog-1-_-1"), "{}", d.reason);
    }
}
