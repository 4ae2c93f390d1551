//! Where a state table comes from: a file or directory named by the user (CSV, a sysfs
//! `cpuidle` directory, a `grep .` dump of one, or a preset name), or columns handed over
//! by a front end (docs/idle-governors.md §2.4).

use super::states::{parse_flags, IdleState, StateTable, PRESETS};
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

/// A state table's columns as a front end holds them (a DataFrame or a mapping of
/// lists): `name`, `exit_latency_us` and `target_residency_us` are required; the flags
/// come from `polling`/`disabled` when given, else from `flags` letters (as the CSV's,
/// [`super::states::parse_flags`]); `disable` (0/1, sysfs' name) stands for `disabled`;
/// `power_mw` may hold gaps (None or NaN). Durations are numbers that must be whole µs.
#[derive(Debug, Default, Clone)]
pub struct NamedColumns {
    /// State names, shallowest first.
    pub name: Option<Vec<String>>,
    /// Exit latencies (µs).
    pub exit_latency_us: Option<Vec<f64>>,
    /// Target residencies (µs).
    pub target_residency_us: Option<Vec<f64>>,
    /// Flag letters per state (`P`, `D`, `-`).
    pub flags: Option<Vec<String>>,
    /// Whether each state is the poll loop (overrides `flags`).
    pub polling: Option<Vec<bool>>,
    /// Whether each state is disabled (overrides `flags`).
    pub disabled: Option<Vec<bool>>,
    /// sysfs' name for `disabled` (0/1).
    pub disable: Option<Vec<bool>>,
    /// Power per state in mW, for the energy estimate.
    pub power_mw: Option<Vec<Option<f64>>>,
}

impl StateTable {
    /// The validated table of [`NamedColumns`] (docs/idle-governors.md §2.4): a missing
    /// required column, a duration that is not a whole number or an unknown flag is an
    /// error naming the column (and the state).
    pub fn from_named_columns(c: NamedColumns) -> Result<StateTable> {
        let need = |v: Option<Vec<f64>>, col: &str| {
            v.ok_or_else(|| Error::parse_col(None, None, col, format!("states: missing column '{col}'")))
        };
        let names = c.name.ok_or_else(|| Error::parse_col(None, None, "name", "states: missing column 'name'"))?;
        let whole = |v: Vec<f64>, col: &str| -> Result<Vec<i64>> {
            v.into_iter()
                .enumerate()
                .map(|(i, x)| {
                    if x.is_finite() && x == x.trunc() && x.abs() < 9.0e15 {
                        Ok(x as i64)
                    } else {
                        Err(Error::parse_col(
                            None,
                            None,
                            col,
                            format!("state {i}: expected a whole number of µs, got {x}"),
                        ))
                    }
                })
                .collect()
        };
        let el = whole(need(c.exit_latency_us, "exit_latency_us")?, "exit_latency_us")?;
        let tr = whole(need(c.target_residency_us, "target_residency_us")?, "target_residency_us")?;
        let n = names.len();
        let from_flags = c
            .flags
            .map(|f| {
                f.iter()
                    .enumerate()
                    .map(|(i, s)| {
                        parse_flags(s).map_err(|m| Error::parse_col(None, None, "flags", format!("state {i}: {m}")))
                    })
                    .collect::<Result<Vec<_>>>()
            })
            .transpose()?;
        let flag = |k: usize| -> Vec<bool> {
            from_flags
                .as_ref()
                .map_or_else(|| vec![false; n], |f| f.iter().map(|p| if k == 0 { p.0 } else { p.1 }).collect())
        };
        let polling = c.polling.unwrap_or_else(|| flag(0));
        let disabled = c.disabled.or(c.disable).unwrap_or_else(|| flag(1));
        let power: Vec<Option<f64>> =
            c.power_mw.map_or_else(|| vec![None; n], |p| p.into_iter().map(|v| v.filter(|x| !x.is_nan())).collect());
        StateTable::from_columns(names, &el, &tr, &polling, &disabled, &power)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_columns_take_flags_letters_or_booleans_and_name_what_is_wrong() {
        let cols = |flags: &[&str]| NamedColumns {
            name: Some(vec!["POLL".into(), "C1".into()]),
            exit_latency_us: Some(vec![0.0, 2.0]),
            target_residency_us: Some(vec![0.0, 2.0]),
            flags: Some(flags.iter().map(|f| f.to_string()).collect()),
            power_mw: Some(vec![Some(f64::NAN), Some(1.5)]),
            ..Default::default()
        };
        let t = StateTable::from_named_columns(cols(&["P", "d"])).unwrap();
        let s = t.states();
        assert_eq!((s[0].polling, s[0].disabled, s[1].polling, s[1].disabled), (true, false, false, true));
        assert_eq!((s[0].power_mw, s[1].power_mw), (None, Some(1.5)));
        let e = StateTable::from_named_columns(cols(&["P", "X"])).unwrap_err().to_string();
        assert!(e.contains("flags") && e.contains("state 1: unknown flag 'X'"), "{e}");
        let e =
            StateTable::from_named_columns(NamedColumns { exit_latency_us: Some(vec![0.0, 2.5]), ..cols(&["P", "-"]) })
                .unwrap_err()
                .to_string();
        assert!(e.contains("exit_latency_us") && e.contains("state 1: expected a whole number of µs, got 2.5"), "{e}");
        let e = StateTable::from_named_columns(NamedColumns { target_residency_us: None, ..cols(&["P", "-"]) })
            .unwrap_err()
            .to_string();
        assert!(e.contains("missing column 'target_residency_us'"), "{e}");
        let with_bools = NamedColumns {
            flags: None,
            polling: Some(vec![true, false]),
            disable: Some(vec![false, true]),
            ..cols(&[])
        };
        assert_eq!(StateTable::from_named_columns(with_bools).unwrap().states(), t.states());
    }

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
