//! iperf3 `--json` output as lkp-tests' programs/iperf/parse reads it: the JSON
//! documents of one or more sessions (concatenated, cut at each `}…{`), and of each the
//! `end.sum.bits_per_second` (UDP) or else `end.sum_sent` and `end.sum_received`
//! (TCP); per kind the mean over sessions (an Integer mean of Integers is floored, as
//! Ruby divides). A session that is not JSON is skipped, as lkp skips it.

use super::ojson::{self, JValue};
use super::ruby::{self, bad_line, re, Lines};
use crate::lkp::num::{ruby_sum, Num, Sum};
use crate::lkp::rubyfmt::float_to_s;
use regex::Regex;
use std::sync::OnceLock;

/// Ruby's JSON parser refuses documents nested deeper than this (`max_nesting`).
const MAX_NESTING: usize = 100;

fn depth(v: &JValue) -> usize {
    match v {
        JValue::Arr(a) => 1 + a.iter().map(depth).max().unwrap_or(0),
        JValue::Obj(o) => 1 + o.iter().map(|(_, v)| depth(v)).max().unwrap_or(0),
        _ => 0,
    }
}

/// `obj.dig(*keys)`: None for a missing key or a null on the way; Err where Ruby raises
/// (a value on the way that is neither an object nor null).
fn dig<'a>(obj: &'a JValue, keys: &[&str]) -> Result<Option<&'a JValue>, String> {
    let mut v = obj;
    for k in keys {
        match v {
            JValue::Obj(_) => match v.get(k) {
                Some(x) => v = x,
                None => return Ok(None),
            },
            JValue::Null if !std::ptr::eq(v, obj) => return Ok(None),
            _ => return Err(format!("a session's '{}' is not a JSON object (lkp's Ruby fails on dig)", k)),
        }
    }
    Ok(Some(v))
}

/// The JSON texts of the sessions, as lkp cuts them, each with the byte offset in
/// `raw` where it starts.
fn sessions(raw: &str) -> Vec<(String, usize)> {
    static P: OnceLock<Regex> = OnceLock::new();
    let cut = P.get_or_init(|| re(r"\}\s*\{"));
    let starts = std::iter::once(0).chain(cut.find_iter(raw).map(|m| m.end()));
    let mut chunks: Vec<(&str, usize)> = cut.split(raw).zip(starts).collect();
    // Ruby's String#split drops trailing empty fields
    while chunks.last().is_some_and(|(c, _)| c.is_empty()) {
        chunks.pop();
    }
    if chunks.len() == 1 {
        return vec![(raw.to_string(), 0)];
    }
    let last = chunks.len().saturating_sub(1);
    chunks
        .iter()
        .enumerate()
        .map(|(i, (c, at))| match i {
            0 => (format!("{c}}}"), *at),
            _ if i == last => (format!("{{{c}"), *at),
            _ => (format!("{{{c}}}"), *at),
        })
        .collect()
}

/// The mean of one kind's values (`values.sum / values.size`), as Ruby prints it.
fn mean(values: &[Num]) -> String {
    let n = values.len() as i128;
    match ruby_sum(values) {
        Sum::Int(s) => s.div_euclid(n).to_string(),
        Sum::Float(f) => float_to_s(f / n as f64),
    }
}

/// Parse iperf3 JSON output (`path` names it in errors, with the line where the
/// session lkp's Ruby fails on starts, or the last line when no session has a rate).
pub fn parse(text: &str, path: &str) -> Lines {
    let raw = ruby::strip(text);
    // the line of byte `at` of `raw` in `text`
    let skipped = text.len() - ruby::lstrip(text).len();
    let line_of = |at: usize| text.get(..skipped + at).map_or(1, |t| t.matches('\n').count() + 1);
    let (mut sender, mut receiver, mut udp): (Vec<Num>, Vec<Num>, Vec<Num>) = Default::default();
    for (json, at) in sessions(raw) {
        let err = |msg: String| bad_line(path, line_of(at), msg);
        let Ok(obj) = ojson::parse(json.as_bytes(), path) else { continue };
        if depth(&obj) > MAX_NESTING {
            continue;
        }
        if !matches!(obj, JValue::Obj(_)) {
            return Err(err("a session is not a JSON object (lkp's Ruby fails on dig)".into()));
        }
        let u = dig(&obj, &["end", "sum", "bits_per_second"]).map_err(err)?;
        let (s, r) = if u.is_none() {
            (
                dig(&obj, &["end", "sum_sent", "bits_per_second"]).map_err(err)?,
                dig(&obj, &["end", "sum_received", "bits_per_second"]).map_err(err)?,
            )
        } else {
            (None, None)
        };
        for (v, list) in [(s, &mut sender), (r, &mut receiver), (u, &mut udp)] {
            match v {
                // nil and false are skipped
                None | Some(JValue::Null | JValue::Bool(false)) => {}
                Some(JValue::Int(i)) => list.push(Num::Int(*i)),
                Some(JValue::Float(f)) => list.push(Num::Float(*f)),
                Some(_) => {
                    return Err(err("a bits_per_second that is not a number (lkp's Ruby fails on the mean)".into()))
                }
            }
        }
    }
    if sender.is_empty() && receiver.is_empty() && udp.is_empty() {
        let last = text.lines().count().max(1);
        return Err(bad_line(path, last, "no iperf session with bits_per_second (lkp's parser exits with an error)"));
    }
    let mut out = String::new();
    for (k, v) in [("tcp.sender.bps", &sender), ("tcp.receiver.bps", &receiver), ("udp.bps", &udp)] {
        if !v.is_empty() {
            out.push_str(&format!("{k}: {}\n", mean(v)));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_the_line_of_the_session() {
        // lkp's Ruby on this text: "in `dig': Integer does not have #dig method
        // (TypeError)" at the second session, which starts on line 3
        let e = parse("\n{\"end\": {\"sum\": {\"bits_per_second\": 5}}}\n{\"end\": 7}\n", "iperf").unwrap_err();
        assert!(e.to_string().starts_with("iperf:3:"), "{e}");
        // and with no session at all it exits with an error: the last line is named
        let e = parse("{\"start\": {}}\n\n", "iperf").unwrap_err();
        assert!(e.to_string().starts_with("iperf:2:"), "{e}");
    }
}
