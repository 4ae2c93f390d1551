//! bonnie++'s per-operation latencies (bonniepp: `bonnie-detail.gz`, written by MMTests' patched
//! bonnie++ `-l`: a line `<op> <µs>` every `-R` chunks of the block write, rewrite and read
//! tests and per file created, stat'ed and deleted), as head's `bonniepp/extract-report.pl`
//! (through its `parse-results`) and 2024/2025's `ExtractBonniepp.pm` read it
//! (docs/mmtests-extract.md).

use super::shellpack::{emit, Row};
use super::{Ctx, Samples};
use crate::error::{Error, Result};
use crate::mmtests::logfile::LogDir;
use crate::mmtests::Era;

/// The operation codes the patch writes and the names each era gives them.
const OPS: [(&str, &str, &str); 12] = [
    ("pc", "SeqOut:char", "SeqOut Char"),
    ("wr", "SeqOut:block", "SeqOut Block"),
    ("rw", "SeqOut:rewrite", "SeqOut Rewrite"),
    ("gc", "SeqIn:char", "SeqIn Char"),
    ("rd", "SeqIn:block", "SeqIn Block"),
    ("sk", "Random:seeks", "Random seeks"),
    ("cs", "SeqCreate:create", "SeqCreate create"),
    ("ss", "SeqCreate:read", "SeqCreate read"),
    ("ds", "SeqCreate:del", "SeqCreate del"),
    ("cr", "RandCreate:create", "RandCreate create"),
    ("sr", "RandCreate:read", "RandCreate read"),
    ("dr", "RandCreate:del", "RandCreate del"),
];

/// Per line of `bonnie-detail` (`open_log`) whose first field (`split(/ /)`) is a known code:
/// the code's name in `era` and the second field.
fn latencies(era: Era, dir: &LogDir<'_>, out: &mut Samples) -> Result<Vec<(&'static str, String)>> {
    let Some(log) = dir.open_log("bonnie-detail")? else {
        return Err(Error::parse(
            Some(&dir.join("bonnie-detail.gz")),
            None,
            "no bonnie-detail(.gz) (compare-mmtests.pl dies: `Failed to open bonnie-detail`)",
        ));
    };
    out.files_read += 1;
    let mut v = Vec::new();
    for line in log.lines() {
        let mut f = line.split(' ');
        let code = f.next().unwrap_or_default();
        if let Some((_, head, legacy)) = OPS.iter().find(|(c, _, _)| *c == code) {
            v.push((if era == Era::Head { *head } else { *legacy }, f.next().unwrap_or_default().to_string()));
        }
    }
    Ok(v)
}

/// head: the rows `latency-<name> _ _ <n> <µs>`, n counting per code, unsorted. (The script
/// marks as ratio rows the names matching `_block$` or `_read$`, which its `:` names never do:
/// there are no ratio rows.)
pub fn head(ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let mut rows = Vec::new();
    let mut counts = std::collections::HashMap::new();
    for (name, v) in latencies(Era::Head, dir, out)? {
        let n = counts.entry(name).or_insert(0);
        *n += 1;
        rows.push(Row {
            metric: format!("latency-{name}"),
            a: "_".into(),
            b: "_".into(),
            interval: n.to_string(),
            value: v,
        });
    }
    emit(ctx, &rows, out);
    Ok(())
}

/// 2024/2025: each latency a sample of its operation (`SeqOut Block`, ...).
pub fn legacy(_ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    for (name, v) in latencies(Era::E2025, dir, out)? {
        out.add_text(name, &v);
    }
    Ok(())
}
