//! tracefs: mounting it when it is not, and a private instance (its own buffers,
//! clock, CPU mask and event switches) that leaves the system's top-level trace alone
//! (docs/live.md §1).

use super::sys_file;
use crate::error::{Error, Result};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Where tracefs is (mounted here when it is not).
pub const TRACEFS: &str = "/sys/kernel/tracing";

/// Mount tracefs at [`TRACEFS`] when it is not mounted (no `instances` directory there);
/// true when this call mounted it (then [`unmount`] undoes it).
pub fn mount_if_needed() -> Result<bool> {
    if Path::new(TRACEFS).join("instances").exists() {
        return Ok(false);
    }
    let status = Command::new("mount")
        .args(["-t", "tracefs", "nodev", TRACEFS])
        .stdin(Stdio::null())
        .status()
        .map_err(|e| Error::io("mount", &e))?;
    if !status.success() {
        return Err(Error::Io {
            path: TRACEFS.to_string(),
            msg: format!("mount -t tracefs failed ({status})"),
            not_found: false,
        });
    }
    Ok(true)
}

/// Unmount [`TRACEFS`] (what [`mount_if_needed`] mounted); a failure is not reported.
pub fn unmount() {
    let _ = Command::new("umount").arg(TRACEFS).stdin(Stdio::null()).status();
}

/// A tracefs instance `instances/<name>`, created by [`Instance::create`]; it is not
/// removed on drop ([`Instance::remove`] is one of the recording's undo actions).
#[derive(Debug, Clone)]
pub struct Instance {
    /// Its name under `instances/`.
    pub name: String,
    /// Its directory.
    pub dir: PathBuf,
}

impl Instance {
    /// Create instance `name` (an error when it exists or tracefs is not writable).
    pub fn create(name: &str) -> Result<Instance> {
        let dir = Path::new(TRACEFS).join("instances").join(name);
        std::fs::create_dir(&dir).map_err(|e| Error::io(&dir, &e))?;
        Ok(Instance { name: name.to_string(), dir })
    }

    /// The instance's file `rel` (e.g. `tracing_on`, `events/power/cpu_idle/enable`).
    pub fn file(&self, rel: &str) -> PathBuf {
        self.dir.join(rel)
    }

    /// Write `value` to the instance's file `rel`.
    pub fn write(&self, rel: &str, value: impl std::fmt::Display) -> Result<()> {
        sys_file::write(self.file(rel), value)
    }

    /// The text of the instance's file `rel`, trimmed.
    pub fn read(&self, rel: &str) -> Result<String> {
        sys_file::read(self.file(rel))
    }

    /// Remove the instance if it is still there (`trace-cmd extract -B` may have
    /// removed it); a failure is not reported.
    pub fn remove(&self) {
        if self.dir.is_dir() {
            let _ = std::fs::remove_dir(&self.dir);
        }
    }
}

/// The `tracing_cpumask` value selecting only CPU `cpu` ([`cpumask_of`]).
pub fn cpumask(cpu: usize) -> String {
    cpumask_of(&[cpu])
}

/// The `tracing_cpumask` value selecting `cpus` (none: an empty mask): hexadecimal in
/// 32-bit groups separated by commas, most significant first, as the kernel's
/// `bitmap_parse` reads it (a group of more than 8 digits overflows).
pub fn cpumask_of(cpus: &[usize]) -> String {
    let groups = cpus.iter().map(|c| c / 32 + 1).max().unwrap_or(1);
    let mut words = vec![0u32; groups];
    for &c in cpus {
        words[c / 32] |= 1 << (c % 32);
    }
    let mut out: Vec<String> = words.iter().rev().map(|w| format!("{w:08x}")).collect();
    if let Some(first) = out.first_mut() {
        *first = format!("{:x}", words[groups - 1]);
    }
    out.join(",")
}

/// The `entries:` count of a `per_cpu/cpuN/stats` file's text (0 when absent); an
/// unreadable count is an error naming `path`.
pub fn stats_entries(stats: &str, path: &str) -> Result<u64> {
    stats_count(stats, "entries", path)
}

/// The count after `key:` in a `per_cpu/cpuN/stats` file's text (`entries`, `overrun`,
/// `dropped events`; 0 when absent); an unreadable count is an error naming `path`.
pub fn stats_count(stats: &str, key: &str, path: &str) -> Result<u64> {
    for (i, ln) in stats.lines().enumerate() {
        if let Some(v) = ln.strip_prefix(key).and_then(|v| v.strip_prefix(':')) {
            return v
                .trim()
                .parse()
                .map_err(|_| Error::parse(Some(path), Some(i + 1), format!("expected a count, got {:?}", v.trim())));
        }
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpumask_is_one_bit_in_hex() {
        assert_eq!(cpumask(0), "1");
        assert_eq!(cpumask(1), "2");
        assert_eq!(cpumask(3), "8");
        assert_eq!(cpumask(4), "10");
        assert_eq!(cpumask(13), "2000");
        assert_eq!(cpumask(64), "1,00000000,00000000");
        assert_eq!(cpumask(32), "1,00000000");
    }

    #[test]
    fn cpumask_of_groups_32_bits() {
        assert_eq!(cpumask_of(&[]), "0");
        assert_eq!(cpumask_of(&[0, 1]), "3");
        assert_eq!(cpumask_of(&[0, 33]), "2,00000001");
        assert_eq!(cpumask_of(&[31]), "80000000");
    }

    #[test]
    fn stats_entries_reads_the_count() {
        let stats = "entries: 24\noverrun: 0\ncommit overrun: 0\n";
        assert_eq!(stats_entries(stats, "stats").unwrap(), 24);
        assert_eq!(stats_entries("overrun: 0\n", "stats").unwrap(), 0);
        assert_eq!(stats_count("entries: 24\noverrun: 3\ndropped events: 2\n", "overrun", "s").unwrap(), 3);
        assert_eq!(stats_count("entries: 24\noverrun: 3\ndropped events: 2\n", "dropped events", "s").unwrap(), 2);
        let e = stats_entries("entries: x\n", "per_cpu/cpu1/stats").unwrap_err().to_string();
        assert_eq!(e, "per_cpu/cpu1/stats:1: expected a count, got \"x\"");
    }
}
