//! Which way is better for a named metric, from the knowledge schedlab already has:
//! MMTests' benchmark modules (`getPreferredValue`, per sub-heading) and schedlab's
//! table of lkp metric families ([`crate::lkp::direction`]). docs/verdicts.md.

use crate::lkp;
use crate::mmtests::era::{Era, Preferred};
use crate::mmtests::extract::{self, Ctx, Extractor};
use crate::table::Direction;

/// The direction of one MMTests operation: what the benchmark's module says when
/// the table is restricted to the operation's sub-heading (its name up to the first
/// '-'), so that schbench's `RPS-*` and head dbench's `tput-*` rows are
/// higher-is-better while the latency rows beside them are lower-is-better.
pub fn mmtests_op_direction(
    ex: Option<&'static dyn Extractor>,
    era: Era,
    benchmark: &str,
    op: &str,
    default: Preferred,
) -> Direction {
    let sub = op.split('-').next().unwrap_or_default();
    let preferred = ex
        .map(|ex| ex.meta(&Ctx { era, benchmark: benchmark.to_string(), subheading: sub.to_string() }).preferred)
        .unwrap_or(default);
    Direction::from_higher(preferred == Preferred::Higher)
}

/// The direction of `name`: an MMTests benchmark (`netperf-udp`), or one of its
/// operations as `benchmark:operation` (`schbench:RPS-50.0th-4`), by the newest
/// MMTests era that reads the benchmark; otherwise an lkp metric key
/// (`unixbench.score`) by [`crate::lkp::direction::direction`]; `Unknown` when
/// neither knows it.
pub fn direction(name: &str) -> Direction {
    let (benchmark, op) = name.split_once(':').unwrap_or((name, ""));
    for era in [Era::Head, Era::E2025, Era::E2024, Era::E2018] {
        if let Some(ex) = extract::find(era, benchmark) {
            let ctx = Ctx { era, benchmark: benchmark.to_string(), subheading: String::new() };
            let default = ex.meta(&ctx).preferred;
            if op.is_empty() {
                return Direction::from_higher(default == Preferred::Higher);
            }
            return mmtests_op_direction(Some(ex), era, benchmark, op, default);
        }
    }
    lkp::direction::direction(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mmtests_then_lkp() {
        // netperf throughput and hackbench time, as MMTests' modules say
        assert_eq!(direction("netperf-udp"), Direction::Higher);
        assert_eq!(direction("hackbench-process-pipes"), Direction::Lower);
        // schbench: requests per second beside latencies
        assert_eq!(direction("schbench:RPS-50.0th-4"), Direction::Higher);
        assert_eq!(direction("schbench:Wakeup-99.0th-4"), Direction::Lower);
        // lkp keys
        assert_eq!(direction("unixbench.score"), lkp::direction::direction("unixbench.score"));
        assert_eq!(direction("unixbench.score"), Direction::Higher);
        assert_eq!(direction("no-such-metric"), Direction::Unknown);
    }
}
