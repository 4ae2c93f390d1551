//! The benchstat view against Go's benchstat run on the same samples
//! (tests/data/table/benchstat/, made by tools/oracles/table/benchstat.py): every
//! row's median and interval text with its footnote, the footnotes themselves, the
//! geomean row; and the delta with `(p= n=)` where the comparison's Mann–Whitney test
//! is benchstat's (exact, tie-free, at most 8 runs a side).

use schedlab::stats::Test;
use schedlab::table::{benchstat, Cell, Comparison, Row, Verdict};
use serde_json::Value;

fn load(case: &str) -> (Comparison, String) {
    let dir = format!("{}/tests/data/table/benchstat", env!("CARGO_MANIFEST_DIR"));
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(format!("{dir}/{case}.json")).unwrap()).unwrap();
    let want = std::fs::read_to_string(format!("{dir}/{case}.benchstat.txt")).unwrap();
    let kernels: Vec<String> = doc["kernels"].as_array().unwrap().iter().map(|k| k.as_str().unwrap().into()).collect();
    let mut c = Comparison::new("schedlab", case, kernels);
    for r in doc["rows"].as_array().unwrap() {
        let sides: Vec<Vec<f64>> = r["samples"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect())
            .collect();
        let base = sides[0].clone();
        let cells = sides
            .into_iter()
            .enumerate()
            .map(|(i, s)| {
                let mut cell = Cell { n: Some(s.len() as u64), ..Default::default() };
                if i == 0 {
                    cell.verdict = Some(Verdict::Baseline);
                } else {
                    cell.test = Some(Test::MannWhitney.into());
                    cell.p = Test::MannWhitney.verdict_p(&base, &s);
                    cell.significant = cell.p.map(|p| p <= 0.05);
                }
                cell.samples = Some(s.into());
                cell
            })
            .collect();
        c.rows.push(Row {
            name: r["name"].as_str().unwrap().into(),
            unit: Some(doc["unit"].as_str().unwrap().into()),
            cells,
            ..Default::default()
        });
    }
    (c, want)
}

/// One kernel's part of a data line: median, interval, note; delta and `(p n)`.
#[derive(Debug, PartialEq, Default)]
struct Part {
    center: String,
    range: String,
    note: String,
    delta: String,
    p_n: String,
    delta_note: String,
}

fn is_note(t: &str) -> bool {
    t.chars().all(|c| "⁰¹²³⁴⁵⁶⁷⁸⁹".contains(c))
}

/// The data lines (after the two header lines, before the footnotes) as name and parts.
fn data_lines(text: &str) -> (Vec<(String, Vec<Part>)>, Vec<String>) {
    let mut rows = Vec::new();
    let mut notes = Vec::new();
    for line in text.lines().skip(2) {
        let toks: Vec<&str> = line.split_whitespace().collect();
        if toks.first().is_some_and(|t| is_note(t)) {
            notes.push(line.to_string());
            continue;
        }
        if toks.first() == Some(&"median") {
            break; // schedlab's closing line naming the interval and test
        }
        let mut it = toks.into_iter().peekable();
        let name = it.next().unwrap().to_string();
        let mut parts = Vec::new();
        let mut k = 0;
        while it.peek().is_some() {
            let mut p = Part { center: it.next().unwrap().into(), ..Default::default() };
            if it.peek() == Some(&"±") {
                it.next();
                p.range = it.next().unwrap().into();
            }
            if it.peek().is_some_and(|t| is_note(t)) {
                p.note = it.next().unwrap().into();
            }
            if k > 0 {
                p.delta = it.next().unwrap_or_default().into();
                if it.peek().is_some_and(|t| t.starts_with('(')) {
                    let mut words = vec![];
                    for t in it.by_ref() {
                        words.push(t);
                        if t.ends_with(')') {
                            break;
                        }
                    }
                    p.p_n = words.join(" ");
                }
                if it.peek().is_some_and(|t| is_note(t)) {
                    p.delta_note = it.next().unwrap().into();
                }
            }
            parts.push(p);
            k += 1;
        }
        rows.push((name, parts));
    }
    (rows, notes)
}

fn check(case: &str) -> usize {
    let (c, want) = load(case);
    let got = benchstat::render(&c).unwrap();
    let (got_rows, got_notes) = data_lines(&got);
    let (want_rows, want_notes) = data_lines(&want);
    assert_eq!(got_notes, want_notes, "{case} footnotes\n{got}\n{want}");
    assert_eq!(got_rows.len(), want_rows.len(), "{case}\n{got}\n{want}");
    let mut tested = 0;
    for (i, ((gn, gp), (wn, wp))) in got_rows.iter().zip(&want_rows).enumerate() {
        assert_eq!(gn, wn, "{case}");
        assert_eq!(gp.len(), wp.len(), "{case} {gn}");
        let exact_test = c.rows.get(i).is_none_or(|r| r.cells.iter().all(|x| x.samples.as_ref().unwrap().len() <= 8));
        for (g, w) in gp.iter().zip(wp) {
            assert_eq!((&g.center, &g.range, &g.note), (&w.center, &w.range, &w.note), "{case} {gn}");
            if gn == "geomean" {
                assert_eq!(g.delta, w.delta, "{case} geomean");
            } else if exact_test {
                assert_eq!(g, w, "{case} {gn}");
                tested += 1;
            }
        }
    }
    tested
}

#[test]
fn hyperfine_runs_as_benchstat_prints_them() {
    check("hyperfine");
}

#[test]
fn mmtests_operations_as_benchstat_prints_them() {
    // five runs a size: every interval unbounded, every delta and p checked
    assert_eq!(check("netperf-udp"), 12);
}

#[test]
fn order_statistics_exact_and_approximate_as_benchstat() {
    check("orders");
}
