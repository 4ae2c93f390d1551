//! The golden sets' manifests (`tests/data/<area>/goldens.csv`): one row per golden with
//! its parameters, written by the script that made the goldens or read their names once
//! (tools/oracles/{kernel,mmtests,lkp}/manifest.py). The golden tests
//! of every area read them here, as tests/goldens.py does for Python; no test parses a
//! golden's file name. The test below holds each manifest to its directory.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// `tests/data/<area>`.
pub fn dir(area: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(area)
}

/// One golden of a manifest: its columns by name.
pub struct Golden {
    columns: HashMap<String, String>,
}

impl Golden {
    /// The value of `column` (a column the manifest lacks is a broken test: it panics).
    pub fn get(&self, column: &str) -> &str {
        self.columns.get(column).unwrap_or_else(|| panic!("the manifest has no column {column}"))
    }

    /// The golden file, relative to its area's directory.
    pub fn file(&self) -> &str {
        self.get("golden")
    }

    /// A `0`/`1` column.
    pub fn flag(&self, column: &str) -> bool {
        match self.get(column) {
            "1" => true,
            "0" => false,
            other => panic!("{}: {column} is {other:?}, not 0 or 1", self.file()),
        }
    }

    /// A space-separated list column.
    pub fn list(&self, column: &str) -> Vec<&str> {
        self.get(column).split_whitespace().collect()
    }
}

/// Every row of `tests/data/<area>/goldens.csv`, in the file's order.
pub fn read(area: &str) -> Vec<Golden> {
    let path = dir(area).join("goldens.csv");
    let mut r = csv::Reader::from_path(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            Golden { columns: header.iter().cloned().zip(rec.iter().map(String::from)).collect() }
        })
        .collect()
}

/// The lines of a compare-mmtests.pl table that its goldens fix: those starting with none
/// of `prefixes` (from [`unreproducible_prefixes`]).
pub fn kept_lines<'a>(text: &'a str, prefixes: &[String]) -> Vec<&'a str> {
    text.lines().filter(|l| !prefixes.iter().any(|p| l.starts_with(p.as_str()))).collect()
}

/// The line prefixes of `tests/data/mmtests/unreproducible-lines.csv` whose `kind` is one of
/// `kinds`: the lines upstream prints from random draws (`random`) or in Perl hash order (`debug`).
pub fn unreproducible_prefixes(kinds: &[&str]) -> Vec<String> {
    let path = dir("mmtests").join("unreproducible-lines.csv");
    let mut r = csv::Reader::from_path(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let prefixes: Vec<String> = r
        .records()
        .map(|rec| rec.unwrap_or_else(|e| panic!("{}: {e}", path.display())))
        .filter(|rec| kinds.contains(&rec.get(1).unwrap_or("")))
        .map(|rec| rec.get(0).unwrap_or("").to_string())
        .collect();
    assert!(!prefixes.is_empty(), "{}: no line of kinds {kinds:?}", path.display());
    prefixes
}

/// The blocks of `compare_dirs.rb --many`'s output (tests/data/lkp/golden/random/expected.txt):
/// the lines after each `#### N` line, in order.
pub fn lkp_blocks(text: &str) -> Vec<String> {
    let mut blocks: Vec<String> = Vec::new();
    for line in text.split_inclusive('\n') {
        if line.starts_with("#### ") {
            blocks.push(String::new());
        } else if let Some(b) = blocks.last_mut() {
            b.push_str(line);
        }
    }
    blocks
}

/// Block `n` of [`lkp_blocks`].
pub fn lkp_block(text: &str, n: usize) -> Option<String> {
    lkp_blocks(text).into_iter().nth(n)
}

/// The files under `root/sub` (recursively, paths relative to `root`) that `is_golden` takes.
fn files_under(root: &Path, sub: &str, is_golden: &dyn Fn(&str) -> bool, out: &mut BTreeSet<String>) {
    let mut stack = vec![root.join(sub)];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
                if is_golden(&rel) {
                    out.insert(rel);
                }
            }
        }
    }
}

/// The goldens on disk of each area's manifest: (area, directories under it, which files).
fn on_disk(area: &str) -> BTreeSet<String> {
    let root = dir(area);
    let mut out = BTreeSet::new();
    match area {
        "idle" => files_under(&root, ".", &|f| !f.contains('/') && f.ends_with(".golden.csv"), &mut out),
        // every CSV but the oracle's inputs and the manifest itself
        "pelt" => files_under(
            &root,
            ".",
            &|f| f.ends_with(".csv") && !f.starts_with("inputs/") && f != "goldens.csv",
            &mut out,
        ),
        "mmtests" => {
            for sub in ["out", "wide/out", "time/out", "families/out", "fuzz/out"] {
                files_under(&root, sub, &|f| f.ends_with(".oracle"), &mut out);
            }
        }
        "mmtests/e0-dbench4" | "mmtests/monitors" | "mmtests/partial" | "mmtests/failed" | "mmtests/real" => {
            files_under(&root, "out", &|f| f.ends_with(".oracle"), &mut out)
        }
        // ncompare's outputs (not the plots of tests/it/lkp_plot.rs, out_C_*), each block of
        // compare_dirs.rb --many's output as `random/expected.txt#N`
        "lkp/golden" => {
            files_under(
                &root,
                ".",
                &|f| !f.contains('/') && f.starts_with("out_") && !f.starts_with("out_C_"),
                &mut out,
            );
            for sub in ["flags", "issue18", "query"] {
                let output = |f: &str| f.matches('/').count() == 1 && f.contains("/out_") && f.ends_with(".txt");
                files_under(&root, sub, &output, &mut out);
            }
            let many = std::fs::read_to_string(root.join("random/expected.txt")).unwrap();
            out.extend((0..lkp_blocks(&many).len()).map(|n| format!("random/expected.txt#{n}")));
        }
        other => panic!("no golden set {other}"),
    }
    out.into_iter().map(|f| f.trim_start_matches("./").to_string()).collect()
}

#[test]
fn every_golden_is_in_its_manifest_and_every_manifest_row_on_disk() {
    for area in [
        "idle",
        "pelt",
        "mmtests",
        "mmtests/e0-dbench4",
        "mmtests/monitors",
        "mmtests/partial",
        "mmtests/failed",
        "lkp/golden",
    ] {
        let listed: Vec<String> = read(area)
            .iter()
            .map(|g| match g.columns.get("block").map(String::as_str) {
                None | Some("") => g.file().to_string(),
                Some(n) => format!("{}#{n}", g.file()),
            })
            .collect();
        let unique: BTreeSet<String> = listed.iter().cloned().collect();
        assert_eq!(unique.len(), listed.len(), "{area}/goldens.csv lists a golden twice");
        let disk = on_disk(area);
        let missing: Vec<&String> = disk.difference(&unique).collect();
        let absent: Vec<&String> = unique.difference(&disk).collect();
        assert!(missing.is_empty(), "goldens of tests/data/{area} missing from its goldens.csv: {missing:?}");
        assert!(absent.is_empty(), "tests/data/{area}/goldens.csv lists files not on disk: {absent:?}");
    }
}
