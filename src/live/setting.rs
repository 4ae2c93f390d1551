//! The system settings a recording set varies between its groups (docs/live.md §8):
//! the cpuidle governor, a `/dev/cpu_dma_latency` request, an idle state disabled on
//! every CPU. Each is applied with its undo pushed on a [`Restore`] guard.

use super::cpuidle_sysfs::{self, disable_file};
use super::restore::Restore;
use super::sys_file;
use super::thread_sched::cpu_count;
use crate::choice::Choice;
use crate::error::{Error, Result};
use std::io::Write;
use std::path::PathBuf;

/// The PM QoS device file: a request held while the file is open (kernel
/// Documentation/power/pm_qos_interface.rst).
pub const CPU_DMA_LATENCY: &str = "/dev/cpu_dma_latency";

/// What a setting changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SettingKind {
    /// The cpuidle governor (`current_governor`), a name of `available_governors`.
    Governor,
    /// A CPU latency request in µs held on `/dev/cpu_dma_latency` (0: only polling).
    LatencyUs,
    /// Idle state K disabled on every CPU (`stateK/disable`).
    DisableState,
}

impl Choice for SettingKind {
    const WHAT: &'static str = "setting";
    const ALL: &'static [Self] = &[SettingKind::Governor, SettingKind::LatencyUs, SettingKind::DisableState];
    fn name(self) -> &'static str {
        match self {
            SettingKind::Governor => "governor",
            SettingKind::LatencyUs => "latency-us",
            SettingKind::DisableState => "disable-state",
        }
    }
}

/// One setting of a group: what it changes and to what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Setting {
    /// Use this cpuidle governor.
    Governor(String),
    /// Hold a CPU latency request of this many µs.
    LatencyUs(i32),
    /// Disable this idle state on every CPU.
    DisableState(usize),
}

impl Setting {
    /// The setting `kind=value` (kind a [`SettingKind`] name); an error names what was expected.
    pub fn parse(kind: &str, value: &str) -> Result<Setting> {
        let value = value.trim();
        let number = |what: &str| Error::domain(format!("{kind} takes {what}, got '{value}'"));
        Ok(match SettingKind::parse(kind.trim())? {
            SettingKind::Governor if !value.is_empty() => Setting::Governor(value.to_string()),
            SettingKind::Governor => return Err(number("a governor name")),
            SettingKind::LatencyUs => {
                Setting::LatencyUs(value.parse().ok().filter(|v| *v >= 0).ok_or_else(|| number("a number of µs ≥ 0"))?)
            }
            SettingKind::DisableState => {
                Setting::DisableState(value.parse().map_err(|_| number("an idle state number"))?)
            }
        })
    }

    /// What it changes.
    pub fn kind(&self) -> SettingKind {
        match self {
            Setting::Governor(_) => SettingKind::Governor,
            Setting::LatencyUs(_) => SettingKind::LatencyUs,
            Setting::DisableState(_) => SettingKind::DisableState,
        }
    }

    /// The value as written after `kind=`.
    pub fn value(&self) -> String {
        match self {
            Setting::Governor(g) => g.clone(),
            Setting::LatencyUs(us) => us.to_string(),
            Setting::DisableState(k) => k.to_string(),
        }
    }

    /// Refuse a setting this machine cannot take (a governor not available, a state it
    /// does not have, no PM QoS device), before anything is changed.
    pub fn check_available(&self) -> Result<()> {
        match self {
            Setting::Governor(g) => {
                let avail = sys_file::read(cpuidle_sysfs::global("available_governors"))?;
                if !avail.split_whitespace().any(|a| a == g) {
                    return Err(Error::domain(format!("cpuidle governor '{g}' is not available here ({avail})")));
                }
            }
            Setting::LatencyUs(_) => {
                if !std::path::Path::new(CPU_DMA_LATENCY).exists() {
                    return Err(Error::Io {
                        path: CPU_DMA_LATENCY.to_string(),
                        msg: "no PM QoS device: a latency request cannot be held".to_string(),
                        not_found: true,
                    });
                }
            }
            Setting::DisableState(k) => {
                for cpu in 0..cpu_count() {
                    let f = disable_file(cpu, *k);
                    if !f.exists() {
                        return Err(Error::Io {
                            path: f.display().to_string(),
                            msg: format!("CPU {cpu} has no idle state {k}"),
                            not_found: true,
                        });
                    }
                }
            }
        }
        Ok(())
    }

    /// Apply the setting, pushing its undo on `restore` (the governor and the `disable`
    /// files written back, the latency request's file closed).
    pub fn apply(&self, restore: &mut Restore) -> Result<()> {
        match self {
            Setting::Governor(g) => {
                let file = cpuidle_sysfs::global("current_governor");
                let old = sys_file::read(&file)?;
                let back = file.clone();
                restore.push(move || drop(sys_file::write(&back, old)));
                sys_file::write(&file, g)?;
            }
            Setting::LatencyUs(us) => {
                let mut f = std::fs::OpenOptions::new()
                    .write(true)
                    .open(CPU_DMA_LATENCY)
                    .map_err(|e| Error::io(CPU_DMA_LATENCY, &e))?;
                // the request is the value as a binary s32 (pm_qos_interface.rst)
                f.write_all(&us.to_ne_bytes()).map_err(|e| Error::io(CPU_DMA_LATENCY, &e))?;
                restore.push(move || drop(f));
            }
            Setting::DisableState(k) => {
                for cpu in 0..cpu_count() {
                    let file: PathBuf = disable_file(cpu, *k);
                    let old = sys_file::read(&file)?;
                    let back = file.clone();
                    restore.push(move || drop(sys_file::write(&back, old)));
                    sys_file::write(&file, 1)?;
                }
            }
        }
        Ok(())
    }
}

/// A group of a recording set: its name (a directory name) and its settings (none: the
/// machine as it is).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// The name, used as the group's directory.
    pub name: String,
    /// The settings applied while its recordings run.
    pub settings: Vec<Setting>,
}

impl Group {
    /// A group from its name and `(kind, value)` pairs; the name must be usable as a
    /// directory name and a kind may appear once.
    pub fn new(name: &str, pairs: &[(String, String)]) -> Result<Group> {
        let ok = !name.is_empty()
            && name != "."
            && name != ".."
            && name.chars().all(|c| c.is_ascii_alphanumeric() || "-_.+@".contains(c));
        if !ok {
            return Err(Error::domain(format!(
                "group name '{name}' must be letters, digits and - _ . + @ (it names a directory)"
            )));
        }
        let mut settings: Vec<Setting> = Vec::new();
        for (k, v) in pairs {
            let s = Setting::parse(k, v)?;
            if settings.iter().any(|o| o.kind() == s.kind()) {
                return Err(Error::domain(format!("group '{name}' sets {} twice", s.kind().name())));
            }
            settings.push(s);
        }
        Ok(Group { name: name.to_string(), settings })
    }

    /// A group from the command line's `NAME` or `NAME:KIND=VALUE[,KIND=VALUE...]`.
    pub fn parse(spec: &str) -> Result<Group> {
        let (name, rest) = spec.split_once(':').unwrap_or((spec, ""));
        let mut pairs = Vec::new();
        for item in rest.split(',').filter(|s| !s.trim().is_empty()) {
            let Some((k, v)) = item.split_once('=') else {
                return Err(Error::domain(format!(
                    "group '{spec}': expected KIND=VALUE after ':', got '{item}' (kinds: {})",
                    SettingKind::names().join(", ")
                )));
            };
            pairs.push((k.trim().to_string(), v.trim().to_string()));
        }
        Group::new(name.trim(), &pairs)
    }

    /// The group as the command line writes it.
    pub fn spec(&self) -> String {
        let s: Vec<String> = self.settings.iter().map(|s| format!("{}={}", s.kind().name(), s.value())).collect();
        if s.is_empty() {
            self.name.clone()
        } else {
            format!("{}:{}", self.name, s.join(","))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_parse_from_the_command_line_and_back() {
        let g = Group::parse("lat0:latency-us=0,governor=menu").unwrap();
        assert_eq!(g.name, "lat0");
        assert_eq!(g.settings, [Setting::LatencyUs(0), Setting::Governor("menu".into())]);
        assert_eq!(g.spec(), "lat0:latency-us=0,governor=menu");
        assert_eq!(Group::parse("base").unwrap().settings, []);
        assert_eq!(Group::parse("nopoll:disable-state=0").unwrap().settings, [Setting::DisableState(0)]);
        assert_eq!(Group::parse("base:").unwrap().spec(), "base");
    }

    #[test]
    fn bad_groups_say_what_was_expected() {
        let e = |s: &str| Group::parse(s).unwrap_err().to_string();
        assert_eq!(e("a:governor"), "group 'a:governor': expected KIND=VALUE after ':', got 'governor' (kinds: governor, latency-us, disable-state)");
        assert_eq!(e("a:speed=3"), "setting must be one of governor, latency-us, disable-state, got 'speed'");
        assert_eq!(e("a:latency-us=-1"), "latency-us takes a number of µs ≥ 0, got '-1'");
        assert_eq!(e("a:disable-state=x"), "disable-state takes an idle state number, got 'x'");
        assert_eq!(e("a:governor="), "governor takes a governor name, got ''");
        assert_eq!(e("a:governor=menu,governor=ladder"), "group 'a' sets governor twice");
        assert!(e("../x").contains("names a directory"));
        assert!(e(":governor=menu").contains("names a directory"));
    }
}
