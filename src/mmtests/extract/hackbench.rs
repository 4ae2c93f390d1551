//! hackbench (`hackbench-{process,thread}-{pipes,sockets}`, and `hackbench` in
//! 2025): seconds per run of `perf bench sched messaging` (E1–E3) or the
//! standalone hackbench's `Time:` line (E0). Reference: docs/mmtests.md §8.4.
//!
//! A result line cut in two (its number's tail on the next line) is a parse error
//! naming the file and line, where the Perl reads a wrong number silently.

use super::{fields, Ctx, Extractor, Meta, Samples};
use crate::error::{Error, Result};
use crate::mmtests::era::{Era, Preferred};
use crate::mmtests::logfile::{glob_middle, sort_numeric, LogDir, LogFile};
use crate::mmtests::summarise::SummaryKind;

/// The hackbench family.
pub struct Hackbench;

const NAMES: &[&str] =
    &["hackbench-process-pipes", "hackbench-process-sockets", "hackbench-thread-pipes", "hackbench-thread-sockets"];

/// The text after `Total time: ` captured by `Total time: ([0-9.]*)`.
fn total_time(line: &str) -> Option<&str> {
    let (_, rest) = line.split_once("Total time: ")?;
    Some(super::split_prefix(rest, |c| c.is_ascii_digit() || c == '.').0)
}

/// Whether a `Total time:` line of `perf bench sched messaging` is whole: the seconds
/// followed by perf's ` [sec]` (the line perf prints in one `printf`).
fn perf_line_whole(line: &str) -> bool {
    let Some((_, rest)) = line.split_once("Total time:") else { return true };
    let (secs, unit) = super::split_prefix(rest.trim_start(), |c| c.is_ascii_digit() || c == '.');
    !secs.is_empty() && unit.trim() == "[sec]"
}

/// The lines of `log` that hold a result (`is_result`), each with its 1-based line
/// number, refusing a result line split across two lines: `perf_form` lines must end
/// with perf's ` [sec]`, and no result line may be followed by a line that goes on
/// with its number (a digit or a '.'), as a line broken inside its number would be.
fn result_lines(log: &LogFile, is_result: impl Fn(&str) -> bool, perf_form: bool) -> Result<Vec<(usize, &str)>> {
    let mut out = Vec::new();
    let mut lines = log.lines().enumerate().peekable();
    while let Some((i, line)) = lines.next() {
        crate::cancel::check_every(i)?;
        if !is_result(line) {
            continue;
        }
        let tail =
            lines.peek().map(|&(_, next)| next).filter(|n| n.starts_with(|c: char| c.is_ascii_digit() || c == '.'));
        if let Some(next) = tail {
            return Err(split(log, i, format!("the next line '{next}' goes on with its number")));
        }
        if perf_form && !perf_line_whole(line) {
            return Err(split(log, i, format!("expected 'Total time: <seconds> [sec]', found '{}'", line.trim())));
        }
        out.push((i + 1, line));
    }
    Ok(out)
}

fn split(log: &LogFile, i: usize, what: String) -> Error {
    Error::parse(
        Some(&log.name()),
        Some(i + 1),
        format!(
            "a hackbench result line split across two lines: {what}; the file is damaged, its number would be wrong"
        ),
    )
}

impl Extractor for Hackbench {
    fn family(&self) -> &'static str {
        "hackbench"
    }
    fn handles(&self, era: Era, benchmark: &str) -> bool {
        NAMES.contains(&benchmark) || (era == Era::E2025 && benchmark == "hackbench")
    }
    fn meta(&self, _ctx: &Ctx) -> Meta {
        Meta {
            preferred: Preferred::Lower,
            kind: SummaryKind::Multiops,
            field_length: None,
            precision: 4,
            value_label: "Ops".into(),
            ratio_preferred: None,
        }
    }
    fn extract_dir(&self, ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
        let names = dir.list()?;
        if ctx.era == Era::Head {
            // one file hackbench-<G> with every iteration appended; label time-<G>
            let mut groups: Vec<String> = names
                .iter()
                .filter_map(|n| n.strip_prefix("hackbench-"))
                .filter(|g| !g.is_empty() && g.bytes().all(|b| b.is_ascii_digit()))
                .map(str::to_string)
                .collect();
            sort_numeric(&mut groups);
            for g in groups {
                let log = dir.read(&format!("hackbench-{g}"))?;
                out.files_read += 1;
                let op = format!("time-{g}");
                for (_, line) in result_lines(&log, |l| l.contains("Total time:"), true)? {
                    if let Some(v) = fields(line).get(2) {
                        out.add_text(&op, v);
                    }
                }
            }
            return Ok(());
        }
        let mut groups: Vec<String> =
            glob_middle(&names, "hackbench-", "-1").into_iter().map(|(_, m)| m.to_string()).collect();
        sort_numeric(&mut groups);
        for g in groups {
            for (file, _) in glob_middle(&names, &format!("hackbench-{g}-"), "") {
                let log = dir.read(file)?;
                out.files_read += 1;
                out.register(&g);
                if ctx.era == Era::E2018 {
                    for (_, line) in result_lines(&log, |l| l.starts_with("Time: "), false)? {
                        if let Some(v) = line.strip_prefix("Time: ") {
                            out.add_text(&g, v);
                        }
                    }
                } else {
                    for (_, line) in result_lines(&log, |l| total_time(l).is_some(), true)? {
                        if let Some(v) = total_time(line) {
                            out.add_text(&g, v);
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn total_time_capture() {
        assert_eq!(total_time("     Total time: 0.081 [sec]"), Some("0.081"));
        assert_eq!(total_time("     Total time: x"), Some(""));
        assert_eq!(total_time("Time: 0.1"), None);
    }

    fn log(text: &str) -> LogFile {
        LogFile { path: "logs/hackbench-4-1".into(), text: text.into() }
    }

    fn is_total(l: &str) -> bool {
        total_time(l).is_some()
    }

    /// perf prints `     Total time: 0.081 [sec]` in one line (tools/perf/bench/sched-messaging.c);
    /// cut inside the number it reads as 0.0 and a stray line in the Perl.
    #[test]
    fn a_result_line_split_across_two_lines_is_an_error_naming_file_and_line() {
        let whole = log("# Running 'sched/messaging' benchmark:\n\n     Total time: 0.081 [sec]\n");
        assert_eq!(result_lines(&whole, is_total, true).unwrap(), vec![(3, "     Total time: 0.081 [sec]")]);
        for (text, line) in [
            ("# Running\n     Total time: 0.0\n81 [sec]\n", 2),
            ("     Total time: 0.081 [sec]\n     Total time: 0.0\n", 2),
            ("     Total time: \n0.081 [sec]\n", 1),
            ("     Total time: 0.081 [s\nec]\n", 1),
        ] {
            let e = result_lines(&log(text), is_total, true).unwrap_err().to_string();
            assert!(e.starts_with(&format!("logs/hackbench-4-1:{line}: a hackbench result line split")), "{e}");
        }
        // the standalone hackbench of 2018 prints `Time: 0.472` with nothing after the number
        let e0 = |l: &str| l.starts_with("Time: ");
        assert_eq!(result_lines(&log("Running with 7*40 (== 280) tasks.\nTime: 0.472\n"), e0, false).unwrap().len(), 1);
        let e = result_lines(&log("Running with 7*40 (== 280) tasks.\nTime: 0.4\n72\n"), e0, false).unwrap_err();
        assert!(e.to_string().starts_with("logs/hackbench-4-1:2: a hackbench result line split"), "{e}");
        assert!(e.to_string().contains("'72' goes on with its number"), "{e}");
    }
}
