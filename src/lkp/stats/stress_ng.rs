//! stress-ng's metrics as lkp-tests' programs/stress-ng/parse reads them: after the
//! `(secs) (secs) (secs)` header, per stressor `<s>.pass: 1`, `<s>.ops` and
//! `<s>.ops_per_sec` (real time), or `<s>.fail: 1` for 0 bogo ops; the extra metric
//! lines (`(average …)`, `(geometric mean …)`, `(harmonic mean …)`, `(total …)`) give
//! `<s>.<unit>` with its pass/fail. `sigaction` failures give `sigaction.fail: 1`.

use super::ruby::{self, bad_line, re, Lines};
use regex::Regex;
use std::sync::OnceLock;

struct Patterns {
    stop: Regex,
    zero_counters: Regex,
    sigaction: Regex,
    fail_warn: Regex,
    header: Regex,
    run_time: Regex,
    misc: Regex,
    misc_tail: Regex,
    norm_sep: Regex,
    norm_ends: Regex,
    norm_under: Regex,
    norm_dots: Regex,
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| Patterns {
        stop: re(r"(this stressor is not implemented on this system)|(No stress workers invoked)"),
        zero_counters: re(r"all bogo-op counters are zero, data may be incorrect"),
        sigaction: re(r"stress-ng: fail:.*sigaction signal"),
        fail_warn: re(r"fail:|warn:"),
        header: re(r"\(secs\)\s+\(secs\)\s+\(secs\)"),
        run_time: re(r"run time:"),
        misc: re(r"stress-ng: (info|metrc):.*\((average|geometr?ic mean|harmonic mean|total)"),
        misc_tail: re(r" \((average|geometr?ic mean|harmonic mean|total).*\)$"),
        norm_sep: re(r#"[\s,"_\[\]():]+"#),
        norm_ends: re(r"(^_+|_+$)"),
        norm_under: re(r"_{2,}"),
        norm_dots: re(r"\.{4,}"),
    })
}

/// lkp's `LKP::Stats.normalize`: separators to `_`, no leading/trailing `_`, runs of
/// `_` and of 4+ `.` collapsed.
fn normalize(s: &str) -> String {
    let p = patterns();
    let s = p.norm_sep.replace_all(s.trim(), "_");
    let s = p.norm_ends.replace_all(&s, "");
    let s = p.norm_under.replace_all(&s, "_");
    p.norm_dots.replace_all(&s, ".").into_owned()
}

/// Parse stress-ng output (`path` names it in errors: a metric line too short to name
/// its unit, where lkp's Ruby exits with an error).
pub fn parse(text: &str, path: &str) -> Lines {
    let p = patterns();
    let mut out = String::new();
    let mut started = false;
    for (ln, line) in ruby::lines(text).enumerate() {
        if p.stop.is_match(line) {
            break;
        } else if p.zero_counters.is_match(line) {
            continue;
        } else if p.sigaction.is_match(line) {
            out.push_str("sigaction.fail: 1\n");
            break;
        } else if p.fail_warn.is_match(line) {
            continue;
        } else if p.header.is_match(line) {
            started = true;
        } else if p.run_time.is_match(line) {
            break;
        } else if !started {
            continue;
        } else if p.misc.is_match(line) {
            let cut = p.misc_tail.replace(line, "");
            let items = ruby::split(&cut);
            let Some(rest) = items.get(5..) else {
                return Err(bad_line(path, ln + 1, "expected '<stressor> <value> <unit…>' after the pid"));
            };
            let unit = normalize(&rest.join("_"));
            let stressor = items.get(3).copied().unwrap_or("");
            let value = items.get(4).copied().unwrap_or("");
            if value == "0" || value == "0.00" {
                out.push_str(&format!("{stressor}.{unit}.fail: 1\n"));
            } else {
                out.push_str(&format!("{stressor}.{unit}.pass: 1\n{stressor}.{unit}: {value}\n"));
            }
        } else {
            let items = ruby::split(line);
            if !(items.len() == 10 || items.len() == 12) {
                continue;
            }
            let item = |i: usize| items.get(i).copied().unwrap_or("");
            if item(4) == "0" {
                out.push_str(&format!("{}.fail: 1\n", item(3)));
            } else {
                out.push_str(&format!(
                    "{s}.pass: 1\n{s}.ops: {}\n{s}.ops_per_sec: {}\n",
                    item(4),
                    item(8),
                    s = item(3)
                ));
            }
        }
    }
    Ok(out)
}
