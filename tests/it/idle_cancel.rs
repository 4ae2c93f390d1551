//! Ctrl-C during the idle replay's CSV output (`idle simulate -o`): `write_csv` polls
//! the stop request (src/cancel.rs) every `cancel::EVERY` rows, so a stop requested
//! at its N-th check ends it with `Error::Interrupted` after at most N + 1 stretches of
//! rows. The stop is this thread's test hook (`cancel::StopAfter`), not the process's
//! flag, so the tests beside it run on.

use schedlab::cancel;
use schedlab::error::Error;
use schedlab::idle::{simulate, states::StateTable, trace::IdlePeriod, write_csv, Spec};

#[test]
fn write_csv_stops_at_the_requested_check_and_the_next_call_runs() {
    let table = StateTable::preset("intel-skx").unwrap();
    // 400,000 periods of 1 ms sleep woken after 0.5 ms: 25 MB of CSV text to write
    let p = IdlePeriod {
        sleep_length_ns: 1_000_000,
        next_tick_ns: 4_000_000,
        wake_ns: 500_000,
        latency_req_ns: -1,
        ..Default::default()
    };
    let periods = vec![p; 400_000];
    let sim = simulate(Spec::new("menu", "6.12").unwrap(), &table, &periods, 250, true).unwrap();

    // a stop before the call: the first row already sees it
    let mut out = Vec::new();
    {
        let _stop = cancel::StopAfter::checks(0);
        assert_eq!(write_csv(&sim, &periods, &mut out), Err(Error::Interrupted));
    }
    assert!(out.iter().filter(|&&b| b == b'\n').count() <= 1, "rows written after the stop");

    // a stop at the 11th check: at most 11 stretches of rows (and the header) were written
    let mut out = Vec::new();
    {
        let _stop = cancel::StopAfter::checks(10);
        assert_eq!(write_csv(&sim, &periods, &mut out), Err(Error::Interrupted));
    }
    let rows = out.iter().filter(|&&b| b == b'\n').count();
    assert!(rows <= 1 + 11 * cancel::EVERY, "{rows} rows written, more than 11 stretches");
    assert!(rows < periods.len(), "the write ran to its end");

    // the stop ended with the call: a small write runs to its end
    let small = &periods[..10];
    let sim = simulate(Spec::new("menu", "6.12").unwrap(), &table, small, 250, true).unwrap();
    let mut out = Vec::new();
    write_csv(&sim, small, &mut out).unwrap();
    assert_eq!(out.iter().filter(|&&b| b == b'\n').count(), 11);
}

#[test]
fn the_streamed_replay_stops_at_the_requested_check() {
    use schedlab::idle::compare::{compare_summary_source, GovernorArg};
    use schedlab::idle::simulate::simulate_csv;
    use schedlab::idle::trace::Periods;
    let table = StateTable::preset("intel-skx").unwrap();
    let p = IdlePeriod {
        sleep_length_ns: 1_000_000,
        next_tick_ns: 4_000_000,
        wake_ns: 500_000,
        latency_req_ns: -1,
        ..Default::default()
    };
    let n = 100 * cancel::EVERY;
    let spec = Spec::new("teo", "6.12").unwrap();
    {
        // periods generated on the fly: nothing in memory grows with them
        let _stop = cancel::StopAfter::checks(5);
        let mut periods = Periods(std::iter::repeat_n(p, n));
        let r = simulate_csv(spec, &table, 250, &mut periods, std::io::sink(), "sink");
        assert_eq!(r.err(), Some(Error::Interrupted));
        // the sixth check stopped it: six stretches of periods were taken, not all
        assert_eq!(periods.0.len(), n - 5 * cancel::EVERY - 1);
    }
    {
        let _stop = cancel::StopAfter::checks(3);
        let mut periods = Periods(std::iter::repeat_n(p, n));
        let govs = [GovernorArg::Spec("menu".into()), GovernorArg::Spec("teo".into())];
        let r = compare_summary_source(&govs, "6.12", &table, &mut periods, 250, None);
        assert_eq!(r.err(), Some(Error::Interrupted));
    }
    // without a hook the same replay runs to its end
    let mut periods = Periods(std::iter::repeat_n(p, n));
    let (_, rows) = simulate_csv(spec, &table, 250, &mut periods, std::io::sink(), "sink").unwrap();
    assert_eq!(rows, n);
}

#[test]
fn the_dataframe_columns_of_an_in_process_replay_stop_at_the_requested_check() {
    // what `idle.simulate` does after the replay: widen its decision columns to the
    // DataFrame's int64, without the GIL. Each loop over the n periods checks every
    // EVERY values, so a stop at any of those checks ends it.
    use schedlab::idle::frame_columns::frame_columns;
    use schedlab::idle::simulate::replay_columns;
    use schedlab::idle::trace::TraceColumns;
    let table = StateTable::preset("intel-skx").unwrap();
    let n = 8 * cancel::EVERY;
    let (sleep, next_tick, wake) = (vec![1_000_000i64; n], vec![4_000_000i64; n], vec![500_000i64; n]);
    let (stopped, latency) = (vec![0i64; n], vec![-1i64; n]);
    let cols = TraceColumns {
        sleep_length_ns: &sleep,
        next_tick_ns: &next_tick,
        wake_ns: &wake,
        tick_stopped: &stopped,
        latency_req_ns: &latency,
        nr_iowait: &[],
        cpu_load: &[],
    };
    let spec = || Spec::new("menu", "6.12").unwrap();
    let whole = frame_columns(replay_columns(spec(), &table, &cols, 250, true).unwrap()).unwrap();
    assert_eq!((whole.idx.len(), whole.stop_tick.len(), whole.latency_req_ns.len()), (n, n, n));
    // by hand: 1 check before the columns, then 8 per loop (at 0, EVERY, ..., 7 EVERY)
    // over the 4 widened columns (idx, stop_tick, got_tick, poll_time_limit) = 33
    let replay = replay_columns(spec(), &table, &cols, 250, true).unwrap();
    for at in [0u64, 1, 9, 32] {
        let _stop = cancel::StopAfter::checks(at);
        assert_eq!(frame_columns(replay.clone()).err(), Some(Error::Interrupted), "stop at check {at}");
    }
    let _none = cancel::StopAfter::checks(33);
    assert_eq!(frame_columns(replay).unwrap(), whole);
}
