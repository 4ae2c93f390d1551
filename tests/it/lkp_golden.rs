//! lkp ncompare goldens (tests/data/lkp/golden, printed by lkp-tests' own Ruby code;
//! goldens.csv lists each with its command line): every output reproduced byte for byte.

use schedlab::lkp::comparison::{render_comparison, to_comparison, Test};
use schedlab::lkp::matrix::ResultRoot;
use schedlab::lkp::ncompare::{compare_roots, Options};
use schedlab::lkp::render_text::render;
use schedlab::table::Comparison;
use std::path::PathBuf;

fn data() -> PathBuf {
    crate::goldens::dir("lkp/golden")
}

fn run(args: &[&str]) -> String {
    let mut opt = Options::default();
    let mut roots = Vec::new();
    let mut args = args.iter();
    while let Some(a) = args.next() {
        match *a {
            "-a" => opt.all_keys = true,
            "-m" => opt.more = true,
            "-k" => opt.kpi = true,
            "-p" => opt.perf_profile_threshold = Some(args.next().unwrap().parse().unwrap()),
            p => roots.push(ResultRoot::open(&data().join(p)).unwrap_or_else(|e| panic!("{p}: {e}"))),
        }
    }
    let res = compare_roots(&roots, opt).unwrap();
    let text = render(&res).unwrap();
    // the shared Comparison model, through its JSON form, renders the same text
    let json = to_comparison(res, Test::Welch, 0.05).unwrap().to_json().unwrap();
    let back = render_comparison(&Comparison::from_json(&json).unwrap()).unwrap();
    assert_eq!(back, text, "Comparison round trip of {args:?}");
    text
}

/// `compare_dirs.rb --root DIR` with ncompare's `-s`/`-o` queries, `-c` axes, `-m`, `-k`.
fn run_query(root: &str, args: &[&str]) -> String {
    use schedlab::lkp::query::{build_queries, compare_groups, search};
    let mut opt = Options::default();
    let mut keys = vec!["commit".to_string()];
    let mut queries = Vec::new();
    let mut it = args.iter();
    while let Some(x) = it.next() {
        match *x {
            "-m" => opt.more = true,
            "-k" => opt.kpi = true,
            "-c" => keys = it.next().unwrap().split(',').map(String::from).collect(),
            "-s" => queries.push((false, it.next().unwrap().to_string())),
            "-o" => queries.push((true, it.next().unwrap().to_string())),
            other => panic!("not a query option: {other}"),
        }
    }
    let (queries, different) = build_queries(&queries);
    let roots = search(&data().join(root), &queries).unwrap();
    compare_groups(&roots, &keys, different, opt).unwrap().iter().map(|r| render(r).unwrap()).collect()
}

/// Every ncompare golden of tests/data/lkp/golden/goldens.csv: scenarios A and B, the
/// -p/-k flags (gen_flags.py), lkp's perf-metric patterns and job axes (gen_issue18.py:
/// '.' as any character in lock_stat and interrupts keys, a job with `suite` and lkp's
/// rootfs/compiler defaults), the -s/-o queries and -c axes over a result tree
/// (gen_query.py) and the 300 random pairs (one block of random/expected.txt each).
#[test]
fn every_ncompare_golden_is_reproduced() {
    let goldens = crate::goldens::read("lkp/golden");
    let mut texts: std::collections::HashMap<String, String> = Default::default();
    let mut bad = Vec::new();
    for g in &goldens {
        let text = texts.entry(g.file().to_string()).or_insert_with(|| {
            std::fs::read_to_string(data().join(g.file())).unwrap_or_else(|e| panic!("{}: {e}", g.file()))
        });
        let want = match g.get("block") {
            "" => text.clone(),
            n => crate::goldens::lkp_block(text, n.parse().unwrap())
                .unwrap_or_else(|| panic!("{}: no block {n}", g.file())),
        };
        let got = if g.get("root").is_empty() {
            let args: Vec<&str> = g.list("options").into_iter().chain(g.list("roots")).collect();
            run(&args)
        } else {
            run_query(g.get("root"), &g.list("queries"))
        };
        if got != want {
            if bad.len() < 3 {
                eprintln!("#### {} {}\n--- want\n{want}--- got\n{got}", g.file(), g.get("block"));
            }
            bad.push(format!("{} {}", g.file(), g.get("block")));
        }
    }
    assert!(goldens.len() >= 318, "{}", goldens.len());
    assert!(bad.is_empty(), "{} of {} goldens differ: {bad:?}", bad.len(), goldens.len());
}

#[test]
fn a_query_that_finds_nothing_is_an_error() {
    use schedlab::lkp::query::search;
    let e = search(&data().join("query"), &[vec![("commit".into(), "ffff".into())]]).unwrap_err().to_string();
    assert!(e.contains("no result root") && e.contains("commit=ffff"), "{e}");
}
