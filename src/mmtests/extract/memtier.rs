//! memtier_benchmark's logs (redis-memtier: one run per client count and iteration, its
//! `ALL STATS` table ending with the `Totals` line `Totals <ops/s> <hits/s> <misses/s>
//! <avg latency> [<p50> <p99> <p99.9>] <KB/s>`), as head's `redis-memtier/parse-results` reads
//! `benchlog-<C>-<I>` and 2024/2025's `ExtractRedismemtier.pm` reads `redis-memtier-<C>-<I>.log`
//! (docs/mmtests-extract.md).

use super::shellpack::{emit, mark_ratio, Row};
use super::{Ctx, Samples};
use crate::error::Result;
use crate::mmtests::logfile::{glob_middle, sort_numeric, LogDir};
use crate::mmtests::perlfmt::numify;

/// `sort -u -n`: numeric order, one of each numeric value (the first in input order).
fn sort_un(mut v: Vec<String>) -> Vec<String> {
    sort_numeric(&mut v);
    v.dedup_by(|a, b| numify(a) == numify(b));
    v
}

/// bash's `read A B C D E F <<< "$line"`: the first five words, then the rest of the line
/// with its surrounding blanks removed (its inner blanks kept).
fn read_six(line: &str) -> [String; 6] {
    let mut out: [String; 6] = Default::default();
    let mut rest = line.trim_matches([' ', '\t']);
    for slot in out.iter_mut().take(5) {
        let end = rest.find([' ', '\t']).unwrap_or(rest.len());
        *slot = rest.get(..end).unwrap_or_default().to_string();
        rest = rest.get(end..).unwrap_or_default().trim_start_matches([' ', '\t']);
    }
    if let Some(last) = out.last_mut() {
        *last = rest.to_string();
    }
    out
}

/// head: for C of `ls benchlog-* | cut -d- -f2 | sort -u -n` and I of `ls benchlog-C-* | cut
/// -d- -f3 | sort -u -n`, the line of `benchlog-C-I` starting `Totals` read into `DUMMY OPS HITS
/// MISSES LATENCY KB`: the rows `ops/sec` (a ratio operation), `hits/sec`, `misses/sec`,
/// `latency`, `kb/sec`, factor C, interval I, unsorted. Today's memtier prints three percentile
/// columns before KB/sec, so `KB` holds four numbers and `kb/sec` gets no sample (as in the
/// Perl's table: 0.00).
pub fn head(ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let names = dir.list()?;
    let logs: Vec<&String> = names.iter().filter(|n| n.starts_with("benchlog-")).collect();
    let cut = |n: &str, k: usize| n.split('-').nth(k).unwrap_or_default().to_string();
    let mut rows = Vec::new();
    for c in sort_un(logs.iter().map(|n| cut(n, 1)).collect()) {
        let prefix = format!("benchlog-{c}-");
        let iters = sort_un(logs.iter().filter(|n| n.starts_with(&prefix)).map(|n| cut(n, 2)).collect());
        for i in iters {
            crate::cancel::check()?;
            let name = format!("benchlog-{c}-{i}");
            // grep of a missing file prints nothing: every value empty
            let totals = if dir.is_file(&name) {
                out.files_read += 1;
                let log = dir.read(&name)?;
                // $(grep ^Totals ...): the matching lines, joined by newlines; read takes the first
                let first = log.lines().find(|l| l.starts_with("Totals")).map(str::to_string);
                first.unwrap_or_default()
            } else {
                String::new()
            };
            let [_, ops, hits, misses, latency, kb] = read_six(&totals);
            for (metric, value) in
                [("ops/sec", ops), ("hits/sec", hits), ("misses/sec", misses), ("latency", latency), ("kb/sec", kb)]
            {
                rows.push(Row { metric: metric.into(), a: c.clone(), b: "_".into(), interval: i.clone(), value });
            }
        }
    }
    emit(ctx, &rows, out);
    mark_ratio(out, rows.iter().filter(|r| r.metric == "ops/sec"));
    Ok(())
}

/// 2024/2025: per C of `discover_scaling_parameters("redis-memtier-", "-1.log")`, every file of
/// `redis-memtier-C-*.log` (glob order, one iteration each): the lines starting `Totals`, whose
/// second, third and fourth fields are samples of `C-ops/sec`, `C-hits/sec`, `C-miss/sec`.
pub fn legacy(_ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let names = dir.list()?;
    let mut clients: Vec<String> =
        glob_middle(&names, "redis-memtier-", "-1.log").into_iter().map(|(_, c)| c.to_string()).collect();
    sort_numeric(&mut clients);
    for c in clients {
        for (f, _) in glob_middle(&names, &format!("redis-memtier-{c}-"), ".log") {
            crate::cancel::check()?;
            let log = dir.read(f)?;
            out.files_read += 1;
            for line in log.lines().filter(|l| l.starts_with("Totals")) {
                let e = super::perl_split_ws(line);
                for (k, what) in [(1, "ops/sec"), (2, "hits/sec"), (3, "miss/sec")] {
                    match e.get(k) {
                        Some(v) => out.add_text(&format!("{c}-{what}"), v),
                        None => out.register(&format!("{c}-{what}")),
                    }
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_keeps_the_rest_whole() {
        let r = read_six("Totals   1.5   2   3   4.1   5  6   7 ");
        assert_eq!(r[1], "1.5");
        assert_eq!(r[4], "4.1");
        assert_eq!(r[5], "5  6   7");
        assert_eq!(read_six("")[5], "");
        assert_eq!(sort_un(vec!["8".into(), "1".into(), "4".into(), "1".into()]), ["1", "4", "8"]);
    }
}
