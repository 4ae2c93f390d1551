//! GNU time outputs (`/usr/bin/time` with its default format,
//! `0.01user 0.05system 0:00.08elapsed 95%CPU (...)`) as the families of
//! [`super::spec::Layout::ShellpackTime`] and [`super::spec::Layout::PerlTime`] read them:
//! MMTests head's `bin/extract-time` + shared `parse-results`, and 2024/2025's
//! `Extract.pm::parse_time_all`.

use super::shellpack::{emit, sort_rows, Key, Row};
use super::{Ctx, Samples};
use crate::cfmt::c_fmt_g;
use crate::error::{Error, Result};
use crate::mmtests::logfile::{glob_middle, sort_numeric, LogDir};
use crate::mmtests::perlfmt::numify;

/// What `bin/extract-time` prints for a GNU time output: over the words of every line
/// holding `elapsed`, `<x>user` starts the list afresh, `<x>system` appends x, and a word
/// holding `elapsed` appends its `[h:]m:s` in seconds as awk prints it (`%.6g`, integers
/// whole); empty words vanish in the shell's word splitting.
pub fn extract_time(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in text.lines().filter(|l| l.contains("elapsed")) {
        for w in line.split_whitespace() {
            if let Some(u) = w.strip_suffix("user") {
                out = vec![u.to_string()];
            }
            if let Some(s) = w.strip_suffix("system") {
                out.push(s.to_string());
            }
            if w.contains("elapsed") {
                let mut e = w.to_string();
                while e.matches(':').count() < 2 {
                    e.insert_str(0, "0:");
                }
                let e = e.strip_suffix("elapsed").unwrap_or(&e);
                let f: Vec<f64> = e.split(':').map(numify).collect();
                let v = f.first().copied().unwrap_or(0.0) * 3600.0
                    + f.get(1).copied().unwrap_or(0.0) * 60.0
                    + f.get(2).copied().unwrap_or(0.0);
                out.push(if v.fract() == 0.0 && v.abs() < 1e15 { format!("{}", v as i64) } else { c_fmt_g(v, 6) });
            }
        }
    }
    out.retain(|w| !w.is_empty());
    out
}

/// `cut -d' ' -f<n>` of the words joined by spaces: a line without a space is printed whole
/// for every field; a missing field is empty.
fn cut_field(words: &[String], n: usize) -> String {
    if words.len() <= 1 {
        return words.first().cloned().unwrap_or_default();
    }
    words.get(n).cloned().unwrap_or_default()
}

/// head's shared GNU-time `parse-results` (`time-parse-results`): factors A from `time-*-1`,
/// iterations from `time-A-*` (`cut -f3 -d-`, numeric order), rows `User` (unless
/// `exclude_user`: `PARSE_EXCLUDE_USER_TIME=yes`), `System`, `Elapsed` per (A, I), sorted
/// `sort -k1,1 -k2,2n -k4,4n`; the label is `<metric>-<A>` (`<metric>` when A is `_`).
pub fn shellpack_time(
    ctx: &Ctx,
    dir: &LogDir<'_>,
    exclude_user: bool,
    by_interval: bool,
    out: &mut Samples,
) -> Result<()> {
    let names = dir.list()?;
    let factors: Vec<&str> = names
        .iter()
        .filter(|n| n.len() >= "time--1".len() && n.starts_with("time-") && n.ends_with("-1"))
        .filter_map(|n| n.split('-').nth(1))
        .collect();
    let metrics: &[&str] = if exclude_user { &["System", "Elapsed"] } else { &["User", "System", "Elapsed"] };
    let mut rows = Vec::new();
    for a in factors {
        let prefix = format!("time-{a}-");
        let mut iters: Vec<String> = names
            .iter()
            .filter(|n| n.starts_with(&prefix))
            .map(|n| n.split('-').nth(2).unwrap_or_default().to_string())
            .collect();
        sort_numeric(&mut iters);
        for i in iters {
            crate::cancel::check()?;
            let log = dir.read(&format!("time-{a}-{i}"))?;
            out.files_read += 1;
            let words = extract_time(&log.text);
            for (k, metric) in ["User", "System", "Elapsed"].into_iter().enumerate() {
                if !metrics.contains(&metric) {
                    continue;
                }
                rows.push(Row {
                    metric: metric.to_string(),
                    a: a.to_string(),
                    b: "_".to_string(),
                    interval: i.clone(),
                    value: cut_field(&words, k),
                });
            }
        }
    }
    let keys: &[Key] = if by_interval { &[Key::Metric, Key::A, Key::Interval] } else { &[Key::Metric, Key::A] };
    sort_rows(&mut rows, keys);
    emit(ctx, &rows, out);
    Ok(())
}

/// `_time_to_user` / `_time_to_sys` / `_time_to_elapsed` of Extract.pm: the field split on
/// `:`; one part is seconds (user, system), two are minutes and seconds, otherwise hours,
/// minutes and seconds (an elapsed field without `:` is read as hours, as the Perl does).
fn perl_seconds(field: &str, elapsed: bool) -> f64 {
    let p: Vec<f64> = if field.is_empty() { Vec::new() } else { field.split(':').map(numify).collect() };
    let at = |i: usize| p.get(i).copied().unwrap_or(0.0);
    let (h, m, s) = match p.len() {
        1 if !elapsed => (0.0, 0.0, at(0)),
        2 => (0.0, at(0), at(1)),
        _ => (at(0), at(1), at(2)),
    };
    h * 60.0 * 60.0 + m * 60.0 + s
}

/// A GNU time field as Extract.pm's `_time_to_user` / `_time_to_sys` / `_time_to_elapsed`
/// read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeField {
    /// The first field (`_time_to_user`).
    User,
    /// The second (`_time_to_sys`).
    System,
    /// The third (`_time_to_elapsed`).
    Elapsed,
}

/// How a 2024/2025 module reads GNU time files ([`super::spec::Layout::PerlTime`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimeSpec {
    /// The file name prefix (`kernbench-`).
    pub prefix: &'static str,
    /// The file name suffix (`.time`, or "").
    pub suffix: &'static str,
    /// Where the factors come from.
    pub factors: TimeFactors,
    /// Per line holding `elapsed`, the fields read and the operation of each:
    /// `<op><A>`.
    pub fields: &'static [(TimeField, &'static str)],
    /// Whether every factor's files are read for the first field, then again for the
    /// next (autonumabench), rather than all fields per line.
    pub field_major: bool,
    /// The value's multiplier (trunc's milliseconds: 1000).
    pub scale: f64,
    /// `_RatioOperations`.
    pub ratio: RatioOps,
    /// `_Operations` set by the module: per factor, `<op><A>` for each of these.
    pub operations: Option<&'static [&'static str]>,
}

/// The `_RatioOperations` of a [`TimeSpec`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RatioOps {
    /// None set: `--print-ratio` shows every operation.
    None,
    /// `<text><A>` per factor.
    PerFactor(&'static str),
    /// A list the module names.
    Fixed(&'static [&'static str]),
}

/// The factors of a [`TimeSpec`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeFactors {
    /// No factor: the files `<prefix>*<suffix>`.
    None,
    /// `discover_scaling_parameters`' suffix (`-1.time`): the factors are the middles of
    /// `<prefix>*<first>` (numeric order), a factor's files `<prefix><A>-*<suffix>`.
    Discover(&'static str),
    /// A list the module names, a factor's files `<prefix><A><sep>*<suffix>`.
    Fixed(&'static [&'static str], &'static str),
}

impl TimeField {
    fn read(self, line: &str) -> f64 {
        let f: Vec<&str> = line.split(|c: char| c.is_ascii_whitespace()).collect();
        let field = |i: usize| f.get(i).copied().unwrap_or_default();
        match self {
            TimeField::User => perl_seconds(field(0), false),
            TimeField::System => perl_seconds(field(1), false),
            TimeField::Elapsed => perl_seconds(field(2), true),
        }
    }
}

/// 2024/2025's GNU-time modules (`parse_time_all`, `parse_time_syst_elsp`,
/// `parse_time_elapsed` and the modules that loop over the files themselves): per factor
/// its files in glob order, every line holding `elapsed` giving one sample per field.
pub fn perl_time(dir: &LogDir<'_>, spec: &TimeSpec, out: &mut Samples) -> Result<()> {
    let names = dir.list()?;
    let groups: Vec<(String, Vec<String>)> = match spec.factors {
        TimeFactors::None => vec![(String::new(), glob(&names, spec.prefix, spec.suffix))],
        TimeFactors::Fixed(list, sep) => list
            .iter()
            .map(|a| (a.to_string(), glob(&names, &format!("{}{a}{sep}", spec.prefix), spec.suffix)))
            .collect(),
        TimeFactors::Discover(first) => {
            let mut factors: Vec<String> = names
                .iter()
                .filter_map(|n| n.strip_prefix(spec.prefix)?.strip_suffix(first))
                .map(str::to_string)
                .collect();
            sort_numeric(&mut factors);
            factors
                .into_iter()
                .map(|a| {
                    let files = glob(&names, &format!("{}{a}-", spec.prefix), spec.suffix);
                    (a, files)
                })
                .collect()
        }
    };
    let mut texts: Vec<Vec<String>> = Vec::new();
    for (_, files) in &groups {
        let mut per = Vec::new();
        for n in files {
            crate::cancel::check()?;
            per.push(dir.read(n)?.text);
            out.files_read += 1;
        }
        texts.push(per);
    }
    let sample = |a: &str, text: &str, fields: &[(TimeField, &str)], out: &mut Samples| {
        for line in text.lines().filter(|l| l.contains("elapsed")) {
            for (f, op) in fields {
                out.add(&format!("{op}{a}"), f.read(line) * spec.scale);
            }
        }
    };
    if spec.field_major {
        for field in spec.fields {
            for ((a, _), per) in groups.iter().zip(&texts) {
                per.iter().for_each(|t| sample(a, t, std::slice::from_ref(field), out));
            }
        }
    } else {
        for ((a, _), per) in groups.iter().zip(&texts) {
            per.iter().for_each(|t| sample(a, t, spec.fields, out));
        }
    }
    if let Some(ops) = spec.operations {
        out.set_order(groups.iter().flat_map(|(a, _)| ops.iter().map(move |op| format!("{op}{a}"))).collect());
    }
    let ratio: Vec<String> = match spec.ratio {
        RatioOps::None => Vec::new(),
        RatioOps::PerFactor(r) => groups.iter().map(|(a, _)| format!("{r}{a}")).collect(),
        RatioOps::Fixed(list) => list.iter().map(|s| s.to_string()).collect(),
    };
    for op in ratio {
        if !out.ratio_operations().is_some_and(|have| have.contains(&op)) {
            out.push_ratio_op(&op);
        }
    }
    Ok(())
}

/// The names of the glob `<prefix>*<suffix>`, in glob order.
fn glob(names: &[String], prefix: &str, suffix: &str) -> Vec<String> {
    glob_middle(names, prefix, suffix).into_iter().map(|(n, _)| n.to_string()).collect()
}

/// 2024/2025's `ExtractCputime` (gitsource, gitcheckout): the file `time`, every line holding
/// `elapsed` with letters, `[`, `]` and `%` deleted (`tr/[a-zA-Z]%//d`) and split on single
/// whitespace into user, system, elapsed (`[h:]m:s`) and CPU: samples of `User`, `System`,
/// `Elapsed`, `CPU`; `Elapsed` is the ratio operation. Without `time` the module dies.
pub fn cputime(dir: &LogDir<'_>, benchmark: &str, out: &mut Samples) -> Result<()> {
    let names = dir.list()?;
    if !names.iter().any(|n| n == "time") {
        return Err(Error::insufficient(format!(
            "benchmark '{benchmark}': MMTests' ExtractCputime reads {}, which is missing (compare-mmtests.pl \
             dies with \"Failed to open\"; this era's {benchmark} shellpack may write only time.<iteration>)",
            dir.join("time")
        )));
    }
    let log = dir.read("time")?;
    out.files_read += 1;
    for line in log.lines().filter(|l| l.contains("elapsed")) {
        crate::cancel::check()?;
        let kept: String =
            line.chars().filter(|c| !(c.is_ascii_alphabetic() || matches!(c, '[' | ']' | '%'))).collect();
        let f: Vec<&str> = kept.split(|c: char| c.is_ascii_whitespace()).collect();
        let field = |i: usize| f.get(i).copied().unwrap_or_default();
        out.add_text("User", field(0));
        out.add_text("System", field(1));
        let e: Vec<f64> = field(2).split(':').map(numify).collect();
        let at = |i: usize| e.get(i).copied().unwrap_or(0.0);
        let elapsed = if e.len() == 2 { at(0) * 60.0 + at(1) } else { at(0) * 60.0 * 60.0 + at(1) * 60.0 + at(2) };
        out.add("Elapsed", elapsed);
        out.add_text("CPU", field(3));
    }
    if out.ratio_operations().is_none() {
        out.push_ratio_op("Elapsed");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extract_time_as_the_shell_script() {
        // bin/extract-time on GNU time's default output (bash + gawk)
        let t = "12.34user 5.67system 1:23.45elapsed 21%CPU (0avgtext+0avgdata 1234maxresident)k\n\
                 0inputs+0outputs (0major+12minor)pagefaults 0swaps\n";
        assert_eq!(extract_time(t), ["12.34", "5.67", "83.45"]);
        assert_eq!(extract_time("1.00user 2.00system 12:34:56.78elapsed 99%CPU\n"), ["1.00", "2.00", "45296.8"]);
        assert_eq!(extract_time("0.00user 0.00system 0:02.00elapsed\n"), ["0.00", "0.00", "2"]);
        assert!(extract_time("Command exited with non-zero status 1\n").is_empty());
        assert_eq!(cut_field(&["7".to_string()], 2), "7");
    }

    #[test]
    fn perl_time_fields() {
        assert_eq!(perl_seconds("12.34user", false), 12.34);
        assert_eq!(perl_seconds("1:23.45elapsed", true), 60.0 + 23.45);
        assert_eq!(perl_seconds("1:02:03elapsed", true), 3600.0 + 120.0 + 3.0);
        assert_eq!(perl_seconds("5.00elapsed", true), 5.0 * 3600.0);
    }
}
