//! compare-mmtests.pl's text layout (`PrintGeneric.pm`, `Compare.pm`'s render
//! tables), byte for byte, from a [`Comparison`] (reference: docs/mmtests.md §5.4, §7.5).
//!
//! Layout facts travel in the comparison's typed `meta.mmtests` ([`MmtestsMeta`]): the
//! layout (table or ratio), field length, precision, label widths, whether the table is
//! values only, parsed from text, and of which era.

use super::perlfmt::{fmt_f, pad};
use crate::error::Result;
use crate::table::{Comparison, MmtestsLayout, MmtestsMeta};

/// The two header parts of a run name as `_generateHeaderTable` splits it: at
/// the first `-`, moved 4 characters right when the text after it holds `-rc[0-9]`;
/// a name without `-` gives (name minus its last character, name).
pub fn split_name(name: &str) -> (String, String) {
    let chars: Vec<char> = name.chars().collect();
    let Some(idx) = chars.iter().position(|&c| c == '-') else {
        let first: String = chars.iter().take(chars.len().saturating_sub(1)).collect();
        return (first, name.to_string());
    };
    // Perl: substr($testName, $index, $index+3) =~ /-rc[0-9]/
    let window: String = chars.iter().skip(idx).take(idx + 3).collect();
    let has_rc = window.split("-rc").skip(1).any(|after| after.starts_with(|c: char| c.is_ascii_digit()));
    let idx = if has_rc { idx + 4 } else { idx };
    let first: String = chars.iter().take(idx).collect();
    let second: String = chars.iter().skip(idx + 1).collect();
    (first, second)
}

fn header(c: &Comparison, m: &MmtestsMeta, first_width: usize, fl: usize) -> String {
    let mut out = String::new();
    // a table without the comparison (`--print-monitor`, `--no-compare`) has value-wide columns
    let compare = if m.values_only { 0 } else { 11 };
    // a run compare-mmtests.pl lost keeps its column without a name, and its header is
    // as wide as a field length of 0 makes it (docs/mmtests.md §12)
    let parts: Vec<(String, String, usize)> = c
        .kernels
        .iter()
        .map(|k| {
            if m.is_blank_column(k) {
                (String::new(), String::new(), compare)
            } else {
                let (a, b) = split_name(k);
                (a, b, fl + compare)
            }
        })
        .collect();
    for line in 0..2 {
        out.push_str(&pad("", first_width, false));
        for (a, b, width) in &parts {
            out.push_str(&pad(if line == 0 { a } else { b }, *width, false));
        }
        out.push('\n');
    }
    out
}

/// Render `c` in MMTests' own layout (a comparison table or a `--print-ratio` table).
/// Polls [`crate::cancel`] every 4096 rows.
pub fn render(c: &Comparison) -> Result<String> {
    // a table of another tool has the defaults
    let none = MmtestsMeta::default();
    let m = c.meta.mmtests.as_ref().unwrap_or(&none);
    match m.layout {
        MmtestsLayout::Ratio => render_ratio(c, m),
        MmtestsLayout::Table => render_table(c, m),
    }
}

/// Dmean/Dmin/Dmax/Gmean: the summary rows of `--print-ratio`, printed as values only.
pub(crate) fn bare_values(group: &str) -> bool {
    matches!(group, "Dmean" | "Dmin" | "Dmax" | "Gmean")
}

fn render_table(c: &Comparison, m: &MmtestsMeta) -> Result<String> {
    let fl = m.field_length.unwrap_or(12);
    let prec = m.precision.unwrap_or(2);
    let l1 = c.rows.groups().map(|g| g.chars().count()).max().unwrap_or(0).max(m.label_width.unwrap_or(0));
    let l2 = c.rows.names().map(|n| n.chars().count()).max().unwrap_or(0).max(m.op_width.unwrap_or(0));
    let mut groups: Vec<&str> = Vec::new();
    for g in c.rows.groups() {
        if !groups.contains(&g) {
            groups.push(g);
        }
    }
    // Compare.pm builds (value, percentage) formats for (number of runs + 1) runs since
    // 2019 (6d6c34e1), so every run is formatted; MMTests 2018 built them for (number of
    // statistics + 2) runs and printed the rest with the default `%{fl}.2f`. A table parsed
    // from mail is usually an excerpt (a few statistics of the full set), so its statistic
    // count says nothing about the formats: print them all.
    let parsed = m.parsed;
    let era_2018 = m.era.as_deref() == Some("2018");
    let formatted_runs = if era_2018 && !parsed { groups.len() + 2 } else { usize::MAX };
    let mut out = header(c, m, l1 + l2 + 1, fl);
    for (i, r) in c.rows.iter().enumerate() {
        crate::cancel::check_every(i)?;
        out.push_str(&pad(&r.group, l1, true));
        out.push(' ');
        out.push_str(&pad(&r.name, l2, true));
        for (j, cell) in r.cells.iter().enumerate() {
            // compare-mmtests.pl prints 0.00 where it has no value; a table parsed from
            // text has no value only where the text said NaN (JSON keeps NaN as null)
            let v = cell.value.unwrap_or(if parsed { f64::NAN } else { 0.0 });
            let p = if cell.value.is_some() || parsed { cell.change.unwrap_or(f64::NAN) } else { 0.0 };
            if bare_values(&r.group) || m.values_only {
                // the --print-ratio summary rows hold values only, whatever the layout
                out.push_str(&fmt_f(v, fl, prec, false, false));
            } else if j < formatted_runs {
                out.push_str(&fmt_f(v, fl, prec, false, false));
                if cell.significant == Some(true) {
                    out.push_str(&format!(" *{}%*", fmt_f(p, 7, 2, false, false)));
                } else {
                    out.push_str(&format!(" ({}%)", fmt_f(p, 7, 2, false, false)));
                }
            } else {
                out.push_str(&fmt_f(v, fl, 2, false, false));
                out.push_str(&fmt_f(p, fl, 2, false, false));
            }
        }
        out.push('\n');
    }
    Ok(out)
}

fn render_ratio(c: &Comparison, m: &MmtestsMeta) -> Result<String> {
    let fl = m.field_length.unwrap_or(12);
    let prec = m.precision.unwrap_or(2);
    let ratio_rows: Vec<_> = c.rows.iter().filter(|r| r.group == "Ratio").collect();
    let w = (ratio_rows.iter().map(|r| r.name.chars().count()).max().unwrap_or(0) + 6).max(m.label_width.unwrap_or(0));
    // formats exist for (number of ratio operations + 1) runs; a parsed table says how
    // many runs its text printed formatted
    let formatted_runs = m.formatted_runs.unwrap_or(ratio_rows.len() + 1);
    let mut out = header(c, m, w, fl);
    for (i, r) in c.rows.iter().enumerate() {
        crate::cancel::check_every(i)?;
        let label = if r.group == "Ratio" { format!("Ratio {}", r.name) } else { format!("{:<5} {}", r.group, r.name) };
        out.push_str(&pad(&label, w, true));
        for (j, cell) in r.cells.iter().enumerate() {
            let v = cell.value.unwrap_or(f64::NAN);
            if r.group == "Ratio" {
                // a ratio row always has a change: none is a NaN that went through JSON
                let p = cell.change.unwrap_or(f64::NAN);
                let n = cell.spread.unwrap_or(f64::NAN);
                if j < formatted_runs {
                    out.push_str(&fmt_f(v, fl, prec, false, false));
                    out.push_str(&format!(" ({}%)", fmt_f(p, 0, 2, false, false)));
                    out.push_str(&format!(" ({}s)", fmt_f(n, 0, 2, true, false)));
                } else {
                    out.push_str(&fmt_f(v, fl, 2, false, false));
                    out.push_str(&fmt_f(p, fl, 2, false, false));
                    out.push_str(&fmt_f(n, fl, 2, false, false));
                }
            } else if j < formatted_runs {
                out.push_str(&fmt_f(v, fl, prec, false, false));
                out.push_str(&" ".repeat(8 + 9));
            } else {
                out.push_str(&fmt_f(v, fl, 2, false, false));
                out.push_str(&" ".repeat(2 * fl));
            }
        }
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_name_split() {
        assert_eq!(split_name("6.8-vanilla"), ("6.8".into(), "vanilla".into()));
        assert_eq!(split_name("6.10-rc3-foo"), ("6.10-rc3".into(), "foo".into()));
        assert_eq!(split_name("c-rc1-d"), ("c-rc1".into(), "d".into()));
        assert_eq!(split_name("a-b"), ("a".into(), "b".into()));
        assert_eq!(split_name("base"), ("bas".into(), "base".into()));
        assert_eq!(split_name("4.18.0-teo-v6+backport"), ("4.18.0".into(), "teo-v6+backport".into()));
    }
}
