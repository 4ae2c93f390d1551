//! GNU time outputs (`/usr/bin/time` with its default format,
//! `0.01user 0.05system 0:00.08elapsed 95%CPU (...)`) as the families of
//! [`super::spec::Layout::ShellpackTime`] and [`super::spec::Layout::PerlTime`] read them:
//! MMTests head's `bin/extract-time` + shared `parse-results`, and 2024/2025's
//! `Extract.pm::parse_time_all`.

use super::{Ctx, Samples};
use crate::cfmt::c_fmt_g;
use crate::error::Result;
use crate::mmtests::logfile::{sort_numeric, LogDir};
use crate::mmtests::perlfmt::numify;
use crate::mmtests::summarise::subheading_matches;

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

/// `sort -n`'s value of a key: a leading number (`-`, digits, `.`), 0 when there is none.
fn sort_n(s: &str) -> f64 {
    let t = s.trim_start();
    let end = t
        .char_indices()
        .find(|&(i, c)| !(c.is_ascii_digit() || c == '.' || (i == 0 && c == '-')))
        .map_or(t.len(), |(i, _)| i);
    t.get(..end).and_then(|n| n.parse().ok()).unwrap_or(0.0)
}

/// head's shared GNU-time `parse-results`: factors A from `time-*-1`, iterations from
/// `time-A-*` (`cut -f3 -d-`, numeric order), rows (metric, A, I, value) sorted by metric,
/// numeric A, numeric I, then the whole line; the label is `<metric>-<A>` (`<metric>` when A
/// is `_`), the sample number I.
pub fn shellpack_time(ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let names = dir.list()?;
    let factors: Vec<&str> = names
        .iter()
        .filter(|n| n.len() >= "time--1".len() && n.starts_with("time-") && n.ends_with("-1"))
        .filter_map(|n| n.split('-').nth(1))
        .collect();
    // (metric, A, I, value, the row as printed)
    let mut rows: Vec<(&'static str, String, String, String, String)> = Vec::new();
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
                let v = cut_field(&words, k);
                let line = format!("{metric}\t{a}\t_\t{i}\t{v}\t_");
                rows.push((metric, a.to_string(), i.clone(), v, line));
            }
        }
    }
    rows.sort_by(|x, y| {
        x.0.as_bytes()
            .cmp(y.0.as_bytes())
            .then(crate::order::nan_last(sort_n(&x.1), sort_n(&y.1)))
            .then(crate::order::nan_last(sort_n(&x.2), sort_n(&y.2)))
            .then(x.4.as_bytes().cmp(y.4.as_bytes()))
    });
    for (metric, a, _, v, _) in rows {
        let label = if a.is_empty() || a == "_" { metric.to_string() } else { format!("{metric}-{a}") };
        if !ctx.subheading.is_empty() && !subheading_matches(&ctx.subheading, &label, false) {
            continue;
        }
        out.add_text(&label, &v);
    }
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

/// 2024/2025's `parse_time_all` (`user`) or `parse_time_syst_elsp` over
/// `<prefix><A>-<I><suffix>`: factors from `<prefix>*-1<suffix>` in numeric order; per factor
/// its files in glob order, every line holding `elapsed` split on single whitespace into
/// user, system, elapsed; `ratio_elsp`: the `elsp-<A>` are the ratio operations.
pub fn perl_time(
    dir: &LogDir<'_>,
    prefix: &str,
    suffix: &str,
    user: bool,
    ratio_elsp: bool,
    out: &mut Samples,
) -> Result<()> {
    let names = dir.list()?;
    let first = format!("-1{suffix}");
    let mut factors: Vec<String> =
        names.iter().filter_map(|n| n.strip_prefix(prefix)?.strip_suffix(&first)).map(str::to_string).collect();
    sort_numeric(&mut factors);
    for a in &factors {
        let head = format!("{prefix}{a}-");
        for n in names.iter().filter(|n| n.starts_with(&head) && n.ends_with(suffix)) {
            crate::cancel::check()?;
            let log = dir.read(n)?;
            out.files_read += 1;
            for line in log.lines().filter(|l| l.contains("elapsed")) {
                let f: Vec<&str> = line.split(|c: char| c.is_ascii_whitespace()).collect();
                let field = |i: usize| f.get(i).copied().unwrap_or_default();
                if user {
                    out.add(&format!("user-{a}"), perl_seconds(field(0), false));
                }
                out.add(&format!("syst-{a}"), perl_seconds(field(1), false));
                out.add(&format!("elsp-{a}"), perl_seconds(field(2), true));
            }
        }
    }
    for a in factors.iter().filter(|_| ratio_elsp) {
        let op = format!("elsp-{a}");
        if !out.ratio_operations().is_some_and(|r| r.contains(&op)) {
            out.push_ratio_op(&op);
        }
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
        assert_eq!(sort_n("bt.C"), 0.0);
        assert_eq!(sort_n("16"), 16.0);
    }

    #[test]
    fn perl_time_fields() {
        assert_eq!(perl_seconds("12.34user", false), 12.34);
        assert_eq!(perl_seconds("1:23.45elapsed", true), 60.0 + 23.45);
        assert_eq!(perl_seconds("1:02:03elapsed", true), 3600.0 + 120.0 + 3.0);
        assert_eq!(perl_seconds("5.00elapsed", true), 5.0 * 3600.0);
    }
}
