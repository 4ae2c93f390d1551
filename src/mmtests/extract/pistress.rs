//! rt-tests' pi_stress run once per number of inversion groups G: its output in
//! `pistress-<G>.log` and its exit status in `pistress-<G>.status` (`echo $?`), as
//! 2024/2025's `ExtractPistress.pm` and head's `pistress/extract-report.pl` read it: the
//! status is the result (0 = passed), a missing status file counts as a failure (1).

use super::shellpack::{emit, Row};
use super::{Ctx, Samples};
use crate::error::Result;
use crate::mmtests::logfile::{glob_middle, sort_numeric, LogDir};

/// Per G (`pistress-*.log`, numeric order): the lines of its status file, or `["1"]`
/// when there is none.
fn statuses(dir: &LogDir<'_>, out: &mut Samples) -> Result<Vec<(String, Vec<String>)>> {
    let names = dir.list()?;
    let mut groups: Vec<String> =
        glob_middle(&names, "pistress-", ".log").into_iter().map(|(_, g)| g.to_string()).collect();
    sort_numeric(&mut groups);
    let mut found = Vec::new();
    for g in groups {
        let status = format!("pistress-{g}.status");
        let lines = if dir.is_file(&status) {
            out.files_read += 1;
            dir.read(&status)?.lines().map(str::to_string).collect()
        } else {
            vec!["1".to_string()]
        };
        found.push((g, lines));
    }
    Ok(found)
}

/// 2024/2025: each status line is a sample of the operation G.
pub fn legacy(_ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    for (g, lines) in statuses(dir, out)? {
        for l in lines {
            out.add_text(&g, &l);
        }
    }
    Ok(())
}

/// head: each status line is the row `failures G "" k <line>` (the script prints Perl's
/// unset `$_` as factorB), k counting over every group.
pub fn head(ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let mut rows = Vec::new();
    for (g, lines) in statuses(dir, out)? {
        for value in lines {
            let interval = (rows.len() + 1).to_string();
            rows.push(Row { metric: "failures".into(), a: g.clone(), b: String::new(), interval, value });
        }
    }
    emit(ctx, &rows, out);
    Ok(())
}
