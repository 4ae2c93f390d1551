//! fs_mark's logs (`fsmark-<T>.log.gz`, one per thread count: a `#` preamble, the header
//! `FSUse%  Count  Size  Files/sec  App Overhead`, then a line per loop), as head's
//! `fsmark/parse-results` and 2024/2025's `ExtractFsmark.pm` read them
//! (docs/mmtests-extract.md).

use super::awk_bench::awk_fields;
use super::shellpack::{emit, sort_rows, Key, Row};
use super::{Ctx, Samples};
use crate::error::Result;
use crate::mmtests::logfile::{glob_middle, sort_numeric, LogDir};

/// The thread counts: the middle of `fsmark-<T>.log.gz` (the first `-` field after the
/// prefix, as `cut -d- -f2` takes it), in numeric order.
fn threads(names: &[String], cut: bool) -> Vec<String> {
    let mut v: Vec<String> = glob_middle(names, "fsmark-", ".log.gz")
        .into_iter()
        .map(|(_, m)| if cut { m.split('-').next().unwrap_or_default() } else { m }.to_string())
        .collect();
    sort_numeric(&mut v);
    v
}

/// head: per T, every line after the first `App Overhead` line of `fsmark-T.log.gz`
/// (`zgrep -A <lines>`, then `grep -v "App Overhead"`), awk's `$4` of each a row
/// `files_sec T _ k value` (k counting from 1 per T); sorted `sort -k1,1 -k4,4n`.
pub fn head(ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let names = dir.list()?;
    let mut rows = Vec::new();
    for t in threads(&names, true) {
        crate::cancel::check()?;
        let name = format!("fsmark-{t}.log.gz");
        if !dir.is_file(&name) {
            continue;
        }
        let log = dir.read(&name)?;
        out.files_read += 1;
        let mut k = 0;
        let after = log.lines().skip_while(|l| !l.contains("App Overhead"));
        for line in after.filter(|l| !l.contains("App Overhead")) {
            // `for VALUE in $(... | awk '{print $4}')`: a line without a fourth field prints
            // nothing the loop sees
            if let Some(v) = awk_fields(line).get(3) {
                k += 1;
                rows.push(Row {
                    metric: "files_sec".into(),
                    a: t.clone(),
                    b: "_".into(),
                    interval: k.to_string(),
                    value: v.to_string(),
                });
            }
        }
    }
    sort_rows(&mut rows, &[Key::Metric, Key::Interval]);
    emit(ctx, &rows, out);
    Ok(())
}

/// 2024/2025: per T of `discover_scaling_parameters("fsmark-", ".log.gz")`, the lines of
/// `fsmark-T.log` (`open_log`) after the one starting `FSUse`, but for those reporting a full
/// file system: the fifth field of `split(/\s+/)` (the leading blanks make an empty first
/// one: Files/sec) is a sample of `T-files/sec`.
pub fn legacy(_ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let names = dir.list()?;
    for t in threads(&names, false) {
        crate::cancel::check()?;
        let Some(log) = dir.open_log(&format!("fsmark-{t}.log"))? else { continue };
        out.files_read += 1;
        let op = format!("{t}-files/sec");
        let body = log.lines().skip_while(|l| !l.starts_with("FSUse")).skip(1);
        for line in body.filter(|l| !l.contains("Insufficient free space") && !l.contains("No space")) {
            match super::perl_split_ws(line).get(4) {
                Some(v) => out.add_text(&op, v),
                None => out.register(&op),
            }
        }
    }
    Ok(())
}
