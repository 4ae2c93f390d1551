//! Ctrl-C during the idle replay's CSV output (`idle simulate -o`): `write_csv` polls
//! the process's stop flag (src/cancel.rs) and returns `Error::Interrupted` well within
//! 0.5 s. A binary of its own, because the flag stops every core call of the process.

use schedlab::cancel;
use schedlab::error::Error;
use schedlab::idle::{simulate, states::StateTable, trace::IdlePeriod, write_csv, Spec};
use std::time::{Duration, Instant};

#[test]
fn write_csv_stops_within_half_a_second_and_the_next_call_runs() {
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

    // a request before the call: the first row already sees it
    cancel::request();
    let mut out = Vec::new();
    assert_eq!(write_csv(&sim, &periods, &mut out), Err(Error::Interrupted));
    cancel::clear();

    // a request from another thread while the rows are written
    let stopper = std::thread::spawn(|| {
        std::thread::sleep(Duration::from_millis(20));
        let t = Instant::now();
        cancel::request();
        t
    });
    let mut out = Vec::new();
    let r = write_csv(&sim, &periods, &mut out);
    let took = stopper.join().unwrap().elapsed();
    cancel::clear();
    assert_eq!(r, Err(Error::Interrupted), "the write ended before the request ({} bytes)", out.len());
    assert!(took < Duration::from_millis(500), "stopped {took:?} after the request");

    // the stop ended with the call: a small write runs to its end
    let small = &periods[..10];
    let sim = simulate(Spec::new("menu", "6.12").unwrap(), &table, small, 250, true).unwrap();
    let mut out = Vec::new();
    write_csv(&sim, small, &mut out).unwrap();
    assert_eq!(out.iter().filter(|&&b| b == b'\n').count(), 11);
}
