//! The shape most of MMTests 2024/2025's `Extract<Family>.pm` modules share
//! ([`super::spec::Layout::PerlScan`]): the factors from `discover_scaling_parameters`
//! (`<prefix>*<first>` with the prefix and suffix removed, numeric order), per factor the
//! files `<prefix><A>-*<suffix>` in glob order (or, without factors, one glob), each read
//! through `open_log` (`.gz`/`.xz` preferred), and a regex whose first group is the value
//! on the lines it matches.

use super::shellpack::{emit, Row};
use super::{Ctx, Samples};
use crate::error::{Error, Result};
use crate::mmtests::logfile::{glob_middle, sort_numeric, LogDir};
use crate::mmtests::perlfmt::{looks_like_number, numify};

/// Where the factors come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Factors {
    /// No factor: every file of the glob `<prefix>*<suffix>`.
    None,
    /// `discover_scaling_parameters($dir, prefix, first)`; a factor's files are the glob
    /// `<prefix><A><sep>*<suffix>`.
    Scaling {
        /// The suffix after the factor of the files that name the factors (`-1.log`).
        first: &'static str,
        /// What follows the factor in a factor's files (`-`; nas: `.log.`).
        sep: &'static str,
    },
}

/// The operation a value is added to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// A fixed name (`Time`, `Trans`).
    Fixed(&'static str),
    /// `<text><A>`: `""` gives the factor itself (`addData($thread, ...)`).
    Factor(&'static str),
}

/// Which matches of a file are samples.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Take {
    /// Every matching line.
    Each,
    /// The first (the module's `last` after a match).
    First,
    /// The last match, added once per file whether or not a line matched (the module
    /// keeps the value in a variable and adds it after the loop).
    Last,
}

/// How the captured text becomes the value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value {
    /// As captured.
    Text,
    /// With every `,` removed (`s/,//g`).
    NoCommas,
    /// Multiplied by the factor, then by this (pedsort's `$3*$nthr*60`).
    TimesFactor(f64),
    /// Group 1 divided by group 2 (stockfish's `$1/$2`, nodes over milliseconds).
    Quotient,
    /// As captured, when group 2 is this unit; another unit is the module's `die`
    /// (perffutexwake's "Units of time X not recognised").
    InUnit(&'static str),
}

/// One module's reading.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScanSpec {
    /// The factors.
    pub factors: Factors,
    /// The file name prefix (`sysbench-raw-`, `pipe-`).
    pub prefix: &'static str,
    /// The file glob's suffix (`""`, `.log`, `.log.gz`).
    pub suffix: &'static str,
    /// The line regex; group 1 is the value.
    pub pattern: &'static str,
    /// The operation.
    pub op: Op,
    /// Which matches count.
    pub take: Take,
    /// How the value is computed.
    pub value: Value,
    /// The module `die`s (`die("No data")`) when no factor is found.
    pub dies_without_factors: bool,
}

/// Read one iteration's files as the module's `extractReport` does.
pub fn perl_scan(dir: &LogDir<'_>, benchmark: &str, spec: &ScanSpec, out: &mut Samples) -> Result<()> {
    let mut found = Vec::new();
    scan(dir, benchmark, spec, out, |a, v| found.push((a.to_string(), v)))?;
    for (a, v) in found {
        let op = match spec.op {
            Op::Fixed(name) => name.to_string(),
            Op::Factor(text) => format!("{text}{a}"),
        };
        match v {
            Found::Text(t) => add(out, &op, &t, spec.value, &a),
            Found::Number(x) => out.add(&op, x),
        }
    }
    Ok(())
}

/// The same reading in MMTests head's shellpacks that kept the module as their
/// `extract-report.pl` (through `parsers/legacy-support.pl`): each value is printed as the
/// row `<metric> <A> _ <n> <value>` (A `_` without factors), unsorted.
pub fn head_scan(ctx: &Ctx, dir: &LogDir<'_>, spec: &ScanSpec, metric: &str, out: &mut Samples) -> Result<()> {
    let mut rows = Vec::new();
    scan(dir, &ctx.benchmark, spec, out, |a, v| {
        let value = match v {
            Found::Text(t) => t,
            Found::Number(x) => crate::mmtests::perlfmt::perl_str(x),
        };
        let (a, interval) = (if a.is_empty() { "_" } else { a }, rows.len() + 1);
        rows.push(Row { metric: metric.into(), a: a.into(), b: "_".into(), interval: interval.to_string(), value });
    })?;
    emit(ctx, &rows, out);
    Ok(())
}

/// A value the module found: the captured text, or a number it computed.
enum Found {
    Text(String),
    Number(f64),
}

/// Each sample the module finds, with its factor.
fn scan(
    dir: &LogDir<'_>,
    benchmark: &str,
    spec: &ScanSpec,
    out: &mut Samples,
    mut found: impl FnMut(&str, Found),
) -> Result<()> {
    let re = super::pattern::compiled(spec.pattern)?;
    let names = dir.list()?;
    let groups: Vec<(String, Vec<&str>)> = match spec.factors {
        Factors::None => {
            vec![(String::new(), glob_middle(&names, spec.prefix, spec.suffix).into_iter().map(|m| m.0).collect())]
        }
        Factors::Scaling { first, sep } => {
            let mut factors: Vec<String> =
                glob_middle(&names, spec.prefix, first).into_iter().map(|(_, m)| m.to_string()).collect();
            sort_numeric(&mut factors);
            if factors.is_empty() && spec.dies_without_factors {
                return Err(Error::insufficient(format!(
                    "benchmark '{benchmark}': no {}*{first} file under {} (MMTests' module dies with \"No data\")",
                    spec.prefix,
                    dir.display()
                )));
            }
            factors
                .into_iter()
                .map(|a| {
                    let head = format!("{}{a}{sep}", spec.prefix);
                    let files = glob_middle(&names, &head, spec.suffix).into_iter().map(|m| m.0).collect();
                    (a, files)
                })
                .collect()
        }
    };
    for (a, files) in groups {
        for f in files {
            crate::cancel::check()?;
            let log = dir.read(&open_log_name(&names, f))?;
            out.files_read += 1;
            let mut last: Option<String> = None;
            for (n, line) in log.lines().enumerate() {
                let Some(c) = re.captures(line) else { continue };
                let Some(v) = c.get(1) else { continue };
                let value = match (spec.value, c.get(2)) {
                    (Value::Quotient, Some(d)) => {
                        let d = numify(d.as_str());
                        if d == 0.0 {
                            return Err(Error::parse(
                                Some(&log.name()),
                                Some(n + 1),
                                "a divisor of 0: MMTests' module dies with \"Illegal division by zero\"",
                            ));
                        }
                        Found::Number(numify(v.as_str()) / d)
                    }
                    (Value::InUnit(unit), Some(u)) if u.as_str() != unit => {
                        return Err(Error::parse(
                            Some(&log.name()),
                            Some(n + 1),
                            format!(
                                "benchmark '{benchmark}': time in '{}', expected '{unit}': MMTests' module dies \
                                 with \"Units of time {} not recognised\"",
                                u.as_str(),
                                u.as_str()
                            ),
                        ));
                    }
                    _ => Found::Text(v.as_str().to_string()),
                };
                match (spec.take, value) {
                    (Take::Last, Found::Text(t)) => last = Some(t),
                    (_, value) => found(&a, value),
                }
                if spec.take == Take::First {
                    break;
                }
            }
            if spec.take == Take::Last {
                found(&a, Found::Text(last.unwrap_or_default()));
            }
        }
    }
    Ok(())
}

/// `addData(op, _, value)` with the module's computation.
fn add(out: &mut Samples, op: &str, text: &str, value: Value, factor: &str) {
    match value {
        Value::Text | Value::Quotient | Value::InUnit(_) => out.add_text(op, text),
        Value::NoCommas => out.add_text(op, &text.replace(',', "")),
        Value::TimesFactor(k) => {
            if looks_like_number(text) {
                out.add(op, numify(text) * numify(factor) * k);
            } else {
                out.register(op);
            }
        }
    }
}

/// The file `open_log` reads for `name`: `.gz`/`.xz` stripped, then `<base>.gz`, else
/// `<base>.xz`, else `<base>`.
fn open_log_name(names: &[String], name: &str) -> String {
    let base = name.strip_suffix(".gz").or_else(|| name.strip_suffix(".xz")).unwrap_or(name);
    for ext in [".gz", ".xz"] {
        let c = format!("{base}{ext}");
        if names.contains(&c) {
            return c;
        }
    }
    base.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_log_prefers_compressed() {
        let names: Vec<String> = ["a.log", "a.log.gz", "b.log.xz"].iter().map(|s| s.to_string()).collect();
        assert_eq!(open_log_name(&names, "a.log"), "a.log.gz");
        assert_eq!(open_log_name(&names, "b.log.xz"), "b.log.xz");
        assert_eq!(open_log_name(&names, "c.log"), "c.log");
    }
}
