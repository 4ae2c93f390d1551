//! The trace metrics pass (src/trace) over trace.dat bytes or text.

use super::common::parse_error;
use schedlab::import_notes::{ImportNotes, ImportOptions};
use schedlab::trace::groups::{Groups, Selector};
use schedlab::trace::machine::Machine;
use schedlab::trace::metrics::metrics;
use schedlab::trace::source::{read_bytes, Item};

const PATH: &str = "trace";

/// The pass over `data` (a trace.dat, or text), strictly: an error is a parse error
/// naming the input at a line or record that exists (the events' CPU and state numbers
/// are bounded there); what it measures holds together: each CPU's residency and busy
/// time within the time it was known, every histogram's count its buckets' sum, every
/// metric finite.
pub fn metrics_pass(data: &[u8]) {
    let strict = ImportOptions { strict: true, sort: false };
    let groups = Groups::new(vec![Selector::Comm("a*".into()), Selector::Pids(vec![1, 2])]).unwrap();
    let drv = schedlab::idle::states::StateTable::preset("intel-skx").unwrap().drv();
    let mut m = Machine::new(Some(drv), &groups, Some(PATH));
    let mut notes = ImportNotes::default();
    let lines = data.split(|&b| b == b'\n').count().max(1);
    let read = read_bytes(data, PATH, strict, &mut notes, |i| match i {
        Item::Event(e) => m.event(&e),
        Item::Loss(l) => m.loss(l),
    });
    let read = match read {
        Ok(r) => r,
        // a trace.dat's line numbers are record numbers: at most one per 4 bytes
        Err(e) => return parse_error(&e, Some(PATH), lines.max(data.len() / 4)),
    };
    let (Some(start), Some(end)) = (read.start_ns, read.end_ns) else { return };
    let s = m.finish_at(start, end);
    for c in &s.cpus {
        let res: u64 = c.states.iter().map(|x| x.residency_ns).sum::<u64>() + c.active_ns;
        assert_eq!(res, c.idle_known_ns, "cpu {}: residency adds up to the known time", c.cpu);
        assert!(c.busy_ns <= c.sched_known_ns, "cpu {}: busy within the known time", c.cpu);
    }
    for g in &s.sched {
        for h in [&g.wakeup_latency, &g.preempt_wait, &g.run] {
            assert_eq!(h.sorted().iter().map(|b| b.1).sum::<u64>(), h.count(), "histogram count");
        }
    }
    for x in metrics(&s, 0) {
        assert!(x.value.is_finite(), "{} {}: {}", x.scope, x.name, x.value);
    }
}
