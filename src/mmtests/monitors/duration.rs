//! `--print-monitor duration`: User, System and Elapsed seconds of the benchmark from
//! the `time :: BENCH U user S system E elapsed` line GNU time adds to tests-timestamp
//! (MMTests' MonitorDuration; docs/mmtests-monitors.md §2).

use super::{IterDir, Reader};
use crate::error::Result;
use crate::mmtests::extract::Samples;

/// The Duration reader (no state).
pub struct Duration;

impl Reader for Duration {
    fn begin_run(&mut self) {}

    fn read(&mut self, it: &IterDir<'_>, out: &mut Samples) -> Result<()> {
        let Some(log) = it.open("tests-timestamp")? else { return Ok(()) };
        let pattern = format!("time :: {} ", it.benchmark);
        for line in log.lines() {
            // /^time \:\: BENCH (.*)/ with BENCH's '+' escaped (its other characters are
            // benchmark-name letters, digits, '-', '_' and '.', which match themselves here
            // except '.', which the Perl lets match anything: names never hold another
            // character at that place)
            let Some(rest) = perl_dot_prefix(line, &pattern) else { continue };
            // split(/\s/, ...): single whitespace characters
            let f: Vec<&str> = rest.split(|c: char| c.is_ascii_whitespace()).collect();
            for (op, idx) in [("User", 0), ("System", 2), ("Elapsed", 4)] {
                out.add_text(op, f.get(idx).copied().unwrap_or(""));
            }
        }
        Ok(())
    }
}

/// The rest of `line` after `pattern`, where a `.` of the pattern matches any character.
fn perl_dot_prefix<'a>(line: &'a str, pattern: &str) -> Option<&'a str> {
    let mut chars = line.char_indices();
    for p in pattern.chars() {
        let (_, c) = chars.next()?;
        if p != '.' && p != c {
            return None;
        }
    }
    Some(chars.next().map_or("", |(i, _)| line.get(i..).unwrap_or("")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dots_match_any_character() {
        assert_eq!(perl_dot_prefix("time :: a.b x", "time :: a.b "), Some("x"));
        assert_eq!(perl_dot_prefix("time :: aXb x", "time :: a.b "), Some("x"));
        assert_eq!(perl_dot_prefix("time :: ab", "time :: a.b "), None);
    }
}
