//! The human and CI views of a [`BatchResult`]: JUnit XML (one testcase per
//! compared metric, so CI systems list them), markdown (for a pull-request
//! comment) and plain text (for a terminal). The JSON view is the result itself.

use super::options::FailOn;
use super::result::{fails, BatchResult, Row};
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

fn opt(x: Option<f64>, digits: usize) -> String {
    x.map(|v| sig(v, digits)).unwrap_or_else(|| "n/a".to_string())
}

fn pct(x: Option<f64>) -> String {
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

fn suite_name(r: &Row) -> String {
    let setup = if r.setup.is_empty() { String::new() } else { format!(" [{}]", r.setup) };
    format!("{} {}{}: {} vs {}", r.tool, r.benchmark, setup, r.kernel, r.baseline)
}

/// JUnit XML: one `<testsuite>` per comparison (kernel against baseline) with one
/// `<testcase>` per metric: a `<failure>` for a regression (and for any significant
/// change with `fail_on` any-change), `<skipped>` when there is not enough data;
/// and a suite `inputs` with one testcase per input, an `<error>` for each input
/// that could not be read, one testcase `missing data` with an `<error>` listing
/// what is missing, and the warnings as its `<system-out>`.
pub fn junit(res: &BatchResult) -> String {
    let fail_on = res.fail_on();
    let mut suites: Vec<(String, Vec<&Row>)> = Vec::new();
    for r in &res.rows {
        let name = suite_name(r);
        match suites.last_mut() {
            Some((n, rows)) if *n == name && rows.last().is_some_and(|p| p.input == r.input) => rows.push(r),
            _ => suites.push((name, vec![r])),
        }
    }
    let failures = res.rows.iter().filter(|r| is_failure(r, fail_on)).count();
    let skipped = res.rows.iter().filter(|r| r.verdict == Verdict::NotEnoughData).count();
    let gaps = usize::from(!res.missing.is_empty()); // one testcase lists the missing data
    let mut x = String::new();
    x.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        x,
        "<testsuites name=\"schedlab batch\" tests=\"{}\" failures=\"{failures}\" errors=\"{}\" skipped=\"{skipped}\">",
        res.rows.len() + res.inputs.len() + gaps,
        res.errors.len() + gaps
    );
    for (name, rows) in &suites {
        let f = rows.iter().filter(|r| is_failure(r, fail_on)).count();
        let s = rows.iter().filter(|r| r.verdict == Verdict::NotEnoughData).count();
        let _ = writeln!(
            x,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{f}\" errors=\"0\" skipped=\"{s}\">",
            xml_escape(name),
            rows.len()
        );
        if let Some(first) = rows.first() {
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
        for r in rows {
            let classname = format!("{}.{}", r.tool, r.benchmark);
            let case = format!("{} [{} vs {}]", r.metric, r.kernel, r.baseline);
            let _ = write!(
                x,
                "    <testcase classname=\"{}\" name=\"{}\" time=\"0\">",
                xml_escape(&classname),
                xml_escape(&case)
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
        "  <testsuite name=\"inputs\" tests=\"{}\" failures=\"0\" errors=\"{}\" skipped=\"0\">",
        res.inputs.len() + gaps,
        res.errors.len() + gaps
    );
    for i in &res.inputs {
        let _ =
            write!(x, "    <testcase classname=\"schedlab.batch.input\" name=\"{}\" time=\"0\">", xml_escape(&i.path));
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
    if !res.warnings.is_empty() || !res.unmatched.is_empty() {
        let mut out: Vec<String> = res.warnings.clone();
        out.extend(
            res.unmatched
                .iter()
                .map(|u| format!("{} {} {} ({}): not compared: {}", u.tool, u.benchmark, u.kernel, u.input, u.reason)),
        );
        let _ = writeln!(x, "    <system-out>{}</system-out>", xml_escape(&out.join("\n")));
    }
    x.push_str("  </testsuite>\n</testsuites>\n");
    x
}

fn verdict_rank(v: Verdict) -> u8 {
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

fn headline(res: &BatchResult) -> String {
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

fn settings(res: &BatchResult) -> String {
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

/// Text for a markdown table cell or list item: `|` escaped, line breaks and tabs
/// (which end a table row or shift it) as spaces, and `&`, `<`, `>` as entities so
/// that a kernel name holding HTML is shown, not interpreted.
fn md_cell(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '|' => out.push_str("\\|"),
            '\n' | '\r' | '\t' => out.push(' '),
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

/// Markdown for a pull-request comment: the headline, the settings, a table of
/// every row that is not noise (regressions first), then what was not compared,
/// warnings and input errors.
pub fn markdown(res: &BatchResult) -> String {
    let mut m = String::new();
    let _ = writeln!(m, "### {}\n", headline(res));
    let _ = writeln!(m, "{}; exit code {}.\n", settings(res), res.exit_code);
    let mut shown: Vec<&Row> = res
        .rows
        .iter()
        .filter(|r| !matches!(r.verdict, Verdict::Noise | Verdict::Baseline | Verdict::Equivalent))
        .collect();
    shown.sort_by_key(|r| verdict_rank(r.verdict));
    if shown.is_empty() {
        m.push_str("No row shows a significant change, and none is inconclusive.\n");
    } else {
        m.push_str(
            "| verdict | tool | benchmark | setup | metric | kernel | baseline | statistic | base | new | change | p | q \
             | equivalence p | power | runs needed | n |\n",
        );
        m.push_str("|---|---|---|---|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for r in &shown {
            let _ = writeln!(
                m,
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {}/{} |",
                if r.verdict == Verdict::Worse { "**worse**".to_string() } else { r.verdict.name().to_string() },
                md_cell(&r.tool),
                md_cell(&r.benchmark),
                md_cell(&r.setup),
                md_cell(&r.metric),
                md_cell(&r.kernel),
                md_cell(&r.baseline),
                r.statistic,
                opt(r.mean_base, 6),
                opt(r.mean_new, 6),
                pct(r.change_pct),
                opt(r.p, 3),
                opt(r.q, 3),
                opt(r.p_equivalent, 3),
                opt(r.power, 2),
                r.runs_needed.map(|n| n.to_string()).unwrap_or_else(|| "n/a".to_string()),
                r.n_base,
                r.n_new
            );
        }
        let hidden = res.rows.len() - shown.len();
        if hidden > 0 {
            let _ = writeln!(m, "\n{hidden} rows judged equivalent are not shown.");
        }
    }
    if !res.unmatched.is_empty() {
        m.push_str("\n**Not compared**\n\n");
        for u in &res.unmatched {
            let _ = writeln!(
                m,
                "- {} {} `{}` in `{}`: {}",
                u.tool,
                md_cell(&u.benchmark),
                md_cell(&u.kernel),
                md_cell(&u.input),
                u.reason
            );
        }
    }
    if !res.errors.is_empty() {
        m.push_str("\n**Input errors**\n\n");
        for e in &res.errors {
            let _ = writeln!(m, "- `{}`: {}", md_cell(&e.input), md_cell(&e.message));
        }
    }
    if !res.missing.is_empty() {
        m.push_str("\n**Missing data**\n\n");
        for e in &res.missing {
            let _ = writeln!(m, "- {}", md_cell(&e.message));
        }
    }
    if !res.warnings.is_empty() {
        m.push_str("\n**Warnings**\n\n");
        for w in &res.warnings {
            let _ = writeln!(m, "- {}", md_cell(w));
        }
    }
    m
}

/// Plain text for a terminal: the headline and settings, one line per row that
/// is not noise (regressions first), then what was not compared, warnings and errors.
pub fn text(res: &BatchResult) -> String {
    let mut t = String::new();
    let _ = writeln!(t, "{}", headline(res));
    let _ = writeln!(t, "{}", settings(res));
    let mut shown: Vec<&Row> = res
        .rows
        .iter()
        .filter(|r| !matches!(r.verdict, Verdict::Noise | Verdict::Baseline | Verdict::Equivalent))
        .collect();
    shown.sort_by_key(|r| verdict_rank(r.verdict));
    for r in shown {
        let _ = writeln!(
            t,
            "{:<15} {} {} {} {} vs {}: {}",
            r.verdict.name().to_uppercase(),
            r.tool,
            r.benchmark,
            r.metric,
            r.kernel,
            r.baseline,
            describe(r)
        );
    }
    for u in &res.unmatched {
        let _ = writeln!(t, "not compared: {} {} {} ({}): {}", u.tool, u.benchmark, u.kernel, u.input, u.reason);
    }
    for w in &res.warnings {
        let _ = writeln!(t, "warning: {w}");
    }
    for e in &res.errors {
        let _ = writeln!(t, "error: {}", e.message);
    }
    for e in &res.missing {
        let _ = writeln!(t, "missing: {}", e.message);
    }
    t
}

/// Render `res` as "json", "junit", "markdown" or "text".
pub fn render(res: &BatchResult, format: &str) -> Result<String> {
    match format {
        "json" => res.to_json_pretty(),
        "junit" => Ok(junit(res)),
        "markdown" => Ok(markdown(res)),
        "text" => Ok(text(res)),
        _ => Err(Error::domain(format!("format must be json, junit, markdown or text, got '{format}'"))),
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
