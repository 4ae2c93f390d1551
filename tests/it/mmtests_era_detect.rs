//! The MMTests era told from the files (`mmtests::era_detect`) on the trees whose
//! goldens each era's compare-mmtests.pl printed: the era of the golden is the one
//! detected, or, where the files cannot tell, one of the eras left (and the reason
//! says so). tests/data/mmtests/era/ holds a tree only MMTests 2024 reads (made by
//! tools/oracles/mmtests/era.sh; 2025 and head die on it).

use schedlab::archive::DirTree;
use schedlab::mmtests::era_detect::detect;
use schedlab::mmtests::{compare_at, CompareOptions, Era};
use std::path::PathBuf;

fn data() -> PathBuf {
    crate::goldens::dir("mmtests")
}

/// (tree, benchmark, first name, the era whose Perl printed the golden) for every table
/// golden of the per-era trees (families/<era>/ and logs-{head,legacy,2018}/:
/// tests/data/mmtests/goldens.csv's sets `families` and `out`) without --print-ratio or
/// --sub-heading; where the Perl died, no era printed a table from those files.
fn golden_cases() -> Vec<(PathBuf, String, String, Era)> {
    let d = data();
    crate::goldens::read("mmtests")
        .iter()
        .filter(|g| ["families", "out"].contains(&g.get("set")) && g.get("expect") == "table")
        .filter(|g| !g.flag("print_ratio") && g.get("sub_heading").is_empty())
        .map(|g| {
            let first = g.list("names")[0].to_string();
            (d.join(g.get("tree")), g.get("benchmark").to_string(), first, Era::parse(g.get("era")).unwrap())
        })
        .collect()
}

#[test]
fn the_goldens_era_is_detected_or_left_open() {
    let cases = golden_cases();
    assert!(cases.len() > 80, "{} cases", cases.len());
    let mut decided = 0;
    for (tree, bench, first, era) in cases {
        let d = detect(&DirTree::at(&tree), "", &bench, &first, None).unwrap();
        let at = format!("{bench} in {} (golden {}): {d:?}", tree.display(), era.name());
        assert!(d.candidates.contains(&era), "{at}");
        assert_eq!(d.era, d.candidates[0], "{at}");
        if d.decided {
            decided += 1;
            assert_eq!(d.candidates, [era], "{at}");
        } else {
            assert!(d.reason.contains("cannot tell") && d.reason.contains(era.name()), "{at}");
        }
    }
    assert!(decided >= 30, "only {decided} decided");
}

#[test]
fn hackbench_file_names_tell_head_from_2024_and_2025() {
    let d =
        detect(&DirTree::at(&data().join("logs-head")), "", "hackbench-process-pipes", "6.8-vanilla", None).unwrap();
    assert_eq!((d.era, d.decided), (Era::Head, true));
    assert!(d.reason.contains("hackbench-process-pipes/logs/hackbench-1:"), "{}", d.reason);
    // one file per iteration: 2024 or 2025 (MMTests 2020 wrote the same), never head
    let d =
        detect(&DirTree::at(&data().join("logs-legacy")), "", "hackbench-process-pipes", "6.8-vanilla", None).unwrap();
    assert_eq!(d.candidates, [Era::E2025, Era::E2024]);
    assert!(!d.decided && d.reason.contains("hackbench-1-1: MMTests before head"), "{}", d.reason);
}

#[test]
fn old_schbench_is_2024_and_compares_as_2024_prints_it() {
    let tree = data().join("era/schbench-old");
    let d = detect(&DirTree::at(&tree), "", "schbench", "4.18.0-vanilla", None).unwrap();
    assert_eq!((d.era, d.decided), (Era::E2024, true), "{d:?}");
    assert!(d.reason.contains("schbench/logs/schbench-1.log line 1: schbench before 2023"), "{}", d.reason);
    let names = vec!["4.18.0-vanilla".to_string(), "4.18.0-teo".to_string()];
    let r = compare_at(&tree, "schbench", &names, &CompareOptions::default()).unwrap();
    let golden = std::fs::read_to_string(data().join("era/out/2024-schbench.oracle")).unwrap();
    assert_eq!(r.text, golden);
    assert_eq!(r.era_reason, d.reason);
    // the eras that cannot read it died (the oracle's exit codes)
    for e in ["2025", "head"] {
        let rc = std::fs::read_to_string(data().join(format!("era/out/{e}-schbench.rc"))).unwrap();
        assert_ne!(rc.trim(), "0", "{e}");
    }
    // --compat still overrides
    let opts = CompareOptions { compat: Some(Era::E2025), ..Default::default() };
    assert!(compare_at(&tree, "schbench", &names, &opts).is_err());
}

#[test]
fn the_2018_layout_is_2018() {
    let d = detect(&DirTree::at(&data().join("logs-2018")), "", "netperf-udp", "4.18.0-vanilla", None).unwrap();
    assert_eq!((d.era, d.decided), (Era::E2018, true));
    assert!(d.reason.contains("2018 layout netperf-udp-4.18.0-vanilla/noprofile"), "{}", d.reason);
}
