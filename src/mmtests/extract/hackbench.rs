//! hackbench (`hackbench-{process,thread}-{pipes,sockets}`, and `hackbench` in
//! 2025): seconds per run of `perf bench sched messaging` (E1–E3) or the
//! standalone hackbench's `Time:` line (E0). Reference: docs/mmtests.md §8.4.

use super::{fields, Ctx, Extractor, Meta, Samples};
use crate::error::Result;
use crate::mmtests::era::{Era, Preferred};
use crate::mmtests::logfile::{glob_middle, sort_numeric, LogDir};
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
                for (i, line) in log.lines().enumerate() {
                    crate::cancel::check_every(i)?;
                    if line.contains("Total time:") {
                        if let Some(v) = fields(line).get(2) {
                            out.add_text(&op, v);
                        }
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
                for (i, line) in log.lines().enumerate() {
                    crate::cancel::check_every(i)?;
                    if ctx.era == Era::E2018 {
                        if let Some(v) = line.strip_prefix("Time: ") {
                            out.add_text(&g, v);
                        }
                    } else if let Some(v) = total_time(line) {
                        out.add_text(&g, v);
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
}
