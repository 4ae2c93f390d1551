//! schedutil's mapping from CPU utilization to a performance level and a frequency
//! (6.12 kernel/sched/cpufreq_schedutil.c `sugov_effective_cpu_perf`, `get_next_freq`,
//! `get_capacity_ref_freq`; include/linux/sched/cpufreq.h `map_util_perf`,
//! `map_util_freq`; docs/pelt.md §7.2). Not modelled: rate limiting, iowait
//! boost, uclamp, RT/DL/IRQ utilization.

/// `map_util_perf(util)` = `util + (util >> 2)`: 25 % headroom.
#[inline]
pub fn map_util_perf(util: u64) -> u64 {
    util.wrapping_add(util >> 2)
}

/// `map_util_freq(util, freq, cap)` = `freq * util / cap` (0 when `cap` is 0).
#[inline]
pub fn map_util_freq(util: u64, freq: u64, cap: u64) -> u64 {
    freq.wrapping_mul(util).checked_div(cap).unwrap_or(0)
}

/// `sugov_effective_cpu_perf(cpu, actual, min, max)` of 6.8+: the headroom applies to
/// `actual` only, the result is at most `max` and at least `min`.
#[inline]
pub fn effective_cpu_perf(actual: u64, min: u64, max: u64) -> u64 {
    let actual = map_util_perf(actual);
    let max = if actual < max { actual } else { max };
    min.max(max)
}

/// The performance level schedutil asks for when only CFS runs (`effective_cpu_util`
/// with no RT/DL/IRQ: `min = 0`, `max = capacity`): `min(map_util_perf(util), capacity)`.
/// This is the `sugov_perf` column of the simulation, with `util = cpu_util_cfs_boost`.
#[inline]
pub fn sugov_perf(util: u64, capacity: u64) -> u64 {
    effective_cpu_perf(util.min(capacity), 0, capacity)
}

/// `get_capacity_ref_freq(policy)`: the frequency that utilization is scaled against:
/// the architecture's reference frequency, or `cpuinfo.max_freq` when the platform is
/// frequency invariant, else `cur + cur/4` (so that a busy CPU is pushed up).
#[inline]
pub fn capacity_ref_freq(arch_ref_freq: u64, freq_invariant: bool, max_freq: u64, cur_freq: u64) -> u64 {
    if arch_ref_freq != 0 {
        arch_ref_freq
    } else if freq_invariant {
        max_freq
    } else {
        cur_freq.wrapping_add(cur_freq >> 2)
    }
}

/// `cpufreq_driver_resolve_freq` for a frequency table with `CPUFREQ_RELATION_L`: clamp
/// to the policy limits, then the lowest operating point at or above the target, or the
/// highest when none is. `opps` need not be sorted; an empty table returns the clamped target.
pub fn resolve_freq(freq: u64, opps: &[u64], policy_min: u64, policy_max: u64) -> u64 {
    let target = freq.clamp(policy_min.min(policy_max), policy_max.max(policy_min));
    let above = opps.iter().copied().filter(|&f| f >= target).min();
    match above {
        Some(f) => f,
        None => opps.iter().copied().max().unwrap_or(target),
    }
}

/// 6.12 `get_next_freq` without the cache: `map_util_freq(perf, ref_freq, capacity)` then
/// resolved to an operating point (no table: the raw frequency).
pub fn next_freq(perf: u64, capacity: u64, ref_freq: u64, opps: &[u64], policy_min: u64, policy_max: u64) -> u64 {
    resolve_freq(map_util_freq(perf, ref_freq, capacity), opps, policy_min, policy_max)
}

/// v4.7–v6.7 `get_next_freq`: `next = (max_freq + max_freq/4) * util / capacity` (the
/// headroom on the frequency, before v6.8 moved it into the performance level).
pub fn next_freq_legacy(util: u64, capacity: u64, max_freq: u64) -> u64 {
    map_util_freq(util, max_freq.wrapping_add(max_freq >> 2), capacity)
}

/// Which schedutil rule maps utilization to frequency: 6.8+'s (as 6.12 has it: the
/// headroom in the performance level) or v4.7–v6.7's (`legacy`: on the frequency).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    /// 6.8+ (6.12).
    V6_12,
    /// v4.7–v6.7.
    Legacy,
}

impl crate::choice::Choice for Version {
    const WHAT: &'static str = "schedutil version";
    const ALL: &'static [Self] = &[Version::V6_12, Version::Legacy];

    fn name(self) -> &'static str {
        match self {
            Version::V6_12 => "6.12",
            Version::Legacy => "legacy",
        }
    }
}

/// What [`perf_and_freq`] asks: the CPU's utilization and capacity, the cpufreq
/// policy (reference frequency, operating points, limits) and the minimum performance
/// level, and whether to follow the v4.7–v6.7 rule (`legacy`) or 6.8+'s.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// The CPU's utilization (`cpu_util_cfs_boost`).
    pub util: u64,
    /// `arch_scale_cpu_capacity(cpu)`, > 0.
    pub capacity: u64,
    /// The frequency utilization is scaled against ([`capacity_ref_freq`]; `max_freq` when `legacy`).
    pub ref_freq: u64,
    /// The operating points ([`resolve_freq`]).
    pub opps: &'a [u64],
    /// `policy->min`.
    pub policy_min: u64,
    /// `policy->max`.
    pub policy_max: u64,
    /// `min` of `sugov_effective_cpu_perf` (6.8+ only).
    pub min_perf: u64,
    /// v4.7–v6.7 `get_next_freq` (headroom on the frequency) instead of 6.8+'s.
    pub legacy: bool,
}

/// schedutil's `(perf, freq)` for a utilization: 6.8+ (6.12) `sugov_effective_cpu_perf`
/// of the utilization clamped to the capacity, then [`next_freq`]; `legacy`: the clamped
/// utilization and [`next_freq_legacy`] resolved to an operating point
/// (cpufreq_schedutil.c `get_next_freq`). A capacity of 0 is an error.
pub fn perf_and_freq(r: &Request<'_>) -> crate::error::Result<(u64, u64)> {
    if r.capacity == 0 {
        return Err(crate::error::Error::domain("capacity must be > 0"));
    }
    let util = r.util.min(r.capacity);
    if r.legacy {
        let f = next_freq_legacy(r.util, r.capacity, r.ref_freq);
        return Ok((util, resolve_freq(f, r.opps, r.policy_min, r.policy_max)));
    }
    let perf = effective_cpu_perf(util, r.min_perf, r.capacity);
    Ok((perf, next_freq(perf, r.capacity, r.ref_freq, r.opps, r.policy_min, r.policy_max)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn by_hand() {
        assert_eq!(map_util_perf(512), 640);
        assert_eq!(sugov_perf(881, 1024), 1024); // 881 + 220 = 1101 -> capacity
        assert_eq!(sugov_perf(118, 446), 147); // 118 + 29
        assert_eq!(effective_cpu_perf(100, 300, 1024), 300); // the floor wins
                                                             // 640/1024 of 2 GHz = 1.25 GHz, rounded up to the 1.4 GHz point
        assert_eq!(map_util_freq(640, 2_000_000, 1024), 1_250_000);
        assert_eq!(next_freq(640, 1024, 2_000_000, &[800_000, 1_400_000, 2_000_000], 0, u64::MAX), 1_400_000);
        assert_eq!(resolve_freq(3_000_000, &[800_000, 2_000_000], 0, u64::MAX), 2_000_000);
        assert_eq!(next_freq_legacy(512, 1024, 2_000_000), 1_250_000);
        assert_eq!(capacity_ref_freq(0, false, 2_000_000, 1_000_000), 1_250_000);
    }

    #[test]
    fn perf_and_freq_by_hand() {
        let opps = [1_000_000, 2_000_000];
        let r = Request {
            util: 512,
            capacity: 1024,
            ref_freq: 2_000_000,
            opps: &opps,
            policy_min: 0,
            policy_max: 2_000_000,
            min_perf: 0,
            legacy: false,
        };
        // perf = 512 + 128 = 640; freq = 2e6 * 640 / 1024 = 1.25e6 -> the 2e6 OPP
        assert_eq!(perf_and_freq(&r).unwrap(), (640, 2_000_000));
        // legacy: 2.5e6 * 512 / 1024 = 1.25e6 -> 2e6; perf is the clamped util
        assert_eq!(perf_and_freq(&Request { legacy: true, ..r }).unwrap(), (512, 2_000_000));
        // util 300: 6.8+ 375 -> 732421 -> 1e6; legacy 732421 -> 1e6
        assert_eq!(perf_and_freq(&Request { util: 300, ..r }).unwrap(), (375, 1_000_000));
        assert_eq!(perf_and_freq(&Request { capacity: 0, ..r }).unwrap_err().to_string(), "capacity must be > 0");
    }
}
