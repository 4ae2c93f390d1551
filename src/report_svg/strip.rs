//! The report's per-sample strip plot of an MMTests comparison (docs/report.md,
//! "Figures"): one panel per row that holds samples (else per row of the statistic
//! `--print-ratio` divides), in up to [`COLUMNS`] columns; in each panel one column per
//! kernel with every sample as a point in the kernel's colour and the cell's value
//! (the mean) as a black bar; the panel titled by the row, the y axis in the
//! benchmark's unit, the x axis the kernels with their names wrapped horizontally.
//! What matplotlib drew for `MMTestsComparison.plot`, written directly as SVG.

use super::axis::LinearAxis;
use super::palette::colour;
use super::svg::{num, text_width, wrap, Anchor, Svg};
use crate::table::{Comparison, Row};

/// Most panels side by side.
pub const COLUMNS: usize = 4;
/// A panel's width and height in CSS pixels (matplotlib's 3.2 x 2.8 inches at 72 per inch).
pub const PANEL: (f64, f64) = (230.4, 201.6);
/// Height of the figure's title line above the panels.
const TITLE_HEIGHT: f64 = 24.0;
/// Font sizes: the figure's title, a panel's title, axis labels, tick labels.
const FONT: (f64, f64, f64, f64) = (12.0, 9.0, 8.0, 7.0);
/// Length of a tick mark.
const TICK: f64 = 3.5;
/// Radius of a sample's point.
const POINT_RADIUS: f64 = 2.0;
/// Half the mean bar's width, as a share of a kernel's column (matplotlib's `j ± 0.3`).
const BAR_HALF: f64 = 0.3;
/// A kernel name's line length on the x axis.
const WRAP: usize = 10;

/// A drawn figure: the SVG markup and the texts the page's self-check looks for in it
/// (the title, each panel's title and both axis labels).
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    /// The `<svg>` element.
    pub svg: String,
    /// The title and axis labels, each the whole text of one `<text>` of the SVG.
    pub labels: Vec<String>,
}

/// The strip plot of `c` with `y_label` on the y axes (MMTests' unit of the benchmark);
/// None when no row has a sample or a value of the ratio's statistic to draw.
pub fn strip_plot(c: &Comparison, y_label: &str) -> Option<Figure> {
    let mut rows: Vec<Row> =
        c.rows.iter().filter(|r| r.cells.iter().any(|x| x.samples.as_ref().is_some_and(|s| !s.is_empty()))).collect();
    if rows.is_empty() {
        let ratio = c.meta.mmtests.as_ref().and_then(|m| m.ratio_group.as_deref());
        rows = c.rows.iter().filter(|r| Some(r.group.as_str()) == ratio).collect();
    }
    let panels: Vec<(Row, LinearAxis)> = rows
        .into_iter()
        .filter_map(|r| {
            let axis = LinearAxis::for_values(r.cells.iter().flat_map(|x| values(x).chain(x.value)))?;
            Some((r, axis))
        })
        .collect();
    if panels.is_empty() {
        return None;
    }
    let preferred = c.meta.mmtests.as_ref().and_then(|m| m.preferred).map_or("?", crate::table::meta::direction_name);
    let title = format!("{} ({preferred} is better)", c.benchmark);
    let cols = panels.len().min(COLUMNS);
    let nrows = panels.len().div_ceil(cols);
    let (width, height) = (cols as f64 * PANEL.0, TITLE_HEIGHT + nrows as f64 * PANEL.1);
    let desc = format!(
        "Strip plot, one panel per row of the table ({}): for each kernel ({}), every sample as a point and the \
         mean as a black bar; y axis: {y_label}.",
        panels.iter().map(|(r, _)| format!("{} {}", r.group, r.name)).collect::<Vec<_>>().join("; "),
        c.kernels.join(", ")
    );
    let mut svg = Svg::new(width, height, &title, &desc);
    svg.text((width / 2.0, 17.0), FONT.0, Anchor::Middle, &title, "");
    let names: Vec<Vec<String>> = c.kernels.iter().map(|k| wrap(k, WRAP)).collect();
    let mut labels = vec![title.clone()];
    for (i, (row, axis)) in panels.iter().enumerate() {
        let origin = ((i % cols) as f64 * PANEL.0, TITLE_HEIGHT + (i / cols) as f64 * PANEL.1);
        let panel_title = format!("{} {}", row.group, row.name);
        panel(&mut svg, origin, (row, axis), (&panel_title, y_label), (&c.kernels, &names));
        labels.extend([panel_title, "kernel".to_string(), y_label.to_string()]);
    }
    Some(Figure { svg: svg.finish(), labels })
}

/// The finite samples of a cell, else its finite value (what its column draws as points).
fn values(cell: &crate::table::Cell) -> impl Iterator<Item = f64> + '_ {
    let samples = cell.samples.as_deref().filter(|s| !s.is_empty());
    let own = if samples.is_none() { cell.value } else { None };
    samples.into_iter().flatten().copied().chain(own).filter(|v| v.is_finite())
}

/// The plotting area of a panel at `origin`: (left, top, right, bottom).
fn plot_area(origin: (f64, f64), axis: &LinearAxis, name_lines: usize) -> (f64, f64, f64, f64) {
    let ticks = axis.ticks.iter().map(|&t| text_width(&axis.label(t), FONT.3)).fold(0.0, f64::max);
    let left = origin.0 + FONT.2 * 1.6 + ticks + TICK + 3.0;
    let top = origin.1 + FONT.1 * 2.0;
    let bottom = origin.1 + PANEL.1 - (TICK + 3.0 + name_lines as f64 * FONT.3 * 1.15 + FONT.2 * 1.8);
    (left, top, origin.0 + PANEL.0 - 10.0, bottom)
}

/// One panel: frame, y ticks and their labels, the row's title, the axis labels, the
/// kernels' names, and per kernel its points and mean bar.
fn panel(
    svg: &mut Svg,
    origin: (f64, f64),
    (row, axis): (&Row, &LinearAxis),
    (title, y_label): (&str, &str),
    (kernels, names): (&[String], &[Vec<String>]),
) {
    let lines = names.iter().map(Vec::len).max().unwrap_or(1);
    let (left, top, right, bottom) = plot_area(origin, axis, lines);
    svg.open_group("class=\"panel\"", title);
    svg.rect((left, top), (right - left, bottom - top), "fill=\"none\" stroke=\"#000\" stroke-width=\"0.8\"");
    svg.text(((left + right) / 2.0, origin.1 + FONT.1 * 1.4), FONT.1, Anchor::Middle, title, "");
    for &t in &axis.ticks {
        let y = axis.position(t, bottom, top);
        svg.line((left - TICK, y), (left, y), "stroke=\"#000\" stroke-width=\"0.8\"");
        svg.text((left - TICK - 2.0, y + FONT.3 * 0.35), FONT.3, Anchor::End, &axis.label(t), "");
    }
    let yl = (origin.0 + FONT.2 * 1.1, (top + bottom) / 2.0);
    svg.text(yl, FONT.2, Anchor::Middle, y_label, &format!("transform=\"rotate(-90 {} {})\"", num(yl.0), num(yl.1)));
    svg.text(((left + right) / 2.0, origin.1 + PANEL.1 - FONT.2 * 0.6), FONT.2, Anchor::Middle, "kernel", "");
    let step = (right - left) / kernels.len().max(1) as f64;
    for (j, (kernel, name)) in kernels.iter().zip(names).enumerate() {
        let x = left + (j as f64 + 0.5) * step;
        svg.line((x, bottom), (x, bottom + TICK), "stroke=\"#000\" stroke-width=\"0.8\"");
        svg.text_lines((x, bottom + TICK + 2.0 + FONT.3), FONT.3, name);
        let Some(cell) = row.cells.get(j) else { continue };
        let points: Vec<f64> = values(cell).collect();
        let mean = cell.value.filter(|v| v.is_finite());
        if points.is_empty() && mean.is_none() {
            continue;
        }
        let tip = match mean {
            Some(m) => format!("{kernel}: {} value(s), mean {m}", points.len()),
            None => format!("{kernel}: {} value(s)", points.len()),
        };
        svg.open_group(&format!("class=\"kernel\" fill=\"{}\" fill-opacity=\"0.6\"", colour(j)), &tip);
        for &v in &points {
            svg.point((x, axis.position(v, bottom, top)), POINT_RADIUS, v);
        }
        if let Some(m) = mean {
            let y = axis.position(m, bottom, top);
            svg.line(
                (x - BAR_HALF * step, y),
                (x + BAR_HALF * step, y),
                &format!("class=\"mean\" stroke=\"#000\" stroke-width=\"1.5\" data-value=\"{m}\""),
            );
        }
        svg.close_group();
    }
    svg.close_group();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::{Cell, Direction, MmtestsMeta};

    fn cell(value: Option<f64>, samples: &[f64]) -> Cell {
        Cell { value, samples: (!samples.is_empty()).then(|| samples.to_vec().into_boxed_slice()), ..Cell::default() }
    }

    fn table() -> Comparison {
        let mut c = Comparison::new("mmtests", "netperf-udp", vec!["6.8-base".into(), "6.9-patched-long".into()]);
        c.meta.mmtests = Some(MmtestsMeta {
            preferred: Some(Direction::Higher),
            ratio_group: Some("Hmean".into()),
            ..MmtestsMeta::default()
        });
        c.rows.push(Row {
            group: "Hmean".into(),
            name: "send-64".into(),
            cells: vec![cell(Some(15.0), &[]), cell(Some(16.0), &[])],
            ..Row::default()
        });
        c.rows.push(Row {
            group: "Amean".into(),
            name: "send-64".into(),
            cells: vec![cell(Some(12.0), &[10.0, 14.0]), cell(Some(19.0), &[18.0, 20.0])],
            ..Row::default()
        });
        c
    }

    fn attr(n: roxmltree::Node<'_, '_>, a: &str) -> f64 {
        n.attribute(a).unwrap().parse().unwrap()
    }

    #[test]
    fn points_and_bars_where_the_axis_puts_them() {
        let f = strip_plot(&table(), "Mbits/sec").unwrap();
        let doc = roxmltree::Document::parse(&f.svg).unwrap();
        let root = doc.root_element();
        assert_eq!((root.tag_name().name(), root.attribute("role")), ("svg", Some("img")));
        let first = root.children().find(|c| c.is_element()).unwrap();
        assert_eq!((first.tag_name().name(), first.text()), ("title", Some("netperf-udp (Higher is better)")));
        assert_eq!(f.labels, ["netperf-udp (Higher is better)", "Amean send-64", "kernel", "Mbits/sec"]);
        let texts: Vec<&str> = root.descendants().filter(|n| n.has_tag_name("text")).filter_map(|n| n.text()).collect();
        assert!(f.labels.iter().all(|l| texts.contains(&l.as_str())), "{texts:?}");
        // only the Amean row holds samples: one panel, 230.4 x (24 + 201.6)
        assert_eq!((attr(root, "width"), attr(root, "height")), (230.4, 225.6));
        // its data 10..20 -> axis 9.5..20.5 (5% margins), ticks 10, 12.5, ..., 20 ("12.5": one decimal)
        let frame = root.descendants().find(|n| n.has_tag_name("rect")).unwrap();
        let (top, bottom) = (attr(frame, "y"), attr(frame, "y") + attr(frame, "height"));
        let (left, right) = (attr(frame, "x"), attr(frame, "x") + attr(frame, "width"));
        // the frame: title line 24 + 2 x 9 above; below, the tick 3.5 + 3, three name lines of 7 x 1.15
        // ("6.9-patched-long" wraps to three), the x label 8 x 1.8
        assert!((top - 42.0).abs() < 0.01 && (bottom - (225.6 - (6.5 + 24.15 + 14.4))).abs() < 0.01, "{top} {bottom}");
        // left: the y label 8 x 1.6, the widest tick label "12.5" (4 x 0.6 x 7 = 16.8), the tick 3.5 + 3
        assert!((left - (12.8 + 16.8 + 6.5)).abs() < 0.01 && (right - 220.4).abs() < 0.01, "{left} {right}");
        let y = |v: f64| bottom - (v - 9.5) / 11.0 * (bottom - top);
        let kernels: Vec<_> = root.descendants().filter(|n| n.attribute("class") == Some("kernel")).collect();
        assert_eq!(kernels.len(), 2);
        for (j, (g, (samples, mean, colour))) in
            kernels.iter().zip([(&[10.0, 14.0], 12.0, "#1f77b4"), (&[18.0, 20.0], 19.0, "#ff7f0e")]).enumerate()
        {
            assert_eq!(g.attribute("fill"), Some(colour));
            let x = left + (j as f64 + 0.5) * (right - left) / 2.0;
            let points: Vec<_> = g.children().filter(|n| n.has_tag_name("circle")).collect();
            assert_eq!(points.iter().map(|p| attr(*p, "data-value")).collect::<Vec<_>>(), samples.to_vec());
            for (p, v) in points.iter().zip(samples.iter()) {
                assert!((attr(*p, "cx") - x).abs() < 0.006 && (attr(*p, "cy") - y(*v)).abs() < 0.006);
            }
            let bar = g.children().find(|n| n.has_tag_name("line")).unwrap();
            assert_eq!(attr(bar, "data-value"), mean);
            assert!((attr(bar, "y1") - y(mean)).abs() < 0.006 && attr(bar, "y1") == attr(bar, "y2"));
            // the bar spans 0.3 of the kernel's column each side
            let half = 0.3 * (right - left) / 2.0;
            assert!((attr(bar, "x1") - (x - half)).abs() < 0.006 && (attr(bar, "x2") - (x + half)).abs() < 0.006);
        }
        let ticks: Vec<&str> =
            root.descendants().filter(|n| n.attribute("text-anchor") == Some("end")).filter_map(|n| n.text()).collect();
        assert_eq!(ticks, ["10.0", "12.5", "15.0", "17.5", "20.0"]);
        // the wrapped kernel name: textwrap.wrap("6.9-patched-long", 10) == ['6.9-', 'patched-', 'long']
        let spans: Vec<&str> =
            root.descendants().filter(|n| n.has_tag_name("tspan")).filter_map(|n| n.text()).collect();
        assert_eq!(spans, ["6.8-base", "6.9-", "patched-", "long"]);
    }

    #[test]
    fn without_samples_the_ratio_statistic_rows_and_nothing_to_draw_is_none() {
        let mut c = table();
        let amean = c.rows.get(0).unwrap();
        c.rows = crate::table::Rows::new();
        c.rows.push(amean);
        let f = strip_plot(&c, "value").unwrap();
        assert_eq!(f.labels[1], "Hmean send-64");
        let doc = roxmltree::Document::parse(&f.svg).unwrap();
        // no samples: the value is the one point, and the bar
        let points: Vec<f64> =
            doc.descendants().filter(|n| n.has_tag_name("circle")).map(|n| attr(n, "data-value")).collect();
        assert_eq!(points, [15.0, 16.0]);
        c.meta.mmtests = None;
        assert_eq!(strip_plot(&c, "value"), None);
        assert_eq!(strip_plot(&Comparison::new("mmtests", "x", vec!["a".into()]), "value"), None);
    }

    #[test]
    fn same_bytes_every_time() {
        assert_eq!(strip_plot(&table(), "u"), strip_plot(&table(), "u"));
    }
}
