//! Every compare-mmtests.pl golden of tests/data/mmtests/goldens.csv reproduced byte for
//! byte (printed by MMTests' own compare-mmtests.pl of each era), without the lines
//! tests/data/mmtests/unreproducible-lines.csv lists (dropped on both sides).

use schedlab::mmtests::{compare_at, CompareOptions, Era};
use std::path::PathBuf;

fn data() -> PathBuf {
    crate::goldens::dir("mmtests")
}

struct Case {
    file: String,
    dir: PathBuf,
    benchmark: String,
    names: Vec<String>,
    era: Era,
    ratio: bool,
    sub: String,
    expect: String,
}

/// The goldens of `out/`, `wide/`, `time/`, `families/` and `fuzz/` with the command line
/// that printed each (tests/data/mmtests/goldens.csv).
fn cases() -> Vec<Case> {
    let d = data();
    crate::goldens::read("mmtests")
        .iter()
        .map(|g| Case {
            file: g.file().to_string(),
            dir: d.join(g.get("tree")),
            benchmark: g.get("benchmark").to_string(),
            names: g.list("names").into_iter().map(String::from).collect(),
            era: Era::parse(g.get("era")).unwrap(),
            ratio: g.flag("print_ratio"),
            sub: g.get("sub_heading").to_string(),
            expect: g.get("expect").to_string(),
        })
        .collect()
}

#[test]
fn goldens_reproduced_byte_for_byte() {
    let d = data();
    let mut failures = Vec::new();
    let (mut n, mut errors_expected) = (0, 0);
    let unreproducible = crate::goldens::unreproducible_prefixes(&["debug", "random"]);
    for c in cases() {
        if c.expect == "random" {
            continue; // every number a ratio of the random SubAmean
        }
        n += 1;
        let expected = std::fs::read_to_string(d.join(&c.file)).unwrap();
        let opts =
            CompareOptions { compat: Some(c.era), print_ratio: c.ratio, subheading: c.sub.clone(), threads: Some(1) };
        let got = compare_at(&c.dir, &c.benchmark, &c.names, &opts);
        if c.expect == "error" {
            assert!(expected.is_empty(), "{}: the manifest expects an error, the golden has a table", c.file);
            errors_expected += 1;
            if let Ok(r) = got {
                failures.push(format!("{}: the Perl died but schedlab printed\n{}", c.file, r.text));
            }
            continue;
        }
        match got {
            Err(e) => failures.push(format!("{}: error {e}", c.file)),
            Ok(r) => {
                let back = schedlab::table::Comparison::from_json(&r.comparison.to_json().unwrap()).unwrap();
                if schedlab::mmtests::render_text::render(&back).unwrap() != r.text {
                    failures.push(format!("{}: the JSON form does not re-render to the same text", c.file));
                }
                let want = crate::goldens::kept_lines(&expected, &unreproducible);
                let have = crate::goldens::kept_lines(&r.text, &unreproducible);
                if want != have {
                    let mut msg = format!("{}:", c.file);
                    for (i, (a, b)) in want.iter().zip(have.iter()).enumerate() {
                        if a != b {
                            msg.push_str(&format!("\n  line {}:\n   want {a:?}\n   have {b:?}", i + 1));
                        }
                    }
                    if want.len() != have.len() {
                        msg.push_str(&format!("\n  {} lines wanted, {} printed", want.len(), have.len()));
                    }
                    failures.push(msg);
                }
            }
        }
    }
    let shown: Vec<&String> = failures.iter().take(40).collect();
    assert!(
        failures.is_empty(),
        "{} of {n} goldens differ ({errors_expected} expect an error):\n{}",
        failures.len(),
        shown.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n")
    );
}

/// The native launcher's path (`schedlab::cli::fast_args::compare` reading the command
/// line, then `fast_compare::run`) for every golden of the families trees (2024, 2025,
/// head; no sub-heading), as `schedlab mmtests compare ... --compat ERA` runs it: its
/// standard output is the Perl's table without the unreproducible lines. The Python
/// side (tests/test_cli_native.py) checks a spread of these through the built binary
/// and its parity with the Python command line.
#[test]
fn the_launchers_path_prints_every_family_golden() {
    use schedlab::cli::{fast_args, fast_compare};
    use std::ffi::OsString;
    let d = data();
    let unreproducible = crate::goldens::unreproducible_prefixes(&["debug", "random"]);
    let mut checked = 0;
    let mut failures = Vec::new();
    for g in crate::goldens::read("mmtests") {
        if g.get("set") != "families" || !g.get("sub_heading").is_empty() || g.get("expect") != "table" {
            continue;
        }
        let mut argv: Vec<OsString> = ["mmtests", "compare", "-d"].iter().map(OsString::from).collect();
        argv.push(d.join(g.get("tree")).into_os_string());
        argv.extend(["-b", g.get("benchmark"), "-n"].iter().map(OsString::from));
        argv.push(g.list("names").join(",").into());
        argv.extend(["--compat", g.get("era")].iter().map(OsString::from));
        if g.flag("print_ratio") {
            argv.push("--print-ratio".into());
        }
        let args = fast_args::compare(&argv).unwrap_or_else(|| panic!("{}: the launcher refused {argv:?}", g.file()));
        match fast_compare::run(&args) {
            fast_compare::Outcome::Done { stdout, code, .. } => {
                let golden = std::fs::read_to_string(d.join(g.file())).unwrap();
                let want = crate::goldens::kept_lines(&golden, &unreproducible);
                if code != 0 || crate::goldens::kept_lines(&stdout, &unreproducible) != want {
                    failures.push(format!("{}: exit {code}, or the table differs from the Perl's", g.file()));
                }
            }
            other => failures.push(format!("{}: {other:?}", g.file())),
        }
        checked += 1;
    }
    assert!(failures.is_empty(), "{} of {checked} differ:\n{}", failures.len(), failures.join("\n"));
    assert!(checked >= 324, "only {checked} family goldens found");
}
