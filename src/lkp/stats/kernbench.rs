//! kernbench as lkp-tests' programs/kernbench/parse reads it: the averages of the
//! `Average … Run (std deviation):` block (elapsed, user and system time, percent CPU,
//! context switches, sleeps), each with its `_stddev` when printed, as printed.

use super::ruby::{self, Lines};

/// The phrase that selects a line (anywhere in it), lkp's key, and the field holding
/// the value (the standard deviation is the next field, in parentheses).
const ROWS: [(&str, &str, usize); 6] = [
    ("Elapsed Time", "elapsed_time", 2),
    ("User Time", "user_time", 2),
    ("System Time", "system_time", 2),
    ("Percent CPU", "percent_cpu", 2),
    ("Context Switches", "context_switches", 2),
    ("Sleeps", "sleeps", 1),
];

/// Parse kernbench output.
pub fn parse(text: &str, _path: &str) -> Lines {
    let mut out = String::new();
    for line in ruby::lines(text) {
        let Some(&(_, key, i)) = ROWS.iter().find(|(phrase, _, _)| line.contains(phrase)) else { continue };
        let f = ruby::split(line);
        // a missing field prints as "" (Ruby's nil)
        out.push_str(&format!("{key}: {}\n", f.get(i).copied().unwrap_or("")));
        if let Some(sd) = f.get(i + 1) {
            out.push_str(&format!("{key}_stddev: {}\n", sd.replace(['(', ')'], "")));
        }
    }
    Ok(out)
}
