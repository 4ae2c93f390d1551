//! Go's benchmark format (`go test -bench` output; golang.org/x/perf/benchfmt), as
//! benchfmt's reader reads it (docs/readers.md §11, docs/benchstat.md §1):
//!
//! - a **result** line is `Benchmark` + name, an iteration count, then one or more
//!   `VALUE UNIT` pairs (`BenchmarkEncode/format=json-48  690848  1726 ns/op  45 B/op`);
//!   the name keeps its `/key=value` parts and its `-GOMAXPROCS` suffix (benchstat's
//!   `.fullname`); `-count N` repeats a line N times, each a sample. Values are tidied
//!   as benchunit does (`ns/op` → `sec/op` × 1e-9, `MB/s` → `B/s` × 1e6);
//! - a **configuration** line `key: value` (key starting with a lower-case letter,
//!   without spaces or upper case) holds for the results after it until changed; an
//!   empty value removes the key;
//! - a **unit metadata** line `Unit UNIT key=value ...`: `better=higher|lower` gives
//!   the direction, `assume=exact` that the unit's values are exact (the benchstat
//!   view then prints no interval or test for it);
//! - every other line (`PASS`, `ok ...`, test logs, a bare `BenchmarkName` line) is
//!   skipped.
//!
//! Samples: metric `NAME UNIT` (the tidied unit, as benchstat's tables are per unit),
//! qualified `PKG.NAME UNIT` when the file holds results of more than one `pkg`; the
//! group is the value of the configuration key that changes within the file (`note:
//! before` ... `note: after` gives groups `before` and `after`; several keys:
//! `k=v, k=v`), "" when none does; the configuration every result shares is the
//! file's [`GoInfo::config`]. Direction: `better=` metadata, else benchfmt's
//! defaults (`sec/op`, `B/op`, `allocs/op` lower; `B/s` higher).

// Parsers of untrusted bytes: no unwrap, expect, indexing or string slicing that can panic on input.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

use super::Samples;
use crate::benchunit::tidy;
use crate::error::{Error, Result};
use crate::table::Direction;
use std::collections::HashMap;

/// What a Go benchmark file says beside its samples.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GoInfo {
    /// The configuration every result of the file shares, in the order the keys
    /// first appear (`goos: linux`, `pkg: ...`).
    pub config: Vec<(String, String)>,
    /// The (tidied) units the file marks `assume=exact`.
    pub exact_units: Vec<String>,
}

/// The Go format's separators (benchfmt's `splitField`: ASCII and Unicode spaces).
fn split_field(x: &str) -> (&str, &str) {
    let end = x.find(char::is_whitespace).unwrap_or(x.len());
    let (field, rest) = x.split_at(end);
    (field, rest.trim_start_matches(char::is_whitespace))
}

/// benchfmt's `parseKeyValueLine`: `Some((key, value))` for a configuration line.
fn key_value(line: &str) -> Option<(&str, &str)> {
    let mut chars = line.char_indices();
    let (_, first) = chars.next()?;
    if !first.is_lowercase() {
        return None;
    }
    let mut colon = None;
    for (i, c) in line.char_indices() {
        if c.is_whitespace() || c.is_uppercase() {
            return None;
        }
        if i > 0 && c == ':' {
            colon = Some(i);
            break;
        }
    }
    let i = colon?;
    let key = line.get(..i)?;
    let val = line.get(i + 1..)?;
    if val.is_empty() {
        return Some((key, ""));
    }
    let trimmed = val.trim_start_matches([' ', '\t']);
    // a value must follow a space or tab (`key:value` is not a configuration line)
    (trimmed.len() < val.len()).then_some((key, trimmed))
}

/// One value of a result, before the file's groups are known.
struct Raw {
    config: u32,
    name: u32,
    unit: u32,
    value: f64,
}

/// Strings stored once, numbered.
#[derive(Default)]
struct Interned {
    all: Vec<String>,
    index: HashMap<String, u32>,
}

impl Interned {
    fn id(&mut self, s: &str) -> u32 {
        if let Some(&i) = self.index.get(s) {
            return i;
        }
        let i = u32::try_from(self.all.len()).unwrap_or(u32::MAX);
        self.all.push(s.to_string());
        self.index.insert(s.to_string(), i);
        i
    }

    fn get(&self, i: u32) -> &str {
        self.all.get(i as usize).map_or("", String::as_str)
    }
}

/// A measurement of a result line: the value in the tidied unit, the unit as written.
#[derive(Debug, Clone, PartialEq)]
pub struct GoValue {
    /// The value, in `unit` (benchunit's tidy applied).
    pub value: f64,
    /// The tidied unit (`sec/op`).
    pub unit: String,
    /// The unit as the file writes it (`ns/op`).
    pub orig_unit: String,
}

/// One result line of a Go benchmark file, as benchfmt's `Result`: the file
/// configuration in force, the full name (without `Benchmark`) and the measurements.
#[derive(Debug, Clone, PartialEq)]
pub struct GoResult {
    /// The `key: value` configuration in force for this line, in the order the keys
    /// first appear (shared between the lines of one configuration).
    pub config: std::sync::Arc<[(String, String)]>,
    /// The full name: `Encode/format=json-48`.
    pub name: String,
    /// Its measurements, in the line's order.
    pub values: Vec<GoValue>,
}

/// Every result of a Go benchmark file, in file order, with its exact units.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GoResults {
    /// The results.
    pub results: Vec<GoResult>,
    /// The (tidied) units marked `assume=exact`.
    pub exact_units: Vec<String>,
}

/// What the scan found beside the results: each configuration once, the unit metadata.
struct Scanned {
    configs: Vec<Vec<(String, String)>>,
    meta: Vec<((String, String), String)>,
}

/// The exact units of the unit metadata.
fn exact_units(meta: &[((String, String), String)]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for ((unit, key), value) in meta {
        if key == "assume" && value == "exact" && !out.contains(unit) {
            out.push(unit.clone());
        }
    }
    out
}

/// Every result of a Go benchmark file as benchfmt reads it (the records benchstat's
/// projections work on: docs/benchstat.md §7).
pub fn results(text: &str, path: Option<&str>) -> Result<GoResults> {
    let mut out: Vec<(u32, String, Vec<GoValue>)> = Vec::new();
    let scanned = scan(text, path, &mut |config, name, values| {
        let values = values
            .iter()
            .map(|(unit, orig, value)| GoValue { value: *value, unit: unit.to_string(), orig_unit: orig.to_string() })
            .collect();
        out.push((config, name.to_string(), values));
    })?;
    let shared: Vec<std::sync::Arc<[(String, String)]>> =
        scanned.configs.iter().map(|c| std::sync::Arc::from(c.clone().into_boxed_slice())).collect();
    let empty: std::sync::Arc<[(String, String)]> = std::sync::Arc::from(Vec::new().into_boxed_slice());
    let results = out
        .into_iter()
        .map(|(c, name, values)| GoResult {
            config: shared.get(c as usize).cloned().unwrap_or_else(|| empty.clone()),
            name,
            values,
        })
        .collect();
    Ok(GoResults { results, exact_units: exact_units(&scanned.meta) })
}

/// The samples of a Go benchmark file, and its shared configuration and exact units.
pub fn parse(text: &str, path: Option<&str>) -> Result<(Samples, GoInfo)> {
    let mut names = Interned::default();
    let mut units = Interned::default();
    let mut raws: Vec<Raw> = Vec::new();
    let scanned = scan(text, path, &mut |config, name, values| {
        let name_id = names.id(name);
        for (unit, _, value) in values {
            raws.push(Raw { config, name: name_id, unit: units.id(unit), value: *value });
        }
    })?;
    finish(&raws, &scanned.configs, &names, &units, &scanned.meta)
}

/// A result line found by [`scan`]: its configuration's number, its name, its
/// measurements (tidied unit, unit as written, value).
type OnResult<'a> = dyn FnMut(u32, &str, &[(String, &str, f64)]) + 'a;

/// Read every line of `text`, calling `on_result` for each result line.
fn scan(text: &str, path: Option<&str>, on_result: &mut OnResult<'_>) -> Result<Scanned> {
    // each distinct configuration (ordered key, value pairs) once
    let mut configs: Vec<Vec<(String, String)>> = Vec::new();
    let mut config_ids: HashMap<Vec<(String, String)>, u32> = HashMap::new();
    let mut current: Vec<(String, String)> = Vec::new();
    let mut current_id: Option<u32> = None;
    // unit metadata: (tidied unit, key) -> value
    let mut meta: Vec<((String, String), String)> = Vec::new();
    let mut values: Vec<(String, &str, f64)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        crate::cancel::check_every(i)?;
        let line_no = i + 1;
        let err = |msg: String| Error::parse(path, Some(line_no), msg);
        if let Some(rest) = line.strip_prefix("Benchmark") {
            let (name, mut rest) = split_field(rest);
            if rest.is_empty() && name.len() == line.len() - "Benchmark".len() {
                continue; // a bare name: the benchmark's log follows
            }
            let (iters, r) = split_field(rest);
            if iters.is_empty() {
                return Err(err("missing iteration count".into()));
            }
            if let Err(e) = iters.parse::<i64>() {
                let why = match e.kind() {
                    std::num::IntErrorKind::PosOverflow | std::num::IntErrorKind::NegOverflow => "out of range",
                    _ => "expected an integer",
                };
                return Err(err(format!("parsing iteration count: {why}, got '{iters}'")));
            }
            rest = r;
            let id = match current_id {
                Some(id) => id,
                None => {
                    let id = match config_ids.get(&current) {
                        Some(&id) => id,
                        None => {
                            let id = u32::try_from(configs.len()).unwrap_or(u32::MAX);
                            configs.push(current.clone());
                            config_ids.insert(current.clone(), id);
                            id
                        }
                    };
                    current_id = Some(id);
                    id
                }
            };
            values.clear();
            loop {
                let (v, r) = split_field(rest);
                if v.is_empty() {
                    if !values.is_empty() {
                        break;
                    }
                    return Err(err("missing measurements".into()));
                }
                let value: f64 = v
                    .parse()
                    .ok()
                    .filter(|x: &f64| x.is_finite())
                    .ok_or_else(|| err(format!("parsing measurement: expected a finite number, got '{v}'")))?;
                let (u, r) = split_field(r);
                if u.is_empty() {
                    return Err(err("missing units".into()));
                }
                let (unit, factor) = tidy(u);
                let value = if factor == 1.0 { value } else { value * factor };
                if !value.is_finite() {
                    return Err(err(format!("parsing measurement: {v} {u} is beyond the range of a number in {unit}")));
                }
                values.push((unit, u, value));
                rest = r;
            }
            on_result(id, name, &values);
            continue;
        }
        if line.starts_with('U') {
            let (first, rest) = split_field(line);
            if first == "Unit" {
                let (unit, mut rest) = split_field(rest);
                if unit.is_empty() {
                    return Err(err("missing unit".into()));
                }
                let (tidied, _) = tidy(unit);
                loop {
                    let (f, r) = split_field(rest);
                    if f.is_empty() {
                        break;
                    }
                    rest = r;
                    let Some((key, value)) = f.split_once('=').filter(|(k, _)| !k.is_empty()) else {
                        return Err(err(format!("expected key=value, got '{f}'")));
                    };
                    let k = (tidied.clone(), key.to_string());
                    match meta.iter().find(|(have, _)| *have == k) {
                        Some((_, v)) if v == value => {}
                        Some((_, v)) => {
                            return Err(err(format!("metadata {key} of unit {unit} already set to {v}")));
                        }
                        None => meta.push((k, value.to_string())),
                    }
                }
                continue;
            }
        }
        if let Some((key, value)) = key_value(line) {
            match current.iter().position(|(k, _)| k == key) {
                Some(at) if value.is_empty() => {
                    current.remove(at);
                }
                Some(at) => {
                    if let Some(slot) = current.get_mut(at) {
                        slot.1 = value.to_string();
                    }
                }
                None if value.is_empty() => {}
                None => current.push((key.to_string(), value.to_string())),
            }
            current_id = None;
        }
    }
    Ok(Scanned { configs, meta })
}

/// The file's samples once every line is read: its varying keys name the groups.
fn finish(
    raws: &[Raw],
    configs: &[Vec<(String, String)>],
    names: &Interned,
    units: &Interned,
    meta: &[((String, String), String)],
) -> Result<(Samples, GoInfo)> {
    // the configurations the results use, and every key they name in order
    let mut used = vec![false; configs.len()];
    for r in raws {
        if let Some(u) = used.get_mut(r.config as usize) {
            *u = true;
        }
    }
    let in_use: Vec<&Vec<(String, String)>> = configs.iter().zip(&used).filter(|(_, u)| **u).map(|(c, _)| c).collect();
    let mut keys: Vec<&str> = Vec::new();
    for c in &in_use {
        for (k, _) in c.iter() {
            if !keys.contains(&k.as_str()) {
                keys.push(k);
            }
        }
    }
    let value_of = |c: &Vec<(String, String)>, key: &str| -> String {
        c.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone()).unwrap_or_default()
    };
    let varies = |key: &str| {
        in_use.iter().any(|c| value_of(c, key) != in_use.first().map(|f| value_of(f, key)).unwrap_or_default())
    };
    let shared: Vec<(String, String)> = keys
        .iter()
        .filter(|k| !varies(k))
        .filter_map(|k| in_use.first().map(|c| (k.to_string(), value_of(c, k))))
        .filter(|(_, v)| !v.is_empty())
        .collect();
    let group_keys: Vec<&str> = keys.iter().copied().filter(|k| *k != "pkg" && varies(k)).collect();
    let by_pkg = varies("pkg");
    // per configuration: its group and its package prefix
    let labels: Vec<(String, String)> = configs
        .iter()
        .map(|c| {
            let group = match group_keys.as_slice() {
                [] => String::new(),
                [k] => value_of(c, k),
                ks => ks.iter().map(|k| format!("{k}={}", value_of(c, k))).collect::<Vec<_>>().join(", "),
            };
            let pkg = if by_pkg { format!("{}.", value_of(c, "pkg")) } else { String::new() };
            (group, pkg)
        })
        .collect();
    let meta_of =
        |unit: &str, key: &str| meta.iter().find(|((u, k), _)| u == unit && k == key).map(|(_, v)| v.as_str());
    let direction = |unit: &str| match meta_of(unit, "better") {
        Some("higher") => Direction::Higher,
        Some("lower") => Direction::Lower,
        Some(_) => Direction::Unknown,
        None => match unit {
            "sec/op" | "B/op" | "allocs/op" => Direction::Lower,
            "B/s" => Direction::Higher,
            _ => Direction::Unknown,
        },
    };
    let mut out = Samples::default();
    for r in raws {
        let (group, pkg) = labels.get(r.config as usize).map_or(("", ""), |(g, p)| (g.as_str(), p.as_str()));
        let unit = units.get(r.unit);
        out.push(&format!("{pkg}{} {unit}", names.get(r.name)), r.value, unit, direction(unit), group);
    }
    Ok((out, GoInfo { config: shared, exact_units: exact_units(meta) }))
}

/// Whether `line` is a Go benchmark result line (for telling the format by content).
pub fn is_result_line(line: &str) -> bool {
    let Some(rest) = line.strip_prefix("Benchmark") else { return false };
    let (_, rest) = split_field(rest);
    let (iters, rest) = split_field(rest);
    let (value, rest) = split_field(rest);
    let (unit, _) = split_field(rest);
    iters.parse::<i64>().is_ok() && value.parse::<f64>().is_ok() && !unit.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_lines_configuration_and_units() {
        let text = "goos: linux\ngoarch: amd64\npkg: example.com/x\ncpu: Some CPU @ 2.00GHz\n\
            BenchmarkEncode/format=json-48   690848   1726 ns/op   45 B/op   2 allocs/op\n\
            BenchmarkEncode/format=json-48   684861   1723 ns/op   45 B/op   2 allocs/op\n\
            BenchmarkRead-8 100 350.5 MB/s\nPASS\nok  \texample.com/x\t3.2s\n";
        let (s, info) = parse(text, Some("x.txt")).unwrap();
        let got: Vec<(String, f64, String)> =
            s.iter().map(|x| (x.metric.to_string(), x.value, x.unit.to_string())).collect();
        assert_eq!(got[0], ("Encode/format=json-48 sec/op".into(), 1726.0 * 1e-9, "sec/op".into()));
        assert_eq!(got[1], ("Encode/format=json-48 B/op".into(), 45.0, "B/op".into()));
        assert_eq!(got[6], ("Read-8 B/s".into(), 350.5 * 1e6, "B/s".into()));
        assert_eq!(s.iter().map(|x| x.direction).collect::<Vec<_>>()[6], Direction::Higher);
        assert!(s.iter().all(|x| x.group.is_empty()));
        assert_eq!(info.config.len(), 4);
        assert_eq!(info.config[3], ("cpu".into(), "Some CPU @ 2.00GHz".into()));
    }

    #[test]
    fn changing_key_names_groups_and_unit_metadata() {
        let text = "Unit text-bytes assume=exact better=lower\n\nnote: before\n\nBenchmarkSize 1 100 text-bytes\n\
            \nnote: after\n\nBenchmarkSize 1 105 text-bytes\n";
        let (s, info) = parse(text, None).unwrap();
        let got: Vec<(&str, f64, &str)> = s.iter().map(|x| (x.metric, x.value, x.group)).collect();
        assert_eq!(got, vec![("Size text-bytes", 100.0, "before"), ("Size text-bytes", 105.0, "after")]);
        assert!(s.iter().all(|x| x.direction == Direction::Lower));
        assert_eq!(info.exact_units, vec!["text-bytes".to_string()]);
        assert!(info.config.is_empty());
    }

    #[test]
    fn packages_qualify_names() {
        let text = "pkg: a\nBenchmarkX 1 1 ns/op\npkg: b\nBenchmarkX 1 2 ns/op\n";
        let (s, _) = parse(text, None).unwrap();
        let got: Vec<&str> = s.iter().map(|x| x.metric).collect();
        assert_eq!(got, vec!["a.X sec/op", "b.X sec/op"]);
    }

    #[test]
    fn malformed_lines_name_the_line() {
        for (text, msg) in [
            ("BenchmarkX 1\n", "2: missing measurements"),
            ("BenchmarkX abc 1 ns/op\n", "expected an integer, got 'abc'"),
            ("BenchmarkX 1 1\n", "missing units"),
            ("BenchmarkX 1 x ns/op\n", "expected a finite number, got 'x'"),
            ("BenchmarkX 1 1e308 MB/s\n", "1e308 MB/s is beyond the range of a number in B/s"),
            ("Unit ns/op foo\n", "expected key=value"),
            ("Unit x better=higher\nUnit x better=lower\n", "metadata better of unit x already set to higher"),
        ] {
            let e = parse(&format!("goos: linux\n{text}"), Some("f.txt")).unwrap_err().to_string();
            assert!(e.starts_with("f.txt:") && e.contains(msg), "{e}");
        }
        // a bare name (the benchmark's log follows it) and other lines are skipped
        let (s, _) = parse("BenchmarkX\n    x_test.go:12: hello\nBenchmarkX 1 1 ns/op\n", None).unwrap();
        assert_eq!(s.len(), 1);
        assert!(!is_result_line("BenchmarkX"));
        assert!(is_result_line("BenchmarkX-8   100   12.5 ns/op"));
    }

    /// The samples of `text` as (name, value, unit, group) and the shared configuration.
    type Read = (Vec<(String, f64, String)>, Vec<(String, String)>);

    fn read(text: &str) -> Read {
        let (s, info) = parse(text, Some("test")).unwrap();
        (s.iter().map(|x| (x.metric.to_string(), x.value, x.unit.to_string())).collect(), info.config)
    }

    fn kv(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    fn sample(name: &str, value: f64, unit: &str) -> (String, f64, String) {
        (format!("{name} {unit}"), value, unit.to_string())
    }

    #[test]
    fn benchfmt_reader_cases() {
        // benchfmt's own TestReader (golang/perf benchfmt/reader_test.go): the records it
        // expects, as schedlab's samples (ns/op tidied to sec/op × 1e-9 as there)
        assert_eq!(
            read("key: value\nBenchmarkOne 100 1 ns/op 2 B/op\nBenchmarkTwo 300 4.5 ns/op\n"),
            (
                vec![sample("One", 1e-9, "sec/op"), sample("One", 2.0, "B/op"), sample("Two", 4.5 * 1e-9, "sec/op")],
                kv(&[("key", "value")])
            )
        );
        // "weird": runs of spaces, a huge value, em spaces (U+2003) as separators
        assert_eq!(
            read("\nBenchmarkSpaces    1   1   ns/op\nBenchmarkHugeVal 1 9999999999999999999999999999999 ns/op\nBenchmarkEmSpace\u{2003}\u{2003}1\u{2003}\u{2003}1\u{2003}\u{2003}ns/op\n").0,
            vec![
                sample("Spaces", 1e-9, "sec/op"),
                sample("HugeVal", 9999999999999999999999999999999.0 * 1e-9, "sec/op"),
                sample("EmSpace", 1e-9, "sec/op"),
            ]
        );
        // "basic file keys": a value after spaces and a tab; the other lines are not keys
        assert_eq!(
            read("key1:    \t value\n: not a key\nab:not a key\na b: also not a key\nkey2: value\n\nBenchmarkOne 100 1 ns/op\n").1,
            kv(&[("key1", "value"), ("key2", "value")])
        );
        // "remove existing label", "overwrite exiting label" (the key keeps its place)
        assert_eq!(read("key: value\nkey:\nBenchmarkOne 100 1 ns/op\n").1, kv(&[]));
        assert_eq!(
            read("key1: first\nkey2: second\nkey1: third\nBenchmarkOne 100 1 ns/op\n").1,
            kv(&[("key1", "third"), ("key2", "second")])
        );
        // "unit metadata" (without its bad pair, an error here) and "Unitx" not a unit line;
        // "verbose": the bare name go test -v prints is skipped
        assert_eq!(
            read("Unit ns/op a=1 b=2\nUnit ns/op c=3 d=4\n# Repeated unit should report nothing\nUnit ns/op d=4\nUnitx\nBenchmarkOne 100 1 ns/op\n").0,
            vec![sample("One", 1e-9, "sec/op")]
        );
        assert_eq!(read("BenchmarkOne\nBenchmarkOne 100 1 ns/op\n").0, vec![sample("One", 1e-9, "sec/op")]);
    }

    #[test]
    fn benchfmt_bad_lines() {
        // benchfmt's "bad lines" case: each line that benchfmt reports (and skips) is an
        // error here at the same line, for the same reason
        for (line_no, line, why) in [
            (2, "BenchmarkTailingSpaceNoIter ", "missing iteration count"),
            (3, "BenchmarkBadIter abc", "parsing iteration count: expected an integer"),
            (4, "BenchmarkHugeIter 9999999999999999999999999999999", "parsing iteration count: out of range"),
            (5, "BenchmarkMissingVal 100", "missing measurements"),
            (6, "BenchmarkBadVal 100 abc", "parsing measurement"),
            (7, "BenchmarkMissingUnit 100 1", "missing units"),
            (8, "BenchmarkMissingUnit2 100 1 ns/op 2", "missing units"),
            (10, "Unit", "missing unit"),
            (11, "Unit ns/op blah", "expected key=value"),
            (13, "Unit ns/op a=1\nUnit ns/op a=2", "metadata a of unit ns/op already set to 1"),
        ] {
            let before = "not a benchmark\n".to_string() + &"also not a benchmark\n".repeat(line_no - 2);
            let text = if line.contains('\n') {
                "not a benchmark\n".to_string() + &"x\n".repeat(line_no - 3) + line + "\n"
            } else {
                before + line + "\n"
            };
            let e = parse(&text, Some("test")).unwrap_err().to_string();
            assert!(e.starts_with(&format!("test:{line_no}: {why}")), "{line}: {e}");
        }
    }
}
