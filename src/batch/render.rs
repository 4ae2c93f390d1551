//! The human and CI views of a [`BatchResult`]: JUnit XML (one testcase per
//! compared metric, so CI systems list them, valid against the Jenkins xunit
//! plugin's `junit-10.xsd`, with the measured times) and plain text (for a
//! terminal); the choice of format ([`render`]). Markdown is in
//! [`super::markdown`], GitHub annotations in [`super::github`]; the JSON views are
//! the result itself.

use super::document::{fails, BatchResult, Row};
use super::options::FailOn;
use crate::cancel;
use crate::error::{Error, Result};
use crate::table::{Test, Verdict, VerdictRule};
use std::fmt::Write;

/// Escape text for an XML attribute or element.
pub fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // characters XML 1.0 cannot carry at all
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// `x` with `digits` significant digits (scientific notation outside 1e-4..1e7).
pub fn sig(x: f64, digits: usize) -> String {
    if !x.is_finite() {
        return x.to_string();
    }
    if x == 0.0 {
        return "0".to_string();
    }
    let digits = digits.max(1);
    let mag = x.abs().log10().floor() as i64;
    if !(-4..7).contains(&mag) {
        return format!("{:.*e}", digits - 1, x);
    }
    let decimals = (digits as i64 - 1 - mag).max(0) as usize;
    format!("{x:.decimals$}")
}

/// `x` with `digits` significant digits, `n/a` when undefined.
pub(crate) fn opt(x: Option<f64>, digits: usize) -> String {
    x.map(|v| sig(v, digits)).unwrap_or_else(|| "n/a".to_string())
}

/// A percent change with its sign and two decimals, `n/a` when undefined.
pub(crate) fn pct(x: Option<f64>) -> String {
    x.map(|v| format!("{v:+.2}%")).unwrap_or_else(|| "n/a".to_string())
}

/// Whether a row is shown as a failed testcase: a regression (`worse`) always, and
/// with `fail_on` any-change also `better` and `changed`.
pub fn is_failure(r: &Row, fail_on: FailOn) -> bool {
    r.verdict == Verdict::Worse || fails(r.verdict, fail_on)
}

/// One line describing a row's numbers: the change, p and q of the difference test,
/// the equivalence p, the power against the margin and the runs needed, warnings.
pub fn describe(r: &Row) -> String {
    let mut d = format!(
        "{}: {} {} -> {} ({}), p={}, q={} ({}, n={}/{}), equivalence p={}, power={}",
        r.verdict.name(),
        r.statistic,
        opt(r.mean_base, 6),
        opt(r.mean_new, 6),
        pct(r.change_pct),
        opt(r.p, 3),
        opt(r.q, 3),
        r.test,
        r.n_base,
        r.n_new,
        opt(r.p_equivalent, 3),
        opt(r.power, 2),
    );
    if let Some(n) = r.runs_needed {
        let _ = write!(d, ", runs needed {n} a side ({} more)", r.more_runs.unwrap_or(0));
    }
    for w in &r.warnings {
        let _ = write!(d, "; warning: {w}");
    }
    d
}

/// Seconds with 3 decimals, as the Jenkins xunit schema's `SUREFIRE_TIME` of a
/// suite takes them (a measurement that is not a finite positive number is 0).
fn seconds3(t: f64) -> String {
    format!("{:.3}", if t.is_finite() { t.max(0.0) } else { 0.0 })
}

/// Seconds with 6 decimals for a testcase (a metric's statistics take microseconds).
fn seconds6(t: f64) -> String {
    format!("{:.6}", if t.is_finite() { t.max(0.0) } else { 0.0 })
}

fn suite_name(r: &Row) -> String {
    let setup = if r.setup.is_empty() { String::new() } else { format!(" [{}]", r.setup) };
    format!("{} {}{}: {} vs {}", r.tool, r.benchmark, setup, r.kernel, r.baseline)
}

/// JUnit XML: one `<testsuite>` per comparison (kernel against baseline) with one
/// `<testcase>` per metric: a `<failure>` for a regression (and for any significant
/// change with `fail_on` any-change), `<skipped>` when there is not enough data;
/// and a suite `inputs` with one testcase per input, an `<error>` for each input
/// that could not be read, one testcase `missing data` with an `<error>` listing
/// what is missing, and the warnings and era notes as its `<system-out>`.
pub fn junit(res: &BatchResult) -> Result<String> {
    let fail_on = res.fail_on();
    let mut suites: Vec<(String, Vec<(&Row, f64)>)> = Vec::new();
    for (i, r) in res.rows.iter().enumerate() {
        let name = suite_name(r);
        let t = res.timings.rows.get(i).copied().unwrap_or(0.0);
        match suites.last_mut() {
            Some((n, rows)) if *n == name && rows.last().is_some_and(|(p, _)| p.input == r.input) => rows.push((r, t)),
            _ => suites.push((name, vec![(r, t)])),
        }
    }
    let failures = res.rows.iter().filter(|r| is_failure(r, fail_on)).count();
    let gaps = usize::from(!res.missing.is_empty()); // one testcase lists the missing data
    let mut x = String::new();
    x.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        x,
        "<testsuites name=\"schedlab batch\" tests=\"{}\" failures=\"{failures}\" errors=\"{}\" time=\"{}\">",
        res.rows.len() + res.inputs.len() + gaps,
        res.errors.len() + gaps,
        seconds3(res.timings.total)
    );
    for (name, rows) in &suites {
        let f = rows.iter().filter(|(r, _)| is_failure(r, fail_on)).count();
        let s = rows.iter().filter(|(r, _)| r.verdict == Verdict::NotEnoughData).count();
        let _ = writeln!(
            x,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{f}\" errors=\"0\" skipped=\"{s}\" time=\"{}\">",
            xml_escape(name),
            rows.len(),
            seconds3(rows.iter().map(|(_, t)| t).sum())
        );
        if let Some((first, _)) = rows.first() {
            x.push_str("    <properties>\n");
            for (k, v) in [
                ("setup", first.setup.as_str()),
                ("input", first.input.as_str()),
                ("base_input", first.base_input.as_str()),
                ("era", first.era.as_deref().unwrap_or("")),
                ("test", first.test.as_str()),
            ] {
                let _ = writeln!(x, "      <property name=\"{k}\" value=\"{}\"/>", xml_escape(v));
            }
            x.push_str("    </properties>\n");
        }
        for (j, &(r, t)) in rows.iter().enumerate() {
            cancel::check_every(j)?;
            let classname = format!("{}.{}", r.tool, r.benchmark);
            let case = format!("{} [{} vs {}]", r.metric, r.kernel, r.baseline);
            let _ = write!(
                x,
                "    <testcase classname=\"{}\" name=\"{}\" time=\"{}\">",
                xml_escape(&classname),
                xml_escape(&case),
                seconds6(t)
            );
            let d = describe(r);
            if is_failure(r, fail_on) {
                let kind = if r.verdict == Verdict::Worse { "regression" } else { "change" };
                let _ = write!(
                    x,
                    "\n      <failure type=\"{kind}\" message=\"{}\">{}</failure>\n    ",
                    xml_escape(&d),
                    xml_escape(&d)
                );
            } else if r.verdict == Verdict::NotEnoughData {
                let _ = write!(x, "\n      <skipped message=\"{}\"/>\n    ", xml_escape(&d));
            }
            x.push_str("</testcase>\n");
        }
        x.push_str("  </testsuite>\n");
    }
    let _ = writeln!(
        x,
        "  <testsuite name=\"inputs\" tests=\"{}\" failures=\"0\" errors=\"{}\" skipped=\"0\" time=\"{}\">",
        res.inputs.len() + gaps,
        res.errors.len() + gaps,
        seconds3(res.timings.inputs.iter().sum())
    );
    for (k, i) in res.inputs.iter().enumerate() {
        let _ = write!(
            x,
            "    <testcase classname=\"schedlab.batch.input\" name=\"{}\" time=\"{}\">",
            xml_escape(&i.path),
            seconds6(res.timings.inputs.get(k).copied().unwrap_or(0.0))
        );
        if let Some(e) = res.errors.iter().find(|e| e.input == i.path) {
            let _ = write!(
                x,
                "\n      <error type=\"input\" message=\"{}\">{}</error>\n    ",
                xml_escape(&e.message),
                xml_escape(&e.message)
            );
        }
        x.push_str("</testcase>\n");
    }
    if !res.missing.is_empty() {
        let what: Vec<&str> = res.missing.iter().map(|e| e.message.as_str()).collect();
        let _ = writeln!(
            x,
            "    <testcase classname=\"schedlab.batch.input\" name=\"missing data\" time=\"0\">\n      \
             <error type=\"missing\" message=\"{} missing\">{}</error>\n    </testcase>",
            what.len(),
            xml_escape(&what.join("\n"))
        );
    }
    if !res.warnings.is_empty() || !res.unmatched.is_empty() || !res.notes.is_empty() {
        let mut out: Vec<String> = res.warnings.clone();
        out.extend(res.unmatched.iter().map(|u| {
            let tag = setup_tag(&u.setup);
            format!("{} {}{tag} {} ({}): not compared: {}", u.tool, u.benchmark, u.kernel, u.input, u.reason)
        }));
        out.extend(res.notes.iter().map(|n| format!("note: {n}")));
        let _ = writeln!(x, "    <system-out>{}</system-out>", xml_escape(&out.join("\n")));
    }
    x.push_str("  </testsuite>\n</testsuites>\n");
    Ok(x)
}

/// The order rows are listed in: regressions first, equivalent last.
pub(crate) fn verdict_rank(v: Verdict) -> u8 {
    match v {
        Verdict::Worse => 0,
        Verdict::Changed => 1,
        Verdict::Better => 2,
        Verdict::Inconclusive => 3,
        Verdict::NotEnoughData => 4,
        Verdict::Equivalent => 5,
        Verdict::Noise | Verdict::Baseline => 6,
    }
}

/// The one-line outcome: the state and the counts of each verdict.
pub(crate) fn headline(res: &BatchResult) -> String {
    let s = &res.summary;
    let state = match res.exit_code {
        0 => "no significant regression",
        1 => "FAILED",
        3 => "INCONCLUSIVE",
        _ if res.errors.is_empty() => "MISSING DATA",
        _ => "INPUT ERROR",
    };
    let noise = if s.noise > 0 { format!(", {} noise", s.noise) } else { String::new() };
    format!(
        "schedlab batch: {state}: {} worse, {} better, {} changed, {} equivalent, {} inconclusive{noise}, {} not enough \
         data in {} rows of {} comparisons ({} inputs)",
        s.worse,
        s.better,
        s.changed,
        s.equivalent,
        s.inconclusive,
        s.not_enough_data,
        s.rows,
        s.comparisons,
        s.inputs
    )
}

/// The settings behind the verdicts, in one line.
pub(crate) fn settings(res: &BatchResult) -> String {
    let o = &res.options;
    let rule =
        VerdictRule { alpha: o.alpha, margin: o.margin, power: o.power, min_change: o.min_change, min_samples: 2 };
    let test = Test::parse(&o.test).unwrap_or_default();
    format!(
        "baseline {}, BH-FDR q across all rows; {}; min change {}%, fail on {}",
        o.baseline,
        rule.describe(test),
        o.min_change,
        o.fail_on
    )
}

/// " [setup]" after a benchmark's name, as the markdown shows it, when the row has a
/// setup (the `work/log` directory of an MMTests run: an archive may hold several, and
/// the same benchmark and runs in each).
pub(crate) fn setup_tag(setup: &str) -> String {
    if setup.is_empty() {
        String::new()
    } else {
        format!(" [{setup}]")
    }
}

/// Plain text for a terminal: the headline and settings, one line per row that
/// is not noise (regressions first), then what was not compared, warnings and errors.
pub fn text(res: &BatchResult) -> Result<String> {
    let mut t = String::new();
    let _ = writeln!(t, "{}", headline(res));
    let _ = writeln!(t, "{}", settings(res));
    let mut shown: Vec<&Row> = res
        .rows
        .iter()
        .filter(|r| !matches!(r.verdict, Verdict::Noise | Verdict::Baseline | Verdict::Equivalent))
        .collect();
    shown.sort_by_key(|r| verdict_rank(r.verdict));
    for (i, r) in shown.into_iter().enumerate() {
        cancel::check_every(i)?;
        let _ = writeln!(
            t,
            "{:<15} {} {}{} {} {} vs {}: {}",
            r.verdict.name().to_uppercase(),
            r.tool,
            r.benchmark,
            setup_tag(&r.setup),
            r.metric,
            r.kernel,
            r.baseline,
            describe(r)
        );
    }
    for u in &res.unmatched {
        let (tag, input, why) = (setup_tag(&u.setup), &u.input, &u.reason);
        let _ = writeln!(t, "not compared: {} {}{tag} {} ({input}): {why}", u.tool, u.benchmark, u.kernel);
    }
    for w in &res.warnings {
        let _ = writeln!(t, "warning: {w}");
    }
    for n in &res.notes {
        let _ = writeln!(t, "note: {n}");
    }
    for e in &res.errors {
        let _ = writeln!(t, "error: {}", e.message);
    }
    for e in &res.missing {
        let _ = writeln!(t, "missing: {}", e.message);
    }
    Ok(t)
}

/// The output formats of [`render`].
pub const FORMATS: [&str; 7] = ["json", "jsonl", "junit", "markdown", "github", "html", "text"];

/// Render `res` as "json", "jsonl" (JSON lines), "junit", "markdown" (within
/// `budget` bytes, [`super::markdown::DEFAULT_BUDGET`] when None), "github"
/// (workflow-command annotations) or "text".
pub fn render(res: &BatchResult, format: &str, budget: Option<usize>) -> Result<String> {
    match format {
        "json" => res.to_json_pretty(),
        "jsonl" => res.to_jsonl(),
        "junit" => junit(res),
        "markdown" => super::markdown::markdown(res, budget.unwrap_or(super::markdown::DEFAULT_BUDGET)),
        "github" => Ok(super::github::annotations(res)),
        "html" => Ok(super::html::html(res)),
        "text" => text(res),
        _ => Err(Error::domain(format!("format must be one of {}, got '{format}'", FORMATS.join(", ")))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_and_digits() {
        assert_eq!(xml_escape("a<b & \"c\"\u{1}"), "a&lt;b &amp; &quot;c&quot;\u{fffd}");
        assert_eq!(sig(0.0731234, 3), "0.0731");
        assert_eq!(sig(4626.0, 6), "4626.00");
        assert_eq!(sig(1.5e-7, 2), "1.5e-7");
        assert_eq!(sig(-2.0, 3), "-2.00");
    }
}
