//! sysjitter's summary (`sysjitter.log`: a line `<label>: v v ...` per statistic, one column
//! per CPU, the CPUs named by the `core_i:` line), as head's `sysjitter/parse-results.awk` and
//! 2024/2025's `ExtractSysjitter.pm` read it (docs/mmtests-extract.md).

use super::awk_bench::awk_fields;
use super::shellpack::{emit, mark_ratio, Row};
use super::{Ctx, Samples};
use crate::error::Result;
use crate::mmtests::logfile::LogDir;
use crate::mmtests::perlfmt::numify;

/// awk's `sub(re, repl, s)` for a literal `re`: the first occurrence replaced.
fn sub_first(s: &str, what: &str, with: &str) -> String {
    s.replacen(what, with, 1)
}

/// head: `core_i:` names the columns; each line starting `int_` and holding `:` gives per
/// column the row `<metric> cpu<core> _ 1 <value>`, the metric being the first field with `):`
/// and `:` removed, `(` made `_` and `%` made `%age` (`int_min(ns):` is `int_min_ns`);
/// `int_n_per_sec` rows are ratio operations. Unsorted.
pub fn head(ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    if !dir.is_file("sysjitter.log") {
        return Ok(()); // the shell cannot redirect from a missing file: no rows
    }
    let log = dir.read("sysjitter.log")?;
    out.files_read += 1;
    let mut cpumap: Vec<String> = Vec::new();
    let mut rows = Vec::new();
    for line in log.lines() {
        if line.contains("core_i:") {
            let rest = sub_first(line, "core_i: ", "");
            // awk keeps the entries a longer earlier core_i line set beyond this one's
            for (i, w) in awk_fields(&rest).into_iter().enumerate() {
                match cpumap.get_mut(i) {
                    Some(slot) => *slot = w.to_string(),
                    None => cpumap.push(w.to_string()),
                }
            }
        }
        if !(line.starts_with("int_") && line.contains(':')) {
            continue;
        }
        let first = awk_fields(line).first().copied().unwrap_or_default();
        let metric = sub_first(&sub_first(&sub_first(&sub_first(first, "):", ""), ":", ""), "(", "_"), "%", "%age");
        // sub(/int_.*: /, "", $0): from the first `int_` to the last `: `
        let values = match (line.find("int_"), line.rfind(": ")) {
            (Some(p), Some(q)) if q >= p + 4 => {
                format!("{}{}", line.get(..p).unwrap_or_default(), line.get(q + 2..).unwrap_or_default())
            }
            _ => line.to_string(),
        };
        for (i, v) in awk_fields(&values).into_iter().enumerate() {
            rows.push(Row {
                metric: metric.clone(),
                a: format!("cpu{}", cpumap.get(i).map(String::as_str).unwrap_or_default()),
                b: "_".into(),
                interval: "1".into(),
                value: v.to_string(),
            });
        }
    }
    emit(ctx, &rows, out);
    mark_ratio(out, rows.iter().filter(|r| r.metric == "int_n_per_sec"));
    Ok(())
}

/// 2024/2025: `core_i:` names the CPUs; lines starting `threshold`, `cpu_mhz` or `runtime` are
/// skipped; of every other line (its first `:` and first `(ns)` removed) the first field is
/// the metric and each value a sample of `cpu<core>-<metric>`, then the largest positive one
/// plus 0.01 a sample of `cpuXX-<metric>`.
pub fn legacy(_ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let log = dir.read("sysjitter.log")?;
    out.files_read += 1;
    let mut cpus: Vec<String> = Vec::new();
    for line in log.lines() {
        if line.starts_with("core_i:") {
            cpus = super::perl_split_ws(line).into_iter().skip(1).map(str::to_string).collect();
            continue;
        }
        if ["threshold", "cpu_mhz", "runtime"].iter().any(|p| line.starts_with(p)) {
            continue;
        }
        let line = line.replacen(':', "", 1).replacen("(ns)", "", 1);
        let mut e = super::perl_split_ws(&line).into_iter();
        let metric = e.next().unwrap_or_default();
        let mut worst = 0.0;
        for (i, v) in e.enumerate() {
            if numify(v) > worst {
                worst = numify(v);
            }
            out.add_text(&format!("cpu{}-{metric}", cpus.get(i).map(String::as_str).unwrap_or_default()), v);
        }
        out.add(&format!("cpuXX-{metric}"), worst + 0.01);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metric_names_as_awk_makes_them() {
        let m = |f: &str| sub_first(&sub_first(&sub_first(&sub_first(f, "):", ""), ":", ""), "(", "_"), "%", "%age");
        assert_eq!(m("int_min(ns):"), "int_min_ns");
        assert_eq!(m("int_n:"), "int_n");
        assert_eq!(m("int_total(%):"), "int_total_%age");
    }
}
