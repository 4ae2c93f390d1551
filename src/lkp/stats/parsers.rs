//! The parsers of the smaller raw outputs (time, interrupts, cpuidle, vmstat, turbostat,
//! mpstat), each printing lkp's `key: value` lines (a repeated key starts a new record),
//! after lkp-tests' programs/<name>/parse and docs/lkp.md §4.

use super::ojson::{self, JValue};
use crate::error::{Error, Result};
use crate::lkp::rubyfmt::float_to_s;

/// GNU `time -v`: `Label (unit): value` → `label: value` (parenthesised groups removed,
/// spaces to `_`, lower case); elapsed `h:mm:ss`/`m:ss` → seconds; `98%` → 98 (`?` → 0).
pub fn time(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        if line.contains("Command being timed: ") {
            continue;
        }
        let mut parts = line.split(": ");
        let (Some(key), Some(val)) = (parts.next(), parts.next()) else { continue };
        let mut k = String::new();
        let mut depth = 0;
        let key = key.trim_start();
        let bytes: Vec<char> = key.chars().collect();
        let mut i = 0;
        while let Some(&c) = bytes.get(i) {
            if c == ' ' && bytes.get(i + 1) == Some(&'(') {
                depth += 1;
                i += 2;
                continue;
            }
            if depth > 0 {
                if c == ')' {
                    depth -= 1;
                }
                i += 1;
                continue;
            }
            k.push(c);
            i += 1;
        }
        let k: String = k.split_whitespace().collect::<Vec<_>>().join("_").to_lowercase();
        let v = match k.as_str() {
            "elapsed_time" => {
                let mut tt = 0.0f64;
                for t in val.trim().split(':') {
                    tt = tt * 60.0 + super::ruby::to_f(t);
                }
                float_to_s(tt)
            }
            "percent_of_cpu_this_job_got" => {
                let v = val.trim().trim_end_matches('%');
                if v == "?" {
                    "0".to_string()
                } else {
                    v.to_string()
                }
            }
            _ => val.trim().to_string(),
        };
        out.push_str(&format!("{k}: {v}\n"));
    }
    out
}

/// `/proc/interrupts` snapshots (with `time:` lines): per CPU `CPU<i>.<irq>` and the total
/// `<irq>`; numbered IRQs join their description with `.`, named ones with `_`.
pub fn interrupts(text: &str) -> String {
    let mut out = String::new();
    let mut cpus: Vec<String> = Vec::new();
    for line in text.lines() {
        if line.starts_with("time:") {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        if !f.is_empty() && f.iter().all(|c| c.starts_with("CPU")) {
            cpus = f.iter().map(|s| s.to_string()).collect();
            continue;
        }
        let Some(first) = f.first() else { continue };
        let Some(irq) = first.strip_suffix(':') else { continue };
        if let [_, count] = f[..] {
            out.push_str(&format!("{first} {count}\n"));
            continue;
        }
        let tail: Vec<&str> = f.iter().skip(cpus.len() + 1).copied().collect();
        let key = if irq.chars().all(|c| c.is_ascii_digit()) {
            format!("{first}{}", tail.join(".").replace(",.", ","))
        } else {
            format!("{first}{}", tail.join("_"))
        };
        let mut sum: i64 = 0;
        for (i, cpu) in cpus.iter().enumerate() {
            let Some(v) = f.get(i + 1) else { break };
            sum += v.parse::<i64>().unwrap_or(0);
            out.push_str(&format!("{cpu}.{key}: {v}\n"));
        }
        out.push_str(&format!("{key}: {sum}\n"));
    }
    out
}

/// cpuidle sysfs snapshots (`time:` + `cpuN.<state>.time/usage`): per snapshot the sums
/// over CPUs, `<state>.time` and `<state>.usage` (spaces in state names become `-`).
pub fn cpuidle(text: &str) -> String {
    let mut out = String::new();
    let mut samples: Vec<(String, i64)> = Vec::new();
    let flush = |samples: &mut Vec<(String, i64)>, out: &mut String| {
        for (k, v) in samples.drain(..) {
            out.push_str(&format!("{k}: {v}\n"));
        }
    };
    for line in text.lines() {
        if line.starts_with("time: ") {
            flush(&mut samples, &mut out);
            continue;
        }
        let Some(rest) = line.strip_prefix("cpu") else { continue };
        let Some((cpu, kv)) = rest.split_once('.') else { continue };
        if cpu.is_empty() || !cpu.chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        let Some((k, v)) = kv.split_once(": ") else { continue };
        let k = k.replace(' ', "-");
        let v = ruby_to_i(v);
        match samples.iter_mut().find(|(sk, _)| *sk == k) {
            Some((_, acc)) => *acc += v,
            None => samples.push((k, v)),
        }
    }
    flush(&mut samples, &mut out);
    out
}

fn ruby_to_i(s: &str) -> i64 {
    let s = s.trim_start();
    let end = s.char_indices().take_while(|(i, c)| c.is_ascii_digit() || (*i == 0 && (*c == '-' || *c == '+'))).count();
    // end counts ASCII chars only, so it is a char boundary
    s.get(..end).and_then(|n| n.parse().ok()).unwrap_or(0)
}

const VMSTAT_KEYS: [&str; 18] = [
    "procs.r",
    "procs.b",
    "memory.swpd",
    "memory.free",
    "memory.buff",
    "memory.cache",
    "swap.si",
    "swap.so",
    "io.bi",
    "io.bo",
    "system.in",
    "system.cs",
    "cpu.us",
    "cpu.sy",
    "cpu.id",
    "cpu.wa",
    "cpu.st",
    "cpu.gu",
];

/// Days since 1970-01-01 of a proleptic Gregorian date.
pub(crate) fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

/// `2019-01-01` + `15:48:30` as UTC epoch seconds.
fn epoch(date: &str, time: &str) -> Option<i64> {
    let mut d = date.split('-');
    let (y, m, dd) = (d.next()?.parse().ok()?, d.next()?.parse().ok()?, d.next()?.parse().ok()?);
    let mut t = time.split(':');
    let (h, mi, s): (i64, i64, i64) = (t.next()?.parse().ok()?, t.next()?.parse().ok()?, t.next()?.parse().ok()?);
    Some(days_from_civil(y, m, dd) * 86400 + h * 3600 + mi * 60 + s)
}

/// `vmstat --timestamp -n 1`: columns map positionally to procs.r … cpu.st (cpu.gu on
/// newer vmstat); a trailing date and time gives `time` (as UTC). Lines without digits
/// are headers.
pub fn vmstat(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        if !line.chars().any(|c| c.is_ascii_digit()) {
            continue;
        }
        let mut f: Vec<&str> = line.split_whitespace().collect();
        let mut time = None;
        if let [.., date, clock] = f[..] {
            if date.contains('-') && clock.contains(':') {
                time = epoch(date, clock);
                f.truncate(f.len() - 2);
            }
        }
        if !(f.len() == 16 || f.len() == 17 || f.len() == 18) {
            continue;
        }
        if let Some(t) = time {
            out.push_str(&format!("time: {t}\n"));
        }
        for (k, v) in VMSTAT_KEYS.iter().zip(&f) {
            out.push_str(&format!("{k}: {v}\n"));
        }
    }
    out
}

/// turbostat: the line after the header containing `Busy%` (`%Busy` on old versions) is
/// the summary; titles align right-to-left with values; `-` and `*`-marked values skipped.
pub fn turbostat(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if !(line.contains("Busy%") || line.contains("%Busy")) {
            continue;
        }
        let titles: Vec<&str> = line.split_whitespace().collect();
        let values: Vec<&str> = lines.next().unwrap_or("").split_whitespace().collect();
        let skip = titles.len().saturating_sub(values.len());
        for (t, v) in titles.iter().skip(skip).zip(&values) {
            if *v == "-" || v.contains('*') {
                continue;
            }
            out.push_str(&format!("{t}: {v}\n"));
        }
        break;
    }
    out
}

fn value_text(v: &JValue) -> Option<String> {
    match v {
        JValue::Int(i) => Some(i.to_string()),
        JValue::Float(f) => Some(float_to_s(*f)),
        JValue::Str(s) => Some(s.clone()),
        _ => None,
    }
}

/// `mpstat -o JSON 1`: per interval `cpu.<cpu>.<field>%` and `node.<n>.<field>%` and
/// `time` (date + timestamp as UTC); at the end `max_utilization_pct` (max over samples
/// of 100 − idle − iowait, times the sample count, so that the mean gives it back) and
/// `max_utilization.seconds`. A truncated file is repaired as lkp does.
pub fn mpstat(text: &str, path: &str) -> Result<String> {
    let doc = match ojson::parse(text.as_bytes(), path) {
        Ok(d) => d,
        Err(e) => {
            let pos = text
                .rfind("\n\t\t\t\t}")
                .or_else(|| text.trim_end().strip_suffix(',').and_then(|s| s.len().checked_sub(1)));
            // a cut inside a multi-byte character (Unicode whitespace after the comma) is
            // no mpstat output either
            let Some(head) = pos.and_then(|pos| text.get(..(pos + 6).min(text.len()))) else { return Err(e) };
            let repaired = format!("{head}\n\t\t\t]\n\t\t}}\n\t]\n}}}}\n");
            ojson::parse(repaired.as_bytes(), path).map_err(|_| e)?
        }
    };
    let host = doc.get("sysstat").and_then(|s| s.get("hosts")).and_then(|h| h.index(0));
    let Some(host) = host else {
        return Err(Error::parse(Some(path), None, "not mpstat JSON: no sysstat.hosts[0]"));
    };
    let date = host.get("date").and_then(value_text).unwrap_or_default();
    let mut results: Vec<(String, String)> = Vec::new();
    let set =
        |results: &mut Vec<(String, String)>, k: String, v: String| match results.iter_mut().find(|(rk, _)| *rk == k) {
            Some(slot) => slot.1 = v,
            None => results.push((k, v)),
        };
    let mut idle: Vec<f64> = Vec::new();
    let mut iowait: Vec<f64> = Vec::new();
    let mut ints = true;
    let mut out = String::new();
    let empty = Vec::new();
    let stats = match host.get("statistics") {
        Some(JValue::Arr(a)) => a,
        _ => &empty,
    };
    for item in stats {
        let JValue::Obj(fields) = item else { continue };
        for (k, v) in fields {
            let arrays: Vec<(&str, &Vec<JValue>)> = match v {
                JValue::Arr(a) => vec![(k.as_str(), a)],
                JValue::Obj(o) => o
                    .iter()
                    .filter_map(|(k2, v2)| if let JValue::Arr(a) = v2 { Some((k2.as_str(), a)) } else { None })
                    .collect(),
                JValue::Str(ts) if k == "timestamp" => {
                    if let Some(t) = epoch(&date, ts) {
                        set(&mut results, "time".into(), t.to_string());
                    }
                    vec![]
                }
                _ => vec![],
            };
            for (prefix, arr) in arrays {
                for entry in arr {
                    let JValue::Obj(kv) = entry else { continue };
                    let Some((_, v0)) = kv.first() else { continue };
                    let v0 = value_text(v0).unwrap_or_default();
                    for (fk, fv) in kv.iter().skip(1) {
                        let key = if prefix.contains("node-load") {
                            format!("node.{v0}.{fk}%")
                        } else if prefix.contains("cpu-load") {
                            format!("cpu.{v0}.{fk}%")
                        } else {
                            format!("{prefix}.{v0}.{fk}")
                        };
                        if fk == "idle" || fk == "iowait" {
                            if let Some(x) = fv.num() {
                                ints &= matches!(fv, JValue::Int(_));
                                if fk == "idle" {
                                    idle.push(x)
                                } else {
                                    iowait.push(x)
                                }
                            }
                        }
                        if let Some(t) = value_text(fv) {
                            set(&mut results, key, t);
                        }
                    }
                }
            }
        }
        for (k, v) in &results {
            out.push_str(&format!("{k}: {v}\n"));
        }
    }
    let utils: Vec<f64> =
        idle.iter().enumerate().map(|(i, x)| 100.0 - x - iowait.get(i).copied().unwrap_or(0.0)).collect();
    if let Some(&first) = utils.first() {
        // the first maximum
        let (max_i, max_u) =
            utils.iter().enumerate().fold((0, first), |(mi, mu), (i, &u)| if u > mu { (i, u) } else { (mi, mu) });
        let n = idle.len();
        let m = max_u * n as f64;
        let shown = if ints { format!("{}", m as i64) } else { float_to_s(m) };
        out.push_str(&format!("max_utilization_pct: {shown}\n"));
        out.push_str(&format!("max_utilization.seconds: {}\n", (max_i + 1) * n));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_keys_by_hand() {
        let t = "\tUser time (seconds): 30.10\n\tPercent of CPU this job got: 98%\n\
                 \tElapsed (wall clock) time (h:mm:ss or m:ss): 1:00:36.10\n\tMajor (requiring I/O) page faults: 0\n";
        assert_eq!(
            time(t),
            "user_time: 30.10\npercent_of_cpu_this_job_got: 98\nelapsed_time: 3636.1\nmajor_page_faults: 0\n"
        );
    }

    #[test]
    fn epoch_by_hand() {
        // 2019-01-01 is 17897 days after 1970-01-01; 15:48:30 is 56910 s
        assert_eq!(epoch("2019-01-01", "15:48:30"), Some(17897 * 86400 + 56910));
    }

    #[test]
    fn mpstat_repair_of_a_trailing_comma_does_not_panic() {
        // the repair cut 5 bytes past the last comma: inside U+3000 (ideographic space,
        // 3 bytes) here it panicked slicing the text; a lone ',' underflowed its position
        for t in ["x,\u{3000}\u{3000}", ",", "é,\u{a0}\u{a0}\u{a0}"] {
            let e = mpstat(t, "mpstat.json").unwrap_err().to_string();
            assert!(e.contains("mpstat.json") && e.contains("invalid JSON"), "{t:?}: {e}");
        }
    }
}
