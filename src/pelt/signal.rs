//! The PELT signal of one entity, with the kernel's integer widths and truncation
//! (kernel/sched/pelt.c `decay_load`, `__accumulate_pelt_segments`, `accumulate_sum`,
//! `___update_load_sum`, `___update_load_avg`; pelt.h `get_pelt_divider`).
//!
//! Every product and sum wraps exactly where the kernel's `u32`/`u64` would; nothing here
//! can panic, whatever the input.

use super::consts::{LOAD_AVG_MAX, LOAD_AVG_PERIOD, PELT_MIN_DIVIDER, RUNNABLE_AVG_YN_INV, SCHED_CAPACITY_SHIFT};

/// `struct sched_avg` of include/linux/sched.h (6.12) without `util_est`, which
/// [`super::util_est`] keeps: the running sums, the position in the current period and
/// the averages derived from them. `unsigned long` fields are `u64` (64-bit kernel).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SchedAvg {
    /// PELT-clock time (ns) up to which the sums are accounted, a multiple of 1024 ns
    /// steps from the first update.
    pub last_update_time: u64,
    /// Decayed sum of the time the entity was runnable (load) — times `load` per unit.
    pub load_sum: u64,
    /// Decayed sum of runnable time, `<< SCHED_CAPACITY_SHIFT`, times the runnable count.
    pub runnable_sum: u64,
    /// Decayed sum of running time, `<< SCHED_CAPACITY_SHIFT` (a `u32` in the kernel).
    pub util_sum: u32,
    /// Units (1024 ns) already accounted in the current, incomplete period.
    pub period_contrib: u32,
    /// `load * load_sum / divider`.
    pub load_avg: u64,
    /// `runnable_sum / divider`.
    pub runnable_avg: u64,
    /// `util_sum / divider`, at most 1024.
    pub util_avg: u64,
}

/// The decay over `n` periods, split as `decay_load` does it (`val >> (n/32)`, then a
/// multiplication by `runnable_avg_yN_inv[n%32]` keeping the top bits), so that several
/// values decayed over the same periods share the table lookup.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decay {
    shift: u32,
    inv: u32,
    zero: bool,
}

impl Decay {
    /// The decay over `n` periods (everything decays to 0 beyond `32*63`).
    #[inline]
    pub fn new(n: u64) -> Decay {
        if n > LOAD_AVG_PERIOD * 63 {
            return Decay { shift: 0, inv: 0, zero: true };
        }
        // n <= 2016 here; below 32 periods the shift is 0 and the index n itself
        let local_n = n as u32;
        let (shift, idx) = (local_n / LOAD_AVG_PERIOD as u32, local_n % LOAD_AVG_PERIOD as u32);
        let inv = RUNNABLE_AVG_YN_INV.get(idx as usize).copied().unwrap_or(0);
        Decay { shift, inv, zero: false }
    }

    /// `val · y^n` (`mul_u64_u32_shr(val >> (n/32), inv, 32)`).
    #[inline]
    pub fn apply(self, val: u64) -> u64 {
        if self.zero {
            return 0;
        }
        ((u128::from(val >> self.shift) * u128::from(self.inv)) >> 32) as u64
    }
}

/// `decay_load(val, n)` of pelt.c: `val * y^n`, computed as `val >> (n/32)` then a
/// 64×32-bit multiplication by `runnable_avg_yN_inv[n%32]` keeping the top 64 bits
/// (`mul_u64_u32_shr(val, inv, 32)`); 0 when `n > 32*63`.
#[inline]
pub fn decay_load(val: u64, n: u64) -> u64 {
    Decay::new(n).apply(val)
}

/// `__accumulate_pelt_segments(periods, d1, d3)` of pelt.c: the contribution of a
/// delta that crossed `periods` period boundaries, `d1·y^p + 1024·Σ_{n=1}^{p-1} y^n + d3`,
/// with `d1` the rest of the first period and `d3` the part of the current one.
#[inline]
pub fn accumulate_pelt_segments(periods: u64, d1: u32, d3: u32) -> u32 {
    segments(Decay::new(periods), d1, d3)
}

#[inline]
fn segments(decay: Decay, d1: u32, d3: u32) -> u32 {
    let c1 = decay.apply(u64::from(d1)) as u32;
    let c2 = LOAD_AVG_MAX.wrapping_sub(decay.apply(u64::from(LOAD_AVG_MAX)) as u32).wrapping_sub(1024);
    c1.wrapping_add(c2).wrapping_add(d3)
}

/// What one `___update_load_sum(now, …)` does to the clock position of a signal,
/// independent of its sums and flags: two signals at the same `last_update_time` and
/// `period_contrib` (a task and its cfs_rq after `attach_entity_load_avg`) take the
/// same step, so it is computed once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// `(s64)(now - last_update_time) < 0`: time went backwards; `last_update_time = now`.
    Backwards(u64),
    /// Less than 1024 ns elapsed: nothing changes.
    None,
    /// Whole units elapsed.
    Units {
        /// Units (1024 ns) elapsed.
        delta: u64,
        /// Period boundaries crossed.
        periods: u64,
        /// The decay over those periods.
        decay: Decay,
        /// The contribution of the delta to a signal with `load != 0`.
        contrib: u32,
        /// `period_contrib` afterwards.
        period_contrib: u32,
    },
}

impl Step {
    /// The step from a signal at (`last_update_time`, `period_contrib`) to `now`.
    #[inline]
    pub fn new(last_update_time: u64, period_contrib: u32, now: u64) -> Step {
        let delta = now.wrapping_sub(last_update_time);
        if (delta as i64) < 0 {
            return Step::Backwards(now);
        }
        let delta = delta >> 10;
        if delta == 0 {
            return Step::None;
        }
        let mut contrib = delta as u32; // p == 0 -> delta < 1024
        let mut d = delta.wrapping_add(u64::from(period_contrib));
        let periods = d / 1024;
        let decay = Decay::new(periods);
        if periods != 0 {
            d %= 1024;
            contrib = segments(decay, 1024u32.wrapping_sub(period_contrib), d as u32);
        }
        Step::Units { delta, periods, decay, contrib, period_contrib: d as u32 }
    }
}

/// The capacities 4.19's `accumulate_sum` reads at each update:
/// `arch_scale_freq_capacity(cpu)` and `arch_scale_cpu_capacity(NULL, cpu)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scale {
    /// `scale_freq`, 1..=1024.
    pub freq: u64,
    /// `scale_cpu`, 1..=1024.
    pub cpu: u64,
}

/// `div_u64(n, d)`: `u64 / u32`, with a 32-bit division when `n` fits (same result,
/// several times cheaper on x86-64). 0 for `d == 0`, which the PELT divider never is
/// (`PELT_MIN_DIVIDER + period_contrib`, period_contrib < 1024).
#[inline]
pub fn div_u64(n: u64, d: u32) -> u64 {
    if d == 0 {
        return 0;
    }
    if n >> 32 == 0 {
        u64::from(n as u32 / d)
    } else {
        n / u64::from(d)
    }
}

/// Multipliers for an exact division by each possible PELT divider
/// (`PELT_MIN_DIVIDER + period_contrib`, period_contrib in 0..1024): for a 32-bit `n`,
/// `n / d == (n * M[d - PELT_MIN_DIVIDER]) >> 48` with `M = floor(2^48 / d) + 1`
/// (Granlund & Montgomery 1994, Thm 4.2, with N = 32 and l = 16 since 2^15 < d < 2^16).
static DIV_MAGIC: [u64; 1024] = {
    let mut t = [0u64; 1024];
    let mut i = 0;
    while i < 1024 {
        t[i] = (1u64 << 48) / (PELT_MIN_DIVIDER as u64 + i as u64) + 1;
        i += 1;
    }
    t
};

/// `n / divider` for the PELT divider of `sa` (`div_u64` in ___update_load_avg): a
/// multiply-shift when `n` fits 32 bits (always for util_sum, and for every sum of a
/// lightly loaded CPU), a division otherwise. Same result as the division.
#[inline]
fn div_by_divider(n: u64, period_contrib: u32) -> u64 {
    match DIV_MAGIC.get(period_contrib as usize) {
        Some(&m) if n >> 32 == 0 => ((u128::from(n) * u128::from(m)) >> 48) as u64,
        _ => div_u64(n, PELT_MIN_DIVIDER.wrapping_add(period_contrib)),
    }
}

/// `get_pelt_divider(sa)` of pelt.h: `LOAD_AVG_MAX - 1024 + period_contrib`, the largest
/// `*_sum` possible at this position in the period.
#[inline]
pub fn pelt_divider(sa: &SchedAvg) -> u32 {
    pelt_divider_of(sa.period_contrib)
}

/// [`pelt_divider`] of a signal at `period_contrib`.
#[inline]
pub fn pelt_divider_of(period_contrib: u32) -> u32 {
    PELT_MIN_DIVIDER.wrapping_add(period_contrib)
}

impl SchedAvg {
    /// A zeroed signal whose clock starts at `last_update_time`.
    pub fn at(last_update_time: u64) -> Self {
        SchedAvg { last_update_time, ..Default::default() }
    }

    /// `accumulate_sum(delta, sa, load, runnable, running)` of pelt.c: decay the sums over
    /// the crossed periods and add this delta's contribution (`delta` in 1024 ns units).
    /// Returns the number of period boundaries crossed.
    #[inline]
    pub fn accumulate_sum(&mut self, delta: u64, load: u64, runnable: u64, running: bool) -> u64 {
        let mut contrib = delta as u32; // p == 0 -> delta < 1024
        let mut delta = delta.wrapping_add(u64::from(self.period_contrib));
        let periods = delta / 1024;
        if periods != 0 {
            let decay = Decay::new(periods);
            self.decay_sums(decay);
            delta %= 1024;
            if load != 0 {
                contrib = segments(decay, 1024u32.wrapping_sub(self.period_contrib), delta as u32);
            }
        }
        self.period_contrib = delta as u32;
        self.add_contrib(contrib, load, runnable, running);
        periods
    }

    #[inline]
    fn decay_sums(&mut self, decay: Decay) {
        self.load_sum = decay.apply(self.load_sum);
        self.runnable_sum = decay.apply(self.runnable_sum);
        self.util_sum = decay.apply(u64::from(self.util_sum)) as u32;
    }

    #[inline]
    fn add_contrib(&mut self, contrib: u32, load: u64, runnable: u64, running: bool) {
        if load != 0 {
            self.load_sum = self.load_sum.wrapping_add(load.wrapping_mul(u64::from(contrib)));
        }
        if runnable != 0 {
            self.runnable_sum =
                self.runnable_sum.wrapping_add(runnable.wrapping_mul(u64::from(contrib)) << SCHED_CAPACITY_SHIFT);
        }
        if running {
            self.util_sum = self.util_sum.wrapping_add(contrib << SCHED_CAPACITY_SHIFT);
        }
    }

    /// 4.19's `accumulate_sum` tail (docs/pelt.md §9.1): the contribution scaled by the
    /// frequency capacity (`contrib = cap_scale(contrib, scale_freq)`, kept as `u32`),
    /// added to the load and runnable sums, and times the CPU capacity to util_sum
    /// (`util_sum += contrib * scale_cpu`, a 64-bit product truncated into the `u32`).
    /// `runnable_sum` holds 4.19's `runnable_load_sum` (`runnable * contrib`, unshifted).
    #[inline]
    fn add_contrib_scaled(&mut self, contrib: u32, load: u64, runnable: u64, running: bool, scale: Scale) {
        let contrib = super::clock::cap_scale(u64::from(contrib), scale.freq) as u32;
        if load != 0 {
            self.load_sum = self.load_sum.wrapping_add(load.wrapping_mul(u64::from(contrib)));
        }
        if runnable != 0 {
            self.runnable_sum = self.runnable_sum.wrapping_add(runnable.wrapping_mul(u64::from(contrib)));
        }
        if running {
            self.util_sum = self.util_sum.wrapping_add(u64::from(contrib).wrapping_mul(scale.cpu) as u32);
        }
    }

    /// [`Self::apply_step`] with 4.19's scaled contribution ([`Scale`]).
    #[inline]
    pub fn apply_step_scaled(&mut self, step: &Step, load: u64, runnable: u64, running: bool, scale: Scale) -> bool {
        match *step {
            Step::Backwards(now) => {
                self.last_update_time = now;
                false
            }
            Step::None => false,
            Step::Units { delta, periods, decay, contrib, period_contrib } => {
                self.last_update_time = self.last_update_time.wrapping_add(delta << 10);
                let (runnable, running) = if load == 0 { (0, false) } else { (runnable, running) };
                self.period_contrib = period_contrib;
                if periods != 0 {
                    self.decay_sums(decay);
                    self.add_contrib_scaled(contrib, load, runnable, running, scale);
                    true
                } else {
                    self.add_contrib_scaled(delta as u32, load, runnable, running, scale);
                    false
                }
            }
        }
    }

    /// 4.19's `___update_load_avg(sa, load, runnable)`: `load_avg = load * load_sum /
    /// divider`, `runnable_load_avg = runnable * runnable_load_sum / divider` (in
    /// `runnable_avg`), `util_avg = util_sum / divider`.
    #[inline]
    pub fn update_load_avg_4_19(&mut self, weights: (u64, u64)) {
        let pc = self.period_contrib;
        self.load_avg = div_by_divider(weights.0.wrapping_mul(self.load_sum), pc);
        self.runnable_avg = div_by_divider(weights.1.wrapping_mul(self.runnable_sum), pc);
        self.util_avg = div_by_divider(u64::from(self.util_sum), pc);
    }

    /// One update with 4.19's arithmetic: [`Self::apply_step_scaled`] to `now`, and the
    /// averages with the (load, runnable) `weights` when a period was crossed (a task:
    /// `se_weight`, `se_runnable`; a cfs_rq: 1, 1). Returns whether they were.
    #[inline]
    pub fn update_scaled(
        &mut self,
        now: u64,
        load: u64,
        runnable: u64,
        running: bool,
        weights: (u64, u64),
        scale: Scale,
    ) -> bool {
        let step = self.step(now);
        self.update_with_step_scaled(&step, load, runnable, running, weights, scale)
    }

    /// [`Self::update_scaled`] with a precomputed step.
    #[inline]
    pub fn update_with_step_scaled(
        &mut self,
        step: &Step,
        load: u64,
        runnable: u64,
        running: bool,
        weights: (u64, u64),
        scale: Scale,
    ) -> bool {
        if self.apply_step_scaled(step, load, runnable, running, scale) {
            self.update_load_avg_4_19(weights);
            true
        } else {
            false
        }
    }

    /// The [`Step`] this signal takes to `now`.
    #[inline]
    pub fn step(&self, now: u64) -> Step {
        Step::new(self.last_update_time, self.period_contrib, now)
    }

    /// `___update_load_sum` with a precomputed `step` (which must be [`Self::step`] of
    /// this signal, or of one at the same position); see [`Self::update_load_sum`].
    #[inline]
    pub fn apply_step(&mut self, step: &Step, load: u64, runnable: u64, running: bool) -> bool {
        match *step {
            Step::Backwards(now) => {
                self.last_update_time = now;
                false
            }
            Step::None => false,
            Step::Units { delta, periods, decay, contrib, period_contrib } => {
                self.last_update_time = self.last_update_time.wrapping_add(delta << 10);
                let (runnable, running) = if load == 0 { (0, false) } else { (runnable, running) };
                if periods != 0 {
                    self.decay_sums(decay);
                    self.period_contrib = period_contrib;
                    self.add_contrib(contrib, load, runnable, running);
                    true
                } else {
                    self.period_contrib = period_contrib;
                    self.add_contrib(delta as u32, load, runnable, running);
                    false
                }
            }
        }
    }

    /// `___update_load_sum(now, sa, load, runnable, running)` of pelt.c: account the time
    /// since `last_update_time` (whole 1024 ns units; the remainder is carried) with the
    /// given flags. Returns true when a period boundary was crossed, i.e. when the
    /// averages must be recomputed. Time going backwards resets `last_update_time`.
    #[inline]
    pub fn update_load_sum(&mut self, now: u64, load: u64, runnable: u64, running: bool) -> bool {
        let step = self.step(now);
        self.apply_step(&step, load, runnable, running)
    }

    /// `___update_load_avg(sa, load)` of pelt.c: the averages from the sums and the
    /// divider; `load` is the weight (`se_weight`, 1024 for nice 0; 1 for a cfs_rq).
    #[inline]
    pub fn update_load_avg(&mut self, load: u64) {
        let pc = self.period_contrib;
        self.load_avg = div_by_divider(load.wrapping_mul(self.load_sum), pc);
        self.runnable_avg = div_by_divider(self.runnable_sum, pc);
        self.util_avg = div_by_divider(u64::from(self.util_sum), pc);
    }

    /// [`Self::update`] with a precomputed `step` (see [`Self::apply_step`]).
    #[inline]
    pub fn update_with_step(&mut self, step: &Step, load: u64, runnable: u64, running: bool, weight: u64) -> bool {
        if self.apply_step(step, load, runnable, running) {
            self.update_load_avg(weight);
            true
        } else {
            false
        }
    }

    /// One PELT update as the scheduler does it: [`Self::update_load_sum`] and, when it
    /// crossed a period, [`Self::update_load_avg`] with `weight`. Returns whether the
    /// averages were recomputed.
    #[inline]
    pub fn update(&mut self, now: u64, load: u64, runnable: u64, running: bool, weight: u64) -> bool {
        if self.update_load_sum(now, load, runnable, running) {
            self.update_load_avg(weight);
            true
        } else {
            false
        }
    }
}

/// The utilization part of a `struct sched_avg` alone (`last_update_time`,
/// `period_contrib`, `util_sum`, `util_avg`), updated as `___update_load_sum` /
/// `___update_load_avg` of pelt.c update those fields: the same integer steps as
/// [`SchedAvg::update`], without the load and runnable sums. For a replay that needs only
/// util_avg (e.g. LISA's `simulate_pelt` output), at about a third of the work.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct UtilSignal {
    /// As [`SchedAvg::last_update_time`].
    pub last_update_time: u64,
    /// As [`SchedAvg::util_sum`].
    pub util_sum: u32,
    /// As [`SchedAvg::period_contrib`].
    pub period_contrib: u32,
    /// As [`SchedAvg::util_avg`].
    pub util_avg: u64,
}

impl UtilSignal {
    /// `___update_load_sum(now, sa, load, runnable, running)` then, when a period
    /// boundary was crossed, `___update_load_avg` — for the util fields only. `running`
    /// must already be gated by `load` (the kernel zeroes it when `load == 0`).
    /// Returns whether util_avg was recomputed.
    #[inline(always)]
    pub fn update(&mut self, now: u64, running: bool) -> bool {
        let delta = now.wrapping_sub(self.last_update_time);
        if (delta as i64) < 0 {
            self.last_update_time = now;
            return false;
        }
        let delta = delta >> 10;
        if delta == 0 {
            return false;
        }
        self.last_update_time = self.last_update_time.wrapping_add(delta << 10);
        // accumulate_sum
        let d = delta.wrapping_add(u64::from(self.period_contrib));
        let periods = d / 1024;
        if periods == 0 {
            // within the period: the whole delta counts, nothing decays
            self.period_contrib = d as u32;
            if running {
                self.util_sum = self.util_sum.wrapping_add((delta as u32) << SCHED_CAPACITY_SHIFT);
            }
            return false;
        }
        let d3 = (d % 1024) as u32;
        // decay_load(util_sum, periods) and __accumulate_pelt_segments(periods, 1024 -
        // period_contrib, d3), with u32 operands (so 64-bit products) and the middle
        // term from a table
        let (decayed, contrib) = match FULL_PERIODS.get(periods as usize) {
            Some(&c2) => {
                let inv = u64::from(RUNNABLE_AVG_YN_INV[(periods % LOAD_AVG_PERIOD) as usize]);
                let shift = periods / LOAD_AVG_PERIOD;
                let decayed = (((u64::from(self.util_sum) >> shift) * inv) >> 32) as u32;
                let c1 = (((u64::from(1024u32.wrapping_sub(self.period_contrib)) >> shift) * inv) >> 32) as u32;
                (decayed, c1.wrapping_add(c2).wrapping_add(d3))
            }
            // beyond 32*63 periods everything decays to 0
            None => (0, LOAD_AVG_MAX.wrapping_sub(1024).wrapping_add(d3)),
        };
        self.period_contrib = d3;
        self.util_sum = if running { decayed.wrapping_add(contrib << SCHED_CAPACITY_SHIFT) } else { decayed };
        self.util_avg = div_by_divider(u64::from(self.util_sum), self.period_contrib);
        true
    }
}

/// The middle term of `__accumulate_pelt_segments` for each number of periods `p` up to
/// `32*63` (beyond, every decay is 0): `LOAD_AVG_MAX - decay_load(LOAD_AVG_MAX, p) -
/// 1024`, the contribution of the `p - 1` full periods crossed, `1024·Σ_{n=1}^{p-1} y^n`.
static FULL_PERIODS: [u32; (LOAD_AVG_PERIOD * 63 + 1) as usize] = {
    let mut t = [0u32; (LOAD_AVG_PERIOD * 63 + 1) as usize];
    let mut p = 0;
    while p < t.len() {
        let inv = RUNNABLE_AVG_YN_INV[p % 32] as u64;
        let decayed = (((LOAD_AVG_MAX as u64 >> (p / 32)) * inv) >> 32) as u32;
        t[p] = LOAD_AVG_MAX.wrapping_sub(decayed).wrapping_sub(1024);
        p += 1;
    }
    t
};

/// [`decay_load`] of each `vals[i]` over `ns[i]` periods (the notebooks'
/// `pelt.decay_load`); the two columns must have the same length.
pub fn decay_load_each(vals: &[u64], ns: &[u64]) -> crate::error::Result<Vec<u64>> {
    if vals.len() != ns.len() {
        return Err(crate::error::Error::domain(format!("{} values but {} decay counts", vals.len(), ns.len())));
    }
    let mut out = Vec::with_capacity(vals.len());
    for (i, (&v, &n)) in vals.iter().zip(ns).enumerate() {
        crate::cancel::check_every(i)?; // arrays of any length, read without the GIL
        out.push(decay_load(v, n));
    }
    Ok(out)
}

/// The columns of [`accumulate`], in order: `ret` of `___update_load_sum`, then the
/// `struct sched_avg` fields after the step (the golden `pelt_accumulate.csv` header).
pub const ACCUMULATE_COLUMNS: [&str; 9] = [
    "ret",
    "last_update_time",
    "load_sum",
    "runnable_sum",
    "util_sum",
    "period_contrib",
    "load_avg",
    "runnable_avg",
    "util_avg",
];

/// The steps [`accumulate`] takes: per step the time advanced (ns) and the
/// `load`/`runnable`/`running` arguments of `___update_load_sum` (running is non-zero
/// for true); all four columns have the same length.
#[derive(Debug, Clone, Copy)]
pub struct AccumulateSteps<'a> {
    /// Nanoseconds added to the clock before each update.
    pub delta_ns: &'a [u64],
    /// `load` of each update (0 or 1 for a task).
    pub load: &'a [u64],
    /// `runnable` of each update.
    pub runnable: &'a [u64],
    /// `running` of each update (non-zero: true).
    pub running: &'a [u64],
}

/// One `sched_avg`, started at `start_ns` ([`SchedAvg::at`]), stepped through
/// `___update_load_sum` and, when that returns true, `___update_load_avg(weight)`
/// (kernel/sched/pelt.c) at each of `steps`; returns one value per step for each of
/// [`ACCUMULATE_COLUMNS`]. The clock wraps as the kernel's `u64` would.
pub fn accumulate(steps: &AccumulateSteps<'_>, start_ns: u64, weight: u64) -> crate::error::Result<[Vec<u64>; 9]> {
    let n = steps.delta_ns.len();
    if steps.load.len() != n || steps.runnable.len() != n || steps.running.len() != n {
        return Err(crate::error::Error::domain("delta_ns, load, runnable and running must have the same length"));
    }
    let mut sa = SchedAvg::at(start_ns);
    let mut now = start_ns;
    let mut c: [Vec<u64>; 9] = std::array::from_fn(|_| Vec::with_capacity(n));
    let rows = steps.delta_ns.iter().zip(steps.load).zip(steps.runnable).zip(steps.running);
    for (i, (((&d, &l), &u), &r)) in rows.enumerate() {
        crate::cancel::check_every(i)?;
        now = now.wrapping_add(d);
        let ret = sa.update_load_sum(now, l, u, r != 0);
        if ret {
            sa.update_load_avg(weight);
        }
        let vals = [
            u64::from(ret),
            sa.last_update_time,
            sa.load_sum,
            sa.runnable_sum,
            u64::from(sa.util_sum),
            u64::from(sa.period_contrib),
            sa.load_avg,
            sa.runnable_avg,
            sa.util_avg,
        ];
        for (col, v) in c.iter_mut().zip(vals) {
            col.push(v);
        }
    }
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decay_by_hand() {
        // y^0 with inv = 2^32-1: val*(2^32-1)>>32 = val-1 for 0 < val < 2^32.
        assert_eq!(decay_load(1024, 0), 1023);
        // 32 periods halve first: 1024>>1 = 512, then *(2^32-1)>>32 = 511.
        assert_eq!(decay_load(1024, 32), 511);
        assert_eq!(decay_load(u64::MAX, 2017), 0);
        // LOAD_AVG_MAX * y = 47742 * 0xfa83b2da >> 32 = 46718 (hence PELT_MIN_DIVIDER).
        assert_eq!(decay_load(47742, 1), 46718);
    }

    #[test]
    fn segments_by_hand() {
        // p = 1: c1 = 1024 * 0xfa83b2da >> 32 = 1002, c2 = 47742 - 46718 - 1024 = 0, c3 = 10.
        assert_eq!(accumulate_pelt_segments(1, 1024, 10), 1012);
    }

    #[test]
    fn always_running_saturates() {
        let mut sa = SchedAvg::at(1 << 20);
        let mut now = 1 << 20;
        for _ in 0..4000 {
            now += 1 << 20;
            sa.update(now, 1, 1, true, 1024);
        }
        // at a period boundary util_sum = LOAD_AVG_MAX-1024 periods' worth << 10 / divider
        assert!(sa.util_avg >= 1023 && sa.util_avg <= 1024, "{}", sa.util_avg);
    }

    #[test]
    fn magic_division_is_exact() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for pc in 0..1024u32 {
            let d = u64::from(PELT_MIN_DIVIDER + pc);
            let check = |n: u64| assert_eq!(div_by_divider(n, pc), n / d, "{n} / {d}");
            for n in [0, 1, d - 1, d, d + 1, u64::from(u32::MAX), u64::from(u32::MAX) - 1, 1 << 32, u64::MAX] {
                check(n);
            }
            // every multiple boundary near the top of the 32-bit range, and random values
            let top = u64::from(u32::MAX) / d;
            for k in (top - 50)..=top {
                check(k * d - 1);
                check(k * d);
            }
            for _ in 0..2000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                check(x >> 32);
                check(x >> (x & 31));
            }
        }
    }

    #[test]
    fn backwards_time_resets_without_panicking() {
        let mut sa = SchedAvg::at(10_000_000);
        assert!(!sa.update_load_sum(5, 1, 1, true));
        assert_eq!(sa.last_update_time, 5);
    }

    #[test]
    fn util_signal_follows_sched_avg() {
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        for start in [1024u64, 1 << 20, 1_048_576_000, 987_654_321] {
            let mut full = SchedAvg::at(start);
            full.util_sum = 123_456;
            let mut util = UtilSignal { last_update_time: start, util_sum: 123_456, ..UtilSignal::default() };
            let mut now = start;
            for _ in 0..20_000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                now += match x % 4 {
                    0 => x % 1024,
                    1 => x % 40_000,
                    2 => x % 4_000_000,
                    _ => x % 3_000_000_000,
                };
                let (load, running) = (x & (1 << 20) != 0, x & (1 << 21) != 0);
                let running = load && running;
                let a = full.update(now, u64::from(load), u64::from(load), running, 1024);
                let b = util.update(now, running);
                assert_eq!(a, b);
                assert_eq!(
                    (util.last_update_time, util.util_sum, util.period_contrib, util.util_avg),
                    (full.last_update_time, full.util_sum, full.period_contrib, full.util_avg)
                );
            }
        }
    }

    #[test]
    fn decay_load_each_checks_lengths() {
        assert_eq!(decay_load_each(&[1024, 1024], &[0, 32]).unwrap(), [1023, 511]);
        assert_eq!(decay_load_each(&[1], &[]).unwrap_err().to_string(), "1 values but 0 decay counts");
    }

    #[test]
    fn accumulate_by_hand() {
        // one full period running from 0: contrib = decay_load(1024, 1) = 1002 (c2 = c3 = 0);
        // load_sum 1002, runnable_sum = util_sum = 1002 << 10 = 1026048; divider 46718
        // (PELT_MIN_DIVIDER, period_contrib 0): load_avg = 1024 * 1002 / 46718 = 21.
        // Then half a period runnable, not running: no boundary, sums += 512 (<< 10).
        let steps =
            AccumulateSteps { delta_ns: &[1 << 20, 1 << 19], load: &[1, 1], runnable: &[1, 1], running: &[1, 0] };
        let c = accumulate(&steps, 0, 1024).unwrap();
        assert_eq!(c[0], [1, 0]);
        assert_eq!(c[1], [1 << 20, 3 << 19]);
        assert_eq!(c[2], [1002, 1514]);
        assert_eq!(c[3], [1026048, 1026048 + (512 << 10)]);
        assert_eq!(c[4], [1026048, 1026048]);
        assert_eq!(c[5], [0, 512]);
        assert_eq!(c[6], [21, 21]);
        assert_eq!(c[7], [21, 21]);
        assert_eq!(c[8], [21, 21]);
        let short = AccumulateSteps { running: &[1], ..steps };
        assert!(accumulate(&short, 0, 1024).is_err());
    }
}
