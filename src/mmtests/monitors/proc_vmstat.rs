//! `--print-monitor proc-vmstat [--sub-heading FIELD]`: one /proc/vmstat field (or an
//! MMTests-derived one) per sample (MMTests' MonitorProcvmstat; docs/mmtests-monitors.md §4).
//!
//! Counters print the change since the previous sample, gauges their value. The previous
//! sample is the module's: it carries over from one iteration to the next of a run (the
//! first sample of iteration 2 is a delta from the last of iteration 1), as in MMTests.

use super::{IterDir, Reader};
use crate::error::Result;
use crate::mmtests::extract::Samples;
use crate::mmtests::perlfmt::numify;

/// Fields printed as they are (`_fieldCounters`).
const GAUGES: &[&str] = &[
    "nr_active_anon",
    "nr_active_file",
    "nr_anon_pages",
    "nr_anon_transparent_hugepages",
    "nr_dirty",
    "nr_file_pages",
    "nr_free_cma",
    "nr_free_pages",
    "nr_inactive_anon",
    "nr_inactive_file",
    "nr_isolated_anon",
    "nr_isolated_file",
    "nr_kernel_stack",
    "nr_mapped",
    "nr_mlock",
    "nr_page_table_pages",
    "nr_shmem",
    "nr_slab_reclaimable",
    "nr_slab_unreclaimable",
    "nr_unevictable",
    "nr_unstable",
    "nr_writeback",
    "nr_writeback_temp",
    "nr_dirty_background_threshold",
];

const DIRECT_SCAN: &[&str] = &[
    "pgscan_direct_dma",
    "pgscan_direct_dma32",
    "pgscan_direct_normal",
    "pgscan_direct_movable",
    "pgscan_direct_high",
    "pgscan_direct",
];
const DIRECT_STEAL: &[&str] = &[
    "pgsteal_dma",
    "pgsteal_dma32",
    "pgsteal_normal",
    "pgsteal_movable",
    "pgsteal_high",
    "pgsteal_direct_dma",
    "pgsteal_direct_dma32",
    "pgsteal_direct_normal",
    "pgsteal_direct_movable",
    "pgsteal_direct_high",
    "pgsteal_direct",
];
const KSWAPD_SCAN: &[&str] = &[
    "pgscan_kswapd_dma",
    "pgscan_kswapd_dma32",
    "pgscan_kswapd_normal",
    "pgscan_kswapd_movable",
    "pgscan_kswapd_high",
    "pgscan_kswapd",
];
const KSWAPD_STEAL: &[&str] = &[
    "kswapd_steal",
    "pgsteal_kswapd_dma",
    "pgsteal_kswapd_dma32",
    "pgsteal_kswapd_normal",
    "pgsteal_kswapd_high",
    "pgsteal_kswapd_movable",
    "pgsteal_kswapd",
];

/// The fields the derived values read from the current or the previous sample (the
/// only ones of the module's `%last_values` whose value is ever used).
const KEPT: [&str; 10] = [
    "nr_inactive_anon",
    "nr_slab_reclaimable",
    "nr_slab_unreclaimable",
    "nr_inactive_file",
    "nr_active_file",
    "nr_active_anon",
    "numa_hint_faults",
    "numa_hint_faults_local",
    "pgfault",
    "pgmajfault",
];

/// The numeric values of the [`KEPT`] fields in one sample (0 where absent, as Perl
/// reads an absent key).
type Kept = [f64; KEPT.len()];

/// The proc-vmstat reader: the module's memory of the previous sample.
pub struct ProcVmstat {
    sub: String,
    last_value: f64,
    last_steal: f64,
    last_scan: f64,
    last_values: Kept,
}

impl ProcVmstat {
    /// A reader of sub-heading `sub` ("" = `pgpgin`).
    pub fn new(sub: &str) -> ProcVmstat {
        let sub = if sub.is_empty() { "pgpgin" } else { sub };
        ProcVmstat {
            sub: sub.to_string(),
            last_value: 0.0,
            last_steal: 0.0,
            last_scan: 0.0,
            last_values: [0.0; KEPT.len()],
        }
    }

    /// `parseVMStat`: the value of one sample (None = -1, which the Perl skips).
    fn sample(&mut self, block: &[&str]) -> f64 {
        let sub = self.sub.as_str();
        let (mut value, mut scan, mut steal) = (0.0f64, 0.0f64, 0.0f64);
        let mut current: Kept = [0.0; KEPT.len()];
        for line in block {
            // split(/\s/, $line): the first two single-space-separated fields
            let mut it = line.split(|c: char| c.is_ascii_whitespace());
            let stat = it.next().unwrap_or("");
            let text = it.next().unwrap_or("");
            let v = numify(text);
            // the last line of a field wins, as the Perl's hash assignment does
            if let Some(slot) = KEPT.iter().position(|k| *k == stat).and_then(|i| current.get_mut(i)) {
                *slot = v;
            }
            // how many of the lists the Perl walks name `stat` (each match adds once)
            let hits =
                |sets: &[&[&str]]| sets.iter().map(|set| set.iter().filter(|k| **k == stat).count()).sum::<usize>();
            let add = |acc: &mut f64, n: usize| (0..n).for_each(|_| *acc += v);
            match sub {
                // pgscan_direct/pgscan_kswapd are in both lists the Perl adds: counted twice
                "mmtests_direct_scan" => add(&mut value, hits(&[DIRECT_SCAN, &["pgscan_direct"]])),
                "mmtests_direct_steal" => add(&mut value, hits(&[DIRECT_STEAL])),
                "mmtests_direct_efficiency" => {
                    add(&mut scan, hits(&[DIRECT_SCAN]));
                    add(&mut steal, hits(&[DIRECT_STEAL]));
                }
                "mmtests_kswapd_scan" => add(&mut value, hits(&[KSWAPD_SCAN, &["pgscan_kswapd"]])),
                "mmtests_kswapd_steal" => add(&mut value, hits(&[KSWAPD_STEAL])),
                "mmtests_kswapd_efficiency" => {
                    add(&mut scan, hits(&[KSWAPD_SCAN]));
                    add(&mut steal, hits(&[KSWAPD_STEAL]));
                }
                "mmtests_hint_faults_remote" => match stat {
                    "numa_hint_faults" => value += v,
                    "numa_hint_faults_local" => value -= v,
                    _ => {}
                },
                "mmtests_vmscan_write_file" => match stat {
                    "nr_vmscan_write" => value += v,
                    "pswpout" => value -= v,
                    _ => {}
                },
                "mmtests_vmscan_write_anon" if stat == "pswpout" => value += v,
                "mmtests_vmscan_process_pages" if stat == "nr_file_pages" || stat == "nr_anon_pages" => value += v,
                "pgpgtotal" if stat == "pgpgin" || stat == "pgpgout" => value += v,
                "mmtests_minor_faults" => match stat {
                    "pgfault" => value += v,
                    "pgmajfault" => value -= v,
                    _ => {}
                },
                "mmtests_numa_pmd_updates" if stat == "numa_huge_pte_updates" => value += v,
                "mmtests_numa_pte_updates" => match stat {
                    "numa_pte_updates" => value += v,
                    "numa_huge_pte_updates" => value -= v * 512.0,
                    _ => {}
                },
                "mmtests_vmscan_write_anon"
                | "mmtests_vmscan_process_pages"
                | "pgpgtotal"
                | "mmtests_numa_pmd_updates" => {}
                _ if stat == sub => value = v,
                _ => {}
            }
        }
        let last = std::mem::replace(&mut self.last_values, current);
        let at = |values: &Kept, k: &str| KEPT.iter().position(|x| *x == k).and_then(|i| values.get(i)).copied();
        let cur = |k: &str| at(&current, k).unwrap_or(0.0);
        let prev = |k: &str| at(&last, k).unwrap_or(0.0);
        let delta = |k: &str| cur(k) - prev(k);
        if GAUGES.contains(&sub) || sub == "mmtests_vmscan_process_pages" {
            return value;
        }
        match sub {
            // the Perl reads the key "nr_active_anon}" here, which never exists
            "mmtests_total_anon" => cur("nr_inactive_anon"),
            "mmtests_direct_efficiency" | "mmtests_kswapd_efficiency" => {
                let (mut dsteal, mut dscan) = (0.0, 0.0);
                if self.last_steal != 0.0 {
                    dsteal = steal - self.last_steal;
                    dscan = scan - self.last_scan;
                }
                self.last_steal = steal;
                self.last_scan = scan;
                if dscan != 0.0 {
                    dsteal * 100.0 / dscan
                } else {
                    100.0
                }
            }
            "mmtests_total_slab" => cur("nr_slab_reclaimable") + cur("nr_slab_unreclaimable"),
            "mmtests_ratio_slab_filecache" => {
                let slab = cur("nr_slab_reclaimable") + cur("nr_slab_unreclaimable");
                slab / (slab + cur("nr_inactive_file") + cur("nr_active_file"))
            }
            "mmtests_ratio_slab_pagecache" => {
                let slab = cur("nr_slab_reclaimable") + cur("nr_slab_unreclaimable");
                // "nr_inactive_anon}" again: never present
                slab / (slab + cur("nr_active_anon") + cur("nr_inactive_file") + cur("nr_active_file"))
            }
            "numa_hint_faults_local_pct" => {
                let hint = delta("numa_hint_faults");
                if hint == 0.0 {
                    -1.0
                } else {
                    delta("numa_hint_faults_local") * 100.0 / hint
                }
            }
            "mmtests_normal_minor_faults" => delta("pgfault") - delta("pgmajfault") - delta("numa_hint_faults"),
            "mmtests_faults_pct_numa" => {
                let minor = delta("pgfault") - delta("pgmajfault");
                if minor == 0.0 {
                    -1.0
                } else {
                    delta("numa_hint_faults") * 100.0 / minor
                }
            }
            _ => {
                let mut d = if self.last_value != 0.0 { value - self.last_value } else { 0.0 };
                self.last_value = value;
                if sub == "mmtests_vmscan_write_file" && d < 0.0 {
                    d = 0.0;
                }
                d
            }
        }
    }
}

impl Reader for ProcVmstat {
    fn begin_run(&mut self) {
        *self = ProcVmstat::new(&self.sub);
    }

    fn read(&mut self, it: &IterDir<'_>, out: &mut Samples) -> Result<()> {
        let Some(log) = it.monitor_log("proc-vmstat")? else { return Ok(()) };
        let mut started = false;
        let mut block: Vec<&str> = Vec::new();
        for (n, line) in log.lines().enumerate() {
            crate::cancel::check_every(n)?;
            let Some(rest) = line.strip_prefix("time: ") else {
                block.push(line);
                continue;
            };
            let digits = rest.split(|c: char| !c.is_ascii_digit()).next().unwrap_or("");
            if digits.is_empty() {
                block.push(line);
                continue;
            }
            // the start time is 0 until a "time:" line sets it (a time of 0 leaves it unset)
            if !started {
                // lines before it stay in the first sample's block, as the Perl keeps them
                started = numify(digits) != 0.0;
                continue;
            }
            let v = self.sample(&block);
            block.clear();
            if v == -1.0 {
                continue;
            }
            out.add(&self.sub, v);
        }
        Ok(())
    }
}
