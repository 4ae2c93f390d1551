//! AIM9's `singleuser` report (`aim9-<I>`: one line per test, `<nr> <name> <elapsed> <count>
//! <loops/sec> <ops/sec> <description>`), as head's `aim9/parse-results` and 2024/2025's
//! `ExtractAim9.pm` read it.

use super::shellpack::{emit, sort_rows, Key, Row};
use super::{Ctx, Samples};
use crate::error::Result;
use crate::mmtests::logfile::{sort_numeric, LogDir};

/// The tests 2024/2025's module looks for, in its order.
const LEGACY_TESTS: &[&str] = &[
    "page_test",
    "brk_test",
    "exec_test",
    "fork_test",
    "disk_cp",
    "disk_rd",
    "disk_rr",
    "disk_rw",
    "disk_src",
    "disk_wrt",
];

/// The iterations I of the files `aim9-<I>`, in numeric order.
fn iterations(names: &[String]) -> Vec<String> {
    let mut v: Vec<String> = names.iter().filter_map(|n| n.strip_prefix("aim9-")).map(str::to_string).collect();
    sort_numeric(&mut v);
    v
}

/// head: per I, the lines holding `_test` (`grep -E '[a-z]*_test'`), awk's `$2` the metric and
/// `$6` the value, sorted `-k1,1 -k4,4n`.
pub fn head(ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let names = dir.list()?;
    let mut rows = Vec::new();
    for i in iterations(&names) {
        crate::cancel::check()?;
        let log = dir.read(&format!("aim9-{i}"))?;
        out.files_read += 1;
        for line in log.lines().filter(|l| l.contains("_test")) {
            let f: Vec<&str> = line.split([' ', '\t']).filter(|w| !w.is_empty()).collect();
            let at = |k: usize| f.get(k).copied().unwrap_or_default().to_string();
            rows.push(Row { metric: at(1), a: "_".into(), b: "_".into(), interval: i.clone(), value: at(5) });
        }
    }
    sort_rows(&mut rows, &[Key::Metric, Key::Interval]);
    emit(ctx, &rows, out);
    Ok(())
}

/// 2024/2025: for each test of the module's list, every `aim9-*` file in glob order, every line
/// holding the test's name: the seventh field of `split(/\s+/)` (the line's leading blanks make
/// an empty first field); the operations are the tests seen, sorted.
pub fn legacy(_ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let names = dir.list()?;
    let mut texts = Vec::new();
    for n in names.iter().filter(|n| n.starts_with("aim9-")) {
        texts.push(dir.read(n)?.text);
        out.files_read += 1;
    }
    let mut seen: Vec<String> = out.operations();
    for test in LEGACY_TESTS {
        for text in &texts {
            crate::cancel::check()?;
            for line in text.lines().filter(|l| l.contains(test)) {
                let f: Vec<&str> = line.split(|c: char| c.is_ascii_whitespace()).collect();
                // split(/\s+/): runs of blanks are one separator, a leading run gives ""
                let f: Vec<&str> =
                    f.iter().enumerate().filter(|(k, w)| !w.is_empty() || *k == 0).map(|(_, w)| *w).collect();
                out.add_text(test, f.get(6).copied().unwrap_or_default());
                if !seen.iter().any(|s| s == test) {
                    seen.push(test.to_string());
                }
            }
        }
    }
    seen.sort();
    out.set_order(seen);
    Ok(())
}
