//! compare-mmtests.pl's partial tables (docs/mmtests.md §12): runs whose harmonic mean
//! divides by zero beside good runs, in every position, with 1 to 4 runs, normal and
//! `--print-ratio`, in every era. The goldens (tests/data/mmtests/partial/, made by
//! tools/oracles/mmtests/partial.sh; goldens.csv lists them) are the Perl's stdout, stderr
//! and exit code.

use schedlab::mmtests::{compare_at, CompareOptions, Era};
use std::path::PathBuf;

fn data() -> PathBuf {
    crate::goldens::dir("mmtests/partial")
}

struct Case {
    file: String,
    stderr: String,
    rc: String,
    layout: String,
    benchmark: String,
    names: Vec<String>,
    era: Era,
    ratio: bool,
}

/// The goldens of tests/data/mmtests/partial/goldens.csv: each table with the Perl's
/// stderr and exit code.
fn cases() -> Vec<Case> {
    crate::goldens::read("mmtests/partial")
        .iter()
        .map(|g| Case {
            file: g.file().to_string(),
            stderr: g.get("stderr").to_string(),
            rc: g.get("rc").to_string(),
            layout: g.get("tree").to_string(),
            benchmark: g.get("benchmark").to_string(),
            names: g.list("names").into_iter().map(String::from).collect(),
            era: Era::parse(g.get("era")).unwrap(),
            ratio: g.flag("print_ratio"),
        })
        .collect()
}

/// The runs the Perl's stderr says it lost (`WARNING: Failed to load module for benchmark B: RUN`).
fn lost_in(err: &str) -> Vec<String> {
    err.lines()
        .filter_map(|l| l.split_once("Failed to load module for benchmark "))
        .map(|(_, r)| r.split_once(": ").unwrap().1.to_string())
        .collect()
}

#[test]
fn partial_tables_are_the_perls_and_name_the_lost_runs() {
    let d = data();
    let all = cases();
    let debug = crate::goldens::unreproducible_prefixes(&["debug"]);
    assert!(all.len() >= 80, "{} goldens", all.len());
    let (mut tables, mut deaths, mut with_lost) = (0, 0, 0);
    let mut failures = Vec::new();
    for c in &all {
        let read = |f: &str| std::fs::read_to_string(d.join(f)).unwrap();
        let (oracle, err, rc) = (read(&c.file), read(&c.stderr), read(&c.rc));
        let lost = lost_in(&err);
        let opts = CompareOptions { compat: Some(c.era), print_ratio: c.ratio, threads: Some(1), ..Default::default() };
        let got = compare_at(&d.join(&c.layout), &c.benchmark, &c.names, &opts);
        if rc.trim() != "0" {
            // the Perl died with nothing on stdout: the baseline lost, or (2025) a run with a
            // band for one operation and not another (docs/mmtests.md §5.2)
            deaths += 1;
            assert!(oracle.is_empty(), "{}: {err}", c.file);
            match got {
                Err(e) if lost.first() == c.names.first() => assert!(
                    e.to_string().contains(&format!("baseline '{}'", c.names[0]))
                        && e.to_string().contains("Illegal division by zero"),
                    "{}: {e}",
                    c.file
                ),
                Err(e) => {
                    assert!(err.contains("Can't use an undefined value as an ARRAY reference"), "{}: {e}", c.file)
                }
                Ok(r) => failures.push(format!("{}: the Perl died but schedlab printed\n{}", c.file, r.text)),
            }
            continue;
        }
        tables += 1;
        let r = match got {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("{}: error {e}", c.file));
                continue;
            }
        };
        // MMTests 2018's --print-ratio debug lines are not reproduced (tests/data/mmtests/README.md)
        let want: String = crate::goldens::kept_lines(&oracle, &debug).iter().map(|l| format!("{l}\n")).collect();
        if r.text != want {
            failures.push(format!("{}:\n--- want\n{want}--- have\n{}", c.file, r.text));
        }
        // each lost run is named once, in a missing-data warning and in the table's meta
        let meta = r.comparison.meta.mmtests.as_ref().unwrap();
        let named: Vec<String> = meta.lost_runs.iter().map(|l| l.run.clone()).collect();
        if named != lost {
            failures.push(format!("{}: lost {lost:?}, schedlab names {named:?}", c.file));
        }
        for run in &lost {
            let n = r.warnings.iter().filter(|w| w.starts_with(&format!("run '{run}' is not in the table"))).count();
            if n != 1 {
                failures.push(format!("{}: {n} warnings name the lost run {run}: {:?}", c.file, r.warnings));
            }
        }
        with_lost += usize::from(!lost.is_empty());
        // the JSON form renders the same table (the empty columns included)
        let back = schedlab::table::Comparison::from_json(&r.comparison.to_json().unwrap()).unwrap();
        if schedlab::mmtests::render_text::render(&back).unwrap() != r.text {
            failures.push(format!("{}: the JSON form does not re-render to the same text", c.file));
        }
    }
    assert!(failures.is_empty(), "{} of {} goldens differ:\n{}", failures.len(), all.len(), failures.join("\n"));
    // 2025 and head lose runs; 2018 and 2024 print -1 ("missing") instead and lose none
    assert!(
        deaths >= 6 && with_lost >= 40 && tables > with_lost,
        "{deaths} deaths, {with_lost} of {tables} tables lost runs"
    );
}

#[test]
fn a_lost_column_keeps_the_runs_name_with_every_cell_missing() {
    let d = data();
    let names: Vec<String> = ["6.8-vanilla", "6.9-zero", "6.9-good"].map(String::from).to_vec();
    let opts = CompareOptions { compat: Some(Era::E2025), threads: Some(1), ..Default::default() };
    let r = compare_at(&d.join("legacy"), "netperf-udp-rr", &names, &opts).unwrap();
    assert_eq!(r.comparison.kernels, names);
    for row in r.comparison.rows.iter() {
        let cell = row.cells.get(1).unwrap();
        assert!(cell.value.is_none() && cell.n.is_none() && cell.significant.is_none(), "{row:?}");
    }
    // the Gmean ratio of a lost run is not 1 ("no change") but unknown
    let g = schedlab::mmtests::verdicts::gmean_ratio(&r.comparison).unwrap();
    assert!(g[1].is_nan() && g[2] > 1.0, "{g:?}");
}
