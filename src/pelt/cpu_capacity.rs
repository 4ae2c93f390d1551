//! The capacity and frequency of each CPU a traced task runs on (docs/pelt.md §5.6):
//! `arch_scale_cpu_capacity` from values given, a LISA platform-info YAML or a sysfs
//! directory, and `arch_scale_freq_capacity` from the trace's `cpu_frequency` events (and
//! LISA's `cpu_frequency_devlib` snapshots) over each CPU's maximum frequency, with the
//! kernel's integer formula ([`freq_scale`]). Every value not found is reported in the
//! import's notes with what was used instead.

// Parsers of untrusted bytes: no unwrap, expect, indexing or string slicing that can panic on input.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

use crate::error::{Error, Result};
use crate::import_notes::ImportNotes;
use crate::pelt::consts::{SCHED_CAPACITY_SCALE, SCHED_CAPACITY_SHIFT};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

/// The CPU number of an event whose line names no CPU.
pub const NO_CPU: u32 = u32::MAX;

/// `arch_set_freq_scale()` of drivers/base/arch_topology.c (v4.15+, called by the cpufreq
/// drivers with the policy's `cpuinfo.max_freq`; `topology_set_freq_scale()` since v5.12):
/// `(cur_freq << SCHED_CAPACITY_SHIFT) / max_freq`, truncating. `max_khz` must be > 0.
pub fn freq_scale(cur_khz: u64, max_khz: u64) -> u64 {
    (cur_khz << SCHED_CAPACITY_SHIFT) / max_khz.max(1)
}

/// A value and where it came from (for the notes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Given<T> {
    /// The value.
    pub value: T,
    /// Its source: `given`, `plat-info FILE`, `sysfs DIR`.
    pub from: String,
}

/// Where an import finds the CPUs' capacities and maximum frequencies
/// ([`Platform::from_sources`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Sources<'a> {
    /// Capacities given by CPU (`0=446,1=1024` or `446,1024`).
    pub capacities: Option<&'a str>,
    /// Maximum frequencies given by CPU, kHz.
    pub max_freqs: Option<&'a str>,
    /// One capacity for every CPU.
    pub cpu_cap: Option<u32>,
    /// One frequency capacity for every CPU at all times.
    pub freq_cap: Option<u32>,
    /// A LISA platform-info YAML.
    pub plat_info: Option<&'a Path>,
    /// A sysfs CPU directory (`/sys/devices/system/cpu`).
    pub sysfs: Option<&'a Path>,
}

/// What is known of the CPUs before a trace is read. [`Platform::or`] layers sources: a
/// CPU's value comes from the first source that has one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Platform {
    /// `arch_scale_cpu_capacity` by CPU (1..=1024).
    pub capacity: BTreeMap<u32, Given<u32>>,
    /// The capacity of every CPU without its own value (the importer's single `cpu_cap`).
    pub every_cpu_capacity: Option<u32>,
    /// `cpuinfo.max_freq` by CPU, kHz (> 0).
    pub max_freq: BTreeMap<u32, Given<u64>>,
    /// The CPUs that change frequency together (cpufreq policies' `related_cpus`).
    pub freq_domains: Vec<Vec<u32>>,
    /// One frequency capacity for every CPU at all times (the importer's single
    /// `freq_cap`): the trace's frequency events are not used.
    pub fixed_freq_cap: Option<u32>,
}

impl Platform {
    /// The single values of the importer's `cpu_cap`/`freq_cap` arguments, for every CPU
    /// (`None`: not given).
    pub fn every_cpu(cpu_cap: Option<u32>, freq_cap: Option<u32>) -> Result<Platform> {
        for (what, v) in [("cpu_cap", cpu_cap), ("freq_cap", freq_cap)] {
            if let Some(v) = v.filter(|v| !(1..=SCHED_CAPACITY_SCALE as u32).contains(v)) {
                return Err(Error::domain(format!("{what} must be in 1..1024, got {v}")));
            }
        }
        Ok(Platform { every_cpu_capacity: cpu_cap, fixed_freq_cap: freq_cap, ..Platform::default() })
    }

    /// The platform of an import's options, each CPU's value from the first source that
    /// has it: `capacities` (`0=446,1=1024` or a list by CPU) and `max_freqs` (kHz, the
    /// same syntax) given, the single `cpu_cap`/`freq_cap` given for every CPU, a LISA
    /// plat-info YAML, a sysfs CPU directory. What none gives is 1024, noted by the import.
    pub fn from_sources(sources: &Sources<'_>) -> Result<Platform> {
        let mut p = Platform::every_cpu(sources.cpu_cap, sources.freq_cap)?;
        if let Some(text) = sources.capacities {
            p = Platform::given_capacities(text)?.or(p);
        }
        if let Some(text) = sources.max_freqs {
            p = p.or(Platform::given_max_freqs(text)?);
        }
        if let Some(path) = sources.plat_info {
            p = p.or(Platform::read_plat_info(path)?);
        }
        if let Some(dir) = sources.sysfs {
            p = p.or(Platform::read_sysfs(dir)?);
        }
        Ok(p)
    }

    /// This platform with the gaps filled from `lower` (a source of lower priority).
    pub fn or(mut self, lower: Platform) -> Platform {
        for (cpu, v) in lower.capacity {
            self.capacity.entry(cpu).or_insert(v);
        }
        for (cpu, v) in lower.max_freq {
            self.max_freq.entry(cpu).or_insert(v);
        }
        self.every_cpu_capacity = self.every_cpu_capacity.or(lower.every_cpu_capacity);
        self.fixed_freq_cap = self.fixed_freq_cap.or(lower.fixed_freq_cap);
        if self.freq_domains.is_empty() {
            self.freq_domains = lower.freq_domains;
        }
        self
    }

    /// Capacities given as text: `0=446,1=1024,...` or a list by CPU number
    /// (`446,1024,1024,446,446,446`).
    pub fn given_capacities(text: &str) -> Result<Platform> {
        let mut p = Platform::default();
        for (cpu, v) in cpu_values(text, "capacity")? {
            let value = u32::try_from(v).ok().filter(|v| (1..=SCHED_CAPACITY_SCALE as u32).contains(v));
            let value = value.ok_or_else(|| Error::domain(format!("cpu {cpu}: capacity {v} is not in 1..1024")))?;
            p.capacity.insert(cpu, Given { value, from: "given".into() });
        }
        Ok(p)
    }

    /// Maximum frequencies (kHz) given as text, in the syntax of [`Self::given_capacities`].
    pub fn given_max_freqs(text: &str) -> Result<Platform> {
        let mut p = Platform::default();
        for (cpu, value) in cpu_values(text, "max frequency")? {
            if value == 0 {
                return Err(Error::domain(format!("cpu {cpu}: max frequency 0 kHz")));
            }
            p.max_freq.insert(cpu, Given { value, from: "given".into() });
        }
        Ok(p)
    }

    /// Read a LISA platform-info YAML (`plat_info.yml`): `platform-info.conf.cpu-capacities.orig`,
    /// `freq-domains` and the highest of each CPU's `freqs`.
    pub fn read_plat_info(path: &Path) -> Result<Platform> {
        let name = path.display().to_string();
        let bytes = crate::archive::dir::read_file(path, 64 << 20)?;
        let text = std::str::from_utf8(&bytes).map_err(|e| {
            Error::parse(Some(&name), None, format!("not UTF-8 text (invalid byte at offset {})", e.valid_up_to()))
        })?;
        Platform::parse_plat_info(text, &name)
    }

    /// [`Self::read_plat_info`] of text; `name` names it in errors and notes.
    pub fn parse_plat_info(text: &str, name: &str) -> Result<Platform> {
        use yaml_rust2::{Yaml, YamlLoader};
        let docs = YamlLoader::load_from_str(text).map_err(|e| {
            Error::parse(Some(name), Some(e.marker().line()), format!("not a platform-info YAML: {}", e.info()))
        })?;
        let conf = docs.first().map(|d| &d["platform-info"]["conf"]).filter(|c| !c.is_badvalue());
        let Some(conf) = conf else {
            return Err(Error::parse(
                Some(name),
                None,
                "no 'platform-info: conf:' mapping (expected LISA's plat_info.yml)",
            ));
        };
        let from = format!("plat-info {name}");
        let bad =
            |what: &str| Error::parse(Some(name), None, format!("platform-info.conf.{what} is not as LISA writes it"));
        let int = |y: &Yaml| y.as_i64().and_then(|v| u64::try_from(v).ok());
        let mut p = Platform::default();
        if let Some(caps) = conf["cpu-capacities"]["orig"].as_hash() {
            for (k, v) in caps {
                let cpu = int(k).and_then(|c| u32::try_from(c).ok()).ok_or_else(|| bad("cpu-capacities.orig"))?;
                let value = int(v)
                    .and_then(|v| u32::try_from(v).ok())
                    .filter(|v| (1..=SCHED_CAPACITY_SCALE as u32).contains(v))
                    .ok_or_else(|| bad("cpu-capacities.orig (capacities in 1..1024)"))?;
                p.capacity.insert(cpu, Given { value, from: from.clone() });
            }
        }
        if let Some(freqs) = conf["freqs"].as_hash() {
            for (k, v) in freqs {
                let cpu = int(k).and_then(|c| u32::try_from(c).ok()).ok_or_else(|| bad("freqs"))?;
                let list = v.as_vec().ok_or_else(|| bad("freqs"))?;
                let max = list.iter().map(int).collect::<Option<Vec<u64>>>().ok_or_else(|| bad("freqs"))?;
                if let Some(value) = max.into_iter().max().filter(|&m| m > 0) {
                    p.max_freq.insert(cpu, Given { value, from: from.clone() });
                }
            }
        }
        if let Some(domains) = conf["freq-domains"].as_vec() {
            for d in domains {
                let cpus = d.as_vec().ok_or_else(|| bad("freq-domains"))?;
                let cpus: Option<Vec<u32>> = cpus.iter().map(|c| int(c).and_then(|c| u32::try_from(c).ok())).collect();
                p.freq_domains.push(cpus.ok_or_else(|| bad("freq-domains"))?);
            }
        }
        if p.capacity.is_empty() {
            return Err(bad("cpu-capacities.orig (missing)"));
        }
        Ok(p)
    }

    /// Read a sysfs CPU directory (`/sys/devices/system/cpu` or a copy of it):
    /// `cpuN/cpu_capacity`, `cpuN/cpufreq/cpuinfo_max_freq` and `cpuN/cpufreq/related_cpus`.
    pub fn read_sysfs(dir: &Path) -> Result<Platform> {
        let from = format!("sysfs {}", dir.display());
        let entries = std::fs::read_dir(dir).map_err(|e| Error::io(dir, &e))?;
        let mut p = Platform::default();
        let mut domains = BTreeSet::new();
        for entry in entries {
            let entry = entry.map_err(|e| Error::io(dir, &e))?;
            let name = entry.file_name();
            let Some(cpu) = name.to_str().and_then(|n| n.strip_prefix("cpu")).and_then(|n| n.parse::<u32>().ok())
            else {
                continue;
            };
            let base = entry.path();
            if let Some(v) = read_number(&base.join("cpu_capacity"))? {
                let value = u32::try_from(v).ok().filter(|v| (1..=SCHED_CAPACITY_SCALE as u32).contains(v));
                let path = base.join("cpu_capacity").display().to_string();
                let value =
                    value.ok_or_else(|| Error::parse(Some(&path), Some(1), "expected a capacity in 1..1024"))?;
                p.capacity.insert(cpu, Given { value, from: from.clone() });
            }
            if let Some(value) = read_number(&base.join("cpufreq/cpuinfo_max_freq"))?.filter(|&v| v > 0) {
                p.max_freq.insert(cpu, Given { value, from: from.clone() });
            }
            let related = base.join("cpufreq/related_cpus");
            if let Ok(text) = std::fs::read_to_string(&related) {
                let cpus: Option<Vec<u32>> = text.split_whitespace().map(|c| c.parse().ok()).collect();
                let cpus = cpus.ok_or_else(|| {
                    Error::parse(Some(&related.display().to_string()), Some(1), "expected CPU numbers")
                })?;
                domains.insert(cpus);
            }
        }
        if p.capacity.is_empty() && p.max_freq.is_empty() {
            return Err(Error::parse(
                Some(&dir.display().to_string()),
                None,
                "no cpuN/cpu_capacity or cpuN/cpufreq/cpuinfo_max_freq files (expected /sys/devices/system/cpu)",
            ));
        }
        p.freq_domains = domains.into_iter().collect();
        Ok(p)
    }

    /// The CPUs sharing `cpu`'s frequency (itself alone without a known domain).
    fn domain_of(&self, cpu: u32) -> Vec<u32> {
        self.freq_domains.iter().find(|d| d.contains(&cpu)).cloned().unwrap_or_else(|| vec![cpu])
    }
}

/// `0=446,1=1024` or `446,1024` as (cpu, value) pairs.
fn cpu_values(text: &str, what: &str) -> Result<Vec<(u32, u64)>> {
    let mut out = Vec::new();
    for (i, item) in text.split(',').map(str::trim).filter(|s| !s.is_empty()).enumerate() {
        let (cpu, v) = match item.split_once('=') {
            Some((c, v)) => (c.trim().parse::<u32>().ok(), v.trim()),
            None => (u32::try_from(i).ok(), item),
        };
        let bad = || Error::domain(format!("'{item}': expected CPU=VALUE or a {what} per CPU (e.g. 0=446,1=1024)"));
        let cpu = cpu.ok_or_else(bad)?;
        out.push((cpu, v.parse::<u64>().map_err(|_| bad())?));
    }
    if out.is_empty() {
        return Err(Error::domain(format!("no {what} in '{text}'")));
    }
    Ok(out)
}

/// The number in a one-line sysfs file; `None` when the file does not exist.
fn read_number(path: &Path) -> Result<Option<u64>> {
    match std::fs::read_to_string(path) {
        Ok(text) => text.trim().parse().map(Some).map_err(|_| {
            Error::parse(
                Some(&path.display().to_string()),
                Some(1),
                format!("expected a number, got '{}'", text.trim()),
            )
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::io(path, &e)),
    }
}

/// A frequency event of the trace: `cpu_frequency` (a change) or LISA's
/// `cpu_frequency_devlib` (a snapshot of the current frequency).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FreqEvent {
    /// Trace time, ns.
    pub ts: u64,
    /// Where it was read.
    pub line: usize,
    /// `cpu_id`.
    pub cpu: u32,
    /// `state`, kHz.
    pub khz: u64,
    /// A devlib snapshot rather than a change.
    pub snapshot: bool,
}

/// How one CPU's frequency is known before its first frequency event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Start {
    /// No frequency event at all.
    NoEvent,
    /// The first event is a snapshot: its frequency held before it too.
    Snapshot(FreqEvent),
    /// The first event is a change: the frequency before it is unknown.
    Change(FreqEvent),
}

/// What a trace's frequency events say that a replay needs before it starts: each
/// named CPU's first event (in time order) and its highest frequency, kept by one pass
/// over those events alone ([`FreqSummary::add`] each in time order).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FreqSummary {
    /// The first event of each `cpu_id`, in time order.
    first: Vec<FreqEvent>,
    /// The highest frequency of each `cpu_id`, kHz.
    max: HashMap<u32, u64>,
}

impl FreqSummary {
    /// One frequency event (in time order).
    pub fn add(&mut self, e: &FreqEvent) {
        match self.max.get_mut(&e.cpu) {
            Some(m) => *m = (*m).max(e.khz),
            None => {
                self.max.insert(e.cpu, e.khz);
                self.first.push(*e);
            }
        }
    }

    /// Whether no event was added.
    pub fn is_empty(&self) -> bool {
        self.first.is_empty()
    }
}

/// Each CPU's capacities as a trace goes on: [`CpuCaps::apply`] each frequency event in
/// time order, [`CpuCaps::caps`] for the CPU the task is on; [`CpuCaps::notes`] reports
/// what was assumed for the CPUs used.
#[derive(Debug, Clone)]
pub struct CpuCaps<'p> {
    platform: &'p Platform,
    /// The current frequency by CPU, kHz (absent: at its maximum).
    cur: HashMap<u32, u64>,
    /// The maximum frequency by CPU when it is not known: the highest in the trace.
    seen_max: HashMap<u32, u64>,
    start: HashMap<u32, Start>,
    used: BTreeSet<u32>,
    path: Option<String>,
}

impl<'p> CpuCaps<'p> {
    /// The capacities of `platform` with the frequency events `freqs` of a trace (in time
    /// order) known in advance: a CPU starts at its first snapshot's frequency when that
    /// comes before any change, otherwise at its maximum.
    pub fn new(platform: &'p Platform, freqs: &[FreqEvent], path: Option<&str>) -> Self {
        let mut summary = FreqSummary::default();
        for e in freqs {
            summary.add(e);
        }
        Self::from_summary(platform, &summary, path)
    }

    /// [`CpuCaps::new`] from what a pass over the trace's frequency events kept
    /// ([`FreqSummary`]).
    pub fn from_summary(platform: &'p Platform, summary: &FreqSummary, path: Option<&str>) -> Self {
        let mut start: HashMap<u32, Start> = HashMap::new();
        let mut seen_max: HashMap<u32, u64> = HashMap::new();
        let mut cur = HashMap::new();
        for e in &summary.first {
            for cpu in platform.domain_of(e.cpu) {
                start.entry(cpu).or_insert(if e.snapshot { Start::Snapshot(*e) } else { Start::Change(*e) });
            }
        }
        for (&id, &khz) in &summary.max {
            for cpu in platform.domain_of(id) {
                let m = seen_max.entry(cpu).or_insert(0);
                *m = (*m).max(khz);
            }
        }
        for (&cpu, s) in &start {
            if let Start::Snapshot(e) = s {
                cur.insert(cpu, e.khz);
            }
        }
        CpuCaps { platform, cur, seen_max, start, used: BTreeSet::new(), path: path.map(str::to_string) }
    }

    /// A frequency event: the CPU's domain takes its frequency (as `arch_set_freq_scale`
    /// sets every CPU of the policy).
    pub fn apply(&mut self, e: &FreqEvent) {
        for cpu in self.platform.domain_of(e.cpu) {
            self.cur.insert(cpu, e.khz);
        }
    }

    /// `cpu`'s maximum frequency, kHz: known, or the highest seen in the trace.
    fn max_freq(&self, cpu: u32) -> Option<u64> {
        self.platform.max_freq.get(&cpu).map(|g| g.value).or_else(|| self.seen_max.get(&cpu).copied())
    }

    /// (`arch_scale_cpu_capacity`, `arch_scale_freq_capacity`) of `cpu` now; `line` names
    /// the event in an error (a frequency above the CPU's maximum).
    pub fn caps(&mut self, cpu: u32, line: usize) -> Result<(u32, u32)> {
        self.used.insert(cpu);
        let p = self.platform;
        let cap = p.capacity.get(&cpu).map(|g| g.value).or(p.every_cpu_capacity).unwrap_or(1024);
        if let Some(f) = p.fixed_freq_cap {
            return Ok((cap, f));
        }
        let (Some(&khz), Some(max)) = (self.cur.get(&cpu), self.max_freq(cpu)) else { return Ok((cap, 1024)) };
        let scale = freq_scale(khz, max);
        let freq = u32::try_from(scale).ok().filter(|f| (1..=SCHED_CAPACITY_SCALE as u32).contains(f));
        let freq = freq.ok_or_else(|| {
            Error::parse(
                self.path.as_deref(),
                Some(line),
                format!(
                    "cpu {cpu} at {khz} kHz of a maximum of {max} kHz: frequency capacity {scale} is not in 1..1024"
                ),
            )
        })?;
        Ok((cap, freq))
    }

    /// What was assumed or taken for the CPUs the task was on, one sentence each.
    pub fn notes(&self, notes: &mut ImportNotes) {
        let p = self.platform;
        if self.used.contains(&NO_CPU) {
            notes.assume("the trace names no CPU: every CPU is taken as one, with the given or default capacities");
        }
        let used: Vec<u32> = self.used.iter().copied().filter(|&c| c != NO_CPU).collect();
        let mut by_source: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for &cpu in &used {
            let (v, from) = match (p.capacity.get(&cpu), p.every_cpu_capacity) {
                (Some(g), _) => (g.value, g.from.clone()),
                (None, Some(v)) => (v, "given for every CPU".into()),
                (None, None) => (1024, "not given, in a plat-info or sysfs: assumed".into()),
            };
            by_source.entry(from).or_default().push(format!("cpu{cpu}={v}"));
        }
        for (from, list) in by_source {
            notes.assume(format!("CPU capacity {} ({from})", list.join(" ")));
        }
        if let Some(f) = p.fixed_freq_cap {
            if !self.start.is_empty() {
                notes.assume(format!(
                    "frequency capacity {f} given for every CPU: the trace's frequency events are not used"
                ));
            }
            return;
        }
        let secs = |ts: u64| format!("{}.{:06} s", ts / 1_000_000_000, ts % 1_000_000_000 / 1000);
        for &cpu in &used {
            let max = match (p.max_freq.get(&cpu), self.seen_max.get(&cpu)) {
                (Some(g), _) => format!("{} kHz ({})", g.value, g.from),
                (None, Some(m)) => {
                    format!("{m} kHz (the highest in the trace: no max frequency given, in a plat-info or sysfs)")
                }
                (None, None) => String::new(),
            };
            match self.start.get(&cpu).copied().unwrap_or(Start::NoEvent) {
                Start::NoEvent => notes.assume(format!(
                    "cpu{cpu}: no cpu_frequency event: frequency capacity 1024 assumed (the maximum frequency)"
                )),
                Start::Snapshot(e) => notes.assume(format!(
                    "cpu{cpu}: frequency before {} taken from the cpu_frequency_devlib snapshot there ({} kHz); maximum {max}",
                    secs(e.ts),
                    e.khz
                )),
                Start::Change(e) => notes.assume(format!(
                    "cpu{cpu}: frequency before its first cpu_frequency event ({}, {} kHz) assumed the maximum (capacity 1024); maximum {max}",
                    secs(e.ts),
                    e.khz
                )),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kernels_frequency_scale() {
        // (cur << 10) / max by hand: 450000·1024 = 460,800,000 / 850,000 = 542.1 → 542;
        // 800000·1024 = 819,200,000 / 1,100,000 = 744.7 → 744; at the maximum exactly 1024
        assert_eq!(freq_scale(450_000, 850_000), 542);
        assert_eq!(freq_scale(800_000, 1_100_000), 744);
        assert_eq!(freq_scale(850_000, 850_000), 1024);
        assert_eq!(freq_scale(575_000, 850_000), 692); // 588,800,000 / 850,000 = 692.7
    }

    #[test]
    fn given_lists() {
        let p = Platform::given_capacities("446,1024, 1024").unwrap();
        assert_eq!(p.capacity.get(&2).map(|g| g.value), Some(1024));
        let p = Platform::given_capacities("3=446,0=512").unwrap();
        assert_eq!(p.capacity.keys().copied().collect::<Vec<_>>(), vec![0, 3]);
        assert!(Platform::given_capacities("0=2000").unwrap_err().to_string().contains("not in 1..1024"));
        assert!(Platform::given_capacities("a=1").unwrap_err().to_string().contains("CPU=VALUE"));
        assert!(Platform::given_max_freqs("0=0").is_err());
        let layered = Platform::given_capacities("0=100").unwrap().or(Platform::given_capacities("200,300").unwrap());
        let caps: Vec<u32> = layered.capacity.values().map(|g| g.value).collect();
        assert_eq!(caps, vec![100, 300]);
    }

    #[test]
    fn frequencies_follow_the_domain_and_start_from_a_snapshot() {
        let mut p = Platform::given_max_freqs("0=1000,1=1000,2=2000").unwrap();
        p.freq_domains = vec![vec![0, 1]];
        let ev = |ts, cpu, khz, snapshot| FreqEvent { ts, line: 1, cpu, khz, snapshot };
        let freqs = [ev(10, 0, 500, true), ev(20, 1, 250, false), ev(30, 2, 1000, false)];
        let mut c = CpuCaps::new(&p, &freqs, None);
        // before any event: cpu 0 and 1 at the snapshot's 500/1000, cpu 2 at its maximum
        assert_eq!(c.caps(1, 1).unwrap(), (1024, 512));
        assert_eq!(c.caps(2, 1).unwrap(), (1024, 1024));
        c.apply(&freqs[1]);
        assert_eq!(c.caps(0, 1).unwrap(), (1024, 256));
        c.apply(&freqs[2]);
        assert_eq!(c.caps(2, 1).unwrap(), (1024, 512));
        let mut n = ImportNotes::default();
        c.notes(&mut n);
        assert!(
            n.assumptions.iter().any(|a| a.contains("cpu2: frequency before its first cpu_frequency event")),
            "{n:?}"
        );
        assert!(n.assumptions.iter().any(|a| a.contains("assumed")), "{n:?}");
        // above the maximum: an error at the event's line
        let mut c = CpuCaps::new(&p, &[ev(10, 2, 3000, false)], Some("t.txt"));
        c.apply(&ev(10, 2, 3000, false));
        assert!(c.caps(2, 7).unwrap_err().to_string().starts_with("t.txt:7: cpu 2 at 3000 kHz"));
    }

    #[test]
    fn lisa_plat_info() {
        let text = std::fs::read_to_string("tests/data/traces/lisa/sched_load.plat_info.yml").unwrap();
        let p = Platform::parse_plat_info(&text, "plat.yml").unwrap();
        let caps: Vec<(u32, u32)> = p.capacity.iter().map(|(&c, g)| (c, g.value)).collect();
        assert_eq!(caps, vec![(0, 446), (1, 1024), (2, 1024), (3, 446), (4, 446), (5, 446)]);
        assert_eq!(p.max_freq.get(&0).map(|g| g.value), Some(850_000));
        assert_eq!(p.max_freq.get(&1).map(|g| g.value), Some(1_100_000));
        assert_eq!(p.freq_domains, vec![vec![0, 3, 4, 5], vec![1, 2]]);
        assert!(Platform::parse_plat_info("a: 1\n", "x.yml").unwrap_err().to_string().contains("platform-info"));
    }

    #[test]
    fn sysfs_directory() {
        let dir = std::env::temp_dir().join(format!("schedlab-sysfs-{}", std::process::id()));
        for (cpu, cap, max) in [(0, "446\n", "850000\n"), (1, "1024\n", "1100000\n")] {
            let d = dir.join(format!("cpu{cpu}/cpufreq"));
            std::fs::create_dir_all(&d).unwrap();
            std::fs::write(dir.join(format!("cpu{cpu}/cpu_capacity")), cap).unwrap();
            std::fs::write(d.join("cpuinfo_max_freq"), max).unwrap();
            std::fs::write(d.join("related_cpus"), format!("{cpu}\n")).unwrap();
        }
        std::fs::create_dir_all(dir.join("cpuidle")).unwrap();
        let p = Platform::read_sysfs(&dir).unwrap();
        assert_eq!(p.capacity.get(&0).map(|g| g.value), Some(446));
        assert_eq!(p.max_freq.get(&1).map(|g| g.value), Some(1_100_000));
        assert_eq!(p.freq_domains, vec![vec![0], vec![1]]);
        std::fs::write(dir.join("cpu1/cpu_capacity"), "big\n").unwrap();
        let e = Platform::read_sysfs(&dir).unwrap_err().to_string();
        assert!(e.contains("cpu1/cpu_capacity:1: expected a number"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
