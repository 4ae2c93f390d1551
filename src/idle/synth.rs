//! Seeded synthetic idle traces of the classic wakeup patterns governors are argued
//! about. The same (pattern, n, hz, seed) always gives the same trace; the generator is
//! the crate's xoshiro256** ([`crate::stats::rng::Rng`]).
//!
//! Every pattern draws the phase of the tick uniformly in `(0, TICK_NSEC]` per period
//! (idle entry is not synchronised with the tick) and sets no latency limit.

use super::trace::{IdlePeriod, Tick};
use crate::error::{Error, Result};
use crate::stats::rng::Rng;

/// A wakeup pattern.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Pattern {
    /// A periodic timer: every period ends at the timer, `period_ns` ± uniform `jitter_ns`
    /// away (a timer-driven workload, e.g. a 2 ms `hrtimer` loop).
    Periodic {
        /// Timer period, ns.
        period_ns: i64,
        /// Half-width of the uniform jitter, ns.
        jitter_ns: i64,
    },
    /// Device interrupts as a Poisson process of mean interval `mean_ns` (exponential
    /// idle durations), with a distant timer `timer_ns` away capping each period.
    Poisson {
        /// Mean time between interrupts, ns.
        mean_ns: i64,
        /// Time to the next timer, ns.
        timer_ns: i64,
    },
    /// Two kinds of wakeup: after `short_ns` with probability `p_short`, else after
    /// `long_ns`, each ± a uniform relative `jitter`; the next timer `timer_ns` away.
    Bimodal {
        /// Short idle duration, ns.
        short_ns: i64,
        /// Long idle duration, ns.
        long_ns: i64,
        /// Probability of the short one.
        p_short: f64,
        /// Relative jitter (0.05 = ±5 %).
        jitter: f64,
        /// Time to the next timer, ns.
        timer_ns: i64,
    },
    /// A CPU idling with the tick already stopped: sleep lengths one tick plus an
    /// exponential of mean `mean_sleep_ns`; with probability `p_wake` an interrupt comes
    /// at a uniform point before the timer.
    TickStopped {
        /// Mean extra sleep length beyond one tick, ns.
        mean_sleep_ns: i64,
        /// Probability of a non-timer wakeup.
        p_wake: f64,
    },
}

/// The numbers a front end passes for a pattern, named by position as
/// `idle.synth(pattern, n, hz, seed, a, b, c, p, jitter)` takes them.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PatternArgs {
    /// `periodic`: period_ns; `poisson`: mean_ns; `bimodal`: short_ns; `tick_stopped`: mean_sleep_ns.
    pub a: i64,
    /// `periodic`: jitter_ns; `poisson`: timer_ns; `bimodal`: long_ns.
    pub b: i64,
    /// `bimodal`: timer_ns.
    pub c: i64,
    /// `bimodal`: p_short; `tick_stopped`: p_wake.
    pub p: f64,
    /// `bimodal`: the relative jitter.
    pub jitter: f64,
}

/// The pattern names [`Pattern::named`] knows.
pub const PATTERN_NAMES: [&str; 4] = ["periodic", "poisson", "bimodal", "tick_stopped"];

impl Pattern {
    /// The pattern called `name` ([`PATTERN_NAMES`]) with its parameters taken from
    /// `args` as [`PatternArgs`] documents; an unknown name is an error.
    pub fn named(name: &str, args: PatternArgs) -> Result<Pattern> {
        let PatternArgs { a, b, c, p, jitter } = args;
        Ok(match name {
            "periodic" => Pattern::Periodic { period_ns: a, jitter_ns: b },
            "poisson" => Pattern::Poisson { mean_ns: a, timer_ns: b },
            "bimodal" => Pattern::Bimodal { short_ns: a, long_ns: b, timer_ns: c, p_short: p, jitter },
            "tick_stopped" => Pattern::TickStopped { mean_sleep_ns: a, p_wake: p },
            other => return Err(Error::domain(format!("unknown pattern '{other}'"))),
        })
    }
}

fn uniform(rng: &mut Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

fn exponential(rng: &mut Rng, mean: f64) -> f64 {
    -mean * (1.0 - uniform(rng)).ln()
}

fn positive(name: &str, v: i64) -> Result<()> {
    if v <= 0 {
        return Err(Error::domain(format!("{name} must be a positive duration in ns, got {v}")));
    }
    Ok(())
}

fn probability(name: &str, p: f64) -> Result<()> {
    if !(0.0..=1.0).contains(&p) {
        return Err(Error::domain(format!("{name} must be a probability in [0, 1], got {p}")));
    }
    Ok(())
}

/// `n` idle periods of `pattern` at `hz`, reproducible from `seed`.
pub fn generate(pattern: Pattern, n: usize, hz: u32, seed: u64) -> Result<Vec<IdlePeriod>> {
    let tick = Tick::new(hz)?;
    if n > 100_000_000 {
        return Err(Error::domain(format!("n = {n} periods is more than the 100 000 000 a trace may hold")));
    }
    match pattern {
        Pattern::Periodic { period_ns, jitter_ns } => {
            positive("period_ns", period_ns)?;
            if jitter_ns < 0 || jitter_ns >= period_ns {
                return Err(Error::domain(format!("jitter_ns must be in [0, period_ns), got {jitter_ns}")));
            }
        }
        Pattern::Poisson { mean_ns, timer_ns } => {
            positive("mean_ns", mean_ns)?;
            positive("timer_ns", timer_ns)?;
        }
        Pattern::Bimodal { short_ns, long_ns, p_short, jitter, timer_ns } => {
            positive("short_ns", short_ns)?;
            positive("long_ns", long_ns)?;
            positive("timer_ns", timer_ns)?;
            probability("p_short", p_short)?;
            if !(0.0..1.0).contains(&jitter) {
                return Err(Error::domain(format!("jitter must be in [0, 1), got {jitter}")));
            }
        }
        Pattern::TickStopped { mean_sleep_ns, p_wake } => {
            positive("mean_sleep_ns", mean_sleep_ns)?;
            probability("p_wake", p_wake)?;
        }
    }
    let mut rng = Rng::new(seed, 0x1d1e);
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let next_tick_ns = 1 + rng.below(tick.nsec as u64) as i64;
        let p = match pattern {
            Pattern::Periodic { period_ns, jitter_ns } => {
                let j = if jitter_ns > 0 { rng.below(2 * jitter_ns as u64 + 1) as i64 - jitter_ns } else { 0 };
                IdlePeriod { sleep_length_ns: period_ns + j, wake_ns: -1, ..Default::default() }
            }
            Pattern::Poisson { mean_ns, timer_ns } => {
                let w = exponential(&mut rng, mean_ns as f64).round() as i64;
                IdlePeriod {
                    sleep_length_ns: timer_ns,
                    wake_ns: if w < timer_ns { w } else { -1 },
                    ..Default::default()
                }
            }
            Pattern::Bimodal { short_ns, long_ns, p_short, jitter, timer_ns } => {
                let base = if uniform(&mut rng) < p_short { short_ns } else { long_ns };
                let f = 1.0 + jitter * (2.0 * uniform(&mut rng) - 1.0);
                let w = (base as f64 * f).round() as i64;
                IdlePeriod {
                    sleep_length_ns: timer_ns,
                    wake_ns: if w < timer_ns { w.max(0) } else { -1 },
                    ..Default::default()
                }
            }
            Pattern::TickStopped { mean_sleep_ns, p_wake } => {
                let sleep = tick.nsec + exponential(&mut rng, mean_sleep_ns as f64).round() as i64;
                let wake = if uniform(&mut rng) < p_wake { (uniform(&mut rng) * sleep as f64) as i64 } else { -1 };
                IdlePeriod { sleep_length_ns: sleep, wake_ns: wake, tick_stopped: true, ..Default::default() }
            }
        };
        out.push(IdlePeriod { next_tick_ns, latency_req_ns: -1, ..p });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reproducible_and_shaped_as_asked() {
        let pat = Pattern::Poisson { mean_ns: 300_000, timer_ns: 50_000_000 };
        let a = generate(pat, 20_000, 250, 7).unwrap();
        assert_eq!(a, generate(pat, 20_000, 250, 7).unwrap());
        assert_ne!(a, generate(pat, 20_000, 250, 8).unwrap());
        let mean = a.iter().map(|p| p.wake_ns as f64).sum::<f64>() / a.len() as f64;
        assert!((mean - 300_000.0).abs() < 300_000.0 * 0.03, "mean {mean}");
        assert!(a.iter().all(|p| (1..=4_000_000).contains(&p.next_tick_ns)));

        let per = generate(Pattern::Periodic { period_ns: 2_000_000, jitter_ns: 1000 }, 1000, 1000, 1).unwrap();
        assert!(per.iter().all(|p| p.wake_ns == -1 && (1_999_000..=2_001_000).contains(&p.sleep_length_ns)));

        let bi = Pattern::Bimodal {
            short_ns: 100_000,
            long_ns: 5_000_000,
            p_short: 0.75,
            jitter: 0.05,
            timer_ns: 30_000_000,
        };
        let b = generate(bi, 10_000, 250, 3).unwrap();
        let short = b.iter().filter(|p| p.wake_ns < 1_000_000).count() as f64 / 10_000.0;
        assert!((short - 0.75).abs() < 0.03, "{short}");

        let ts = generate(Pattern::TickStopped { mean_sleep_ns: 50_000_000, p_wake: 0.3 }, 1000, 250, 5).unwrap();
        assert!(ts.iter().all(|p| p.tick_stopped && p.sleep_length_ns >= 4_000_000 && p.wake_ns < p.sleep_length_ns));
    }

    #[test]
    fn bad_parameters_are_refused() {
        assert!(generate(Pattern::Periodic { period_ns: 0, jitter_ns: 0 }, 1, 250, 0).is_err());
        assert!(generate(Pattern::TickStopped { mean_sleep_ns: 1, p_wake: 1.5 }, 1, 250, 0).is_err());
        assert!(generate(Pattern::Poisson { mean_ns: 1, timer_ns: 1 }, 1, 251, 0).is_err());
    }

    #[test]
    fn patterns_by_name() {
        let args = PatternArgs { a: 1, b: 2, c: 3, p: 0.5, jitter: 0.1 };
        assert_eq!(Pattern::named("periodic", args).unwrap(), Pattern::Periodic { period_ns: 1, jitter_ns: 2 });
        assert_eq!(Pattern::named("poisson", args).unwrap(), Pattern::Poisson { mean_ns: 1, timer_ns: 2 });
        assert_eq!(
            Pattern::named("bimodal", args).unwrap(),
            Pattern::Bimodal { short_ns: 1, long_ns: 2, timer_ns: 3, p_short: 0.5, jitter: 0.1 }
        );
        assert_eq!(
            Pattern::named("tick_stopped", args).unwrap(),
            Pattern::TickStopped { mean_sleep_ns: 1, p_wake: 0.5 }
        );
        assert_eq!(Pattern::named("burst", args).unwrap_err().to_string(), "unknown pattern 'burst'");
        for name in PATTERN_NAMES {
            assert!(Pattern::named(name, args).is_ok());
        }
    }
}
