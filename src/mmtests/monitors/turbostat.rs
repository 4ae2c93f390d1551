//! `--print-monitor turbostat [--sub-heading COLUMN]`: the columns of turbostat's
//! summary row (`-`) per interval (MMTests' MonitorTurbostat; docs/mmtests-monitors.md §7).
//!
//! The columns are found on the first header line (`CPU Avg_MHz` or `Core CPU` after
//! whitespace): C-state residencies (`CPU%cN`, and at head `CN%`, `CNX%`, `POLL%`),
//! `Busy%`/`%Busy`, `Avg_MHz`, `CorWatt`, `PkgWatt`, printed in sorted order. MMTests
//! 2024 keeps the first file's columns for the whole process; later eras read each file's.

use super::{perl_split_ws, IterDir, Reader};
use crate::error::{Error, Result};
use crate::mmtests::era::Era;
use crate::mmtests::extract::Samples;
use std::collections::BTreeMap;

/// The turbostat reader.
pub struct Turbostat {
    era: Era,
    sub: String,
    /// 2024: the column map of the first file read.
    kept: Option<BTreeMap<String, usize>>,
}

impl Turbostat {
    /// A reader of sub-heading `sub` ("" = every column).
    pub fn new(era: Era, sub: &str) -> Turbostat {
        Turbostat { era, sub: sub.to_string(), kept: None }
    }

    fn wanted(&self, h: &str) -> bool {
        let c_pct = |h: &str| {
            // /C[0-9]%/ or /C[0-9][A-Z]*%/ anywhere in the header
            h.char_indices().any(|(i, c)| {
                c == 'C' && {
                    let rest = h.get(i + 1..).unwrap_or("");
                    let mut it = rest.chars();
                    it.next().is_some_and(|d| d.is_ascii_digit()) && {
                        let tail = rest.get(1..).unwrap_or("");
                        tail.trim_start_matches(|c: char| c.is_ascii_uppercase()).starts_with('%')
                    }
                }
            })
        };
        let cpu_c = h
            .match_indices("CPU%c")
            .any(|(i, _)| h.get(i + 5..).and_then(|r| r.chars().next()).is_some_and(|c| c.is_ascii_digit()));
        cpu_c
            || matches!(h, "CorWatt" | "PkgWatt" | "%Busy" | "Busy%" | "Avg_MHz")
            || (self.era != Era::E2024 && (c_pct(h) || h == "POLL%"))
    }

    fn columns(&self, text: &str) -> BTreeMap<String, usize> {
        let mut map = BTreeMap::new();
        for line in text.split_inclusive('\n') {
            if !has_ws_word_pair(line, "Core", "CPU") && !has_ws_word_pair(line, "CPU", "Avg_MHz") {
                continue;
            }
            for (i, h) in line.split_ascii_whitespace().enumerate() {
                if self.wanted(h) {
                    map.insert(h.to_string(), i);
                }
            }
            break;
        }
        map
    }
}

/// Whether `line` matches `/\s+A\s+B/`.
fn has_ws_word_pair(line: &str, a: &str, b: &str) -> bool {
    line.match_indices(a).any(|(i, _)| {
        let before = line.get(..i).is_some_and(|p| p.ends_with(|c: char| c.is_ascii_whitespace()));
        let after = line.get(i + a.len()..).unwrap_or("");
        let trimmed = after.trim_start_matches(|c: char| c.is_ascii_whitespace());
        before && trimmed.len() < after.len() && trimmed.starts_with(b)
    })
}

impl Reader for Turbostat {
    fn begin_run(&mut self) {}

    fn read(&mut self, it: &IterDir<'_>, out: &mut Samples) -> Result<()> {
        let Some(log) = it.monitor_log("turbostat")? else { return Ok(()) };
        let cols = match (&self.kept, self.era) {
            (Some(k), Era::E2024) if !k.is_empty() => k.clone(),
            _ => self.columns(&log.text),
        };
        if self.era == Era::E2024 {
            self.kept = Some(cols.clone());
        }
        if !self.sub.is_empty() && !cols.contains_key(&self.sub) {
            return Err(Error::domain(format!(
                "turbostat has no column '{}' in {} (MMTests dies: \"Unrecognised heading\"; columns: {})",
                self.sub,
                log.name(),
                cols.keys().cloned().collect::<Vec<_>>().join(", ")
            )));
        }
        for (n, line) in log.lines().enumerate() {
            crate::cancel::check_every(n)?;
            let e = perl_split_ws(line.trim_start());
            let offset = if e.get(3) == Some(&"--") { 4 } else { 0 };
            if e.get(offset) != Some(&"-") {
                continue;
            }
            for (h, &i) in &cols {
                if self.sub.is_empty() || *h == self.sub {
                    out.add_text(h, e.get(i).copied().unwrap_or(""));
                }
            }
        }
        Ok(())
    }
}
