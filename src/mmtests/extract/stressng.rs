//! stress-ng's `--metrics-brief` report (`stressng-<T>-<I>.log`: after the header line
//! holding `(secs)`, every line is read as a metrics row, `<stressor> <bogo ops> <real>
//! <usr> <sys> <bogo ops/s real> ...`, once its `stress-ng: <level>: [pid] ` prefix is
//! removed), as 2024/2025's `ExtractStressng.pm` and head's `stressng/extract-report.pl`
//! read it. The lines stress-ng prints after the metrics (`skipped: 0`, `passed: ...`,
//! `successful run completed ...`) are read as rows too, with no number: the modules
//! register them as operations without samples, and MMTests prints them.

use super::shellpack::{emit, Row};
use super::{Ctx, Samples};
use crate::error::Result;
use crate::mmtests::logfile::{glob_middle, sort_numeric, LogDir};
use crate::mmtests::monitors::perl_split_ws;

/// Per thread count T (`stressng-*-1.log`, numeric order) and file `stressng-T-*` (glob
/// order): `(T, iteration, stressor, bogo ops/s)` of every line after the `(secs)` line.
/// The iteration is the last `-` field with its first `.log` (any character, then `log`)
/// removed; a missing field is "".
fn rows(dir: &LogDir<'_>, out: &mut Samples) -> Result<Vec<(String, String, String, String)>> {
    let names = dir.list()?;
    let mut threads: Vec<String> =
        glob_middle(&names, "stressng-", "-1.log").into_iter().map(|(_, t)| t.to_string()).collect();
    sort_numeric(&mut threads);
    let mut found = Vec::new();
    for t in threads {
        let prefix = format!("stressng-{t}-");
        for name in names.iter().filter(|n| n.starts_with(&prefix)) {
            crate::cancel::check()?;
            let iteration = strip_any_log(name.rsplit('-').next().unwrap_or_default());
            let log = dir.read(name)?;
            out.files_read += 1;
            let mut reading = false;
            for line in log.lines() {
                if line.contains("(secs)") {
                    reading = true;
                    continue;
                }
                if !reading {
                    continue;
                }
                let body = line.rfind("] ").map_or(line, |p| line.get(p + 2..).unwrap_or_default());
                let f = perl_split_ws(body);
                let field = |i: usize| f.get(i).copied().unwrap_or_default().to_string();
                found.push((t.clone(), iteration.clone(), field(0), field(5)));
            }
        }
    }
    Ok(found)
}

/// Perl's `s/.log//`: the first character followed by `log`, and the `log`, removed.
fn strip_any_log(s: &str) -> String {
    for (i, c) in s.char_indices() {
        let after = i + c.len_utf8();
        if c != '\n' && s.get(after..).is_some_and(|r| r.starts_with("log")) {
            return format!("{}{}", s.get(..i).unwrap_or_default(), s.get(after + 3..).unwrap_or_default());
        }
    }
    s.to_string()
}

/// 2024/2025: a sample of `<stressor>-<T>`.
pub fn legacy(_ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    for (t, _, stressor, ops) in rows(dir, out)? {
        out.add_text(&format!("{stressor}-{t}"), &ops);
    }
    Ok(())
}

/// head: the rows `bops-<stressor> T _ <iteration> <bogo ops/s>`, unsorted.
pub fn head(ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let rows: Vec<Row> = rows(dir, out)?
        .into_iter()
        .map(|(t, interval, stressor, value)| Row {
            metric: format!("bops-{stressor}"),
            a: t,
            b: "_".into(),
            interval,
            value,
        })
        .collect();
    emit(ctx, &rows, out);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iteration_as_the_perl_strips_it() {
        assert_eq!(strip_any_log("1.log"), "1");
        assert_eq!(strip_any_log("12.log.gz"), "12.gz");
        assert_eq!(strip_any_log("log"), "log");
        assert_eq!(strip_any_log("7"), "7");
    }
}
