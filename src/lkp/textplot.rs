//! The robot's per-sample ASCII plot (lib/plot.rb `mmplot`): bad/head samples as `O`,
//! good/base samples joined by a dotted line with `+` at each sample, on gnuplot's
//! `dumb` terminal of 80×20 characters (docs/lkp.md §6).
//!
//! This re-implements the parts of gnuplot 5.4 the plot uses: y autoscaling extended to
//! tic marks (`quantize_normal_tics` with a guide of 20), coordinate
//! rounding (x spans the sample indexes exactly: no x tics), the dumb terminal's line rasterizer (`-`/`|` and `+` ends for the border and
//! tics; `.`/`:` for line type 0) and its drawing order (tics at the back, border in
//! front). [`gnuplot_script`] gives the script lkp feeds gnuplot, for cross-checks.

use super::rubyfmt::float_to_s;

const W: usize = 80;
const H: usize = 20;
const XRIGHT: i64 = 76;
const YBOT: i64 = 2;
const YTOP: i64 = 16;

/// Which rasterizer pens a vector uses.
#[derive(Clone, Copy, PartialEq)]
enum Pen {
    /// Solid line type: `-`, `|`, `*` for diagonals.
    Solid,
    /// Line type 0 (dotted axis type): `.`, `:`, `+` for diagonals.
    Axis,
}

struct Canvas {
    px: Vec<Vec<u8>>,
}

impl Canvas {
    fn new() -> Self {
        Canvas { px: vec![vec![b' '; W]; H] }
    }
    fn set(&mut self, x: i64, y: i64, c: u8) {
        // off the H × W canvas (negative or too large) is clipped
        let (Ok(x), Ok(y)) = (usize::try_from(x), usize::try_from(y)) else { return };
        if let Some(p) = self.px.get_mut(y).and_then(|row| row.get_mut(x)) {
            *p = c;
        }
    }
    /// gnuplot dumb.trm `DUMB_vector` from (x0, y0) to (x1, y1).
    fn vector(&mut self, x0: i64, y0: i64, x1: i64, y1: i64, pen: Pen) {
        let (dx, dy) = (x1 - x0, y1 - y0);
        if dy.abs() > dx.abs() {
            let p = if pen == Pen::Axis { b':' } else { b'|' };
            self.set(x0, y0, b'+');
            for d in 1..dy.abs() {
                let x = x0 + (dx as f64 * d as f64 / dy.abs() as f64 + 0.5).floor() as i64;
                self.set(x, y0 + d * dy.signum(), p);
            }
            self.set(x1, y1, b'+');
        } else if dx.abs() > dy.abs() {
            let p = if pen == Pen::Axis { b'.' } else { b'-' };
            self.set(x0, y0, b'+');
            for d in 1..dx.abs() {
                let y = y0 + (dy as f64 * d as f64 / dx.abs() as f64 + 0.5).floor() as i64;
                self.set(x0 + d * dx.signum(), y, p);
            }
            self.set(x1, y1, b'+');
        } else {
            let p = if pen == Pen::Axis { b'+' } else { b'*' };
            for d in 0..=dx.abs() {
                self.set(x0 + d * dx.signum(), y0 + d * dy.signum(), p);
            }
        }
    }
    fn text(&mut self, x: i64, y: i64, s: &str) {
        for (i, c) in s.bytes().enumerate() {
            self.set(x + i as i64, y, c);
        }
    }
    fn render(&self) -> String {
        let lines: Vec<String> = self.px.iter().rev().map(|r| String::from_utf8_lossy(r).into_owned()).collect();
        lines.join("\n")
    }
}

/// gnuplot `quantize_normal_tics(range, guide)`.
fn quantize_normal_tics(arg: f64, guide: f64) -> f64 {
    let power = 10f64.powf(arg.log10().floor());
    let xnorm = arg / power;
    let posns = guide / xnorm;
    let tics = if posns > 40.0 {
        0.05
    } else if posns > 20.0 {
        0.1
    } else if posns > 10.0 {
        0.2
    } else if posns > 4.0 {
        0.5
    } else if posns > 2.0 {
        1.0
    } else if posns > 0.5 {
        2.0
    } else {
        xnorm.ceil()
    };
    tics * power
}

/// Autoscaled range extended outward to tic multiples, and the tic step.
fn axis_range(min: f64, max: f64) -> (f64, f64, f64) {
    let (mut lo, mut hi) = (min, max);
    if lo == hi {
        // gnuplot: "empty range, adjusting" by ±1% (±1 around zero)
        if lo == 0.0 {
            lo = -1.0;
            hi = 1.0;
        } else {
            let d = lo.abs() * 0.01;
            lo -= d;
            hi += d;
        }
    }
    let tic = quantize_normal_tics(hi - lo, 20.0);
    let lo2 = (lo / tic).floor() * tic;
    let hi2 = (hi / tic).ceil() * tic;
    (lo2, hi2, tic)
}

/// C `%g` (precision 6) as gnuplot prints tic labels.
fn c_g(v: f64) -> String {
    if v == 0.0 {
        return "0".into();
    }
    let e = format!("{:.5e}", v);
    let (mant, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if !(-4..6).contains(&exp) {
        let mant = if mant.contains('.') { mant.trim_end_matches('0').trim_end_matches('.') } else { mant };
        format!("{mant}e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs())
    } else {
        let prec = (5 - exp).max(0) as usize;
        let s = format!("{:.*}", prec, v);
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    }
}

/// The 80×20 plot of `title` with `bad` samples (`O`) and `good` samples (dotted line),
/// x = sample index from 1, exactly as gnuplot's dumb terminal draws lkp's mmplot
/// script (20 lines of 80 columns, no trailing newline).
pub fn text_plot(title: &str, bad: &[f64], good: &[f64]) -> String {
    let mut c = Canvas::new();
    let all: Vec<f64> = bad.iter().chain(good).copied().filter(|v| v.is_finite()).collect();
    let n = bad.len().max(good.len()).max(1);
    let (ymin, ymax, ytic) = if all.is_empty() {
        axis_range(-10.0, 10.0)
    } else {
        axis_range(
            all.iter().copied().fold(f64::INFINITY, f64::min),
            all.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        )
    };
    // `set noxtics`: the x range is not extended to tic marks
    let (xmin, xmax) = if n > 1 { (1.0, n as f64) } else { (0.99, 1.01) };
    // tic labels: the widest sets the left border
    let mut tics = Vec::new();
    let steps = ((ymax - ymin) / ytic).round() as i64;
    for i in 0..=steps {
        let v = ymin + i as f64 * ytic;
        let v = if (v / ytic).abs() < 1e-9 { 0.0 } else { v };
        tics.push((v, c_g(v)));
    }
    let width = tics.iter().map(|(_, s)| s.len()).max().unwrap_or(1) as i64;
    let xleft = width + 3;
    let map_x =
        |x: f64| -> i64 { (xleft as f64 + (x - xmin) * (XRIGHT - xleft) as f64 / (xmax - xmin) + 0.5).floor() as i64 };
    let map_y =
        |y: f64| -> i64 { (YBOT as f64 + (y - ymin) * (YTOP - YBOT) as f64 / (ymax - ymin) + 0.5).floor() as i64 };
    // back layer: tics and their labels
    for (v, label) in &tics {
        let y = map_y(*v);
        c.vector(xleft, y, xleft + 2, y, Pen::Solid);
        c.text(xleft - 1 - label.len() as i64, y, label);
    }
    // the plots: bad samples as points (pt 15 → 'O'), good samples as lt 0 lines
    for (i, v) in bad.iter().enumerate() {
        if v.is_finite() {
            c.set(map_x((i + 1) as f64), map_y(*v), b'O');
        }
    }
    let pts: Vec<(i64, i64)> = good
        .iter()
        .enumerate()
        .filter(|(_, v)| v.is_finite())
        .map(|(i, v)| (map_x((i + 1) as f64), map_y(*v)))
        .collect();
    for w in pts.windows(2) {
        if let &[(x0, y0), (x1, y1)] = w {
            c.vector(x0, y0, x1, y1, Pen::Axis);
        }
    }
    // front layer: the border
    c.vector(xleft, YBOT, XRIGHT, YBOT, Pen::Solid);
    c.vector(XRIGHT, YBOT, XRIGHT, YTOP, Pen::Solid);
    c.vector(XRIGHT, YTOP, xleft, YTOP, Pen::Solid);
    c.vector(xleft, YTOP, xleft, YBOT, Pen::Solid);
    let t = plot_title(title);
    c.text((xleft + XRIGHT) / 2 - t.len() as i64 / 2, YTOP + 1, &t);
    c.render()
}

/// lkp's title sanitising: characters outside `[a-zA-Z0-9_.:+=-]` become `_`.
pub fn plot_title(field: &str) -> String {
    field.chars().map(|c| if c.is_ascii_alphanumeric() || "_.:+=-".contains(c) { c } else { '_' }).collect()
}

fn data_value(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        float_to_s(v)
    }
}

/// The gnuplot script lib/plot.rb `mmplot` writes for one field, as the golden
/// out_C_plot.gp captured it (no trailing newline).
pub fn gnuplot_script(title: &str, bad: &[f64], good: &[f64]) -> String {
    let mut s = String::from("set terminal dumb nofeed size 80,20\nset notitle \n");
    s.push_str(&format!("set title \"{}\"\nset noxtics \nset ytics nomirror\n", plot_title(title)));
    s.push_str("plot '-' notitle with points pt 15 lt 0, '-' notitle with linespoints pt -22 lt 0\n");
    for (i, v) in bad.iter().enumerate() {
        s.push_str(&format!("{} {}\n", i + 1, data_value(*v)));
    }
    // the Ruby gnuplot gem ends every data block with "e" and joins blocks with "e\n",
    // so the first block is closed by "ee"
    s.push_str("ee\n");
    for (i, v) in good.iter().enumerate() {
        s.push_str(&format!("{} {}\n", i + 1, data_value(*v)));
    }
    s.push('e');
    s
}

/// One field's plot as lkp's `mmplot` makes it: the gnuplot script when `script`
/// ([`gnuplot_script`]), else the 80×20 ASCII plot gnuplot draws from it ([`text_plot`]).
pub fn plot(title: &str, bad: &[f64], good: &[f64], script: bool) -> String {
    if script {
        gnuplot_script(title, bad, good)
    } else {
        text_plot(title, bad, good)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tic_steps_by_hand() {
        // range 6884: power 1000, xnorm 6.884, 20/6.884 = 2.9 tic positions → step 1000
        assert_eq!(quantize_normal_tics(6884.0, 20.0), 1000.0);
        assert_eq!(axis_range(6364.0, 13248.0), (6000.0, 14000.0, 1000.0));
        assert_eq!(c_g(14000.0), "14000");
        assert_eq!(c_g(8.5e6), "8.5e+06");
        assert_eq!(c_g(0.5), "0.5");
    }

    #[test]
    fn plot_picks_the_script_or_the_picture() {
        let (bad, good) = ([1.0, 2.0], [3.0]);
        assert_eq!(plot("a.b", &bad, &good, true), gnuplot_script("a.b", &bad, &good));
        assert_eq!(plot("a.b", &bad, &good, false), text_plot("a.b", &bad, &good));
        assert!(plot("a.b", &bad, &good, true).starts_with("set terminal dumb nofeed size 80,20\n"));
    }
}
