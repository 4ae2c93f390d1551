//! The SVG text of a figure: numbers written short and exact enough for the drawing,
//! text escaped and its width estimated (no font metrics: the page's sans-serif is
//! about 0.6 em per character), names wrapped onto short lines, and the elements the
//! figures use.

use crate::table::html::escape;
use std::fmt::Write;

/// Average width of a character, in em of the font size (a sans-serif's digits and
/// lower case letters; enough to keep labels clear of the axes).
pub const CHAR_EM: f64 = 0.6;

/// A coordinate: at most two decimals, without trailing zeros ("12.5", "3", "-0.25").
pub fn num(v: f64) -> String {
    let s = format!("{v:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

/// The estimated width of `text` drawn at font size `size`.
pub fn text_width(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * CHAR_EM * size
}

/// `name` broken onto lines of at most `width` characters, after its dashes, spaces,
/// dots and underscores where it can and inside a longer piece where it must (as
/// Python's `textwrap.wrap` breaks a kernel name like "6.12.0-rc3-tip-sched").
pub fn wrap(name: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut pieces: Vec<String> = Vec::new();
    let mut cur = String::new();
    for ch in name.chars() {
        cur.push(ch);
        if matches!(ch, '-' | ' ' | '_') {
            pieces.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        pieces.push(cur);
    }
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for piece in pieces {
        let mut piece = piece.as_str();
        while !piece.is_empty() {
            let room = width - line.chars().count();
            let len = piece.chars().count();
            if len <= room {
                line.push_str(piece);
                piece = "";
            } else if line.is_empty() {
                let cut = piece.char_indices().nth(width).map_or(piece.len(), |(i, _)| i);
                line.push_str(&piece[..cut]);
                piece = &piece[cut..];
            }
            if !piece.is_empty() || line.chars().count() >= width {
                lines.push(std::mem::take(&mut line).trim_end().to_string());
            }
        }
    }
    if !line.is_empty() {
        lines.push(line.trim_end().to_string());
    }
    lines.retain(|l| !l.is_empty());
    if lines.is_empty() {
        lines.push(name.to_string());
    }
    lines
}

/// Where a text's x coordinate is on the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    /// x is the text's left end.
    Start,
    /// x is the text's middle.
    Middle,
    /// x is the text's right end.
    End,
}

impl Anchor {
    fn name(self) -> &'static str {
        match self {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        }
    }
}

/// An SVG document being written: the root element (with its accessible title and
/// description) opened by [`Svg::new`], closed by [`Svg::finish`].
pub struct Svg {
    out: String,
}

impl Svg {
    /// A `width` x `height` drawing (in CSS pixels) titled `title` and described by `desc`
    /// (the root's `<title>` and `<desc>`, which screen readers announce; `role="img"`).
    pub fn new(width: f64, height: f64, title: &str, desc: &str) -> Svg {
        let (w, h) = (num(width), num(height));
        let mut out = String::with_capacity(16 * 1024);
        let _ = writeln!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"schedlab-figure\" role=\"img\" width=\"{w}\" \
             height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"DejaVu Sans, Arial, sans-serif\">\
             <title>{}</title><desc>{}</desc>",
            escape(title),
            escape(desc)
        );
        Svg { out }
    }

    /// Opens a group with the attributes `attrs` (written as given) and a `<title>`
    /// (a tooltip) when `title` is not empty.
    pub fn open_group(&mut self, attrs: &str, title: &str) {
        let sep = if attrs.is_empty() { "" } else { " " };
        let _ = write!(self.out, "<g{sep}{attrs}>");
        if !title.is_empty() {
            let _ = write!(self.out, "<title>{}</title>", escape(title));
        }
        self.out.push('\n');
    }

    /// Closes the innermost open group.
    pub fn close_group(&mut self) {
        self.out.push_str("</g>\n");
    }

    /// One line of text at (`x`, `y`: its baseline), `size` pixels, `anchor`ed, with the
    /// extra attributes `attrs` (e.g. a rotation).
    pub fn text(&mut self, (x, y): (f64, f64), size: f64, anchor: Anchor, text: &str, attrs: &str) {
        let sep = if attrs.is_empty() { "" } else { " " };
        let _ = writeln!(
            self.out,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"{}\"{sep}{attrs}>{}</text>",
            num(x),
            num(y),
            num(size),
            anchor.name(),
            escape(text)
        );
    }

    /// Lines of text centred on `x`, the first baseline at `y`, `size` pixels, each
    /// next line one `size`·1.15 lower (one `<text>` of `<tspan>`s).
    pub fn text_lines(&mut self, (x, y): (f64, f64), size: f64, lines: &[String]) {
        let _ = write!(
            self.out,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\">",
            num(x),
            num(y),
            num(size)
        );
        for (i, l) in lines.iter().enumerate() {
            let dy = if i == 0 { "0".to_string() } else { num(size * 1.15) };
            let _ = write!(self.out, "<tspan x=\"{}\" dy=\"{dy}\">{}</tspan>", num(x), escape(l));
        }
        self.out.push_str("</text>\n");
    }

    /// A straight line from (`x1`, `y1`) to (`x2`, `y2`) with the attributes `attrs`.
    pub fn line(&mut self, (x1, y1): (f64, f64), (x2, y2): (f64, f64), attrs: &str) {
        let _ = writeln!(
            self.out,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" {attrs}/>",
            num(x1),
            num(y1),
            num(x2),
            num(y2)
        );
    }

    /// A rectangle's outline from (`x`, `y`), `w` x `h`, with the attributes `attrs`.
    pub fn rect(&mut self, (x, y): (f64, f64), (w, h): (f64, f64), attrs: &str) {
        let _ = writeln!(
            self.out,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" {attrs}/>",
            num(x),
            num(y),
            num(w),
            num(h)
        );
    }

    /// A point: a circle of radius `r` centred on (`cx`, `cy`) carrying the exact value
    /// it draws (`data-value`, the shortest text that reads back as the same number).
    pub fn point(&mut self, (cx, cy): (f64, f64), r: f64, value: f64) {
        let _ = writeln!(
            self.out,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" data-value=\"{value}\"/>",
            num(cx),
            num(cy),
            num(r)
        );
    }

    /// The document, closed.
    pub fn finish(mut self) -> String {
        self.out.push_str("</svg>");
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_short_and_exact_to_a_hundredth() {
        assert_eq!(num(12.5), "12.5");
        assert_eq!(num(3.0), "3");
        assert_eq!(num(-0.001), "0");
        assert_eq!(num(-0.254), "-0.25");
        assert_eq!(num(100.0), "100");
    }

    #[test]
    fn kernel_names_wrap_after_dashes() {
        // textwrap.wrap("4.18.0-teo-v1", 10) == ['4.18.0-', 'teo-v1']
        assert_eq!(wrap("4.18.0-teo-v1", 10), ["4.18.0-", "teo-v1"]);
        // textwrap.wrap("6.12.0-rc3-tip-sched", 10) == ['6.12.0-', 'rc3-tip-', 'sched']
        assert_eq!(wrap("6.12.0-rc3-tip-sched", 10), ["6.12.0-", "rc3-tip-", "sched"]);
        // textwrap.wrap("abcdefghijklmn", 10) == ['abcdefghij', 'klmn']
        assert_eq!(wrap("abcdefghijklmn", 10), ["abcdefghij", "klmn"]);
        assert_eq!(wrap("6.9-k09", 10), ["6.9-k09"]);
        assert_eq!(wrap("", 10), [""]);
    }

    #[test]
    fn text_is_escaped() {
        let mut s = Svg::new(10.0, 20.0, "a < b", "d & e");
        s.text((1.0, 2.0), 7.0, Anchor::End, "x<y", "");
        let out = s.finish();
        assert!(out.contains("<title>a &lt; b</title><desc>d &amp; e</desc>"), "{out}");
        assert!(out.contains("<text x=\"1\" y=\"2\" font-size=\"7\" text-anchor=\"end\">x&lt;y</text>"), "{out}");
        assert!(out.ends_with("</svg>"));
    }
}
