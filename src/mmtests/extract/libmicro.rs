//! libMicro's reports (`<test>.log`, one per test of the load file, ending with the
//! `#       mean of 95%     <usecs>` line), as head's `libmicro/parse-results` and
//! 2024/2025's `ExtractLibmicro.pm` read them: one sample per test.

use super::shellpack::{emit, Row};
use super::{Ctx, Samples};
use crate::error::Result;
use crate::mmtests::logfile::LogDir;

/// The tests: the `*.log` names without `.log`, in `ls` (byte) order.
fn tests(names: &[String]) -> Vec<&str> {
    names.iter().filter_map(|n| n.strip_suffix(".log")).collect()
}

/// head: per test W, the last field of the lines holding `mean of 95%` (joined by the shell
/// when several match), printed `mean95 W _ 1 <value> _`, unsorted.
pub fn head(ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let names = dir.list()?;
    let mut rows = Vec::new();
    for w in tests(&names) {
        crate::cancel::check()?;
        let log = dir.read(&format!("{w}.log"))?;
        out.files_read += 1;
        let values: Vec<&str> = log
            .lines()
            .filter(|l| l.contains("mean of 95%"))
            .filter_map(|l| l.split([' ', '\t']).rfind(|f| !f.is_empty()))
            .collect();
        rows.push(Row {
            metric: "mean95".into(),
            a: w.into(),
            b: "_".into(),
            interval: "1".into(),
            value: values.join(" "),
        });
    }
    emit(ctx, &rows, out);
    Ok(())
}

/// 2024/2025: per file of `*.log` in glob order, every line matching `^#\s+mean of 95`: its
/// last field is a sample of `mean95-<test>`.
pub fn legacy(_ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let names = dir.list()?;
    for w in tests(&names) {
        crate::cancel::check()?;
        let log = dir.read(&format!("{w}.log"))?;
        out.files_read += 1;
        for line in log.lines() {
            let Some(rest) = line.strip_prefix('#') else { continue };
            let trimmed = rest.trim_start();
            if trimmed.len() == rest.len() || !trimmed.starts_with("mean of 95") {
                continue;
            }
            out.add_text(&format!("mean95-{w}"), line.split_whitespace().last().unwrap_or_default());
        }
    }
    Ok(())
}
