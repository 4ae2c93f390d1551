//! Phoronix Test Suite runs as lkp-tests' programs/pts/parse reads them: per test
//! (`pts/<name>-<version>`, its options from `[Option: value - …]`) each `Average:`
//! value by unit, `Final:` values and results, the `idle-`/`smart-` timings, and
//! `<test>.fail` for a run that failed; the mnn, compress-lz4 and intel-mlc tests by
//! their model or option lines instead. Values as printed.

use super::ruby::{self, bad_line, group, re, Hash, Lines};
use regex::Regex;
use std::sync::OnceLock;

struct Patterns {
    color: Regex,
    mnn_model: Regex,
    average: Regex,
    lz4_level: Regex,
    mlc_test: Regex,
    fatal: Regex,
    not_installed: Regex,
    test: Regex,
    params: Regex,
    final_value: Regex,
    final_result: Regex,
    failed_to_run: Regex,
    idle: Regex,
    smart: Regex,
    no_result: Regex,
    space: Regex,
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| Patterns {
        color: re(r".\[1;(\d+)m|.\[0m"),
        mnn_model: re("Model: (.+):"),
        average: re(r"Average: ([0-9.]+) (.*)"),
        lz4_level: re("Compression Level: (.+) - (.+):"),
        mlc_test: re("Test: (.+) - (.+):"),
        fatal: re("Wrong test option|testname is empty|PHP Parse error"),
        not_installed: re(r"(pts|system)/(\S+)-[0-9.]+ is not installed"),
        test: re(r"(pts|system)/(\S+)-[0-9.]+"),
        params: re(r"(?:pts|system)/(?:\S+)-[0-9.]+ \[(?<params>.+)\]"),
        final_value: re(r"Final: ([0-9.]+) (.*)"),
        final_result: re("Final: ([A-Z]+)"),
        failed_to_run: re("The following tests failed to properly run:"),
        idle: re(r"(idle-[\d.]+seconds): ([\d.]+)"),
        smart: re(r"(smart-[\d.]+seconds): ([\d.]+)"),
        no_result: re("The test run did not produce a result|The test quit with a non-zero exit status"),
        space: re(r"\s+"),
    })
}

/// Ruby `String#split(sep)` for a string separator: trailing empty fields dropped.
fn split_str<'a>(s: &'a str, sep: &str) -> Vec<&'a str> {
    let mut v: Vec<&str> = s.split(sep).collect();
    while v.last().is_some_and(|f| f.is_empty()) {
        v.pop();
    }
    v
}

/// The subtest name of `pts/<test>-<version> [A: a - B: b]`: the option values with
/// their whitespace removed, joined by '.'; None where lkp's Ruby fails (an empty option).
fn subname(params: &str) -> Option<String> {
    let p = patterns();
    let parts: Option<Vec<String>> = split_str(params, " - ")
        .into_iter()
        .map(|param| split_str(param, ": ").last().map(|v| p.space.replace_all(v, "").into_owned()))
        .collect();
    Some(parts?.join("."))
}

/// Parse Phoronix Test Suite output (`path` names it in errors: the lines on which lkp's
/// parser exits with an error, and a failed run that gave no result).
pub fn parse(text: &str, path: &str) -> Lines {
    let p = patterns();
    let mut stats: Hash<String> = Hash::default();
    let mut subnames: Vec<String> = Vec::new();
    let (mut test_name, mut subtest_name) = (String::new(), String::new());
    let mut test_id: i64 = -1;
    let (mut begin_of_subtest, mut failed_run) = (false, false);
    let mut lines = 0;
    for (ln, raw) in ruby::lines(text).enumerate() {
        lines = ln + 1;
        let plain = p.color.replace_all(raw, "");
        let line = ruby::chomp(&plain);
        let special = match test_name.as_str() {
            "mnn" => Some(None),
            "compress-lz4" => Some(Some(&p.lz4_level)),
            "intel-mlc" => Some(Some(&p.mlc_test)),
            _ => None,
        };
        if let Some(option) = special {
            match option {
                None => {
                    if let Some(c) = p.mnn_model.captures(line) {
                        subtest_name = group(&c, 1).to_string();
                    } else if let Some(c) = p.average.captures(line) {
                        stats.set(&format!("{test_name}.{subtest_name}.{}", group(&c, 2)), group(&c, 1).to_string());
                    }
                }
                Some(r) => {
                    if let Some(c) = r.captures(line) {
                        subtest_name =
                            p.space.replace_all(&format!("{}.{}", group(&c, 1), group(&c, 2)), "").into_owned();
                    } else if let Some(c) = p.average.captures(line) {
                        stats.set(&format!("{test_name}.{subtest_name}.{}", group(&c, 2)), group(&c, 1).to_string());
                    }
                }
            }
            continue;
        }
        let sub = |id: i64, subnames: &[String], test_name: &str| match ruby::at(subnames, id) {
            _ if subnames.is_empty() => format!("{test_name}.{id}"),
            Some(s) => format!("{test_name}.{s}"),
            None => format!("{test_name}."),
        };
        if p.fatal.is_match(line) {
            return Err(bad_line(path, ln + 1, format!("lkp's parser stops here: {line}")));
        } else if let Some(c) = p.not_installed.captures(line) {
            return Err(bad_line(
                path,
                ln + 1,
                format!("{} is not installed (lkp's parser exits with an error)", group(&c, 2)),
            ));
        } else if let Some(c) = p.test.captures(line) {
            test_name = group(&c, 2).to_string();
            if let Some(c) = p.params.captures(line) {
                let params = c.name("params").map_or("", |m| m.as_str());
                let Some(s) = subname(params) else {
                    return Err(bad_line(path, ln + 1, "an empty test option (lkp's Ruby fails on it)"));
                };
                subnames.push(s);
            }
            begin_of_subtest = true;
        } else if let Some(c) = p.average.captures(line) {
            if begin_of_subtest {
                test_id += 1;
                begin_of_subtest = false;
            }
            let unit = ruby::downcase(group(&c, 2)).replace([' ', '/'], "_");
            stats.set(&format!("{}.{unit}", sub(test_id, &subnames, &test_name)), group(&c, 1).to_string());
        } else if let Some(c) = p.final_value.captures(line) {
            let value = group(&c, 1);
            if value == "1" && begin_of_subtest {
                test_id += 1;
                begin_of_subtest = false;
            }
            stats.set(&format!("{}.Final", sub(test_id, &subnames, &test_name)), value.to_string());
        } else if let Some(c) = p.final_result.captures(line) {
            let result = ruby::downcase(group(&c, 1));
            if begin_of_subtest {
                test_id += 1;
                begin_of_subtest = false;
            }
            stats.set(&format!("{}.Final.{result}", sub(test_id, &subnames, &test_name)), "1".into());
        } else if p.failed_to_run.is_match(line) {
            stats.set(&format!("{test_name}.fail"), "1".into());
        } else if let Some(c) = p.idle.captures(line).or_else(|| p.smart.captures(line)) {
            stats.set(group(&c, 1), group(&c, 2).to_string());
        } else if p.no_result.is_match(line) {
            failed_run = true;
        }
    }
    if stats.is_empty() && failed_run {
        return Err(bad_line(path, lines, "a failed run and no result (lkp's parser exits with an error)"));
    }
    let mut out = String::new();
    for (k, v) in stats.iter() {
        ruby::puts(&mut out, &format!("{k}: {v}"));
    }
    Ok(out)
}
