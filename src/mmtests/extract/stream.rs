//! 2024/2025's `ExtractStream.pm` (head reads STREAM through [`super::awk_bench`]): the
//! mean over the `stream-*.log` files of each kernel's best rate, in GB/s.

use super::{Ctx, Samples};
use crate::error::{Error, Result};
use crate::mmtests::logfile::LogDir;
use crate::mmtests::perlfmt::numify;
use regex::Regex;
use std::sync::OnceLock;

/// Per file of `stream-*.log`: the last `Threads counted = N` gives N; the lines
/// `^<Kernel>:\s+<rate>\s` add their MB/s to that kernel's sum. One sample each of
/// `copy-N`, `scale-N`, `add-N`, `triad-N`: sum / 1024 / files. No file: the module
/// divides by zero and dies.
pub fn legacy(ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    static RES: OnceLock<Vec<Regex>> = OnceLock::new();
    let res = RES.get_or_init(|| {
        [
            r"Threads counted = ([0-9]+)",
            r"^Copy:\s+([0-9.]*)\s",
            r"^Scale:\s+([0-9.]*)\s",
            r"^Add:\s+([0-9.]*)\s",
            r"^Triad:\s+([0-9.]*)\s",
        ]
        .iter()
        .filter_map(|p| Regex::new(p).ok())
        .collect()
    });
    let names = dir.list()?;
    let files: Vec<&String> = names.iter().filter(|n| n.starts_with("stream-") && n.ends_with(".log")).collect();
    if files.is_empty() {
        return Err(Error::insufficient(format!(
            "benchmark '{}': no stream-*.log under {} (MMTests' ExtractStream divides by zero and dies)",
            ctx.benchmark,
            dir.display()
        )));
    }
    let mut threads = String::new();
    let mut sums = [0.0f64; 4];
    for f in &files {
        crate::cancel::check()?;
        let log = dir.read(f)?;
        out.files_read += 1;
        for line in log.lines() {
            for (k, re) in res.iter().enumerate() {
                let Some(m) = re.captures(line).and_then(|c| c.get(1)) else { continue };
                match k.checked_sub(1).and_then(|j| sums.get_mut(j)) {
                    None => threads = m.as_str().to_string(),
                    Some(sum) => *sum += numify(m.as_str()),
                }
            }
        }
    }
    let n = files.len() as f64;
    for (name, sum) in ["copy", "scale", "add", "triad"].iter().zip(sums) {
        out.add(&format!("{name}-{threads}"), sum / 1024.0 / n);
    }
    Ok(())
}
