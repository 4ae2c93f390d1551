//! dbench4 / tbench4 (and head's `dbench` / `tbench`): loadfile completion times
//! (`N completed in X ms at time T ms`), plus head's `tput-N` and `op-<Name>-N`
//! rows and 2018's tbench4 MB/sec. Reference: docs/mmtests.md §8.3.

use super::{fields, Ctx, Extractor, Meta, Samples};
use crate::error::Result;
use crate::mmtests::era::{Era, Preferred};
use crate::mmtests::logfile::{sort_numeric, LogDir, LogFile};
use crate::mmtests::summarise::SummaryKind;

/// The dbench/tbench family.
pub struct Dbench;

fn tool(benchmark: &str) -> Option<&'static str> {
    match benchmark {
        "dbench4" | "dbench" => Some("dbench"),
        "tbench4" | "tbench" => Some("tbench"),
        _ => None,
    }
}

/// Client counts N of files `<prefix>N<suffix>` (N all digits), numerically sorted.
fn counts(names: &[String], prefix: &str, suffixes: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = names
        .iter()
        .filter_map(|n| {
            let rest = n.strip_prefix(prefix)?;
            suffixes.iter().find_map(|s| rest.strip_suffix(s))
        })
        .filter(|m| !m.is_empty() && m.bytes().all(|b| b.is_ascii_digit()))
        .map(str::to_string)
        .collect();
    sort_numeric(&mut v);
    v.dedup();
    v
}

/// Open `<stem>.gz`, else `<stem>.xz`, else `<stem>` (MMTests' `open_log`).
fn open_log(dir: &LogDir<'_>, stem: &str) -> Result<LogFile> {
    dir.open_log(stem)?.map_or_else(|| dir.read(stem), Ok)
}

/// Add every `completed in` line of `log` to `op`: value = field 3 (ms), skipped
/// above 2³¹ as MMTests does.
fn add_completions(log: &LogFile, op: &str, out: &mut Samples) -> Result<()> {
    out.register(op);
    for (i, line) in log.lines().enumerate() {
        crate::cancel::check_every(i)?; // a loadfile log holds a line per completed operation
        if !line.contains("completed in") {
            continue;
        }
        if let Some(v) = fields(line).get(3) {
            if crate::mmtests::perlfmt::numify(v) > 2147483648.0 {
                continue;
            }
            out.add_text(op, v);
        }
    }
    Ok(())
}

impl Extractor for Dbench {
    fn family(&self) -> &'static str {
        "dbench"
    }
    fn handles(&self, era: Era, benchmark: &str) -> bool {
        match era {
            Era::Head => matches!(benchmark, "dbench" | "tbench"),
            _ => matches!(benchmark, "dbench4" | "tbench4"),
        }
    }
    fn meta(&self, ctx: &Ctx) -> Meta {
        let (preferred, kind, precision) = match ctx.era {
            Era::E2018 if ctx.benchmark == "tbench4" => (Preferred::Higher, SummaryKind::Multiops, 2),
            Era::Head => {
                let p = if ctx.subheading == "tput" { Preferred::Higher } else { Preferred::Lower };
                (p, SummaryKind::NormalisedLeftSkewops, 4)
            }
            _ => (Preferred::Lower, SummaryKind::Subselection, 2),
        };
        Meta { preferred, kind, field_length: None, precision, value_label: "Ops".into(), ratio_preferred: None }
    }
    fn extract_dir(&self, ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
        let Some(t) = tool(&ctx.benchmark) else { return Ok(()) };
        let names = dir.list()?;
        match ctx.era {
            Era::E2018 if t == "tbench" => {
                // tbench-<N>.log (dbench-<N>.log tried first), MB/sec of `execute` lines
                let mut prefix = "dbench-";
                let mut ns = counts(&names, prefix, &[".log"]);
                if ns.is_empty() {
                    prefix = "tbench-";
                    ns = counts(&names, prefix, &[".log"]);
                }
                for n in ns {
                    let log = dir.read(&format!("{prefix}{n}.log"))?;
                    out.files_read += 1;
                    let op = format!("mb/sec-{n}");
                    out.register(&op);
                    for line in log.lines() {
                        if line.contains("execute") {
                            if let Some(v) = fields(line).get(2) {
                                out.add_text(&op, v);
                            }
                        }
                    }
                }
            }
            Era::E2018 | Era::E2024 => {
                for n in counts(&names, &format!("{t}-"), &[".log.gz", ".log"]) {
                    let log = open_log(dir, &format!("{t}-{n}.log"))?;
                    out.files_read += 1;
                    add_completions(&log, &n, out)?;
                }
            }
            Era::E2025 => {
                let prefix = format!("{t}-loadfile-");
                for n in counts(&names, &prefix, &[".log.gz", ".log.xz"]) {
                    let log = open_log(dir, &format!("{prefix}{n}.log"))?;
                    out.files_read += 1;
                    add_completions(&log, &n, out)?;
                }
            }
            Era::Head => extract_head(ctx, dir, &names, out)?,
        }
        Ok(())
    }
}

/// head's parse-results: loadfile (value $4, time $8/1000, a ratio operation),
/// tput (value $3, time $6) and op-<Name> (value $3) rows, ordered as
/// `sort -k1,1 -k2,2n -k4,4n` orders them: kind, then clients, then time.
fn extract_head(ctx: &Ctx, dir: &LogDir<'_>, names: &[String], out: &mut Samples) -> Result<()> {
    let keep = |label: &str| {
        ctx.subheading.is_empty() || crate::mmtests::summarise::subheading_matches(&ctx.subheading, label, false)
    };
    // (kind, clients, time, label, value, is_ratio)
    let mut rows: Vec<(String, f64, f64, String, String, bool)> = Vec::new();
    for n in counts(names, "benchlog-loadfile-", &[".xz", ".gz", ""]) {
        let log = open_log(dir, &format!("benchlog-loadfile-{n}"))?;
        out.files_read += 1;
        for line in log.lines() {
            if !line.contains("completed in") {
                continue;
            }
            let f = fields(line);
            if let (Some(v), Some(t)) = (f.get(3), f.get(7)) {
                let time = crate::mmtests::perlfmt::numify(t) / 1000.0;
                rows.push((
                    "loadfile".into(),
                    n.parse().unwrap_or(0.0),
                    time,
                    format!("loadfile-{n}"),
                    v.to_string(),
                    true,
                ));
            }
        }
    }
    for n in counts(names, "benchlog-tput-", &[".xz", ".gz", ""]) {
        let log = open_log(dir, &format!("benchlog-tput-{n}"))?;
        out.files_read += 1;
        for line in log.lines() {
            let f = fields(line);
            if let [_, _, v, _, _, t, ..] = f[..] {
                if line.contains("MB/sec") {
                    let time = crate::mmtests::perlfmt::numify(t);
                    rows.push((
                        "tput".into(),
                        n.parse().unwrap_or(0.0),
                        time,
                        format!("tput-{n}"),
                        v.to_string(),
                        false,
                    ));
                }
            }
        }
    }
    for n in counts(names, "benchlog-op-", &[".xz", ".gz", ""]) {
        let log = open_log(dir, &format!("benchlog-op-{n}"))?;
        out.files_read += 1;
        for line in log.lines() {
            let f = fields(line);
            if let [op, _, v, _, ..] = f[..] {
                if op.bytes().all(|b| b.is_ascii_alphanumeric()) && crate::mmtests::perlfmt::looks_like_number(v) {
                    let kind = format!("op-{op}");
                    rows.push((
                        kind.clone(),
                        n.parse().unwrap_or(0.0),
                        0.0,
                        format!("{kind}-{n}"),
                        v.to_string(),
                        false,
                    ));
                }
            }
        }
    }
    rows.sort_by(|a, b| {
        a.0.as_bytes().cmp(b.0.as_bytes()).then(crate::order::nan_last(a.1, b.1)).then(crate::order::nan_last(a.2, b.2))
    });
    let mut ratio_seen = std::collections::HashSet::new();
    for (_, _, _, label, value, is_ratio) in rows {
        if !keep(&label) {
            continue;
        }
        out.add_text(&label, &value);
        if is_ratio && ratio_seen.insert(label.clone()) {
            out.push_ratio_op(&label);
        }
    }
    Ok(())
}
