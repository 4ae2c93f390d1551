//! UnixBench's single programs run directly (`unixbenchd`): each iteration appends the
//! program's `COUNT|<n>|<scale>|<unit>` line to `unixbenchd.log`, as 2024/2025's
//! `ExtractUnixbenchd.pm` and head's `unixbenchd/parse-results` read it.

use super::shellpack::{emit, Row};
use super::{Ctx, Samples};
use crate::error::{Error, Result};
use crate::mmtests::logfile::{LogDir, LogFile};

/// `unixbenchd.log`; the module dies without it.
fn log(ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<LogFile> {
    if !dir.is_file("unixbenchd.log") {
        return Err(Error::insufficient(format!(
            "benchmark '{}': no unixbenchd.log under {} (MMTests dies with \"Failed to open unixbenchd.log\")",
            ctx.benchmark,
            dir.display()
        )));
    }
    out.files_read += 1;
    dir.read("unixbenchd.log")
}

/// 2024/2025: the second `|` field of each line starting `COUNT`, a sample of
/// `unixbenchd-ops`.
pub fn legacy(ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    for line in log(ctx, dir, out)?.lines().filter(|l| l.starts_with("COUNT")) {
        out.add_text("unixbenchd-ops", line.split('|').nth(1).unwrap_or_default());
    }
    Ok(())
}

/// head: the metric is the program's name (the first word of the `commands.log` lines
/// holding `pgms`, without its directory); each word of `cut -d| -f2` of the lines holding
/// `COUNT` is the row `<program> _ _ 0 <word>` (the script counts a misspelt variable, so
/// the interval stays 0).
pub fn head(ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let command = if dir.is_file("commands.log") {
        let commands = dir.read("commands.log")?;
        let programs: Vec<String> = commands
            .lines()
            .filter(|l| l.contains("pgms"))
            .map(|l| {
                let first = l.split([' ', '\t']).find(|w| !w.is_empty()).unwrap_or_default();
                first.rsplit('/').next().unwrap_or_default().to_string()
            })
            .collect();
        programs.join("\n")
    } else {
        String::new()
    };
    let counts: Vec<String> = log(ctx, dir, out)?
        .lines()
        .filter(|l| l.contains("COUNT"))
        .flat_map(|l| {
            let field = if l.contains('|') { l.split('|').nth(1).unwrap_or_default() } else { l };
            field.split_whitespace().map(str::to_string).collect::<Vec<_>>()
        })
        .collect();
    let mut rows = Vec::new();
    for count in counts {
        // echo -e "$COMMAND\t_\t_\t0\t$COUNT\t_": a command of several lines prints several
        let text = format!("{command}\t_\t_\t0\t{count}\t_");
        for line in text.split('\n') {
            let f: Vec<&str> = line.split('\t').collect();
            let field = |i: usize| f.get(i).copied().unwrap_or_default().to_string();
            rows.push(Row { metric: field(0), a: field(1), b: field(2), interval: field(3), value: field(4) });
        }
    }
    emit(ctx, &rows, out);
    Ok(())
}
