//! Every menu/teo golden file of `tests/data/idle` (copied from the kernel-oracle goldens)
//! reproduced byte for byte: same header, every row, every column.

use schedlab::idle::{simulate, states::StateTable, trace, write_csv, Spec};
use std::path::{Path, PathBuf};

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/idle")
}

/// `<gov><ver>_<states>_hz<HZ>_<trace>.golden.csv` → (governor, kernel, states, hz, trace).
fn parse_name(name: &str) -> (String, String, String, u32, String) {
    let stem = name.strip_suffix(".golden.csv").unwrap();
    let parts: Vec<&str> = stem.split('_').collect();
    let (gov, ver) = parts[0].split_at(parts[0].find(|c: char| c.is_ascii_digit()).unwrap_or(parts[0].len()));
    let kernel = match ver {
        "" => "6.12",
        "61" => "6.1",
        "618" => "6.18",
        "66" => "6.6",
        "418" => "4.18",
        "419" => "4.19",
        "420" => "4.20",
        "51" => "5.1",
        other => panic!("unknown version tag {other}"),
    };
    let hz: u32 = parts[2].strip_prefix("hz").unwrap().parse().unwrap();
    (gov.to_string(), kernel.to_string(), parts[1].to_string(), hz, parts[3..].join("_"))
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
    let mut names: Vec<String> = std::fs::read_dir(data())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".golden.csv") && (n.starts_with("menu") || n.starts_with("teo")))
        .collect();
    names.sort();
    assert_eq!(names.len(), 110, "expected the 110 menu/teo goldens");
    let mut failures = Vec::new();
    for name in &names {
        let (gov, kernel, states, hz, tr) = parse_name(name);
        let table = StateTable::read_csv(&data().join(format!("inputs/states_{states}.csv"))).unwrap();
        let periods: Vec<trace::IdlePeriod> = trace::read_csv(&data().join(format!("inputs/gov_{tr}.csv"))).unwrap();
        let spec = Spec::new(&gov, &kernel).unwrap();
        let sim = simulate(spec, &table, &periods, hz, true).unwrap();
        let mut out = Vec::new();
        write_csv(&sim, &periods, &mut out).unwrap();
        let got = String::from_utf8(out).unwrap();
        let want = std::fs::read_to_string(data().join(name)).unwrap();
        // the streamed replay of the trace file: the same bytes, one period at a time
        let trace_path = data().join(format!("inputs/gov_{tr}.csv"));
        let states_path = data().join(format!("inputs/states_{states}.csv"));
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
    assert!(failures.is_empty(), "{} of {} goldens differ:\n{}", failures.len(), names.len(), failures.join("\n"));
}
