//! Idle-state tables: what a cpuidle driver registers (`drv->states[]`) plus the
//! per-CPU `disable` switches (`dev->states_usage[].disable`).
//!
//! Sources of a table:
//! - CSV `name,exit_latency_us,target_residency_us,flags` (as the goldens' `tests/data/idle/inputs/states_*.csv`),
//!   with optional columns `disable` (0/1) and `power_mw` (for energy estimates). `flags`
//!   holds letters: `P` = `CPUIDLE_FLAG_POLLING` (the software poll loop), `D` = disabled,
//!   `-` or empty = none.
//! - A sysfs dump of `/sys/devices/system/cpu/cpuN/cpuidle/stateK/{name,latency,residency,disable}`,
//!   either the directory itself or the text printed by `grep . .../state*/*`. sysfs does not
//!   export the flags; a state named `POLL` is taken as the polling state (the name
//!   `drivers/cpuidle/poll_state.c` gives it). Kernels before 3.14 export no `residency`:
//!   the target residency is then taken as twice the exit latency (the rule of ACPI's
//!   `processor_idle`, `latency_factor` 2), said in [`StateTable::assumptions`].
//! - Named presets copied from the kernel's tables (see [`PRESETS`]).
//!
//! A table must hold 1..=10 states (`CPUIDLE_STATE_MAX`) ordered shallow to deep: exit
//! latency and target residency may not decrease from one state to the next, and no two
//! states may share a name or both numbers.

// Parsers of untrusted bytes: no unwrap, expect, indexing or string slicing that can panic on input.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

use crate::csv_table;
use crate::error::{Error, Result};
use std::path::Path;

/// The most bytes read from one sysfs attribute file (they hold a name or a number).
const SYSFS_FIELD_BYTES: u64 = 4096;

/// `CPUIDLE_STATE_MAX`: the most states a cpuidle driver can register.
pub const MAX_STATES: usize = 10;

/// One idle state as a driver describes it (times in microseconds, as in the drivers).
#[derive(Debug, Clone, PartialEq)]
pub struct IdleState {
    /// Name as in sysfs (`POLL`, `C1`, `C6`, `WFI`...).
    pub name: String,
    /// `exit_latency` in µs.
    pub exit_latency_us: u32,
    /// `target_residency` in µs.
    pub target_residency_us: u32,
    /// `CPUIDLE_FLAG_POLLING`: the state is the software poll loop.
    pub polling: bool,
    /// `dev->states_usage[i].disable` (or the driver's own `disabled`).
    pub disabled: bool,
    /// Optional power drawn in the state, in mW (only for energy estimates).
    pub power_mw: Option<f64>,
}

/// The kernel's view of a validated table, in the shapes the governors read it:
/// `*_ns` as `s64` (6.x `cpuidle_state`), `*_us` as `unsigned int` (≤ 5.x), flags.
/// Indices below `count` are always valid; entries past it are zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Drv {
    /// `drv->state_count` (1..=10).
    pub count: usize,
    /// `target_residency_ns` = µs × 1000.
    pub tr_ns: [i64; MAX_STATES],
    /// `exit_latency_ns` = µs × 1000.
    pub el_ns: [i64; MAX_STATES],
    /// `target_residency` (µs).
    pub tr_us: [u32; MAX_STATES],
    /// `exit_latency` (µs).
    pub el_us: [u32; MAX_STATES],
    /// `flags & CPUIDLE_FLAG_POLLING`.
    pub polling: [bool; MAX_STATES],
    /// `states_usage[i].disable`.
    pub disabled: [bool; MAX_STATES],
}

/// A validated idle-state table.
#[derive(Debug, Clone)]
pub struct StateTable {
    states: Vec<IdleState>,
    drv: Drv,
    assumptions: Vec<String>,
}

impl PartialEq for StateTable {
    /// Equal states; how they were obtained does not count.
    fn eq(&self, other: &Self) -> bool {
        self.states == other.states && self.drv == other.drv
    }
}

/// Target residency per µs of exit latency when sysfs exports none (ACPI's `latency_factor`).
pub const RESIDENCY_PER_LATENCY: u32 = 2;

/// A named preset: `(name, description, [(state, exit_latency_us, target_residency_us, polling)])`.
pub type Preset = (&'static str, &'static str, &'static [(&'static str, u32, u32, bool)]);

/// The named presets.
///
/// The Intel tables are `drivers/idle/intel_idle.c` (`skx_cstates`, `icx_cstates`,
/// `spr_cstates`, `skl_cstates`, `adl_cstates` without its default-unusable C1), each
/// preceded by the `POLL` state that `cpuidle_poll_state_init()` adds. The Arm table is
/// `arch/arm64/boot/dts/rockchip/rk3399.dtsi` as `dt_idle_states.c` turns it into cpuidle
/// states (exit latency = entry + exit latency, target residency = min-residency), after
/// the `WFI` state (1/1 µs) of the PSCI cpuidle driver.
pub const PRESETS: &[Preset] = &[
    (
        "intel-skx",
        "Skylake-SP/Cascade Lake server (intel_idle skx_cstates); equals golden states_x86.csv",
        &[("POLL", 0, 0, true), ("C1", 2, 2, false), ("C1E", 10, 20, false), ("C6", 133, 600, false)],
    ),
    (
        "intel-icx",
        "Ice Lake server (intel_idle icx_cstates)",
        &[("POLL", 0, 0, true), ("C1", 1, 1, false), ("C1E", 4, 4, false), ("C6", 170, 600, false)],
    ),
    (
        "intel-spr",
        "Sapphire Rapids server (intel_idle spr_cstates)",
        &[("POLL", 0, 0, true), ("C1", 1, 1, false), ("C1E", 2, 4, false), ("C6", 290, 800, false)],
    ),
    (
        "intel-skl",
        "Skylake client (intel_idle skl_cstates)",
        &[
            ("POLL", 0, 0, true),
            ("C1", 2, 2, false),
            ("C1E", 10, 20, false),
            ("C3", 70, 100, false),
            ("C6", 85, 200, false),
            ("C7s", 124, 800, false),
            ("C8", 200, 800, false),
            ("C9", 480, 5000, false),
            ("C10", 890, 5000, false),
        ],
    ),
    (
        "intel-adl",
        "Alder Lake client (intel_idle adl_cstates; C1 is unusable by default and left out)",
        &[
            ("POLL", 0, 0, true),
            ("C1E", 2, 4, false),
            ("C6", 220, 600, false),
            ("C8", 280, 800, false),
            ("C10", 680, 2000, false),
        ],
    ),
    (
        "arm-rk3399",
        "Rockchip RK3399 (Cortex-A53/A72), PSCI idle states from rk3399.dtsi",
        &[("WFI", 1, 1, false), ("CPU_SLEEP", 370, 900, false), ("CLUSTER_SLEEP", 900, 2000, false)],
    ),
];

/// One `Drv` array: `f` of each state, zero (false) past the last state.
fn per_state<T: Copy + Default>(states: &[IdleState], f: impl Fn(&IdleState) -> T) -> [T; MAX_STATES] {
    let mut a = [T::default(); MAX_STATES];
    for (slot, s) in a.iter_mut().zip(states) {
        *slot = f(s);
    }
    a
}

/// The state table CSV's required columns, in the order of the files schedlab writes.
pub const CSV_COLUMNS: [&str; 4] = ["name", "exit_latency_us", "target_residency_us", "flags"];

impl StateTable {
    /// Validate `states` (see the module docs); `path` names the input in errors and
    /// `lines[i]` is the line state `i` came from (if known).
    fn validated(states: Vec<IdleState>, path: Option<&str>, lines: &[usize]) -> Result<Self> {
        let line_of = |i: usize| lines.get(i).copied();
        if states.is_empty() {
            return Err(Error::parse(path, None, "the state table has no states (need at least one)"));
        }
        if states.len() > MAX_STATES {
            return Err(Error::parse(
                path,
                line_of(MAX_STATES),
                format!("the state table has {} states; cpuidle allows at most {MAX_STATES}", states.len()),
            ));
        }
        for (i, s) in states.iter().enumerate() {
            if s.name.is_empty() {
                return Err(Error::parse_col(path, line_of(i), "name", "empty state name"));
            }
            // what the CSV form cannot hold or would read back differently (a comment, a
            // split field); a control character is a corrupt dump (cpuidle names are short
            // printable strings such as POLL, C1E, C6-SKX or WFI)
            if s.name.starts_with('#')
                || s.name.trim() != s.name
                || s.name.chars().any(|c| c.is_control() || c == ',' || c == '"')
            {
                return Err(Error::parse_col(
                    path,
                    line_of(i),
                    "name",
                    format!("state name {:?}: expected printable text without a comma, quote, leading '#' or surrounding space", s.name),
                ));
            }
            if let Some(p) = s.power_mw {
                if !(p.is_finite() && p >= 0.0) {
                    return Err(Error::parse_col(
                        path,
                        line_of(i),
                        "power_mw",
                        format!("power must be ≥ 0 mW, got {p}"),
                    ));
                }
            }
            for (j, t) in states.iter().enumerate().take(i) {
                if t.name == s.name {
                    return Err(Error::parse_col(
                        path,
                        line_of(i),
                        "name",
                        format!("duplicate state '{}' (also state {j})", s.name),
                    ));
                }
                if t.exit_latency_us == s.exit_latency_us && t.target_residency_us == s.target_residency_us {
                    return Err(Error::parse(
                        path,
                        line_of(i),
                        format!(
                            "duplicate state: '{}' has the same exit latency and target residency as '{}' ({}/{} µs)",
                            s.name, t.name, s.exit_latency_us, s.target_residency_us
                        ),
                    ));
                }
            }
            if let Some(prev) = i.checked_sub(1).and_then(|j| states.get(j)) {
                if s.target_residency_us < prev.target_residency_us {
                    return Err(Error::parse_col(
                        path,
                        line_of(i),
                        "target_residency_us",
                        format!(
                            "states are not sorted shallow to deep: '{}' has target residency {} µs < {} µs of '{}' before it",
                            s.name, s.target_residency_us, prev.target_residency_us, prev.name
                        ),
                    ));
                }
                if s.exit_latency_us < prev.exit_latency_us {
                    return Err(Error::parse_col(
                        path,
                        line_of(i),
                        "exit_latency_us",
                        format!(
                            "states are not sorted shallow to deep: '{}' has exit latency {} µs < {} µs of '{}' before it",
                            s.name, s.exit_latency_us, prev.exit_latency_us, prev.name
                        ),
                    ));
                }
            }
        }
        let drv = Drv {
            count: states.len(),
            tr_ns: per_state(&states, |s| i64::from(s.target_residency_us) * 1000),
            el_ns: per_state(&states, |s| i64::from(s.exit_latency_us) * 1000),
            tr_us: per_state(&states, |s| s.target_residency_us),
            el_us: per_state(&states, |s| s.exit_latency_us),
            polling: per_state(&states, |s| s.polling),
            disabled: per_state(&states, |s| s.disabled),
        };
        Ok(StateTable { states, drv, assumptions: Vec::new() })
    }

    /// A table from states ordered shallow to deep (validated as the module docs say).
    pub fn new(states: Vec<IdleState>) -> Result<Self> {
        Self::validated(states, None, &[])
    }

    /// The values this table's reader had to supply itself, one sentence each.
    pub fn assumptions(&self) -> &[String] {
        &self.assumptions
    }

    /// The table with `notes` added to what its reader assumed ([`StateTable::assumptions`]):
    /// a table rebuilt from its own columns (a pickle) keeps the sentences of the read
    /// that made it.
    pub fn with_assumptions(mut self, notes: impl IntoIterator<Item = String>) -> StateTable {
        self.assumptions.extend(notes);
        self
    }

    /// The states, shallow to deep.
    pub fn states(&self) -> &[IdleState] {
        &self.states
    }

    /// Number of states.
    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// Always false (a table has at least one state); for clippy's `len_without_is_empty`.
    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// The kernel's view of the table.
    pub fn drv(&self) -> Drv {
        self.drv
    }

    /// Per-state power in mW if every state has one.
    pub fn power_mw(&self) -> Option<Vec<f64>> {
        self.states.iter().map(|s| s.power_mw).collect()
    }

    /// Parse the CSV form (see the module docs); `path` names the input in errors.
    pub fn parse_csv(bytes: &[u8], path: Option<&str>) -> Result<Self> {
        let spec = csv_table::Spec { what: "input", required: &CSV_COLUMNS, optional: &["disable", "power_mw"] };
        let mut t = csv_table::Table::open(bytes, path, &spec)?;
        let (mut states, mut lines) = (Vec::new(), Vec::new());
        while let Some(row) = t.next_row()? {
            let line = row.line;
            let field = |k: usize| row.get(k).unwrap_or("");
            let us = |k: usize, col: &str| -> Result<u32> {
                let v = csv_table::int(field(k), path, line, col)?;
                if v < 0 {
                    return Err(Error::parse_col(path, Some(line), col, format!("negative duration {v} µs")));
                }
                u32::try_from(v).map_err(|_| {
                    Error::parse_col(path, Some(line), col, format!("{v} µs does not fit the kernel's unsigned int"))
                })
            };
            let exit_latency_us = us(1, CSV_COLUMNS[1])?;
            let target_residency_us = us(2, CSV_COLUMNS[2])?;
            let (polling, mut disabled) =
                parse_flags(field(3)).map_err(|msg| Error::parse_col(path, Some(line), "flags", msg))?;
            if let Some(d) = row.get(4) {
                match d {
                    "0" | "" => {}
                    "1" => disabled = true,
                    other => {
                        return Err(Error::parse_col(
                            path,
                            Some(line),
                            "disable",
                            format!("expected 0 or 1, got '{other}'"),
                        ))
                    }
                }
            }
            let power_mw = match row.get(5) {
                Some(p) if !p.is_empty() => Some(csv_table::float(p, path, line, "power_mw")?),
                _ => None,
            };
            states.push(IdleState {
                name: field(0).to_string(),
                exit_latency_us,
                target_residency_us,
                polling,
                disabled,
                power_mw,
            });
            lines.push(line);
        }
        Self::validated(states, path, &lines)
    }

    /// Read a CSV state table from a file.
    pub fn read_csv(path: &Path) -> Result<Self> {
        let bytes = crate::archive::dir::read_file(path, crate::archive::tree::DEFAULT_MAX_FILE_BYTES)?;
        Self::parse_csv(&bytes, Some(&path.display().to_string()))
    }

    /// Parse the text of `grep . /sys/devices/system/cpu/cpu0/cpuidle/state*/*` (lines
    /// `.../stateK/field:value`; only `name`, `latency`, `residency` and `disable` are used).
    pub fn parse_sysfs_dump(bytes: &[u8], path: Option<&str>) -> Result<Self> {
        let mut by_state: Vec<(usize, SysfsState)> = Vec::new();
        for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
            let line = i + 1;
            let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
            let text = std::str::from_utf8(raw).map_err(|e| {
                Error::parse(
                    path,
                    Some(line),
                    format!("not UTF-8 text (invalid byte at column {})", e.valid_up_to() + 1),
                )
            })?;
            if text.trim().is_empty() {
                continue;
            }
            let Some((_, rest)) = text.split_once("state") else {
                return Err(Error::parse(path, Some(line), "expected '.../stateN/field:value'"));
            };
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            let after = rest.trim_start_matches(|c: char| c.is_ascii_digit());
            let (Ok(k), Some(after)) = (digits.parse::<usize>(), after.strip_prefix('/')) else {
                return Err(Error::parse(path, Some(line), "expected '.../stateN/field:value'"));
            };
            let Some((field, value)) = after.split_once(':') else {
                return Err(Error::parse(path, Some(line), "expected '.../stateN/field:value'"));
            };
            if k >= MAX_STATES {
                return Err(Error::parse(
                    path,
                    Some(line),
                    format!("state{k}: cpuidle allows at most {MAX_STATES} states"),
                ));
            }
            let pos = match by_state.iter().position(|(n, _)| *n == k) {
                Some(p) => p,
                None => {
                    by_state.push((k, SysfsState { line, ..SysfsState::default() }));
                    by_state.len() - 1
                }
            };
            if let Some((_, entry)) = by_state.get_mut(pos) {
                entry.set(field.trim(), value.trim(), path, line)?;
            }
        }
        by_state.sort_by_key(|(k, _)| *k);
        finish_sysfs(by_state, path)
    }

    /// Read a sysfs cpuidle directory (`/sys/devices/system/cpu/cpuN/cpuidle`, a copy of it,
    /// or its parent `cpuN`), or a file holding a `grep .` dump of it.
    pub fn read_sysfs(path: &Path) -> Result<Self> {
        if path.is_file() {
            let bytes = crate::archive::dir::read_file(path, crate::archive::tree::DEFAULT_MAX_FILE_BYTES)?;
            return Self::parse_sysfs_dump(&bytes, Some(&path.display().to_string()));
        }
        let dir = if path.join("cpuidle").is_dir() { path.join("cpuidle") } else { path.to_path_buf() };
        let label = dir.display().to_string();
        let entries = std::fs::read_dir(&dir).map_err(|e| Error::io(&dir, &e))?;
        let mut by_state = Vec::new();
        for entry in entries {
            let entry = entry.map_err(|e| Error::io(&dir, &e))?;
            let name = entry.file_name().to_string_lossy().to_string();
            let Some(k) = name.strip_prefix("state").and_then(|d| d.parse::<usize>().ok()) else {
                continue;
            };
            let mut s = SysfsState { line: 0, ..SysfsState::default() };
            for field in ["name", "latency", "residency", "disable"] {
                let f = entry.path().join(field);
                match crate::archive::dir::read_file(&f, SYSFS_FIELD_BYTES) {
                    Ok(bytes) => {
                        let fl = f.display().to_string();
                        let text = std::str::from_utf8(&bytes)
                            .map_err(|_| Error::parse(Some(&fl), Some(1), "not UTF-8 text"))?;
                        s.set(field, text.trim(), Some(&fl), 1)?;
                    }
                    Err(Error::Io { not_found: true, .. }) if field == "disable" || field == "residency" => {}
                    Err(e) => return Err(e),
                }
            }
            by_state.push((k, s));
        }
        by_state.sort_by_key(|(k, _)| *k);
        finish_sysfs(by_state, Some(&label))
    }

    /// A named preset (see [`PRESETS`]).
    pub fn preset(name: &str) -> Result<Self> {
        let Some((_, _, rows)) = PRESETS.iter().find(|(n, _, _)| n.eq_ignore_ascii_case(name)) else {
            let names: Vec<&str> = PRESETS.iter().map(|p| p.0).collect();
            return Err(Error::domain(format!("unknown state-table preset '{name}' (known: {})", names.join(", "))));
        };
        let states = rows
            .iter()
            .map(|&(n, el, tr, polling)| IdleState {
                name: n.to_string(),
                exit_latency_us: el,
                target_residency_us: tr,
                polling,
                disabled: false,
                power_mw: None,
            })
            .collect();
        Self::new(states)
    }

    /// The CSV form of the table (header `name,exit_latency_us,target_residency_us,flags`,
    /// plus `power_mw` when a state has one; empty for the others), which
    /// [`StateTable::parse_csv`] reads back equal.
    pub fn to_csv(&self) -> String {
        let with_power = self.states.iter().any(|s| s.power_mw.is_some());
        let mut out = String::from("name,exit_latency_us,target_residency_us,flags");
        if with_power {
            out.push_str(",power_mw");
        }
        out.push('\n');
        for s in &self.states {
            let mut flags = String::new();
            if s.polling {
                flags.push('P');
            }
            if s.disabled {
                flags.push('D');
            }
            if flags.is_empty() {
                flags.push('-');
            }
            out.push_str(&format!("{},{},{},{}", s.name, s.exit_latency_us, s.target_residency_us, flags));
            if with_power {
                out.push(',');
                if let Some(p) = s.power_mw {
                    out.push_str(&p.to_string());
                }
            }
            out.push('\n');
        }
        out
    }
}

#[derive(Default)]
struct SysfsState {
    line: usize,
    name: Option<String>,
    latency: Option<u32>,
    residency: Option<u32>,
    disable: bool,
}

impl SysfsState {
    fn set(&mut self, field: &str, value: &str, path: Option<&str>, line: usize) -> Result<()> {
        let us = |col: &str| -> Result<u32> {
            value.parse::<u32>().map_err(|_| {
                Error::parse_col(path, Some(line), col, format!("expected a non-negative integer (µs), got '{value}'"))
            })
        };
        match field {
            "name" => self.name = Some(value.to_string()),
            "latency" => self.latency = Some(us("latency")?),
            "residency" => self.residency = Some(us("residency")?),
            "disable" => {
                self.disable = match value {
                    "0" => false,
                    "1" => true,
                    _ => {
                        return Err(Error::parse_col(
                            path,
                            Some(line),
                            "disable",
                            format!("expected 0 or 1, got '{value}'"),
                        ))
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }
}

fn finish_sysfs(by_state: Vec<(usize, SysfsState)>, path: Option<&str>) -> Result<StateTable> {
    let mut states = Vec::with_capacity(by_state.len());
    let mut lines = Vec::with_capacity(by_state.len());
    let mut guessed = Vec::new();
    for (i, (k, s)) in by_state.into_iter().enumerate() {
        if k != i {
            return Err(Error::parse(path, None, format!("state{i} is missing (found state{k})")));
        }
        let line = (s.line > 0).then_some(s.line);
        let missing = |what: &str| Error::parse_col(path, line, what, format!("state{k} has no '{what}'"));
        let name = s.name.ok_or_else(|| missing("name"))?;
        let polling = name == "POLL";
        let exit_latency_us = s.latency.ok_or_else(|| missing("latency"))?;
        let target_residency_us = match s.residency {
            Some(r) => r,
            None => {
                guessed.push(format!("state{k}"));
                exit_latency_us.saturating_mul(RESIDENCY_PER_LATENCY)
            }
        };
        states.push(IdleState {
            name,
            exit_latency_us,
            target_residency_us,
            polling,
            disabled: s.disable,
            power_mw: None,
        });
        lines.push(s.line);
    }
    let mut table = StateTable::validated(states, path, &lines)?;
    if !guessed.is_empty() {
        table.assumptions.push(format!(
            "{}: no 'residency' in sysfs (kernels before 3.14): target residency taken as {RESIDENCY_PER_LATENCY} × exit latency",
            guessed.join(", ")
        ));
    }
    Ok(table)
}

/// A state's `flags` column, as the CSV state tables write it (docs/idle-governors.md
/// §2.4): `P` polling, `D` disabled (either case), `-`, space or `|` for none; (polling,
/// disabled), or the message naming an unknown flag.
pub fn parse_flags(flags: &str) -> std::result::Result<(bool, bool), String> {
    let (mut polling, mut disabled) = (false, false);
    for c in flags.chars() {
        match c {
            'P' | 'p' => polling = true,
            'D' | 'd' => disabled = true,
            '-' | ' ' | '|' => {}
            other => return Err(format!("unknown flag '{other}' (expected P = polling, D = disabled, - = none)")),
        }
    }
    Ok((polling, disabled))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_table_and_kernel_view() {
        let t = StateTable::parse_csv(
            b"name,exit_latency_us,target_residency_us,flags\nPOLL,0,0,P\nC1,2,2,-\nC1E,10,20,-\nC6,133,600,-\n",
            Some("s.csv"),
        )
        .unwrap();
        let d = t.drv();
        assert_eq!(d.count, 4);
        assert_eq!(d.tr_ns[3], 600_000);
        assert_eq!(d.el_us[2], 10);
        assert!(d.polling[0] && !d.polling[1]);
        assert_eq!(t, StateTable::preset("intel-skx").unwrap());
        assert_eq!(StateTable::parse_csv(t.to_csv().as_bytes(), None).unwrap(), t);
        // power given for some states only survives the CSV round trip (fuzz regression
        // idle_states/power-on-some-states: to_csv dropped the column)
        let some = StateTable::parse_csv(
            b"name,exit_latency_us,target_residency_us,flags,power_mw\nPOLL,0,0,P,3000\nC1,2,2,-,\n",
            None,
        )
        .unwrap();
        assert_eq!(
            some.to_csv(),
            "name,exit_latency_us,target_residency_us,flags,power_mw\nPOLL,0,0,P,3000\nC1,2,2,-,\n"
        );
        assert_eq!(StateTable::parse_csv(some.to_csv().as_bytes(), None).unwrap(), some);
    }

    #[test]
    fn bad_tables_are_refused_with_their_line() {
        let h = "name,exit_latency_us,target_residency_us,flags\n";
        let e =
            |body: &str| StateTable::parse_csv(format!("{h}{body}").as_bytes(), Some("s.csv")).unwrap_err().to_string();
        assert!(e("").starts_with("s.csv: the state table has no states"));
        assert!(e("A,1,10,-\nB,2,5,-\n").starts_with("s.csv:3: column 'target_residency_us': states are not sorted"));
        assert!(e("A,5,10,-\nB,2,50,-\n").starts_with("s.csv:3: column 'exit_latency_us': states are not sorted"));
        assert!(e("A,1,10,-\nA,2,50,-\n").starts_with("s.csv:3: column 'name': duplicate state 'A'"));
        assert!(e("A,1,10,-\nB,1,10,-\n").starts_with("s.csv:3: duplicate state"));
        assert!(e("A,-1,10,-\n").starts_with("s.csv:2: column 'exit_latency_us': negative duration"));
        assert!(e("A,1,10,X\n").starts_with("s.csv:2: column 'flags': unknown flag 'X'"));
        let e = StateTable::parse_csv(b"name,exit_latency_us,flags\nA,1,-\n", Some("s.csv")).unwrap_err();
        assert!(e.to_string().starts_with("s.csv:1: column 'target_residency_us': missing column"));
    }

    #[test]
    fn sysfs_dump() {
        let dump = b"/sys/devices/system/cpu/cpu0/cpuidle/state0/name:POLL\n\
/sys/devices/system/cpu/cpu0/cpuidle/state0/latency:0\n\
/sys/devices/system/cpu/cpu0/cpuidle/state0/residency:0\n\
/sys/devices/system/cpu/cpu0/cpuidle/state1/name:C1\n\
/sys/devices/system/cpu/cpu0/cpuidle/state1/latency:2\n\
/sys/devices/system/cpu/cpu0/cpuidle/state1/residency:2\n\
/sys/devices/system/cpu/cpu0/cpuidle/state1/disable:1\n\
/sys/devices/system/cpu/cpu0/cpuidle/state1/usage:12345\n";
        let t = StateTable::parse_sysfs_dump(dump, Some("dump.txt")).unwrap();
        assert_eq!(t.len(), 2);
        assert!(t.states()[0].polling);
        assert!(t.states()[1].disabled);
        let e = StateTable::parse_sysfs_dump(b"cpuidle/state0/name:POLL\n", Some("d")).unwrap_err();
        assert!(e.to_string().contains("state0 has no 'latency'"), "{e}");
    }

    #[test]
    fn sysfs_of_a_kernel_without_residency() {
        // Linux 3.10's stateK: name desc latency power usage time disable (no residency)
        let dump = b"cpu0/cpuidle/state0/name:WFI\ncpu0/cpuidle/state0/desc:ARM WFI\ncpu0/cpuidle/state0/latency:1\n\
cpu0/cpuidle/state0/power:4294967295\ncpu0/cpuidle/state0/usage:94113\ncpu0/cpuidle/state0/time:107582547\n\
cpu0/cpuidle/state1/name:C1\ncpu0/cpuidle/state1/latency:300\ncpu0/cpuidle/state1/disable:0\n";
        let t = StateTable::parse_sysfs_dump(dump, Some("dump.txt")).unwrap();
        let got: Vec<(u32, u32)> = t.states().iter().map(|s| (s.exit_latency_us, s.target_residency_us)).collect();
        assert_eq!(got, vec![(1, 2), (300, 600)]);
        assert_eq!(
            t.assumptions(),
            ["state0, state1: no 'residency' in sysfs (kernels before 3.14): target residency taken as 2 × exit latency"]
        );
    }

    #[test]
    fn presets_are_valid() {
        for (name, _, rows) in PRESETS {
            assert_eq!(StateTable::preset(name).unwrap().len(), rows.len());
        }
        assert!(StateTable::preset("nope").is_err());
    }
}
