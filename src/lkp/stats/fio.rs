//! fio's `--output-format=json` result as lkp-tests' programs/fio/parse reads it
//! (docs/lkp.md §4): per direction bandwidth in MB/s, IOPS, completion-latency mean, SD
//! and 90/95/99th percentiles, submission-latency mean and SD; the latency histogram
//! buckets; `workload` = read + write `total_ios`. In a run directory the JSON is
//! `fio.output` or, for a multi-instance job, `fio.output.<N>` (combined: IOPS,
//! bandwidth and workload summed, the rest averaged; then each instance's own keys with
//! `.instance<N>`).

use super::ojson::{self, JValue};
use super::ruby;
use crate::archive::tree::join;
use crate::archive::Tree;
use crate::error::{Error, Result};
use crate::lkp::matrix::io_msg;
use crate::lkp::num::{ruby_sum, Num, Sum};
use crate::lkp::rubyfmt::float_to_s;

const PERCENTILES: [&str; 3] = ["90.000000", "95.000000", "99.000000"];

/// One stat value as Ruby holds it: a number, a string or nil.
#[derive(Debug, Clone, PartialEq)]
enum Value {
    Num(Num),
    Str(String),
    Nil,
}

impl Value {
    fn of(v: Option<&JValue>, path: &str, what: &str) -> Result<Value> {
        Ok(match v {
            None | Some(JValue::Null) => Value::Nil,
            Some(JValue::Int(i)) => Value::Num(Num::Int(*i)),
            Some(JValue::Float(f)) => Value::Num(Num::Float(*f)),
            Some(JValue::Str(s)) => Value::Str(s.clone()),
            Some(_) => return Err(Error::parse(Some(path), None, format!("{what}: expected a number"))),
        })
    }

    /// `"#{v}"`.
    fn show(&self) -> String {
        match self {
            Value::Num(Num::Int(i)) => i.to_string(),
            Value::Num(Num::Float(f)) => float_to_s(*f),
            Value::Str(s) => s.clone(),
            Value::Nil => String::new(),
        }
    }
}

/// `v.to_f` of a JSON value (nil and non-numbers as Ruby converts them).
fn to_f(v: Option<&JValue>) -> f64 {
    match v {
        Some(JValue::Int(i)) => *i as f64,
        Some(JValue::Float(f)) => *f,
        Some(JValue::Str(s)) => ruby::to_f(s),
        _ => 0.0,
    }
}

/// `v.to_i` of a JSON value.
fn to_i(v: Option<&JValue>) -> i64 {
    match v {
        Some(JValue::Int(i)) => *i,
        Some(JValue::Float(f)) => *f as i64,
        Some(JValue::Str(s)) => ruby::to_i(s),
        _ => 0,
    }
}

type Stats = Vec<(String, Value)>;

/// lkp's `parse_op_stats` for direction `ops`: its keys pushed to `stats`; the
/// direction's `total_ios`.
fn op_stats(stats: &mut Stats, ops: &str, op: &JValue, path: &str) -> Result<i64> {
    let missing = |what: &str| Error::parse(Some(path), None, format!("jobs[0].{ops}: no '{what}' object"));
    stats.push((format!("{ops}_bw_MBps"), Value::Num(Num::Float(to_f(op.get("bw")) / 1024.0))));
    stats.push((format!("{ops}_iops"), Value::of(op.get("iops"), path, "iops")?));
    let clat = op.get("clat").or_else(|| op.get("clat_ns")).ok_or_else(|| missing("clat_ns"))?;
    stats.push((format!("{ops}_clat_mean_ns"), Value::of(clat.get("mean"), path, "clat mean")?));
    stats.push((format!("{ops}_clat_stddev"), Value::of(clat.get("stddev"), path, "clat stddev")?));
    if let Some(JValue::Obj(pct)) = clat.get("percentile") {
        for (p, v) in pct {
            if !PERCENTILES.contains(&p.as_str()) {
                continue;
            }
            let sp = p.trim_end_matches('0').trim_end_matches('.');
            stats.push((format!("{ops}_clat_{sp}%_ns"), Value::of(Some(v), path, "percentile")?));
        }
    }
    let slat = op.get("slat").or_else(|| op.get("slat_ns")).ok_or_else(|| missing("slat_ns"))?;
    stats.push((format!("{ops}_slat_mean_us"), Value::of(slat.get("mean"), path, "slat mean")?));
    stats.push((format!("{ops}_slat_stddev"), Value::of(slat.get("stddev"), path, "slat stddev")?));
    Ok(to_i(op.get("total_ios")))
}

/// lkp's `parse_fio_output`: the stats of one fio JSON output (text from its first `{`).
fn output_stats(text: &str, path: &str) -> Result<Stats> {
    let Some(start) = text.find('{') else {
        return Err(Error::parse(Some(path), None, "expected fio's JSON output (no '{')"));
    };
    let json = ojson::parse(text.as_bytes().get(start..).unwrap_or_default(), path)?;
    let job = json
        .get("jobs")
        .and_then(|j| j.index(0))
        .ok_or_else(|| Error::parse(Some(path), None, "expected a 'jobs' array with a job"))?;
    let mut stats = Stats::new();
    let mut workload = 0i64;
    for ops in ["read", "write"] {
        let op = job.get(ops).ok_or_else(|| Error::parse(Some(path), None, format!("jobs[0]: no '{ops}' object")))?;
        workload = workload.wrapping_add(op_stats(&mut stats, ops, op, path)?);
    }
    for (field, unit) in [("latency_us", "us"), ("latency_ms", "ms")] {
        if let Some(JValue::Obj(buckets)) = job.get(field) {
            for (k, v) in buckets {
                stats.push((format!("latency_{k}{unit}%"), Value::of(Some(v), path, field)?));
            }
        }
    }
    stats.push(("workload".into(), Value::Num(Num::Int(workload))));
    Ok(stats)
}

fn print(out: &mut String, stats: &Stats, suffix: &str) {
    for (k, v) in stats {
        out.push_str(&format!("{k}{suffix}: {}\n", v.show()));
    }
}

/// Parse one fio JSON output (`fio`'s parser given a file, without a result root).
pub fn parse(text: &str, path: &str) -> ruby::Lines {
    let mut out = String::new();
    print(&mut out, &output_stats(text, path)?, "");
    Ok(out)
}

/// lkp's `combine_stats`: the first instance's keys; IOPS, bandwidth and workload
/// summed, everything else averaged (`sum.to_f / size`), over the instances that have
/// the key (not nil).
fn combine(per: &[(i64, Stats)], path: &str) -> Result<Stats> {
    let Some((_, first)) = per.first() else { return Ok(Stats::new()) };
    let mut out = Stats::new();
    for (k, _) in first {
        let mut nums: Vec<Num> = Vec::new();
        for (_, s) in per {
            match s.iter().find(|(sk, _)| sk == k).map(|(_, v)| v) {
                None | Some(Value::Nil) => {}
                Some(Value::Num(n)) => nums.push(*n),
                Some(Value::Str(_)) => {
                    return Err(Error::parse(Some(path), None, format!("'{k}' of an instance is not a number")))
                }
            }
        }
        if nums.is_empty() {
            continue;
        }
        let sum = ruby_sum(&nums);
        let additive = k == "workload" || k.ends_with("_iops") || k.ends_with("_bw_MBps");
        let v = match sum {
            Sum::Int(i) if additive => i64::try_from(i).map_or(Num::Float(i as f64), Num::Int),
            s if additive => Num::Float(s.f()),
            s => Num::Float(s.f() / nums.len() as f64),
        };
        out.push((k.clone(), Value::Num(v)));
    }
    Ok(out)
}

/// The instance number of `fio.output.<N>` (0 when the suffix is not digits).
fn instance(name: &str) -> i64 {
    let digits = name.len() - name.bytes().rev().take_while(u8::is_ascii_digit).count();
    match name.get(digits..) {
        Some(d) if !d.is_empty() && name.get(..digits).is_some_and(|h| h.ends_with('.')) => ruby::to_i(d),
        _ => 0,
    }
}

/// fio's parser in the run directory `dir` of `tree` (lkp's `RESULT_ROOT` case):
/// `fio.output` if present, else the instances `fio.output.<N>` combined and then each
/// with its suffix; nothing when there is neither (the raw `fio` file only echoes the
/// command line).
pub fn parse_run(tree: &dyn Tree, dir: &str) -> ruby::Lines {
    let read = |rel: &str| -> Result<String> {
        let shown = tree.display(rel);
        let bytes =
            tree.read(rel).map_err(|e| Error::parse(Some(&shown), None, format!("cannot read: {}", io_msg(&e))))?;
        String::from_utf8(bytes.into_owned()).map_err(|_| Error::parse(Some(&shown), None, "not UTF-8 text"))
    };
    let single = join(dir, "fio.output");
    if tree.is_file(&single) {
        return parse(&read(&single)?, &tree.display(&single));
    }
    let shown = tree.display(dir);
    let mut names: Vec<String> = tree
        .list(dir)
        .map_err(|e| Error::parse(Some(&shown), None, format!("cannot list run directory: {}", io_msg(&e))))?
        .into_iter()
        .filter(|n| n.starts_with("fio.output.") && tree.is_file(&join(dir, n)))
        .collect();
    names.sort();
    names.sort_by_key(|n| instance(n));
    let mut per: Vec<(i64, Stats)> = Vec::new();
    for n in &names {
        let rel = join(dir, n);
        let stats = output_stats(&read(&rel)?, &tree.display(&rel))?;
        // Ruby's `to_h`: a later duplicate id replaces the value in place
        match per.iter_mut().find(|(id, _)| *id == instance(n)) {
            Some(slot) => slot.1 = stats,
            None => per.push((instance(n), stats)),
        }
    }
    let mut out = String::new();
    if per.is_empty() {
        return Ok(out);
    }
    print(&mut out, &combine(&per, &shown)?, "");
    per.sort_by_key(|(id, _)| *id);
    for (id, stats) in &per {
        print(&mut out, stats, &format!(".instance{id}"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instance_numbers() {
        assert_eq!(instance("fio.output.12"), 12);
        assert_eq!(instance("fio.output.x"), 0);
        assert_eq!(instance("fio.output.3a"), 0);
    }

    #[test]
    fn not_json_is_an_error() {
        let e = parse("fio: command not found\n", "r/fio.output").unwrap_err().to_string();
        assert!(e.contains("r/fio.output") && e.contains("JSON"), "{e}");
        let e = parse("{\"jobs\": []}", "r/fio.output").unwrap_err().to_string();
        assert!(e.contains("jobs"), "{e}");
    }
}
