//! IGT GPU Tools' output as lkp-tests' programs/igt/parse reads it: each test started
//! by a timestamped `build/tests/<test> [--run-subtest <subtest>]` line; its result
//! (`SUCCESS`, `FAIL`, `CRASH`), its subtests' (`Subtest <s>: …`) and dynamic
//! subtests' results, and `LKP SKIP igt@<test>@<subtest>` lines, as
//! `<test>[.<subtest>[.dynamic.<d>]].<result>: 1` (`success` → `pass`, `crash` → `fail`).

use super::lkp_stats::Stats;
use super::ruby::{self, bad_line, re, Lines};
use regex::{Captures, Regex};
use std::sync::OnceLock;

struct Patterns {
    test: Regex,
    subtest_run: Regex,
    result: Regex,
    starting: Regex,
    subtest: Regex,
    dynamic: Regex,
    lkp_skip: Regex,
    timestamp: Regex,
    month: Regex,
    digit: Regex,
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| Patterns {
        test: re(r"^(.*) build\/tests\/([^\s]+)$"),
        subtest_run: re(r"^(.*) build\/tests\/([^\s]+) --run-subtest ([^\s]+)$"),
        result: re(r"^(SUCCESS|FAIL|CRASH)"),
        starting: re(r"Starting subtest: (.*)$"),
        subtest: re(r"(^|\[.*\] )Subtest (.+): (SUCCESS|FAIL|CRASH|SKIP)"),
        dynamic: re(r"^Dynamic subtest (.*): (SUCCESS|FAIL|CRASH)"),
        lkp_skip: re(r"^LKP SKIP igt@(.*)@(.*)$"),
        timestamp: re(r"\A(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})\z"),
        month: re(r"(?i)\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"),
        digit: re(r"\d"),
    })
}

/// lkp's `valid_datetime?`: whether Ruby's `Time.parse` takes the text before
/// ` build/tests/`. Decided here for lkp's own `YYYY-MM-DD HH:MM:SS` stamps (a valid
/// date and time) and for text without digits (a date only through a month name:
/// `Date._parse` finds nothing else there); other text (`12`, `x: 5:30`, which
/// `Time.parse` reads through heuristics schedlab does not reproduce) is an error.
fn valid_datetime(s: &str) -> Result<bool, String> {
    let p = patterns();
    if let Some(c) = p.timestamp.captures(s) {
        let n = |i: usize| c.get(i).map_or(0, |m| m.as_str().parse::<u32>().unwrap_or(0));
        let (mon, d, h, min, sec) = (n(2), n(3), n(4), n(5), n(6));
        // Time.parse: any day 1-31 of a month 1-12 (Feb 30 rolls over to March), hour 24
        // only as 24:00:00, second 60 (a leap second) allowed
        let time_ok = (h < 24 && min < 60 && sec <= 60) || (h == 24 && min == 0 && sec == 0);
        return Ok((1..=12).contains(&mon) && (1..=31).contains(&d) && time_ok);
    }
    if !p.digit.is_match(s) {
        return Ok(p.month.is_match(s));
    }
    Err(format!("'{s}' before build/tests/: schedlab takes only lkp's 'YYYY-MM-DD HH:MM:SS' there, where lkp runs Ruby's Time.parse"))
}

fn g<'t>(c: &Captures<'t>, i: usize) -> &'t str {
    c.get(i).map_or("", |m| m.as_str())
}

/// Parse igt output (`path` names it in errors: a subtest result not of the subtest
/// started, or a test result reported twice, where lkp's parser fails).
pub fn parse(text: &str, path: &str) -> Lines {
    let p = patterns();
    let mut stats = Stats::default();
    let mut test: Option<String> = None;
    let mut subtest: Option<String> = None;
    let mut dynamic = false;
    for (i, line) in ruby::lines(text).enumerate() {
        let err = |e: String| bad_line(path, i + 1, e);
        if let Some(c) = p.test.captures(line) {
            if valid_datetime(g(&c, 1)).map_err(err)? {
                test = Some(g(&c, 2).to_string());
            }
        } else if let Some(c) = p.subtest_run.captures(line) {
            if valid_datetime(g(&c, 1)).map_err(err)? {
                test = Some(g(&c, 2).to_string());
                subtest = Some(g(&c, 3).to_string());
                dynamic = false;
            }
        } else if let Some(c) = p.result.captures(line) {
            if let Some(t) = &test {
                stats.add(t, g(&c, 1), false).map_err(err)?;
            }
        } else if let Some(c) = p.starting.captures(line) {
            if test.is_some() {
                subtest = Some(g(&c, 1).to_string());
                dynamic = false;
            }
        } else if let Some(c) = p.subtest.captures(line) {
            let Some(t) = test.as_deref().filter(|_| !dynamic) else { continue };
            let (name, result) = (g(&c, 2), g(&c, 3));
            if subtest.as_deref() != Some(name) && result != "SKIP" {
                return Err(err(format!("subtest_name [{}] != $2 [{name}]", subtest.as_deref().unwrap_or(""))));
            }
            stats.add(&format!("{t}.{name}"), result, true).map_err(err)?;
        } else if let Some(c) = p.dynamic.captures(line) {
            let (Some(t), Some(s)) = (&test, &subtest) else { continue };
            dynamic = true;
            stats.add(&format!("{t}.{s}.dynamic.{}", g(&c, 1)), g(&c, 2), true).map_err(err)?;
        } else if let Some(c) = p.lkp_skip.captures(line) {
            stats.add(&format!("{}.{}", g(&c, 1), g(&c, 2)), "skip", true).map_err(err)?;
        }
    }
    Ok(stats.dump(&[("success", "pass"), ("crash", "fail")]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn datetimes_as_time_parse() {
        // Ruby 3.1 Time.parse: "2020-10-27 01:29:45" ok, "2020-13-45 01:29:45" ArgumentError
        // (argument out of range), "2020-02-30 00:00:00" ok, "2020-10-32 00:00:00" and
        // "2020-10-27 00:00:61" ArgumentError, "2024-02-29 23:59:60" ok, "2020-10-27 24:00:00" ok,
        // "Executing" ArgumentError (no time information), "may" ok
        assert_eq!(valid_datetime("2020-10-27 01:29:45"), Ok(true));
        assert_eq!(valid_datetime("2020-13-45 01:29:45"), Ok(false));
        assert_eq!(valid_datetime("2020-02-30 00:00:00"), Ok(true));
        assert_eq!(valid_datetime("2020-10-32 00:00:00"), Ok(false));
        assert_eq!(valid_datetime("2020-10-27 00:00:61"), Ok(false));
        assert_eq!(valid_datetime("2020-10-27 24:00:00"), Ok(true));
        assert_eq!(valid_datetime("2024-02-29 23:59:60"), Ok(true));
        assert_eq!(valid_datetime("Executing"), Ok(false));
        assert_eq!(valid_datetime("may"), Ok(true));
        // (Ruby: ArgumentError; schedlab does not follow Date._parse's digit heuristics)
        assert!(valid_datetime("make[2]: Entering").is_err());
    }

    #[test]
    fn a_result_of_another_subtest_is_an_error() {
        // lkp's Ruby: "WARN -- subtest_name [a] != $2 [b]", exit 1
        let text = "2020-10-27 01:29:45 build/tests/t --run-subtest a\nSubtest b: SUCCESS (0.1s)\n";
        let e = parse(text, "i").unwrap_err().to_string();
        assert!(e.starts_with("i:2:") && e.contains("subtest_name [a] != $2 [b]"), "{e}");
    }
}
