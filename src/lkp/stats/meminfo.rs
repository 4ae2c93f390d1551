//! `/proc/meminfo` snapshots (after `time:` lines) as lkp-tests' programs/meminfo/parse
//! reads them: each field as `<name>: <value>`, and after each `MemFree` the memory used
//! (`Memused`: the first MemTotal − MemFree) and its largest value so far
//! (`max_used_<unit>`).

use super::ruby::{self, bad_line, Lines};

/// Parse meminfo snapshots (`path` names it in errors: an empty line, or MemFree before
/// any MemTotal).
pub fn parse(text: &str, path: &str) -> Lines {
    let mut out = String::new();
    let mut total: Option<i64> = None;
    let mut unit: Option<String> = None;
    let mut max_used: Option<i64> = None;
    for (ln, line) in ruby::lines(text).enumerate() {
        if line.starts_with("test_klp_atomic_replace:") || line.starts_with("entries") {
            continue;
        }
        if line.starts_with("time:") {
            out.push_str(line.strip_suffix('\n').unwrap_or(line));
            out.push('\n');
            continue;
        }
        let f = ruby::split(line);
        let Some(key) = f.first() else { return Err(bad_line(path, ln + 1, "expected 'Name: value [unit]'")) };
        let key = key.strip_suffix(':').unwrap_or(key);
        let value = f.get(1).copied().unwrap_or("");
        out.push_str(&format!("{key}: {value}\n"));
        let value = ruby::to_i(value);
        if key == "MemTotal" && total.is_none() {
            total = Some(value);
        }
        if key == "MemFree" {
            let Some(t) = total else { return Err(bad_line(path, ln + 1, "MemFree before MemTotal")) };
            let used = t.wrapping_sub(value);
            if unit.is_none() {
                unit = f.get(2).map(|s| s.to_string());
            }
            let max = max_used.map_or(used, |m| m.max(used));
            max_used = Some(max);
            out.push_str(&format!("Memused: {used}\nmax_used_{}: {max}\n", unit.as_deref().unwrap_or("")));
        }
    }
    Ok(out)
}
