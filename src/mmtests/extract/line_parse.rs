//! MMTests head's `shellpack_src/parsers/line-parse-results <dir> <pattern> <metric> <pos>`,
//! the `parse-results` of the head families whose benchmark writes one log per factor pair
//! and iteration (`benchlog-<A>-<B>[-<N>]`) and prints its result on one line
//! ([`super::spec::Layout::ShellpackLine`]).
//!
//! For every A of `ls benchlog-* | cut -f2 -d- | sort -u` and B of `ls benchlog-A-* | cut
//! -f3 -d- | sort -u`: the file `benchlog-A-B` if it exists, else the files `benchlog-A-B-N`
//! (`cut -f4 -d-`, numeric order); of each, the lines `grep -E <pattern>` keeps, awk's field
//! `<pos>`, split into words by the shell; each word is a row `metric A B k value _`, k
//! counting from 1 per (A, B). The rows are sorted `sort -k1,1 -k2,2n -k3,3n -k4,4n` (the
//! script's switch to a text sort of A is made in the loop's subshell and never reaches
//! `sort`), then the family's `sed` (if any) edits each line.

use super::shellpack::{emit, sort_rows, Key, Row};
use super::{Ctx, Samples};
use crate::error::Result;
use crate::mmtests::logfile::{sort_numeric, LogDir};

/// An awk field: `$N`, `$NF` or `$(NF-k)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AwkField {
    /// `$N` (1-based).
    Nth(usize),
    /// `$(NF-k)`: `FromEnd(0)` is `$NF`.
    FromEnd(usize),
}

/// The `sed` a family's `parse-results` runs over the sorted rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sed {
    /// No edit.
    None,
    /// `s/<text>//`: the first occurrence on each line.
    DeleteFirst(&'static str),
    /// `s/<text>//g`: every occurrence.
    DeleteAll(&'static str),
}

/// The arguments of one family's `line-parse-results` call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineSpec {
    /// The `grep -E` pattern.
    pub pattern: &'static str,
    /// The metric name printed in every row.
    pub metric: &'static str,
    /// The awk field holding the value.
    pub field: AwkField,
    /// The edit applied to the output.
    pub sed: Sed,
}

/// awk's `$pos` of a line with the default field separator (runs of blanks); "" when absent.
fn awk_field(line: &str, field: AwkField) -> &str {
    let f: Vec<&str> = line.split([' ', '\t']).filter(|w| !w.is_empty()).collect();
    let i = match field {
        AwkField::Nth(n) => n.checked_sub(1),
        AwkField::FromEnd(k) => f.len().checked_sub(k + 1),
    };
    i.and_then(|i| f.get(i)).copied().unwrap_or("")
}

/// `cut -f<n> -d-` of a file name (the whole name when it has no `-`).
fn cut_dash(name: &str, n: usize) -> &str {
    if !name.contains('-') {
        return name;
    }
    name.split('-').nth(n - 1).unwrap_or("")
}

/// The distinct values of `cut -f<n> -d-` over `names`, in byte order (`sort -u`).
fn distinct(names: &[&String], n: usize) -> Vec<String> {
    let mut v: Vec<String> = names.iter().map(|s| cut_dash(s, n).to_string()).collect();
    v.sort();
    v.dedup();
    v
}

/// Apply `sed` to a printed row and read it back.
fn edit(row: Row, sed: Sed) -> Row {
    let line = format!("{}\t{}\t{}\t{}\t{}", row.metric, row.a, row.b, row.interval, row.value);
    let line = match sed {
        Sed::None => return row,
        Sed::DeleteFirst(t) => line.replacen(t, "", 1),
        Sed::DeleteAll(t) => line.replace(t, ""),
    };
    let mut f = line.split('\t').map(str::to_string);
    let mut next = || f.next().unwrap_or_default();
    Row { metric: next(), a: next(), b: next(), interval: next(), value: next() }
}

/// Read one iteration's `benchlog-*` files as `line-parse-results` does.
pub fn line_parse(ctx: &Ctx, dir: &LogDir<'_>, spec: &LineSpec, out: &mut Samples) -> Result<()> {
    let re = super::pattern::compiled(spec.pattern)?;
    let names = dir.list()?;
    let logs: Vec<&String> = names.iter().filter(|n| n.starts_with("benchlog-")).collect();
    let mut rows = Vec::new();
    for a in distinct(&logs, 2) {
        let prefix_a = format!("benchlog-{a}-");
        let of_a: Vec<&String> = logs.iter().copied().filter(|n| n.starts_with(&prefix_a)).collect();
        for b in distinct(&of_a, 3) {
            let single = format!("benchlog-{a}-{b}");
            let files: Vec<String> = if names.contains(&single) {
                vec![single]
            } else {
                let prefix_b = format!("{single}-");
                let mut nrs: Vec<String> =
                    of_a.iter().filter(|n| n.starts_with(&prefix_b)).map(|n| cut_dash(n, 4).to_string()).collect();
                sort_numeric(&mut nrs);
                nrs.into_iter().map(|nr| format!("{single}-{nr}")).collect()
            };
            let mut k = 0;
            for f in files {
                crate::cancel::check()?;
                let log = dir.read(&f)?;
                out.files_read += 1;
                for line in log.lines().filter(|l| re.is_match(l)) {
                    for value in awk_field(line, spec.field).split_whitespace() {
                        k += 1;
                        rows.push(Row {
                            metric: spec.metric.to_string(),
                            a: a.clone(),
                            b: b.clone(),
                            interval: k.to_string(),
                            value: value.to_string(),
                        });
                    }
                }
            }
        }
    }
    sort_rows(&mut rows, &[Key::Metric, Key::A, Key::B, Key::Interval]);
    let rows: Vec<Row> = rows.into_iter().map(|r| edit(r, spec.sed)).collect();
    emit(ctx, &rows, out);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn awk_fields_and_names() {
        let l = "    events per second:  1234.56";
        assert_eq!(awk_field(l, AwkField::FromEnd(0)), "1234.56");
        assert_eq!(awk_field(l, AwkField::FromEnd(1)), "second:");
        assert_eq!(awk_field(l, AwkField::Nth(2)), "per");
        assert_eq!(awk_field(l, AwkField::Nth(9)), "");
        assert_eq!(cut_dash("benchlog-_-_-3", 4), "3");
        assert_eq!(cut_dash("benchlog-page_fault1_threads-8", 4), "");
        let r =
            Row { metric: "ops".into(), a: "x".into(), b: "4".into(), interval: "1".into(), value: "total:12".into() };
        assert_eq!(edit(r.clone(), Sed::DeleteFirst("total:")).value, "12");
        let r = Row { value: "1,234,567".into(), ..r };
        assert_eq!(edit(r, Sed::DeleteAll(",")).value, "1234567");
    }
}
