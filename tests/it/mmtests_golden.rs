//! Every compare-mmtests.pl golden under tests/data/mmtests reproduced byte for
//! byte (printed by MMTests' own compare-mmtests.pl of each era; tests/data/mmtests/README.md lists the lines that are
//! not reproducible and are dropped on both sides).

use schedlab::mmtests::{compare_at, CompareOptions, Era};
use std::path::{Path, PathBuf};

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/mmtests")
}

/// Lines the golden README lists as not reproducible: E0's `Comparing ...`
/// debug lines and the random SubAmean/SubAmeanCI rows (`SubmeanCI` in 2024).
fn keep(line: &str) -> bool {
    !(line.starts_with("Comparing (")
        || line.starts_with("SubAmean ")
        || line.starts_with("SubAmeanCI ")
        || line.starts_with("SubmeanCI "))
}

/// Ratio tables whose every number is a ratio of SubAmean (random upstream): the
/// Subselection families (2024/2025's dbench4/tbench4 and perffutexwake).
fn subamean_ratio(file: &str) -> bool {
    file.contains("bench4--print-ratio") || (file.contains("perffutexwake--print-ratio") && !file.contains("head-"))
}

struct Case {
    file: String,
    dir: PathBuf,
    benchmark: String,
    names: Vec<String>,
    era: Era,
    ratio: bool,
    sub: String,
}

/// The goldens `<set>/out/<compat>-<benchmark>[--print-ratio].oracle` of the trees
/// `<set>/<layout(era, benchmark)>`, all with the run names `names`.
fn set_cases(d: &Path, set: &str, names: &[String], layout: fn(Era, &str) -> &'static str) -> Vec<Case> {
    let mut files: Vec<_> = std::fs::read_dir(d.join(set).join("out"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|f| {
            let stem = f.strip_suffix(".oracle").unwrap();
            let (compat, rest) = stem.split_once('-').unwrap();
            // `--sub-heading_<X>` (a `/` of X written %2F), before or after `--print-ratio`
            let (rest, sub) = match rest.split_once("--sub-heading_") {
                Some((a, b)) => (a.to_string(), b.replace("%2F", "/")),
                None => (rest.to_string(), String::new()),
            };
            let (rest, sub) = match sub.strip_suffix("--print-ratio") {
                Some(s) => (format!("{rest}--print-ratio"), s.to_string()),
                None => (rest, sub),
            };
            let (bench, ratio) = match rest.strip_suffix("--print-ratio") {
                Some(b) => (b.to_string(), true),
                None => (rest, false),
            };
            let era = Era::parse(compat).unwrap();
            Case {
                file: format!("{set}/out/{f}"),
                dir: d.join(set).join(layout(era, &bench)),
                benchmark: bench,
                names: names.to_vec(),
                era,
                ratio,
                sub,
            }
        })
        .collect()
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    let d = data();
    let mut files: Vec<_> =
        std::fs::read_dir(d.join("out")).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    files.sort();
    for f in files {
        let stem = f.strip_suffix(".oracle").unwrap();
        let (compat, rest) = stem.split_once('-').unwrap();
        let (rest, sub) = match rest.split_once("--sub-heading_") {
            Some((a, b)) => (a.strip_suffix('_').unwrap_or(a), b.to_string()),
            None => (rest, String::new()),
        };
        let (bench, ratio) = match rest.strip_suffix("--print-ratio") {
            Some(b) => (b, true),
            None => (rest, false),
        };
        let era = Era::parse(compat).unwrap();
        let (dir, names) = match era {
            Era::E2018 => ("logs-2018", vec!["4.18.0-vanilla", "4.18.0-teo", "4.18.0-teo-v6+backport"]),
            Era::Head => ("logs-head", vec!["6.8-vanilla", "6.9-patched"]),
            _ => ("logs-legacy", vec!["6.8-vanilla", "6.9-patched"]),
        };
        out.push(Case {
            file: format!("out/{f}"),
            dir: d.join(dir),
            benchmark: bench.into(),
            names: names.into_iter().map(String::from).collect(),
            era,
            ratio,
            sub,
        });
    }
    // 21 kernels: every run gets its own cell format (Compare.pm since 2019)
    let wide: Vec<String> =
        std::fs::read_to_string(d.join("wide/names")).unwrap().trim().split(',').map(String::from).collect();
    out.extend(set_cases(&d, "wide", &wide, |era, bench| match era {
        Era::Head => "head",
        Era::E2024 if bench.ends_with("bench4") => "2024",
        _ => "legacy",
    }));
    // the declarative GNU-time families
    let two = vec!["6.8-vanilla".to_string(), "6.9-patched".to_string()];
    out.extend(set_cases(&d, "time", &two, |era, _| if era == Era::Head { "head" } else { "legacy" }));
    // the line-result families, one tree per era
    let three: Vec<String> = ["6.8-vanilla", "6.9-patched", "6.10-rc1"].map(String::from).to_vec();
    out.extend(set_cases(&d, "families", &three, |era, _| match era {
        Era::Head => "head",
        Era::E2025 => "2025",
        _ => "2024",
    }));
    let listing = std::fs::read_to_string(d.join("fuzz/cases")).unwrap();
    for line in listing.lines() {
        let parts: Vec<&str> = line.split_whitespace().collect();
        let [case, bench, names] = parts[..] else { continue };
        for compat in ["2024", "2025", "head"] {
            for ratio in [false, true] {
                let f = format!("fuzz/out/{case}-{compat}{}.oracle", if ratio { "--print-ratio" } else { "" });
                if !d.join(&f).exists() {
                    continue;
                }
                let (dir, bench) = if compat == "head" {
                    (d.join("fuzz/logshead").join(case), bench.replace("netperf-udp-rr", "netperf-ipv4-udp-rr"))
                } else {
                    (d.join("fuzz/logs").join(case), bench.to_string())
                };
                out.push(Case {
                    file: f,
                    dir,
                    benchmark: bench,
                    names: names.split(',').map(String::from).collect(),
                    era: Era::parse(compat).unwrap(),
                    ratio,
                    sub: String::new(),
                });
            }
        }
    }
    out
}

#[test]
fn goldens_reproduced_byte_for_byte() {
    let d = data();
    let mut failures = Vec::new();
    let (mut n, mut errors_expected) = (0, 0);
    for c in cases() {
        if subamean_ratio(&c.file) {
            continue;
        }
        n += 1;
        let expected = std::fs::read_to_string(d.join(&c.file)).unwrap();
        let opts =
            CompareOptions { compat: Some(c.era), print_ratio: c.ratio, subheading: c.sub.clone(), threads: Some(1) };
        let got = compare_at(&c.dir, &c.benchmark, &c.names, &opts);
        if expected.is_empty() {
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
                let want: Vec<&str> = expected.lines().filter(|l| keep(l)).collect();
                let have: Vec<&str> = r.text.lines().filter(|l| keep(l)).collect();
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
