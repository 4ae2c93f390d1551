//! The fuzz targets' bodies (fuzz/src/checks) run under `cargo test` over every
//! input a target is seeded with and every regression input committed for it, so
//! that CI replays them without libFuzzer:
//!
//! - the files of tests/data named by the target's globs in `fuzz/seeds.txt`,
//! - `fuzz/seeds/<target>/*` (generated seeds: archives, log trees),
//! - `tests/data/fuzz-regressions/<target>/*` (inputs that once crashed or hung a
//!   target, or broke one of its invariants; each is fixed and must stay fixed).
//!
//! A panic of the body is a failure naming the target and the input.

#[path = "../../fuzz/src/checks/mod.rs"]
#[allow(dead_code, clippy::all)]
mod checks;

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Match one path component against a pattern with `*` wildcards.
fn component_matches(pat: &str, name: &str) -> bool {
    let parts: Vec<&str> = pat.split('*').collect();
    let (first, rest) = parts.split_first().map_or(("", &[][..]), |(f, r)| (*f, r));
    let Some(mut s) = name.strip_prefix(first) else { return false };
    if rest.is_empty() {
        return s.is_empty();
    }
    let (last, middle) = rest.split_last().map_or(("", &[][..]), |(l, m)| (*l, m));
    for m in middle {
        match s.find(m) {
            Some(i) => s = &s[i + m.len()..],
            None => return false,
        }
    }
    s.len() >= last.len() && s.ends_with(last)
}

/// Files under `dir` matching the glob components `pat` (`**` = any number of
/// directories, `*` = any characters within a name), sorted.
fn glob(dir: &Path, pat: &[&str], out: &mut Vec<PathBuf>) {
    let Some((first, rest)) = pat.split_first() else {
        if dir.is_file() {
            out.push(dir.to_path_buf());
        }
        return;
    };
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    if *first == "**" {
        glob(dir, rest, out);
        for e in entries.iter().filter(|e| e.is_dir()) {
            glob(e, pat, out);
        }
        return;
    }
    for e in entries {
        let name = e.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if component_matches(first, &name) {
            glob(&e, rest, out);
        }
    }
}

/// Every input of `target`.
fn inputs(target: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let seeds = std::fs::read_to_string(root().join("fuzz/seeds.txt")).expect("fuzz/seeds.txt");
    for line in seeds.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let mut it = line.split_whitespace();
        let (Some(t), Some(pattern)) = (it.next(), it.next()) else { panic!("bad line in fuzz/seeds.txt: {line}") };
        if t == target {
            let parts: Vec<&str> = pattern.split('/').collect();
            glob(&root(), &parts, &mut out);
        }
    }
    for dir in [root().join("fuzz/seeds").join(target), root().join("tests/data/fuzz-regressions").join(target)] {
        glob(&dir, &["*"], &mut out);
    }
    out.sort();
    out.dedup();
    out
}

#[test]
fn glob_matching() {
    assert!(component_matches("*.txt", "a.txt") && !component_matches("*.txt", "a.csv"));
    assert!(component_matches("mmtests-*", "mmtests-dbench4.txt") && component_matches("a*b*c", "aXbYc"));
    assert!(!component_matches("a*b", "ab_") && component_matches("x", "x") && !component_matches("x", "xy"));
}

#[test]
fn every_target_has_inputs_and_every_input_passes() {
    let mut report = Vec::new();
    let mut failed = Vec::new();
    for (target, body) in checks::TARGETS {
        let files = inputs(target);
        assert!(!files.is_empty(), "fuzz target {target} has no seed inputs");
        for f in &files {
            let data = std::fs::read(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            if std::panic::catch_unwind(|| body(&data)).is_err() {
                failed.push(format!("{target}: {}", f.display()));
            }
        }
        report.push(format!("{target}: {} inputs", files.len()));
    }
    eprintln!("{}", report.join("\n"));
    assert!(failed.is_empty(), "fuzz checks failed on:\n{}", failed.join("\n"));
}

#[test]
fn every_target_has_a_libfuzzer_binary() {
    let manifest = std::fs::read_to_string(root().join("fuzz/Cargo.toml")).expect("fuzz/Cargo.toml");
    for (target, _) in checks::TARGETS {
        assert!(manifest.contains(&format!("name = \"{target}\"")), "no [[bin]] for {target} in fuzz/Cargo.toml");
        assert!(root().join(format!("fuzz/fuzz_targets/{target}.rs")).is_file(), "no fuzz_targets/{target}.rs");
    }
}

/// Reproduce one input by hand: `FUZZ_TARGET=amd FUZZ_INPUT=path cargo test --test
/// fuzz_replay replay_one -- --ignored --nocapture` (the panic message says what broke).
#[test]
#[ignore = "run by hand with FUZZ_TARGET and FUZZ_INPUT"]
fn replay_one() {
    let target = std::env::var("FUZZ_TARGET").expect("FUZZ_TARGET");
    let input = std::env::var("FUZZ_INPUT").expect("FUZZ_INPUT");
    let (_, body) = checks::TARGETS.iter().find(|(t, _)| *t == target).expect("no such target");
    body(&std::fs::read(&input).expect("FUZZ_INPUT"));
}

/// Time the checks per input (by hand, to keep targets fast enough to fuzz):
/// `cargo test --release --test it fuzz_replay::time_targets -- --ignored --nocapture`.
#[test]
#[ignore = "run by hand"]
fn time_targets() {
    for (target, body) in checks::TARGETS {
        let files = inputs(target);
        let data: Vec<Vec<u8>> = files.iter().filter_map(|f| std::fs::read(f).ok()).collect();
        let t = std::time::Instant::now();
        let mut n = 0;
        while t.elapsed().as_secs_f64() < 0.5 {
            for d in &data {
                let _ = std::panic::catch_unwind(|| body(d));
                n += 1;
            }
        }
        eprintln!("{target}: {:.3} ms per input ({n} runs)", t.elapsed().as_secs_f64() * 1e3 / n as f64);
    }
}
