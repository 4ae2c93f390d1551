//! `/proc/vmstat` snapshots (after `time:` lines) as lkp-tests' programs/proc-vmstat/parse
//! reads them: each `name value` line as `name: value`.

use super::ruby::{self, bad_line, Lines};

/// Parse proc-vmstat snapshots (`path` names it in errors: an empty line).
pub fn parse(text: &str, path: &str) -> Lines {
    let mut out = String::new();
    for (ln, line) in ruby::lines(text).enumerate() {
        if line.starts_with("time:") {
            out.push_str(line.strip_suffix('\n').unwrap_or(line));
            out.push('\n');
            continue;
        }
        let f = ruby::split(line);
        let Some(key) = f.first() else { return Err(bad_line(path, ln + 1, "expected 'name value'")) };
        out.push_str(&format!("{}: {}\n", key.strip_suffix(':').unwrap_or(key), f.get(1).copied().unwrap_or("")));
    }
    Ok(out)
}
