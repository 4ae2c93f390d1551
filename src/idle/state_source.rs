//! Where a state table comes from: a file or directory named by the user (CSV, a sysfs
//! `cpuidle` directory, a `grep .` dump of one, or a preset name), or columns handed over
//! by a front end (docs/idle-governors.md §2.4).

use super::states::{IdleState, StateTable, PRESETS};
use crate::error::{Error, Result};
use std::path::Path;

impl StateTable {
    /// The table at `path`: a sysfs `cpuidle` directory, a file holding a `grep .` dump
    /// (lines like `.../state0/name:POLL`) or a CSV, or, when no such file exists, a
    /// preset of that name (a bare word that is none of these is an error listing the
    /// presets).
    pub fn load(path: &Path) -> Result<StateTable> {
        if path.is_dir() {
            return StateTable::read_sysfs(path);
        }
        if !path.exists() {
            if let Some(name) = path.to_str() {
                if PRESETS.iter().any(|p| p.0.eq_ignore_ascii_case(name)) {
                    return StateTable::preset(name);
                }
                if !name.contains(['/', '.']) {
                    // a name, not a path: most likely a misspelled preset
                    let names: Vec<&str> = PRESETS.iter().map(|p| p.0).collect();
                    return Err(Error::domain(format!(
                        "'{name}' is not a file, a directory or a state-table preset (presets: {})",
                        names.join(", ")
                    )));
                }
            }
        }
        let bytes = crate::archive::dir::read_file(path, crate::archive::tree::DEFAULT_MAX_FILE_BYTES)?;
        let label = path.display().to_string();
        let first = bytes
            .split(|&b| b == b'\n')
            .find(|l| !l.iter().all(u8::is_ascii_whitespace) && !l.starts_with(b"#"))
            .unwrap_or(&[]);
        if first.starts_with(b"state") || first.windows(6).any(|w| w == b"/state") {
            StateTable::parse_sysfs_dump(&bytes, Some(&label))
        } else {
            StateTable::parse_csv(&bytes, Some(&label))
        }
    }

    /// A validated table from its columns (one entry per state, shallowest first);
    /// a negative or out-of-range duration is an error naming the column and state.
    pub fn from_columns(
        names: Vec<String>,
        exit_latency_us: &[i64],
        target_residency_us: &[i64],
        polling: &[bool],
        disabled: &[bool],
        power_mw: &[Option<f64>],
    ) -> Result<StateTable> {
        let n = names.len();
        let lens = [exit_latency_us.len(), target_residency_us.len(), polling.len(), disabled.len(), power_mw.len()];
        if lens.iter().any(|&l| l != n) {
            return Err(Error::domain("state table columns have different lengths"));
        }
        let us = |i: usize, v: i64, col: &str| -> Result<u32> {
            if v < 0 {
                return Err(Error::parse_col(None, None, col, format!("state {i}: negative duration {v} µs")));
            }
            u32::try_from(v)
                .map_err(|_| Error::parse_col(None, None, col, format!("state {i}: {v} µs is out of range")))
        };
        let mut states = Vec::with_capacity(n);
        for (i, name) in names.into_iter().enumerate() {
            let at = |c: &[i64]| c.get(i).copied().unwrap_or_default();
            states.push(IdleState {
                name,
                exit_latency_us: us(i, at(exit_latency_us), "exit_latency_us")?,
                target_residency_us: us(i, at(target_residency_us), "target_residency_us")?,
                polling: polling.get(i).copied().unwrap_or_default(),
                disabled: disabled.get(i).copied().unwrap_or_default(),
                power_mw: power_mw.get(i).copied().flatten(),
            });
        }
        StateTable::new(states)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_checked_and_names_resolve_to_presets_or_errors() {
        let names = vec!["POLL".to_string(), "C1".to_string()];
        let e =
            StateTable::from_columns(names.clone(), &[0, -1], &[0, 2], &[true, false], &[false, false], &[None, None])
                .unwrap_err()
                .to_string();
        assert!(e.contains("exit_latency_us") && e.contains("state 1: negative duration -1"), "{e}");
        let e = StateTable::from_columns(names, &[0], &[0, 2], &[true, false], &[false, false], &[None, None])
            .unwrap_err()
            .to_string();
        assert!(e.contains("different lengths"), "{e}");
        let e = StateTable::load(Path::new("no-such-preset")).unwrap_err().to_string();
        assert!(e.contains("not a file, a directory or a state-table preset") && e.contains(PRESETS[0].0), "{e}");
        let t = StateTable::load(Path::new(PRESETS[0].0)).unwrap();
        assert_eq!(t.states(), StateTable::preset(PRESETS[0].0).unwrap().states());
    }
}
