//! GitHub Actions workflow commands for a [`BatchResult`]: `::error` and
//! `::warning` annotations (shown on the run's summary page and in a pull
//! request's checks) and a closing `::notice` with the headline.
//!
//! GitHub shows at most 10 error and 10 warning annotations of a step, so the
//! most important come first (input errors, missing data, then the failing rows,
//! regressions first; warnings: inconclusive rows, then the run's warnings) and
//! the rest are counted in the notice. Values are escaped as the workflow command
//! syntax asks: `%`, CR and LF in the message; also `:` and `,` in a property
//! (docs/batch.md, "Outputs").

use super::document::{BatchResult, Row};
use super::render::{describe, headline, is_failure, setup_tag, verdict_rank};
use crate::table::Verdict;
use std::fmt::Write;

/// Annotations of each level GitHub shows for one step.
pub const SHOWN: usize = 10;

/// Escape a workflow command's message.
pub fn escape_data(s: &str) -> String {
    s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// Escape a workflow command's property value (`file=`, `title=`).
pub fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

struct Annotation {
    file: String,
    title: String,
    message: String,
}

fn command(level: &str, a: &Annotation) -> String {
    let file = if a.file.is_empty() { String::new() } else { format!("file={},", escape_property(&a.file)) };
    format!("::{level} {file}title={}::{}\n", escape_property(&a.title), escape_data(&a.message))
}

fn of_row(r: &Row) -> Annotation {
    Annotation {
        file: r.input.clone(),
        title: format!(
            "{} {} {}{}: {} {}",
            r.verdict.name(),
            r.tool,
            r.benchmark,
            setup_tag(&r.setup),
            r.metric,
            r.kernel
        ),
        message: format!("{} vs {}: {}", r.kernel, r.baseline, describe(r)),
    }
}

/// The annotations of `res`: at most [`SHOWN`] errors and [`SHOWN`] warnings, then
/// a notice with the headline and a count of those not written.
pub fn annotations(res: &BatchResult) -> String {
    let fail_on = res.fail_on();
    let mut errors: Vec<Annotation> = res
        .errors
        .iter()
        .map(|e| Annotation { file: e.input.clone(), title: "input error".into(), message: e.message.clone() })
        .collect();
    let gaps = res.missing.iter().map(|e| Annotation {
        file: e.input.clone(),
        title: "missing data".into(),
        message: e.message.clone(),
    });
    let mut warnings: Vec<Annotation> = Vec::new();
    if res.options.allow_missing {
        warnings.extend(gaps);
    } else {
        errors.extend(gaps);
    }
    let mut failing: Vec<&Row> = res.rows.iter().filter(|r| is_failure(r, fail_on)).collect();
    failing.sort_by_key(|r| verdict_rank(r.verdict));
    errors.extend(failing.into_iter().map(of_row));
    warnings.extend(res.rows.iter().filter(|r| r.verdict == Verdict::Inconclusive).map(of_row));
    warnings.extend(res.warnings.iter().map(|w| Annotation {
        file: String::new(),
        title: "warning".into(),
        message: w.clone(),
    }));
    let mut out = String::new();
    errors.iter().take(SHOWN).for_each(|a| out.push_str(&command("error", a)));
    warnings.iter().take(SHOWN).for_each(|a| out.push_str(&command("warning", a)));
    let mut note = headline(res);
    let (e, w) = (errors.len().saturating_sub(SHOWN), warnings.len().saturating_sub(SHOWN));
    if e + w > 0 {
        let _ = write!(note, "; {e} more errors and {w} more warnings not annotated (the JSON output has every one)");
    }
    out.push_str(&command(
        "notice",
        &Annotation { file: String::new(), title: "schedlab batch".into(), message: note },
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_as_the_workflow_command_syntax_asks() {
        assert_eq!(escape_data("50% a\r\nb: c, d"), "50%25 a%0D%0Ab: c, d");
        assert_eq!(escape_property("m1/x.tgz: a,b"), "m1/x.tgz%3A a%2Cb");
    }
}
