//! The segments of an imported task, built as its trace is read (docs/pelt.md §5.5) and
//! handed on as soon as nothing can change them: a segment of the same state, CPU and
//! capacities as the one before extends it, a segment of no length is never made, the
//! runqueue changes only at a wakeup, and a run of no length before a sleep is kept as
//! 1 ns. Only the last two segments are held ([`SegmentBuilder`]), so an import writes
//! its trace while it reads ([`SegmentSink`]).

use super::trace::{Segment, State};
use crate::error::Result;

/// Where finished segments go: a vector, or a writer of the trace CSV.
pub trait SegmentSink {
    /// One segment, in order.
    fn segment(&mut self, s: Segment) -> Result<()>;
}

impl SegmentSink for Vec<Segment> {
    fn segment(&mut self, s: Segment) -> Result<()> {
        self.push(s);
        Ok(())
    }
}

/// The capacities of a segment: (`cpu_cap`, `freq_cap`).
pub type Caps = (u32, u32);

/// Segments being built; the last two are held back (the next may extend the last, and
/// a run of no length reshapes both).
pub struct SegmentBuilder<S: SegmentSink> {
    sink: S,
    /// The segments not handed on yet, oldest first (at most two).
    tail: Vec<Segment>,
    /// Segments made so far.
    count: u64,
}

impl<S: SegmentSink> SegmentBuilder<S> {
    /// Segments for `sink`.
    pub fn new(sink: S) -> Self {
        SegmentBuilder { sink, tail: Vec::with_capacity(3), count: 0 }
    }

    /// The last segment made.
    pub fn last(&self) -> Option<&Segment> {
        self.tail.last()
    }

    /// The number of segments made.
    pub fn count(&self) -> u64 {
        self.count
    }

    fn add(&mut self, s: Segment) -> Result<()> {
        self.count += 1;
        self.tail.push(s);
        if self.tail.len() > 2 {
            let first = self.tail.remove(0);
            self.sink.segment(first)?;
        }
        Ok(())
    }

    /// The task in state `st` from `from` to `to` (trace ns) with capacities `caps` on
    /// `cpu`'s runqueue; `sync_lag_ns` as [`Segment::sync_lag_ns`] when it starts with a
    /// migrating wakeup. Nothing when `to <= from`; the runqueue of the segment before
    /// is kept unless the task wakes here (where one was the wakeup a move follows and
    /// the task slept again at one timestamp, the move waits for the next wakeup, so
    /// that the CPU changes only where the replay migrates); the segment before is
    /// extended when alike.
    pub fn push(
        &mut self,
        st: State,
        from: u64,
        to: u64,
        caps: Caps,
        cpu: u32,
        sync_lag_ns: Option<u64>,
    ) -> Result<()> {
        if to <= from {
            return Ok(());
        }
        let woken = |last: &Segment| last.state == State::Sleep && st != State::Sleep;
        let (cpu, sync_lag_ns) = match self.tail.last() {
            Some(last) if last.cpu != cpu && !woken(last) => (last.cpu, None),
            _ => (cpu, sync_lag_ns),
        };
        let dur = to - from;
        let (cpu_cap, freq_cap) = caps;
        match self.tail.last_mut() {
            Some(last) if last.state == st && (last.cpu_cap, last.freq_cap, last.cpu) == (cpu_cap, freq_cap, cpu) => {
                last.dur_ns += dur;
                Ok(())
            }
            _ => self.add(Segment { dur_ns: dur, state: st, cpu_cap, freq_cap, cpu, sync_lag_ns, tick: false }),
        }
    }

    /// A run of no length between two events at the same timestamp, followed by a
    /// sleep: after a wait it is kept as 1 ns taken from that wait (a preempted task
    /// runs before it sleeps, and 1 ns is below anything PELT resolves). Returns false
    /// when there is no segment yet: the trace has not started (it starts at the next
    /// wakeup).
    pub fn run_below_resolution(&mut self, (cpu_cap, freq_cap): Caps) -> Result<bool> {
        match self.tail.last_mut() {
            Some(w) if w.state == State::Wait && w.dur_ns > 1 => {
                w.dur_ns -= 1;
                let cpu = w.cpu;
                self.add(Segment {
                    dur_ns: 1,
                    state: State::Run,
                    cpu_cap,
                    freq_cap,
                    cpu,
                    sync_lag_ns: None,
                    tick: false,
                })?;
            }
            Some(w) if w.state == State::Wait => {
                // a wait of 1 ns becomes the run, merged with a run before it
                let cpu = w.cpu;
                self.tail.pop();
                self.count -= 1;
                match self.tail.last_mut() {
                    Some(r) if r.state == State::Run && r.cpu == cpu => r.dur_ns += 1,
                    _ => self.add(Segment {
                        dur_ns: 1,
                        state: State::Run,
                        cpu_cap,
                        freq_cap,
                        cpu,
                        sync_lag_ns: None,
                        tick: false,
                    })?,
                }
            }
            Some(_) => {}
            None => return Ok(false),
        }
        Ok(true)
    }

    /// Hand on the segments held and return the sink.
    pub fn finish(mut self) -> Result<S> {
        for s in std::mem::take(&mut self.tail) {
            self.sink.segment(s)?;
        }
        Ok(self.sink)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alike_segments_merge_and_a_zero_run_takes_a_ns_of_the_wait() {
        let mut b = SegmentBuilder::new(Vec::new());
        let full = (1024, 1024);
        b.push(State::Run, 0, 10, full, 0, None).unwrap();
        b.push(State::Run, 10, 15, full, 0, None).unwrap();
        b.push(State::Wait, 15, 20, full, 0, None).unwrap();
        b.push(State::Wait, 20, 20, full, 0, None).unwrap();
        assert!(b.run_below_resolution(full).unwrap());
        b.push(State::Sleep, 20, 30, full, 1, None).unwrap();
        let segs = b.finish().unwrap();
        let got: Vec<(u64, char)> = segs.iter().map(|s| (s.dur_ns, s.state.letter())).collect();
        assert_eq!(got, vec![(15, 'R'), (4, 'W'), (1, 'R'), (10, 'S')]);
        // the sleep keeps the runqueue: the CPU changes only at a wakeup
        assert_eq!(segs[3].cpu, 0);
        // before any segment: not started
        let mut b = SegmentBuilder::new(Vec::new());
        assert!(!b.run_below_resolution(full).unwrap());
    }
}
