//! MMTests 2018's dbench4 subselection rows and `--print-ratio` table (docs/mmtests.md
//! §4.8, §7.6), against what compare-mmtests.pl 2018 printed for fuzzed trees
//! (tests/data/mmtests/e0-dbench4/, tools/oracles/mmtests/e0_dbench4.sh).

use schedlab::mmtests::era::Preferred;
use schedlab::mmtests::summarise::{OpSummary, RunSummary, Stat, SummaryKind};
use schedlab::mmtests::{compare_at, ratio, render_text, CompareOptions, Era};
use schedlab::table::MmtestsLayout;
use std::collections::HashMap;
use std::path::PathBuf;

fn data() -> PathBuf {
    crate::goldens::dir("mmtests/e0-dbench4")
}

/// The goldens of tests/data/mmtests/e0-dbench4/goldens.csv whose `expect` is `expect`.
fn goldens(expect: &str) -> Vec<crate::goldens::Golden> {
    crate::goldens::read("mmtests/e0-dbench4").into_iter().filter(|g| g.get("expect") == expect).collect()
}

/// The Perl's stdout without its `Comparing (cidiff)` debug lines (not reproduced:
/// tests/data/mmtests/README.md).
fn table(oracle: &str) -> String {
    let debug = crate::goldens::unreproducible_prefixes(&["debug"]);
    crate::goldens::kept_lines(oracle, &debug).iter().map(|l| format!("{l}\n")).collect()
}

fn diff(want: &str, have: &str) -> String {
    let mut msg = String::new();
    for (i, (a, b)) in want.lines().zip(have.lines()).enumerate() {
        if a != b {
            msg.push_str(&format!("\n  line {}:\n   want {a:?}\n   have {b:?}", i + 1));
        }
    }
    if want.lines().count() != have.lines().count() {
        msg.push_str(&format!("\n  {} lines wanted, {} printed", want.lines().count(), have.lines().count()));
    }
    msg
}

/// Trees without spread: every draw R makes is the same, so the whole table, its
/// SubAmean and SubAmeanCI rows included, and the ratio table are MMTests' own.
#[test]
fn flat_trees_print_the_perls_tables_byte_for_byte() {
    let d = data();
    let mut failures = Vec::new();
    let all = goldens("whole");
    assert!(all.len() >= 2 * 20);
    for g in &all {
        let file = g.file();
        let want = table(&std::fs::read_to_string(d.join(file)).unwrap());
        let opts = CompareOptions {
            compat: Some(Era::parse(g.get("era")).unwrap()),
            print_ratio: g.flag("print_ratio"),
            threads: Some(1),
            ..Default::default()
        };
        let names: Vec<String> = g.list("names").into_iter().map(String::from).collect();
        match compare_at(&d.join(g.get("tree")), g.get("benchmark"), &names, &opts) {
            Ok(r) if r.text == want => {}
            Ok(r) => failures.push(format!("{file}:{}", diff(&want, &r.text))),
            Err(e) => failures.push(format!("{file}: error {e}")),
        }
    }
    assert!(failures.is_empty(), "{} of {} differ:\n{}", failures.len(), all.len(), failures.join("\n"));
}

/// What R printed for each run and operation of a spread tree (`[1] <mean> <half>`), read
/// as the Perl reads it: R's `NA` is the string "NA", 0 in every number it takes part in.
fn r_pairs(file: &str) -> HashMap<(String, String), (f64, f64)> {
    let perl_num = |s: &str| if s == "NA" { 0.0 } else { s.parse::<f64>().unwrap() };
    std::fs::read_to_string(data().join(file))
        .unwrap()
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(f[2], "[1]", "{l}");
            ((f[0].to_string(), f[1].to_string()), (perl_num(f[3]), perl_num(f[4])))
        })
        .collect()
}

/// Trees with spread: R draws their SubAmean at random (schedlab cannot print MMTests'
/// numbers there), but given the pairs R printed (the oracle's seed, `spread/r/`), the
/// ratio table is the Perl's: its ratios, percentages, seconds, D rows and Gmean.
#[test]
fn spread_trees_ratio_tables_follow_from_the_pairs_r_printed() {
    let d = data();
    let mut failures = Vec::new();
    let all = goldens("r-pairs");
    assert!(all.len() >= 10);
    for g in &all {
        assert!(g.flag("print_ratio"), "{}: only the ratio table follows from R's pairs", g.file());
        let names: Vec<String> = g.list("names").into_iter().map(String::from).collect();
        let names = &names;
        let pairs = r_pairs(g.get("r_pairs"));
        let ops_of = |run: &str| -> Vec<String> {
            let mut ops: Vec<String> = pairs.keys().filter(|(r, _)| r == run).map(|(_, o)| o.clone()).collect();
            ops.sort_by_key(|o| o.parse::<u32>().unwrap());
            ops
        };
        let runs: Vec<RunSummary> = names
            .iter()
            .map(|name| {
                let ops = ops_of(name);
                let per_op = ops
                    .iter()
                    .map(|op| {
                        let (m, h) = pairs[&(name.clone(), op.clone())];
                        let s = OpSummary {
                            values: vec![m],
                            ratio_value: m,
                            sub_half: Some(h),
                            mean: f64::NAN,
                            sd_arith: f64::NAN,
                            ..Default::default()
                        };
                        (op.clone(), s)
                    })
                    .collect();
                RunSummary {
                    name: name.clone(),
                    ops,
                    per_op,
                    stats: vec![Stat::SubMean],
                    preferred: Preferred::Lower,
                    lost: false,
                }
            })
            .collect();
        let ops = ops_of(&names[0]);
        let mut c = ratio::build_ratio(Era::E2018, "dbench4", SummaryKind::Subselection, None, &runs, &ops);
        let m = c.meta.mmtests.get_or_insert_with(Default::default);
        m.layout = MmtestsLayout::Ratio;
        m.era = Some("2018".into());
        m.field_length = Some(12);
        m.precision = Some(2);
        let have = render_text::render(&c).unwrap();
        let file = g.file();
        let want = table(&std::fs::read_to_string(d.join(file)).unwrap());
        if have != want {
            failures.push(format!("{file}:{}", diff(&want, &have)));
        }
    }
    assert!(failures.is_empty(), "{} of {} differ:\n{}", failures.len(), all.len(), failures.join("\n"));
}

/// R's print of a pair (tools/oracles/mmtests/r_print.sh: 400 pairs of every magnitude,
/// zeros, negatives and NA), read back, is [`perlfmt::r_print7_all`]'s.
#[test]
fn pairs_print_as_r_prints_them() {
    use schedlab::mmtests::perlfmt::r_print7_all;
    let text = std::fs::read_to_string(data().parent().unwrap().join("r-print/pairs")).unwrap();
    let num = |s: &str| if s == "NA" { None } else { Some(s.parse::<f64>().unwrap()) };
    let mut n = 0;
    for line in text.lines() {
        let (given, printed) = line.split_once(" | ").unwrap();
        let x: Vec<Option<f64>> = given.split(' ').map(num).collect();
        let r: Vec<Option<f64>> = printed.strip_prefix("[1]").unwrap().split_whitespace().map(num).collect();
        assert_eq!(r_print7_all(&x), r, "{line}");
        n += 1;
    }
    assert_eq!(n, 400);
}
