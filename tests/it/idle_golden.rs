//! Every menu/teo golden of `tests/data/idle/goldens.csv` (the kernel oracle's goldens, with
//! the governor, kernel, HZ, state table and trace each was made with) reproduced byte for
//! byte: same header, every row, every column.

use schedlab::idle::{simulate, states::StateTable, trace, write_csv, Spec};
use std::path::PathBuf;

fn data() -> PathBuf {
    crate::goldens::dir("idle")
}

fn first_difference(want: &str, got: &str) -> Option<String> {
    let mut header: Vec<&str> = Vec::new();
    for (i, (w, g)) in want.lines().zip(got.lines()).enumerate() {
        if i == 0 {
            header = w.split(',').collect();
        }
        if w != g {
            let col = w
                .split(',')
                .zip(g.split(','))
                .position(|(a, b)| a != b)
                .map(|c| header.get(c).copied().unwrap_or("?"))
                .unwrap_or("(length)");
            return Some(format!("line {}: column {col}\n  want {w}\n  got  {g}", i + 1));
        }
    }
    let (nw, ng) = (want.lines().count(), got.lines().count());
    (nw != ng).then(|| format!("{nw} lines wanted, {ng} produced"))
}

#[test]
fn every_governor_golden_is_reproduced() {
    let goldens = crate::goldens::read("idle");
    assert_eq!(goldens.len(), 110, "expected the 110 menu/teo goldens");
    let mut failures = Vec::new();
    for g in &goldens {
        let name = g.file();
        let hz: u32 = g.get("hz").parse().unwrap();
        let trace_path = data().join(g.get("trace"));
        let states_path = data().join(g.get("states"));
        let table = StateTable::read_csv(&states_path).unwrap();
        let periods: Vec<trace::IdlePeriod> = trace::read_csv(&trace_path).unwrap();
        let spec = Spec::new(g.get("governor"), g.get("kernel")).unwrap();
        let sim = simulate(spec, &table, &periods, hz, true).unwrap();
        let mut out = Vec::new();
        write_csv(&sim, &periods, &mut out).unwrap();
        let got = String::from_utf8(out).unwrap();
        let want = std::fs::read_to_string(data().join(name)).unwrap();
        // the streamed replay of the trace file: the same bytes, one period at a time
        let (streamed, n) =
            schedlab::idle::simulate::simulate_csv_file(spec, hz, &states_path, &trace_path, Vec::new(), "out")
                .unwrap();
        if n != periods.len() || streamed != want.as_bytes() {
            failures.push(format!("{name}: the streamed CSV differs ({n} periods)"));
        }
        if got != want {
            failures
                .push(format!("{name}: {}", first_difference(&want, &got).unwrap_or_else(|| "bytes differ".into())));
        }
    }
    assert!(failures.is_empty(), "{} of {} goldens differ:\n{}", failures.len(), goldens.len(), failures.join("\n"));
}
