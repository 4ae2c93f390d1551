//! The live check as one self-contained HTML table (Jupyter's `_repr_html_` of
//! `schedlab.live.check`'s result): one row per agreement figure (agreeing, compared,
//! share, what else it counts), the notes under it; the comparison table's inline
//! styles, so numbers are right-aligned and every cell takes the page's own text and
//! background colours, light or dark (docs/live.md §7).

use super::summary::{or_none, LiveCheck};
use super::text::{confusion_words, TICK_LIMIT};
use crate::table::html::{escape, notes_paragraph, CELL_STYLE, HEAD_STYLE, TABLE_STYLE};

/// The column headings.
const COLUMNS: [&str; 5] = ["check", "agree", "of", "share", "detail"];

/// `a / n` as a percentage with one decimal, `n/a` when nothing was compared.
fn percent(a: u64, n: u64) -> String {
    if n == 0 {
        "n/a".to_string()
    } else {
        format!("{:.1}%", 100.0 * a as f64 / n as f64)
    }
}

fn row(what: &str, a: u64, n: u64, detail: &str) -> String {
    let mut out = format!("<tr><th style=\"{HEAD_STYLE}\">{}</th>", escape(what));
    for v in [a.to_string(), n.to_string(), percent(a, n)] {
        out.push_str(&format!("<td style=\"{CELL_STYLE}\">{}</td>", escape(&v)));
    }
    out.push_str(&format!("<td style=\"{HEAD_STYLE}\">{}</td></tr>", escape(detail)));
    out
}

/// The HTML table of `c`.
pub fn html(c: &LiveCheck) -> String {
    let (m, p, i) = (&c.meta, &c.pelt, &c.idle);
    let caption =
        format!("live check: pid {} on CPU {}, Linux {}, HZ={}", m.pid, m.cpu, m.kernel, or_none(m.hz.as_ref()));
    let mut out = format!(
        "<table class=\"schedlab-live\" style=\"{TABLE_STYLE}\"><caption style=\"text-align:left;font-weight:bold\">{}</caption><thead><tr>",
        escape(&caption)
    );
    for h in COLUMNS {
        out.push_str(&format!("<th style=\"{HEAD_STYLE};font-weight:bold\">{h}</th>"));
    }
    out.push_str("</tr></thead><tbody>");
    let n = p.readings;
    let readings = format!(
        "readings compared: distinct last_update_time after the starting one (start {}); update points {}: runs {} (anchored exactly {}, switch-in missing {}), ticks {}, seen only in /proc {}",
        p.start_last_update_time, p.points, p.runs, p.anchored_runs, p.repaired_runs, p.tick_points, p.seen_only_points
    );
    out.push_str(&row("PELT util_avg within ±1", p.util_within_1, n, &readings));
    out.push_str(&row("PELT util_avg exact", p.util_exact, n, &format!("max |error| {}", p.util_max_error)));
    out.push_str(&row("util_est exact", p.util_est_exact, n, ""));
    let governor = or_none(i.governor.as_ref());
    if i.periods > 0 {
        let what = format!("idle state: {} vs the kernel's {governor}", or_none(i.replayed.as_ref()));
        let detail = format!(
            "CPU {}, driver {}, sysfs counted {} entries; (kernel state, replay state): {}; disagreements in the first 8 periods (no history yet) {}, with an assumed sleep length {}",
            i.cpu,
            or_none(i.driver.as_ref()),
            i.sysfs_entries,
            confusion_words(&i.confusion),
            i.cold_start_disagree,
            i.unknown_sleep_disagree
        );
        out.push_str(&row(&what, i.agree, i.periods, &detail));
        let detail = format!(
            "of the periods entered with the tick running; kernel stopped, replay kept {}; replay stopped, kernel kept {} ({} ended by a timer within a tick); already stopped {}. What limits it: {TICK_LIMIT}",
            i.tick_kernel_only, i.tick_replay_only, i.tick_replay_only_timer_within_tick, i.tick_already_stopped
        );
        out.push_str(&row("tick stop", i.tick_agree, i.tick_decided, &detail));
    }
    out.push_str("</tbody></table>");
    let mut notes = Vec::new();
    if i.periods == 0 {
        notes.push(format!(
            "idle: no idle period traced on CPU {} (sysfs counted {} entries; the kernel's governor {governor})",
            i.cpu, i.sysfs_entries
        ));
    }
    notes.extend(i.notes.iter().chain(&c.notes).map(|x| format!("note: {x}")));
    out.push_str(&notes_paragraph(&notes));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(json: &str) -> LiveCheck {
        serde_json::from_str(json).unwrap()
    }

    /// The figures of tests/data/live/quiet-cpu0-sleep20 as `live.check` returns them,
    /// with one util_avg miss (149 exact) and HTML put in the kernel name, the driver
    /// and a note.
    const CHECK: &str = r#"{"meta": {"pid": 13070, "cpu": 0, "kernel": "6.18<b>", "hz": 250},
        "pelt": {"readings": 150, "util_within_1": 150, "util_exact": 149, "util_max_error": 1,
        "util_est_exact": 150, "start_last_update_time": 32326520361984, "points": 247, "runs": 77,
        "anchored_runs": 74, "repaired_runs": 2, "tick_points": 21, "seen_only_points": 0},
        "notes": ["a 'quoted' & <tagged> note"],
        "idle": {"governor": "menu", "cpu": 0, "periods": 165, "sysfs_entries": 163, "driver": "halt\"poll",
        "replayed": "menu 6.12", "agree": 165, "cold_start_disagree": 0, "unknown_sleep_disagree": 0,
        "confusion": [[1, 1, 165]], "tick_decided": 132, "tick_agree": 122, "tick_kernel_only": 1,
        "tick_replay_only": 9, "tick_replay_only_timer_within_tick": 0, "tick_already_stopped": 33, "notes": []}}"#;

    #[test]
    fn one_row_per_figure_escaped() {
        let h = html(&parse(CHECK));
        assert!(h.starts_with("<table class=\"schedlab-live\""), "{h}");
        assert!(h.contains(">live check: pid 13070 on CPU 0, Linux 6.18&lt;b&gt;, HZ=250</caption>"), "{h}");
        assert_eq!(h.matches("<tr>").count(), 1 + 5, "the heading row and five figures");
        // 149 of 150 = 99.333...%; 122 of 132 = 92.424...%
        let num = format!("<td style=\"{CELL_STYLE}\">");
        assert!(h.contains(&format!("{num}149</td>{num}150</td>{num}99.3%</td>")), "{h}");
        assert!(h.contains(&format!("{num}122</td>{num}132</td>{num}92.4%</td>")), "{h}");
        assert!(h.contains("driver halt&quot;poll") && h.contains("kernel 1 / replay 1: 165"), "{h}");
        assert!(h.contains("note: a &#x27;quoted&#x27; &amp; &lt;tagged&gt; note</p>"), "{h}");
        assert!(!h.contains("<b>") && !h.contains("<tagged>"));
        assert_eq!(h.matches("<table").count(), h.matches("</table>").count());
    }

    #[test]
    fn without_idle_periods_says_so_under_the_table() {
        let no_idle = CHECK.replace("\"periods\": 165", "\"periods\": 0");
        let h = html(&parse(&no_idle));
        assert_eq!(h.matches("<tr>").count(), 1 + 3, "the PELT figures only");
        assert!(h.contains("<p style=\"margin:0.2em 0;font-size:90%\">idle: no idle period traced on CPU 0 (sysfs counted 163 entries; the kernel&#x27;s governor menu)<br>"), "{h}");
        // nothing compared: no share
        let none = no_idle.replace("\"readings\": 150", "\"readings\": 0");
        assert!(html(&parse(&none)).contains(">n/a</td>"));
    }
}
