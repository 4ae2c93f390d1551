//! will-it-scale's logs as 2024/2025's `ExtractWiscommon.pm` reads them (`wis-<name>`: the
//! files `workloads` and `models` list what ran, each `wis-<workload>-<model>-<T>.log` holding
//! the `min:<n> max:<n> total:<n>` lines left after the warm-up was cut); head reads its own
//! `benchlog-*` files with `line-parse-results` (docs/mmtests-extract.md).

use super::pattern::compiled;
use super::{Ctx, Samples};
use crate::error::{Error, Result};
use crate::mmtests::logfile::{glob_middle, sort_numeric, LogDir};
use std::collections::HashSet;

/// The first line of `name` split on `,` (trailing empty fields dropped), each part chomped;
/// the module dies without the file.
fn list(dir: &LogDir<'_>, name: &str) -> Result<Vec<String>> {
    if !dir.is_file(name) {
        return Err(Error::parse(
            Some(&dir.display()),
            None,
            format!(
                "no file '{name}' (will-it-scale's shellpack writes it; compare-mmtests.pl dies \"Failed to open\")"
            ),
        ));
    }
    let text = dir.read(name)?.text;
    let first = text.split_inclusive('\n').next().unwrap_or_default();
    let mut v: Vec<&str> = first.split(',').collect();
    while v.last().is_some_and(|w| w.is_empty()) {
        v.pop();
    }
    Ok(v.into_iter().map(|w| w.strip_suffix('\n').unwrap_or(w).to_string()).collect())
}

/// For each model, workload and T (the thread counts of every workload's `wis-<W>-*.log`,
/// numeric order, each once): the `total:` of each `min:.. max:.. total:..` line of
/// `wis-W-M-T.log` is a sample of `W-M-T` (the module dies when a file is missing).
pub fn legacy(_ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let workloads = list(dir, "workloads")?;
    let models = list(dir, "models")?;
    let names = dir.list()?;
    let mut threads: Vec<String> = workloads
        .iter()
        .flat_map(|w| {
            glob_middle(&names, &format!("wis-{w}-"), ".log").into_iter().map(|(f, _)| super::thread_of_log(f))
        })
        .collect();
    sort_numeric(&mut threads);
    let mut seen = HashSet::new();
    threads.retain(|t| seen.insert(t.clone()));
    let re = compiled(r"^min:([0-9]+) max:([0-9]+) total:([0-9]+)")?;
    for m in &models {
        for w in &workloads {
            for t in &threads {
                crate::cancel::check()?;
                let name = format!("wis-{w}-{m}-{t}.log");
                if !dir.is_file(&name) {
                    return Err(Error::parse(
                        Some(&dir.display()),
                        None,
                        format!("no {name} (compare-mmtests.pl dies \"Failed to open\": every model, workload and thread count must have run)"),
                    ));
                }
                let log = dir.read(&name)?;
                out.files_read += 1;
                for c in log.lines().filter_map(|l| re.captures(l)) {
                    out.add_text(&format!("{w}-{m}-{t}"), c.get(3).map_or("", |v| v.as_str()));
                }
            }
        }
    }
    Ok(())
}
