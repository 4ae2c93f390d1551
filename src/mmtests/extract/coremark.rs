//! CoreMark's logs (`coremark-<I>.log.gz`, the output of `coremark.exe`, whose last line is
//! `CoreMark 1.0 : <score> / <compiler> <flags> / Heap / <T>:PThreads`), as MMTests reads
//! them: head's `coremark/parse-results` and 2024/2025's `ExtractCoremark.pm`.

use super::shellpack::{emit, Row};
use super::{Ctx, Samples};
use crate::error::Result;
use crate::mmtests::logfile::{iterations, LogDir};
use regex::Regex;
use std::sync::OnceLock;

/// head: per iteration I of `coremark-*.log.gz` (`cut -d- -f2`, numeric order), the last
/// field of the lines holding `Parallel PThreads` (T) and the fourth field of those holding
/// `CoreMark 1` (the score), printed unsorted as `score T _ I score _`.
pub fn head(ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let names = dir.list()?;
    let iters = iterations(&names, "coremark", ".log.gz");
    let mut rows = Vec::new();
    for i in iters {
        crate::cancel::check()?;
        let log = dir.read(&format!("coremark-{i}.log.gz"))?;
        out.files_read += 1;
        // `X=\`... | awk\``, then `echo $X`: the matches' fields joined by spaces
        let pick = |pat: &str, last: bool| -> String {
            let words: Vec<String> = log
                .lines()
                .filter(|l| l.contains(pat))
                .filter_map(|l| {
                    let f: Vec<&str> = l.split([' ', '\t']).filter(|w| !w.is_empty()).collect();
                    if last {
                        f.last().map(|w| w.to_string())
                    } else {
                        f.get(3).map(|w| w.to_string())
                    }
                })
                .collect();
            words.join(" ")
        };
        let threads = pick("Parallel PThreads", true);
        let score = pick("CoreMark 1", false);
        rows.push(Row { metric: "score".into(), a: threads, b: "_".into(), interval: i, value: score });
    }
    emit(ctx, &rows, out);
    Ok(())
}

/// 2024/2025: every file of `coremark-*.log*` in glob order, the lines starting `CoreMark 1`;
/// the thread count T is the `<T>:PThreads` of the first such line, the sample the fourth
/// field (split on single whitespace) of each, added to `Score-<T>` (`Score--1` before any T).
pub fn legacy(_ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    static PTHREADS: OnceLock<Option<Regex>> = OnceLock::new();
    let pthreads = PTHREADS.get_or_init(|| Regex::new(r"([0-9]+):PThreads").ok());
    let names = dir.list()?;
    let mut threads: Option<String> = None;
    for n in names.iter().filter(|n| n.strip_prefix("coremark-").is_some_and(|r| r.contains(".log"))) {
        crate::cancel::check()?;
        let log = dir.read(n)?;
        out.files_read += 1;
        for line in log.lines().filter(|l| l.starts_with("CoreMark 1")) {
            if threads.is_none() {
                threads = pthreads
                    .as_ref()
                    .and_then(|r| r.captures(line))
                    .and_then(|c| c.get(1))
                    .map(|m| m.as_str().to_string());
            }
            let score = line.split(|c: char| c.is_ascii_whitespace()).nth(3).unwrap_or("");
            out.add_text(&format!("Score-{}", threads.as_deref().unwrap_or("-1")), score);
        }
    }
    Ok(())
}
