//! LTP's results (ltp): per collection run through `runltp`, ltp-pan's log (a line `tag=<test>
//! stime=<t> dur=<s> exit=<exited|signaled|stopped|unknown> stat=<code> ...` per test), and for
//! head a test run directly, whose output ends with tst_test's `Summary:` counts; as head's
//! `ltp/extract-report.pl` (through its `parse-results`) and 2024/2025's `ExtractLtp.pm` read
//! them (docs/mmtests-extract.md).

use super::pattern::compiled;
use super::shellpack::{emit, Row};
use super::{Ctx, Samples};
use crate::error::{Error, Result};
use crate::mmtests::logfile::{LogDir, LogFile};
use crate::mmtests::perlfmt::{numify, perl_str};

/// The exit kinds ltp-pan writes and the code each script gives them.
const STATUS: [(&str, u32); 4] =
    [("exit=exited", 0), ("exit=signaled", 10), ("exit=stopped", 20), ("exit=unknown", 30)];

/// Per `tag=` line of ltp-pan's log: the test, the exit kind's code and the status (`stat=`
/// removed), the fields of `split(/\s+/)`. An exit kind the scripts do not know makes them die.
fn pan(log: &LogFile) -> Result<Vec<(String, u32, String)>> {
    let mut v = Vec::new();
    for (i, line) in log.lines().enumerate() {
        if !line.starts_with("tag=") {
            continue;
        }
        let f = super::perl_split_ws(line);
        let get = |k: usize| f.get(k).copied().unwrap_or_default();
        let Some((_, code)) = STATUS.iter().find(|(s, _)| *s == get(3)) else {
            return Err(Error::parse(
                Some(&log.name()),
                Some(i + 1),
                format!(
                    "exit status {:?} is none of exit=exited/signaled/stopped/unknown (compare-mmtests.pl dies)",
                    get(3)
                ),
            ));
        };
        let test = get(0).replacen("tag=", "", 1);
        v.push((test, *code, get(4).replacen("stat=", "", 1)));
    }
    Ok(v)
}

/// head: per collection C of `benchlog-*` (in name order; the script's `sort` is in void
/// context): if `runltp-C` exists, per test the row `C-<test> _ _ 1 <v>`, v the status, or 0
/// for an exited test with status 32 (TCONF) (the exit kind adds its text's numeric value, 0);
/// else the row `C _ _ 1 <v>` of `benchlog-C`, v -1 without a `Summary:` line, else the sum of
/// the second fields of the lines after it but `passed`, `skipped` and `broken` (failed and
/// warnings). Unsorted.
pub fn head(ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let names = dir.list()?;
    let mut rows = Vec::new();
    let row =
        |metric: String, v: f64| Row { metric, a: "_".into(), b: "_".into(), interval: "1".into(), value: perl_str(v) };
    for c in names.iter().filter_map(|n| n.strip_prefix("benchlog-")) {
        crate::cancel::check()?;
        let runltp = format!("runltp-{c}");
        if dir.tree.is_file(&dir.join(&runltp)) || dir.tree.is_dir(&dir.join(&runltp)) {
            out.files_read += 1;
            for (test, code, stat) in pan(&dir.read(&runltp)?)? {
                let stat = if code == 0 && numify(&stat) == 32.0 { 0.0 } else { numify(&stat) };
                rows.push(row(format!("{c}-{test}"), stat));
            }
        } else {
            out.files_read += 1;
            let log = dir.read(&format!("benchlog-{c}"))?;
            let mut lines = log.lines().skip_while(|l| !l.starts_with("Summary:"));
            let v = match lines.next() {
                None => -1.0,
                Some(_) => lines
                    .filter(|l| !l.starts_with("passed") && !l.starts_with("skipped") && !l.starts_with("broken"))
                    .map(|l| super::perl_split_ws(l).get(1).map_or(0.0, |x| numify(x)))
                    .sum(),
            };
            rows.push(row(c.to_string(), v));
        }
    }
    emit(ctx, &rows, out);
    Ok(())
}

/// 2024/2025: per collection C of `ltp-*.log` (the name less its first `.log...` and `ltp-`),
/// per test of `ltp-C.log`, the sample `C-<test>`: the status plus the exit kind's text as a
/// number (0), TCONF's 32 kept.
pub fn legacy(_ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let strip = compiled(r".log.*")?;
    let names = dir.list()?;
    for name in names.iter().filter(|n| n.starts_with("ltp-") && n.ends_with(".log")) {
        crate::cancel::check()?;
        let c = strip.replacen(name, 1, "");
        let c = c.strip_prefix("ltp-").unwrap_or(&c);
        let file = format!("ltp-{c}.log");
        if !dir.is_file(&file) {
            return Err(Error::parse(
                Some(&dir.join(&file)),
                None,
                "no such file (compare-mmtests.pl dies opening it)",
            ));
        }
        out.files_read += 1;
        for (test, _, stat) in pan(&dir.read(&file)?)? {
            out.add(&format!("{c}-{test}"), numify(&stat));
        }
    }
    Ok(())
}
