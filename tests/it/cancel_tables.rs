//! Ctrl-C while a comparison table is built or printed: lkp's compare (per metric),
//! `to_comparison` (a significance test per metric), the pasted MMTests table parser
//! (`mmtests::parse_text`), a pasted lkp report's table and the lkp and MMTests text of a
//! table poll the process's stop flag (src/cancel.rs), so a stop request ends each with
//! `Error::Interrupted`, and the next call runs normally. The stop is this
//! thread's test hook (`cancel::StopAfter`), so the tests beside it run on. (From Python, with a signal:
//! tests/test_hostile_interrupt.py.)

use schedlab::cancel;
use schedlab::error::Error;
use schedlab::lkp::comparison::{to_comparison, Test};
use schedlab::lkp::matrix::ResultRoot;
use schedlab::lkp::ncompare::{compare_roots, Options};
use schedlab::lkp::parse_report::{parse_report, to_comparison as report_table};
use schedlab::lkp::render_text::render;
use schedlab::mmtests::parse_text::parse_compare;
use schedlab::tool_text;
use std::path::Path;

const LKP: &str = "tests/data/lkp/golden/scenario_a_raw/unixbench/performance-30s-1-execl/lkp-ivb-d04/debian-x86_64.cgz/x86_64-rhel/gcc-7";
const TABLE: &str = "tests/data/mmtests/out/2018-netperf-udp.oracle";

#[test]
fn a_stop_request_ends_the_table_builders_and_the_next_call_runs() {
    let roots: Vec<ResultRoot> =
        ["a07630b8b2c16f82a2d7b5ecfa4a1c0a8e0c5a01", "d519329f72a6f36bc4f2b85452aa7c3b0d1e2f3a"]
            .iter()
            .map(|c| ResultRoot::open(&Path::new(LKP).join(c)).unwrap())
            .collect();
    let res = compare_roots(&roots, Options::default()).unwrap();
    assert!(!res.rows.is_empty());
    let table = std::fs::read_to_string(TABLE).unwrap();
    let parsed = parse_compare(&table, TABLE).unwrap();
    let lkp_text = render(&res).unwrap();
    let report = parse_report(&lkp_text);
    let stop = cancel::StopAfter::checks(0);
    let lkp = to_comparison(res.clone(), Test::Welch, 0.05);
    let mmtests = parse_compare(&table, TABLE);
    let compared = compare_roots(&roots, Options::default());
    let printed = [render(&res), tool_text::render(&parsed).map(|t| t.unwrap_or_default())];
    let pasted = report_table(&report);
    drop(stop);
    assert_eq!(lkp.err(), Some(Error::Interrupted));
    assert_eq!(mmtests.err(), Some(Error::Interrupted));
    assert_eq!(compared.err(), Some(Error::Interrupted));
    assert_eq!(printed.map(|p| p.err()), [Some(Error::Interrupted), Some(Error::Interrupted)]);
    assert_eq!(pasted.err(), Some(Error::Interrupted));
    assert!(tool_text::render(&parsed).unwrap().is_some_and(|t| !t.is_empty()));
    assert!(!report_table(&report).unwrap().rows.is_empty());
    assert_eq!(to_comparison(res.clone(), Test::Welch, 0.05).unwrap().rows.len(), res.rows.len());
    assert!(!parse_compare(&table, TABLE).unwrap().rows.is_empty());
}
