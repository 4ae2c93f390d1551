//! A grid of text cells laid out in columns as benchstat lays out its tables (its
//! `texttab` package; docs/benchstat.md §5): cells placed by row and column, a cell
//! may span columns and carries a left margin and an alignment; a column is as wide
//! as its widest cell plus the widest margin any of its cells asks for; a spanning
//! cell wider than its columns widens the columns not marked "shrink", widest first.
//! Cells of white space only (margin included) print nothing; lines end after their
//! last printed cell.

/// How a cell's text sits in its width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    /// Flush left (no padding after).
    Left,
    /// Centred, the odd space after (no padding after).
    Center,
    /// Flush right.
    Right,
}

#[derive(Debug, Clone)]
struct Cell {
    row: usize,
    col: usize,
    span: usize,
    value: String,
    margin: String,
    align: Align,
}

/// The grid being built: a current row and column, as texttab's `Table`.
#[derive(Debug, Default)]
pub struct Grid {
    cells: Vec<Cell>,
    cols: usize,
    shrink: Vec<bool>,
    row: usize,
    col: usize,
}

fn width(s: &str) -> usize {
    s.chars().count()
}

impl Grid {
    /// Start a new row (the first cell's row when nothing is placed yet).
    pub fn row(&mut self) -> &mut Self {
        if !self.cells.is_empty() {
            self.row += 1;
        }
        self.col = 0;
        self
    }

    /// Move to column `col` (never backwards: an earlier column is ignored).
    pub fn col(&mut self, col: usize) -> &mut Self {
        self.col = self.col.max(col);
        self
    }

    /// The current column.
    pub fn cur_col(&self) -> usize {
        self.col
    }

    /// Place a one-column cell ([`Grid::span`]).
    pub fn cell(&mut self, value: &str, align: Align, margin: Option<&str>) -> &mut Self {
        self.span(1, value, align, margin)
    }

    /// Place a cell over `cols` columns. Its margin is `margin` when given, else one
    /// space (none in the first column or for an empty value).
    pub fn span(&mut self, cols: usize, value: &str, align: Align, margin: Option<&str>) -> &mut Self {
        let default = if self.col == 0 || value.is_empty() { "" } else { " " };
        self.cells.push(Cell {
            row: self.row,
            col: self.col,
            span: cols,
            value: value.to_string(),
            margin: margin.unwrap_or(default).to_string(),
            align,
        });
        self.col += cols;
        self.cols = self.cols.max(self.col);
        self
    }

    /// Mark column `col`: a spanning cell widens the other columns first.
    pub fn set_shrink(&mut self, col: usize) {
        if self.shrink.len() < col + 1 {
            self.shrink.resize(col + 1, false);
        }
        if let Some(s) = self.shrink.get_mut(col) {
            *s = true;
        }
    }

    /// The laid-out text, a line per row.
    pub fn render(mut self) -> String {
        let shrink = |c: usize| self.shrink.get(c).copied().unwrap_or(false);
        let mut margin = vec![0usize; self.cols];
        for c in &self.cells {
            if let Some(m) = margin.get_mut(c.col) {
                *m = (*m).max(width(&c.margin));
            }
        }
        let mut ws = vec![0usize; self.cols];
        // one-column cells first, then wider spans, narrowest first (a stable order
        // here: the spans benchstat makes widen one column each, so any order gives
        // the same widths)
        let mut order: Vec<usize> = (0..self.cells.len()).collect();
        order.sort_by_key(|&i| self.cells.get(i).map_or(0, |c| c.span));
        for i in order {
            let Some(c) = self.cells.get(i) else { continue };
            let mut w = width(&c.value) + margin.get(c.col).copied().unwrap_or(0);
            if c.span == 1 {
                if let Some(x) = ws.get_mut(c.col) {
                    *x = (*x).max(w);
                }
                continue;
            }
            let cols = c.col..c.col + c.span;
            let have: usize = ws.get(cols.clone()).map_or(0, |s| s.iter().sum());
            if have >= w {
                continue;
            }
            let mut grow: Vec<usize> = Vec::new();
            for col in cols {
                if shrink(col) {
                    w = w.saturating_sub(ws.get(col).copied().unwrap_or(0));
                } else {
                    grow.push(col);
                }
            }
            grow.sort_by_key(|&col| std::cmp::Reverse(ws.get(col).copied().unwrap_or(0)));
            let mut left = grow.len();
            for col in grow {
                let avg = w.div_ceil(left);
                if let Some(x) = ws.get_mut(col) {
                    *x = (*x).max(avg);
                    w = w.saturating_sub(*x);
                }
                left -= 1;
            }
        }
        let mut offs = Vec::with_capacity(self.cols + 1);
        let mut off = 0;
        for w in &ws {
            offs.push(off);
            off += w;
        }
        offs.push(off);
        let at = |i: usize| offs.get(i).copied().unwrap_or(off);

        self.cells.sort_by_key(|c| (c.row, c.col));
        let mut out = String::new();
        let (mut row, mut off) = (0usize, 0usize);
        for c in &self.cells {
            if c.value.trim().is_empty() && c.margin.trim().is_empty() {
                continue;
            }
            while c.row > row {
                out.push('\n');
                row += 1;
                off = 0;
            }
            let m = margin.get(c.col).copied().unwrap_or(0);
            let spaces = at(c.col).saturating_sub(off);
            out.push_str(&" ".repeat(spaces));
            out.push_str(&" ".repeat(m.saturating_sub(width(&c.margin))));
            out.push_str(&c.margin);
            off += spaces + m;
            let tw = (at(c.col + c.span)).saturating_sub(at(c.col)).saturating_sub(m);
            let s = match c.align {
                Align::Left => c.value.clone(),
                Align::Center => format!("{}{}", " ".repeat(tw.saturating_sub(width(&c.value)) / 2), c.value),
                Align::Right => format!("{}{}", " ".repeat(tw.saturating_sub(width(&c.value))), c.value),
            };
            off += width(&s);
            out.push_str(&s);
        }
        if !self.cells.is_empty() {
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn margins_spans_and_alignment() {
        let mut g = Grid::default();
        g.row().col(1).span(2, "head", Align::Center, Some(" │ "));
        g.col(3).cell("", Align::Left, Some(" │"));
        g.row().cell("a", Align::Left, None).cell("12", Align::Right, None).cell("x", Align::Left, None);
        g.row().cell("bbb", Align::Left, None).cell("3", Align::Right, None);
        // by hand: margins 0, 3, 1, 2 and widths 3, 5, 2, 2 (offsets 0, 3, 8, 10);
        // the span over columns 1-2 (7 wide with its margin) fits their 5 + 2
        assert_eq!(g.render(), "    │ head │\na     12 x\nbbb    3\n");
    }
}
