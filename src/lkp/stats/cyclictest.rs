//! cyclictest's histogram summary as lkp-tests' programs/cyclictest/parse reads it: each
//! `# <name>: <value>` comment line as `<name lower-cased, spaces to _>: <value>`, and
//! `/dev/cpu_dma_latency` as set.

use super::ruby::{self, group, re};
use regex::Regex;
use std::sync::OnceLock;

/// Parse cyclictest output.
pub fn parse(text: &str) -> String {
    static P: OnceLock<(Regex, Regex)> = OnceLock::new();
    let (dma, comment) = P.get_or_init(|| (re(r"^# (/dev/cpu_dma_latency) set to (.+)us"), re(r"^# (.*):(.+)")));
    let mut out = String::new();
    for line in ruby::lines(text) {
        if line.starts_with("# Thread") {
            continue;
        }
        if let Some(c) = dma.captures(line) {
            out.push_str(&format!("{}: {}\n", group(&c, 1).to_lowercase(), group(&c, 2)));
        } else if let Some(c) = comment.captures(line) {
            out.push_str(&format!("{}: {}\n", group(&c, 1).to_lowercase().replace(' ', "_"), group(&c, 2)));
        }
    }
    out
}
