//! lkp ncompare goldens (tests/data/lkp/golden, printed by lkp-tests' own Ruby code):
//! every output reproduced byte for byte.

use schedlab::lkp::comparison::{render_comparison, to_comparison, Test};
use schedlab::lkp::matrix::ResultRoot;
use schedlab::lkp::ncompare::{compare_roots, Options};
use schedlab::lkp::render_text::render;
use schedlab::table::Comparison;
use std::path::{Path, PathBuf};

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/lkp/golden")
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

const A: &str = "scenario_a_raw/unixbench/performance-30s-1-execl/lkp-ivb-d04/debian-x86_64.cgz/x86_64-rhel/gcc-7";

#[test]
fn scenario_a() {
    let base = format!("{A}/a07630b8b2c16f82a2d7b5ecfa4a1c0a8e0c5a01");
    let head = format!("{A}/d519329f72a6f36bc4f2b85452aa7c3b0d1e2f3a");
    let want = std::fs::read_to_string(data().join("out_A_default.txt")).unwrap();
    assert_eq!(run(&[&base, &head]), want);
    let want = std::fs::read_to_string(data().join("out_A_more.txt")).unwrap();
    assert_eq!(run(&["-m", &base, &head]), want);
}

#[test]
fn scenario_b() {
    let b1 = "scenario_b_edge/1111111111111111111111111111111111111111";
    let h1 = "scenario_b_edge/2222222222222222222222222222222222222222";
    let b2 = "scenario_b_edge2/1111111111111111111111111111111111111111";
    let h2 = "scenario_b_edge2/2222222222222222222222222222222222222222";
    let cases: [(&str, Vec<&str>); 4] = [
        ("out_B_4v4.txt", vec![b1, h1]),
        ("out_B_2v2.txt", vec![b2, h2]),
        ("out_B_4v2.txt", vec![b1, h2]),
        ("out_B_all_2v2.txt", vec!["-a", b2, h2]),
    ];
    for (file, args) in cases {
        let want = std::fs::read_to_string(data().join(file)).unwrap();
        assert_eq!(run(&args), want, "{file}");
    }
}

#[test]
fn random_300_pairs() {
    let pairs = std::fs::read_to_string(data().join("random/pairs.txt")).unwrap();
    let expected = std::fs::read_to_string(data().join("random/expected.txt")).unwrap();
    let mut blocks: Vec<String> = Vec::new();
    for line in expected.split_inclusive('\n') {
        if line.starts_with("#### ") {
            blocks.push(String::new());
        } else if let Some(b) = blocks.last_mut() {
            b.push_str(line);
        }
    }
    let lines: Vec<&str> = pairs.lines().collect();
    assert_eq!(lines.len(), 300);
    assert_eq!(blocks.len(), 300);
    let mut bad = Vec::new();
    for (i, (line, want)) in lines.iter().zip(&blocks).enumerate() {
        let args: Vec<&str> = line.split_whitespace().collect();
        let got = run(&args);
        if &got != want {
            bad.push(i);
            if bad.len() <= 3 {
                eprintln!("#### {i} {line}\n--- want\n{want}--- got\n{got}");
            }
        }
    }
    assert!(bad.is_empty(), "{} of 300 random pairs differ: {:?}", bad.len(), bad);
}

#[test]
fn issue18_perf_metric_patterns_and_job_axes() {
    // lkp's perf-metric patterns take '.' as any character (lock_stat keys with '&'/'->',
    // an interrupts key ending in "timer"); a job with `suite` and lkp's rootfs/compiler
    // defaults (tools/oracles/lkp/gen_issue18.py)
    let (a, b) = ("a".repeat(40), "b".repeat(40));
    for (scenario, opts) in [("patterns", vec!["-m"]), ("axes", vec![])] {
        let base = format!("issue18/{scenario}/{a}");
        let head = format!("issue18/{scenario}/{b}");
        let mut args = opts.clone();
        args.extend([base.as_str(), head.as_str()]);
        let want = std::fs::read_to_string(data().join(format!("issue18/out_{scenario}.txt"))).unwrap();
        assert_eq!(run(&args), want, "{scenario}");
    }
}

#[test]
fn ncompare_perf_profile_threshold_and_kpi_flags() {
    // -p: a Float threshold applies to Float perf-profile medians (and no longer to
    // Integer ones); -k: only test programs' own metrics, not their time.* nor
    // unixbench.incomplete_result (tools/oracles/lkp/gen_flags.py)
    let (c, d) = ("flags/".to_string() + &"c".repeat(40), "flags/".to_string() + &"d".repeat(40));
    for (name, opts) in [
        ("default", vec![]),
        ("p5", vec!["-p", "5"]),
        ("p0.5_more", vec!["-p", "0.5", "-m"]),
        ("k", vec!["-k"]),
        ("k_all", vec!["-k", "-a"]),
    ] {
        let mut args = opts.clone();
        args.extend([c.as_str(), d.as_str()]);
        let want = std::fs::read_to_string(data().join(format!("flags/out_{name}.txt"))).unwrap();
        assert_eq!(run(&args), want, "{name}");
    }
}

#[test]
fn ncompare_axis_queries_and_compare_axes() {
    // -s/-o queries over a result tree, -c compare axes, lkp's grouping
    // (tools/oracles/lkp/gen_query.py)
    use schedlab::lkp::query::{build_queries, compare_groups, search};
    let (a, b) = ("a1".repeat(20), "b2".repeat(20));
    let cases: [(&str, Vec<String>); 5] = [
        ("two_commits", vec!["-s".into(), format!("commit={}", &a[..8]), "-s".into(), format!("commit={}", &b[..8])]),
        ("override", vec!["-s".into(), format!("kconfig=k1/commit={a}"), "-o".into(), format!("commit={b}")]),
        ("compare_kconfigs", vec!["-c".into(), "kconfig".into(), "-s".into(), format!("commit={}", &a[..8])]),
        (
            "different_roots",
            vec!["-s".into(), format!("commit={a}/kconfig=k1"), "-o".into(), format!("commit={b}/kconfig=k2")],
        ),
        (
            "more_kpi",
            vec!["-m".into(), "-k".into(), "-s".into(), format!("commit={b}"), "-s".into(), format!("commit={a}")],
        ),
    ];
    for (name, args) in cases {
        let mut opt = Options::default();
        let mut keys = vec!["commit".to_string()];
        let mut queries = Vec::new();
        let mut it = args.iter();
        while let Some(x) = it.next() {
            match x.as_str() {
                "-m" => opt.more = true,
                "-k" => opt.kpi = true,
                "-c" => keys = it.next().unwrap().split(',').map(String::from).collect(),
                "-s" => queries.push((false, it.next().unwrap().clone())),
                "-o" => queries.push((true, it.next().unwrap().clone())),
                _ => unreachable!(),
            }
        }
        let (queries, different) = build_queries(&queries);
        let roots = search(&data().join("query"), &queries).unwrap();
        let text: String =
            compare_groups(&roots, &keys, different, opt).unwrap().iter().map(|r| render(r).unwrap()).collect();
        let want = std::fs::read_to_string(data().join(format!("query/out_{name}.txt"))).unwrap();
        assert_eq!(text, want, "{name}");
    }
    let e = search(&data().join("query"), &[vec![("commit".into(), "ffff".into())]]).unwrap_err().to_string();
    assert!(e.contains("no result root") && e.contains("commit=ffff"), "{e}");
}
