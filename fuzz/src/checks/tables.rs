//! The table formats people paste into mail: AMD's normalised tables, MMTests'
//! compare tables, lkp's `%stddev %change` reports, and schedlab's own JSON form of
//! a [`Comparison`]. Each is parsed, rendered, parsed again: the data must agree to
//! the precision the format prints, and rendering the re-parsed table must give the
//! same bytes again (the format is a fixed point after one round).

use super::common::{bounded, close, close_opt, close_sig, line_count, parse_error, text, typed_error};
use schedlab::lkp::parse_report::{parse_report, to_comparison, Report};
use schedlab::table::{amd as amd_fmt, Comparison};

/// AMD tables ([`amd_fmt::parse`] / [`amd_fmt::render`]): values, changes and CVs
/// print with 2 decimals.
pub fn amd(data: &[u8]) {
    let Some(t) = text(data) else { return };
    let tables = match amd_fmt::parse(t) {
        Ok(v) => v,
        Err(e) => return parse_error(&e, Some("<amd table>"), line_count(data)),
    };
    for c in &tables {
        let r1 = amd_fmt::render(c).expect("a parsed AMD table renders");
        bounded(r1.len(), data.len(), "amd render");
        let back = amd_fmt::parse(&r1).unwrap_or_else(|e| panic!("rendered AMD table does not parse: {e}\n{r1}"));
        assert_eq!(back.len(), 1, "one table rendered, {} parsed back:\n{r1}", back.len());
        let c2 = &back[0];
        assert_eq!(c2.benchmark, c.benchmark);
        assert_eq!(c2.kernels, c.kernels);
        assert_eq!(c2.rows.len(), c.rows.len(), "rows lost:\n{r1}");
        for (a, b) in c.rows.iter().zip(&c2.rows) {
            assert_eq!((&a.name, &a.group, a.direction), (&b.name, &b.group, b.direction));
            for (x, y) in a.cells.iter().zip(&b.cells) {
                assert!(close_opt(x.value, y.value, 2), "value {:?} became {:?}", x.value, y.value);
                assert!(close_opt(x.change, y.change, 2), "change {:?} became {:?}", x.change, y.change);
                assert!(close_opt(x.spread, y.spread, 2), "CV {:?} became {:?}", x.spread, y.spread);
            }
        }
        assert_eq!(amd_fmt::render(c2).expect("renders"), r1, "second rendering differs");
    }
}

/// The JSON form of a [`Comparison`] ([`Comparison::from_json`]): what it reads,
/// it writes back identically; and every renderer either renders it within a budget
/// proportional to the input or refuses it with a typed error.
pub fn comparison_json(data: &[u8]) {
    let Some(t) = text(data) else { return };
    let c = match Comparison::from_json(t) {
        Ok(c) => c,
        Err(e) => return parse_error(&e, Some("<comparison json>"), line_count(data)),
    };
    let j = c.to_json().expect("a comparison serialises");
    let c2 = Comparison::from_json(&j).expect("its own JSON reads back");
    assert_eq!(c2, c, "JSON round trip changed the comparison");
    let s = schedlab::mmtests::render_text::render(&c).expect("a JSON comparison renders as MMTests text");
    bounded(s.len(), data.len(), "mmtests render of a JSON comparison");
    match amd_fmt::render(&c) {
        Ok(s) => bounded(s.len(), data.len(), "amd render of a JSON comparison"),
        Err(e) => typed_error(&e),
    }
    match schedlab::lkp::comparison::render_comparison(&c) {
        Ok(s) => bounded(s.len(), data.len(), "lkp render of a JSON comparison"),
        Err(e) => typed_error(&e),
    }
}

/// MMTests compare tables ([`schedlab::mmtests::parse_text::parse_compare`] /
/// [`schedlab::mmtests::render_text::render`]): values agree to the precision of the
/// table, percentages to 2 decimals, markers and kernel names exactly.
pub fn mmtests_text(data: &[u8]) {
    use schedlab::mmtests::{
        parse_text::parse_compare,
        render_text::{render, split_name},
    };
    let Some(t) = text(data) else { return };
    let c = match parse_compare(t, "<fuzz>") {
        Ok(c) => c,
        Err(e) => return parse_error(&e, Some("<fuzz>"), line_count(data)),
    };
    let r1 = render(&c).expect("a parsed table renders");
    bounded(r1.len(), data.len(), "mmtests render");
    // values as wide as their field (a precision of dozens of decimals read from the
    // input, or huge numbers) touch their neighbours as compare-mmtests.pl prints
    // them: ambiguous to any reader, so nothing to read back
    let prec: usize = c.meta.mmtests.as_ref().and_then(|m| m.precision).unwrap_or(2);
    let fl: usize = c.meta.mmtests.as_ref().and_then(|m| m.field_length).unwrap_or(12);
    let wide = |v: f64, p: usize| format!("{v:.p$}").len() >= fl;
    if c.rows.iter().flat_map(|r| r.cells).any(|x| {
        x.value.is_some_and(|v| wide(v, prec))
            || x.change.is_some_and(|v| wide(v, 2))
            || x.spread.is_some_and(|v| wide(v, 2))
    }) {
        return;
    }
    // the header prints split_name's two parts: names that print the same are the same
    // to the format (MMTests cuts "6.10-rc3X" to "6.10-rc3" itself)
    let printed = |k: &[String]| k.iter().map(|n| split_name(n)).collect::<Vec<_>>();
    // a name with an empty part prints a blank in a header line: where several names
    // mix blank first and blank second parts, no reader can place the blanks (the
    // parser reads a whole line of blanks, either line); the names are then a guess,
    // and only the numbers are held to the round trip
    let blanks = |p: &[(String, String)]| {
        let (first, second) = (p.iter().any(|(a, _)| a.is_empty()), p.iter().any(|(_, b)| b.is_empty()));
        let all = |f: fn(&(String, String)) -> bool| p.iter().all(f);
        (first && !all(|x| x.0.is_empty())) || (second && !all(|x| x.1.is_empty())) || (first && second)
    };
    // and a header line of words then numbers ("kern ba 2.9 9") reads as a table row
    let numeric = |p: &[(String, String)]| {
        let row_like = |words: Vec<&str>| {
            let num = |w: &&str| w.parse::<f64>().is_ok();
            words.len() >= 3 && words.first().is_some_and(|w| !num(w)) && words.iter().skip(2).all(num)
        };
        row_like(p.iter().map(|x| x.0.as_str()).filter(|w| !w.is_empty()).collect())
            || row_like(p.iter().map(|x| x.1.as_str()).filter(|w| !w.is_empty()).collect())
    };
    // (a name that is a bare number prints a header line of values)
    let number_name = c.kernels.iter().any(|k| k.trim_matches('-').parse::<f64>().is_ok());
    // (a name part wider than its column touches the next one)
    let too_wide = printed(&c.kernels).iter().any(|(a, b)| a.chars().count().max(b.chars().count()) >= fl + 11);
    // (a header line whose names are all dashes or equals signs prints as a rule)
    let rule_line = |p: &[(String, String)]| {
        let rule = |words: Vec<&str>| {
            let all: String = words.concat();
            !all.is_empty() && all.chars().all(|c| c == '-' || c == '=')
        };
        rule(p.iter().map(|x| x.0.as_str()).collect()) || rule(p.iter().map(|x| x.1.as_str()).collect())
    };
    let names_readable = !number_name
        && !rule_line(&printed(&c.kernels))
        && !too_wide
        && !blanks(&printed(&c.kernels))
        && !numeric(&printed(&c.kernels))
        && !c.kernels.iter().any(|k| k.contains(char::is_whitespace))
        // (a header line with a ':' reads as a "machine:" line, not names)
        && !c.kernels.iter().any(|k| k.contains(':'));
    if !names_readable {
        // the printed header may even read as rows: reading it back must not crash,
        // and that is all a reader can promise
        let _ = parse_compare(&r1, "<rendered>");
        return;
    }
    let c2 = parse_compare(&r1, "<rendered>").unwrap_or_else(|e| panic!("rendered table does not parse: {e}\n{r1}"));
    assert_eq!(printed(&c2.kernels), printed(&c.kernels), "kernel names changed:\n{r1}");
    assert_eq!(c2.rows.len(), c.rows.len(), "rows lost:\n{r1}");
    // a --print-ratio table prints the runs past its formatted ones with two decimals
    // (`%{fl}.2f`, as compare-mmtests.pl does), whatever the precision read
    let m = c.meta.mmtests.as_ref();
    let ratio = m.is_some_and(|m| m.layout == schedlab::table::MmtestsLayout::Ratio);
    let ratio_rows = c.rows.iter().filter(|r| r.group == "Ratio").count();
    let formatted = m.and_then(|m| m.formatted_runs).unwrap_or(ratio_rows + 1);
    let cell_prec = |j: usize| if ratio && j >= formatted { 2 } else { prec };
    for (a, b) in c.rows.iter().zip(&c2.rows) {
        assert_eq!((&a.group, &a.name), (&b.group, &b.name), "row label changed:\n{r1}");
        for (j, (x, y)) in a.cells.iter().zip(&b.cells).enumerate() {
            let p = cell_prec(j);
            assert!(close_opt(x.value, y.value, p), "value {:?} became {:?}:\n{r1}", x.value, y.value);
            assert!(close_opt(x.change, y.change, 2), "change {:?} became {:?}:\n{r1}", x.change, y.change);
            assert!(close_opt(x.spread, y.spread, 2), "spread {:?} became {:?}:\n{r1}", x.spread, y.spread);
            assert_eq!(x.significant, y.significant, "marker changed:\n{r1}");
        }
    }
    assert_eq!(render(&c2).expect("renders"), r1, "second rendering differs");
}

/// The precision lkp prints a mean with: `%.2f` below 1000, `%d` (truncated) up to
/// 1e8, `%.4g` above.
fn lkp_value_close(a: f64, b: f64) -> bool {
    let m = a.abs().max(b.abs());
    if m < 1000.0 {
        close(a, b, 2) || (a.abs() >= 999.995 || b.abs() >= 999.995) && (a - b).abs() < 1.0
    } else if m <= 100_000_000.0 {
        (a - b).abs() < 1.0 + 1e-9 * m
    } else {
        close_sig(a, b, 4)
    }
}

/// The precision of a change: `%+.1f` below 1e5, `%+.2g` above.
fn lkp_change_close(a: f64, b: f64) -> bool {
    if a.abs().max(b.abs()) < 100_000.0 {
        close(a, b, 1) || (a.abs() >= 99_999.95 || b.abs() >= 99_999.95)
    } else {
        close_sig(a, b, 2)
    }
}

fn same_report(a: &Report, b: &Report, rendered: &str) {
    assert_eq!(a.rows.len(), b.rows.len(), "rows lost:\n{rendered}");
    // lkp prints the failure section first: compare each section in its own order
    let section = |r: &Report, s: &str| r.rows.iter().filter(|x| x.section == s).cloned().collect::<Vec<_>>();
    let pairs: Vec<_> = ["failure", "perf"]
        .iter()
        .flat_map(|s| section(a, s).into_iter().zip(section(b, s)).collect::<Vec<_>>())
        .collect();
    assert_eq!(pairs.len(), a.rows.len(), "sections changed:\n{rendered}");
    for (x, y) in &pairs {
        assert_eq!(
            (&x.section, &x.metric, x.absolute),
            (&y.section, &y.metric, y.absolute),
            "row changed:\n{rendered}"
        );
        assert_eq!(x.cells.len(), y.cells.len(), "cells lost:\n{rendered}");
        for (p, q) in x.cells.iter().zip(&y.cells) {
            let (pv, qv) = (p.value.unwrap_or(0.0), q.value.unwrap_or(0.0));
            assert!(lkp_value_close(pv, qv), "value {pv} became {qv}:\n{rendered}");
            assert_eq!(p.runs, q.runs, "run count changed:\n{rendered}");
            // the robot prints ±N% only above 2% (and truncates N)
            if p.stddev_pct.is_some_and(|s| s > 2.0) {
                assert_eq!(p.stddev_pct.map(f64::trunc), q.stddev_pct, "±% changed:\n{rendered}");
            }
        }
        for (p, q) in x.changes.iter().zip(&y.changes) {
            assert!(lkp_change_close(*p, *q), "change {p} became {q}:\n{rendered}");
        }
    }
}

/// lkp reports ([`parse_report`] → [`to_comparison`] →
/// [`schedlab::lkp::comparison::render_comparison`]): every row survives with its
/// metric, section and run counts; numbers agree to what lkp prints.
pub fn lkp_report(data: &[u8]) {
    use schedlab::lkp::comparison::render_comparison;
    let Some(t) = text(data) else { return };
    let rep = parse_report(t);
    bounded(rep.rows.iter().map(|r| r.cells.len() * 16 + r.metric.len()).sum(), data.len(), "lkp report rows");
    let c = match to_comparison(&rep) {
        Ok(c) => c,
        // rows of different widths: refused at a line of the input
        Err(e) => return parse_error(&e, Some("<lkp report>"), line_count(data)),
    };
    let r1 = render_comparison(&c).unwrap_or_else(|e| panic!("a parsed report does not render: {e}"));
    bounded(r1.len(), data.len(), "lkp render");
    // a failure row's numbers wider than lkp's fields ("%10.0f%%", "%11d", ":%-4d")
    // touch their neighbours as lkp prints them: nothing to read back
    let overflow = rep.rows.iter().filter(|r| r.section == "failure").any(|r| {
        r.changes.iter().any(|p| format!("{p:.0}").len() > 10)
            || r.cells
                .iter()
                .any(|x| x.runs.is_some_and(|n| n > 9999) || x.value.is_some_and(|f| format!("{f:.0}").len() > 11))
    });
    if overflow {
        return;
    }
    let rep2 = parse_report(&r1);
    same_report(&rep, &rep2, &r1);
    let r2 = render_comparison(&to_comparison(&rep2).expect("a rendered table has one width")).expect("renders");
    let rep3 = parse_report(&r2);
    assert_eq!(rep3, rep2, "second round differs:\n{r1}\n{r2}");
}
