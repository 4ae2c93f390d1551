//! Ctrl-C during the streamed PELT replay (`pelt simulate`, `pelt.simulate_csv`): the
//! replay polls the stop request (src/cancel.rs) once every `cancel::EVERY` segments
//! (docs/cancel.md §3), so a stop requested at its N-th check ends it with
//! `Error::Interrupted` after at most N + 1 stretches of segments, each a few rows. The stop is this thread's test hook
//! (`cancel::StopAfter`), not the process's flag, so the tests beside it run on.

use schedlab::cancel;
use schedlab::error::Error;
use schedlab::pelt::driver::{simulate_csv_stream, Config, CsvOutput};
use schedlab::pelt::trace::TraceReader;

/// 200,000 segments, 1 ms running then 2 ms asleep, as a trace CSV.
fn trace() -> Vec<u8> {
    let mut t = b"dur_ns,state\n".to_vec();
    for _ in 0..100_000 {
        t.extend_from_slice(b"1000000,R\n2000000,S\n");
    }
    t
}

fn rows(out: &[u8]) -> usize {
    out.iter().filter(|&&b| b == b'\n').count()
}

#[test]
fn the_streamed_replay_stops_at_the_requested_check_and_the_next_call_runs() {
    let text = trace();
    let cfg = Config::default();

    // a stop before the call: nothing past the header is written
    let mut out = Vec::new();
    {
        let _stop = cancel::StopAfter::checks(0);
        let mut r = TraceReader::open(&text[..], Some("big.csv")).unwrap();
        assert_eq!(simulate_csv_stream(&mut r, &cfg, CsvOutput::Write(&mut out)), Err(Error::Interrupted));
    }
    assert!(rows(&out) <= 1, "{} rows written after the stop", rows(&out));

    // a stop at the 11th check: at most 11 stretches of segments were replayed
    let mut out = Vec::new();
    {
        let _stop = cancel::StopAfter::checks(10);
        let mut r = TraceReader::open(&text[..], Some("big.csv")).unwrap();
        assert_eq!(simulate_csv_stream(&mut r, &cfg, CsvOutput::Write(&mut out)), Err(Error::Interrupted));
    }
    let stopped = out;
    let n = rows(&stopped);
    assert!(n > 1, "no row before the 11th check");

    // the stop ended with its guard: the whole replay runs, and what the stopped one
    // wrote is its beginning. Each segment makes at most three rows and a tick in a run
    // of 1 ms one more (at HZ=250 a run holds at most one), so 11 stretches are at most
    // 4 * 11 * EVERY rows
    let mut full = Vec::new();
    let mut r = TraceReader::open(&text[..], Some("big.csv")).unwrap();
    simulate_csv_stream(&mut r, &cfg, CsvOutput::Write(&mut full)).unwrap();
    assert!(full.starts_with(&stopped[..stopped.len() - 1]), "the stopped replay wrote other rows");
    assert!(n <= 1 + 4 * 11 * cancel::EVERY, "{n} rows written, more than 11 stretches of segments");
    assert!(rows(&full) > 1 + 200_000, "the full replay wrote {} rows", rows(&full));
}
