//! [`Rows`]: the rows of a [`super::Comparison`], stored by column (the memory bound of docs/readers.md §10:
//! a row of three cells as [`Row`] and [`Cell`] structs costs some 700 bytes, by
//! column under 100), read and written a whole [`Row`] at a time. A row read back is a
//! new owned [`Row`]; the JSON form is a list of rows, as [`Row`] serialises.

use super::comparison::{Cell, ChangeKind, Direction, Row};
use super::labels::Labels;
use super::narrow_column::{to_usize, NarrowColumn};
use super::opt_column::{CountColumn, LabelId, OptColumn};
use super::sample_column::SampleColumn;
use super::{CellTest, Verdict};
use serde::de::{SeqAccess, Visitor};
use serde::ser::SerializeSeq;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// The rows of a comparison, in display order, stored by column: names in one text,
/// groups and units as indices into one table of labels, and each cell field in a
/// column over all cells (an `f64` in 8 bytes with a reserved NaN for None; a field
/// that no cell has takes no memory; `n` in 4 bytes), the samples in one list. Offsets
/// and label ids take 4 bytes each until one is 2^32 or more ([`NarrowColumn`]), and
/// while every row has the same number of cells no per-row cell offset is kept.
#[derive(Clone, Default)]
pub struct Rows {
    /// Every row's name, one after another.
    names: String,
    /// Per row, where its name ends in `names`.
    name_ends: NarrowColumn,
    /// The groups' and units' text.
    labels: Labels,
    /// Per row: group (a [`LabelId`]), unit, direction and change kind.
    groups: NarrowColumn,
    units: OptColumn<LabelId>,
    directions: Vec<Direction>,
    change_kinds: Vec<ChangeKind>,
    /// The number of cells of every row while all rows have the same (None before the
    /// first row and once they differ).
    uniform_cells: Option<usize>,
    /// Per row, where its cells end among all cells; empty while `uniform_cells` is set.
    cell_ends: NarrowColumn,
    /// The number of cells of all rows.
    cell_count: usize,
    /// The number of cells expected in all ([`Rows::reserve`]): a column's room when it
    /// gets its first value.
    expect_cells: usize,
    /// Per cell, in row order: the fields of [`Cell`].
    value: OptColumn<f64>,
    spread: OptColumn<f64>,
    change: OptColumn<f64>,
    significant: OptColumn<bool>,
    p: OptColumn<f64>,
    q: OptColumn<f64>,
    test: OptColumn<CellTest>,
    verdict: OptColumn<Verdict>,
    n: CountColumn,
    samples: SampleColumn,
}

impl Rows {
    /// No rows.
    pub fn new() -> Rows {
        Rows::default()
    }

    /// The number of rows.
    pub fn len(&self) -> usize {
        self.name_ends.len()
    }

    /// Whether there is no row.
    pub fn is_empty(&self) -> bool {
        self.name_ends.is_empty()
    }

    /// Room for `rows` more rows of `cells` cells, `name_bytes` bytes of names and
    /// `samples` per-run samples in all, allocated exactly (a caller that knows the table's size spares the columns their
    /// growth: a doubled column has up to half its room unused, and a copy while it moves).
    pub fn reserve(&mut self, rows: usize, cells: usize, name_bytes: usize, samples: usize) {
        self.names.reserve_exact(name_bytes);
        self.name_ends.reserve_exact(rows);
        self.groups.reserve_exact(rows);
        self.units.reserve_exact(rows);
        self.directions.reserve_exact(rows);
        self.change_kinds.reserve_exact(rows);
        if self.uniform_cells.is_none() && !self.is_empty() {
            self.cell_ends.reserve_exact(rows);
        }
        self.expect_cells = self.cell_count + cells;
        self.value.reserve_exact(cells);
        self.spread.reserve_exact(cells);
        self.change.reserve_exact(cells);
        self.significant.reserve_exact(cells);
        self.p.reserve_exact(cells);
        self.q.reserve_exact(cells);
        self.test.reserve_exact(cells);
        self.verdict.reserve_exact(cells);
        self.n.reserve_exact(cells);
        self.samples.reserve_exact(cells, samples);
    }

    /// Append `row`.
    pub fn push(&mut self, row: Row) {
        let i = self.len();
        let count = row.cells.len();
        match self.uniform_cells {
            None if i == 0 => self.uniform_cells = Some(count),
            Some(c) if c != count => {
                // the first row of another size: every row's end from now on
                self.cell_ends.reserve_exact(self.directions.capacity().max(i + 1));
                for j in 1..=i {
                    self.cell_ends.push((j * c) as u64);
                }
                self.uniform_cells = None;
            }
            _ => {}
        }
        self.names.push_str(&row.name);
        self.name_ends.push(self.names.len() as u64);
        self.groups.push(self.labels.intern(&row.group).0 as u64);
        let unit = row.unit.as_deref().map(|u| self.labels.intern(u));
        self.units.push(i, unit, self.directions.capacity());
        self.directions.push(row.direction);
        self.change_kinds.push(row.change_kind);
        for cell in &row.cells {
            self.push_cell(cell);
        }
        if self.uniform_cells.is_none() {
            self.cell_ends.push(self.cell_count as u64);
        }
    }

    fn push_cell(&mut self, c: &Cell) {
        let k = self.cell_count;
        self.value.push(k, c.value, self.expect_cells);
        self.spread.push(k, c.spread, self.expect_cells);
        self.change.push(k, c.change, self.expect_cells);
        self.significant.push(k, c.significant, self.expect_cells);
        self.p.push(k, c.p, self.expect_cells);
        self.q.push(k, c.q, self.expect_cells);
        self.test.push(k, c.test, self.expect_cells);
        self.verdict.push(k, c.verdict, self.expect_cells);
        self.n.push(k, c.n, self.expect_cells);
        self.samples.push(k, c.samples.as_deref(), self.expect_cells);
        self.cell_count += 1;
    }

    /// Where row `i`'s cells are among all cells (None past the end).
    fn cell_range(&self, i: usize) -> Option<std::ops::Range<usize>> {
        if i >= self.len() {
            return None;
        }
        if let Some(c) = self.uniform_cells {
            return Some(i * c..(i + 1) * c);
        }
        let end = to_usize(self.cell_ends.get(i)?);
        let start = i.checked_sub(1).and_then(|j| self.cell_ends.get(j)).map_or(0, to_usize);
        Some(start..end)
    }

    /// Cell number `k` among all cells.
    fn cell_at(&self, k: usize) -> Cell {
        Cell {
            value: self.value.get(k),
            spread: self.spread.get(k),
            change: self.change.get(k),
            significant: self.significant.get(k),
            p: self.p.get(k),
            q: self.q.get(k),
            test: self.test.get(k),
            verdict: self.verdict.get(k),
            n: self.n.get(k),
            samples: self.samples.get(k).map(Box::from),
        }
    }

    /// Row `i` (a new owned copy), None past the end.
    pub fn get(&self, i: usize) -> Option<Row> {
        let cells = self.cell_range(i)?;
        Some(Row {
            group: self.group(i)?.to_string(),
            name: self.name(i)?.to_string(),
            direction: self.directions.get(i).copied().unwrap_or_default(),
            change_kind: self.change_kinds.get(i).copied().unwrap_or_default(),
            unit: self.units.get(i).map(|u| self.labels.get(u).to_string()),
            cells: cells.map(|k| self.cell_at(k)).collect(),
        })
    }

    /// The first row, if any.
    pub fn first(&self) -> Option<Row> {
        self.get(0)
    }

    /// The last row, if any.
    pub fn last(&self) -> Option<Row> {
        self.len().checked_sub(1).and_then(|i| self.get(i))
    }

    /// The rows in order, each a new owned [`Row`].
    pub fn iter(&self) -> Iter<'_> {
        Iter { rows: self, next: 0, end: self.len() }
    }

    /// Row `i`'s group (statistic or section), None past the end.
    pub fn group(&self, i: usize) -> Option<&str> {
        self.groups.get(i).map(|g| self.labels.get(LabelId(to_usize(g))))
    }

    /// Row `i`'s name, None past the end.
    pub fn name(&self, i: usize) -> Option<&str> {
        let end = to_usize(self.name_ends.get(i)?);
        let start = i.checked_sub(1).and_then(|j| self.name_ends.get(j)).map_or(0, to_usize);
        self.names.get(start..end)
    }

    /// Every row's group, in order.
    pub fn groups(&self) -> impl Iterator<Item = &str> + '_ {
        (0..self.len()).filter_map(|i| self.group(i))
    }

    /// Every row's name, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> + '_ {
        (0..self.len()).filter_map(|i| self.name(i))
    }

    /// The number of cells of row `i` (0 past the end).
    pub fn cell_count(&self, i: usize) -> usize {
        self.cell_range(i).map_or(0, |r| r.len())
    }

    /// Cell `j` of row `i`, None past either end.
    pub fn cell(&self, i: usize, j: usize) -> Option<Cell> {
        let k = self.cell_range(i)?.nth(j)?;
        Some(self.cell_at(k))
    }

    /// Set row `i`'s direction (nothing past the end).
    pub fn set_direction(&mut self, i: usize, direction: Direction) {
        if let Some(d) = self.directions.get_mut(i) {
            *d = direction;
        }
    }

    /// Set cell `j` of row `i` (nothing past either end).
    pub fn set_cell(&mut self, i: usize, j: usize, c: Cell) {
        let Some(k) = self.cell_range(i).and_then(|mut r| r.nth(j)) else { return };
        let len = self.cell_count;
        self.value.set(len, k, c.value);
        self.spread.set(len, k, c.spread);
        self.change.set(len, k, c.change);
        self.significant.set(len, k, c.significant);
        self.p.set(len, k, c.p);
        self.q.set(len, k, c.q);
        self.test.set(len, k, c.test);
        self.verdict.set(len, k, c.verdict);
        self.n.set(len, k, c.n);
        self.samples.set(len, k, c.samples.as_deref());
    }

    /// Every cell with its non-finite numbers as None ([`Cell::finite_only`]).
    pub fn finite_only(&mut self) {
        let finite = |v: f64| v.is_finite().then_some(v);
        for column in [&mut self.value, &mut self.spread, &mut self.change, &mut self.p, &mut self.q] {
            column.map(finite);
        }
    }
}

/// The rows of a [`Rows`] in order, each a new owned [`Row`].
#[derive(Clone)]
pub struct Iter<'a> {
    rows: &'a Rows,
    next: usize,
    end: usize,
}

impl Iterator for Iter<'_> {
    type Item = Row;

    fn next(&mut self) -> Option<Row> {
        if self.next >= self.end {
            return None;
        }
        let r = self.rows.get(self.next);
        self.next += 1;
        r
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.end.saturating_sub(self.next);
        (n, Some(n))
    }

    fn nth(&mut self, n: usize) -> Option<Row> {
        self.next = self.next.saturating_add(n).min(self.end);
        self.next()
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Row> {
        if self.next >= self.end {
            return None;
        }
        self.end -= 1;
        self.rows.get(self.end)
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl<'a> IntoIterator for &'a Rows {
    type Item = Row;
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl FromIterator<Row> for Rows {
    fn from_iter<I: IntoIterator<Item = Row>>(iter: I) -> Rows {
        let mut rows = Rows::new();
        rows.extend(iter);
        rows
    }
}

impl Extend<Row> for Rows {
    fn extend<I: IntoIterator<Item = Row>>(&mut self, iter: I) {
        for r in iter {
            self.push(r);
        }
    }
}

impl From<Vec<Row>> for Rows {
    fn from(rows: Vec<Row>) -> Rows {
        rows.into_iter().collect()
    }
}

/// Equal when row by row equal (as [`Row`]'s `==`: a NaN is equal to nothing).
impl PartialEq for Rows {
    fn eq(&self, other: &Rows) -> bool {
        self.len() == other.len() && self.iter().zip(other.iter()).all(|(a, b)| a == b)
    }
}

/// The rows as a list.
impl fmt::Debug for Rows {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// A list of rows, one made at a time.
impl Serialize for Rows {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.len()))?;
        for r in self {
            seq.serialize_element(&r)?;
        }
        seq.end()
    }
}

/// A list of rows, each stored as it is read.
impl<'de> Deserialize<'de> for Rows {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct RowList;
        impl<'de> Visitor<'de> for RowList {
            type Value = Rows;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a sequence")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Rows, A::Error> {
                let mut rows = Rows::new();
                while let Some(r) = seq.next_element::<Row>()? {
                    rows.push(r);
                }
                Ok(rows)
            }
        }
        d.deserialize_seq(RowList)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(name: &str, cells: usize, n: Option<u64>) -> Row {
        Row {
            name: name.into(),
            cells: (0..cells)
                .map(|j| Cell { value: Some(j as f64), n, samples: Some(vec![1.0; j].into()), ..Default::default() })
                .collect(),
            ..Default::default()
        }
    }

    #[test]
    fn rows_of_other_sizes_and_big_counts_read_back() {
        let want = vec![row("a", 2, Some(3)), row("b", 2, None), row("c", 3, Some(u64::MAX)), row("d", 0, Some(1))];
        let mut rows = Rows::new();
        rows.reserve(2, 4, 2, 2);
        for r in &want {
            rows.push(r.clone());
        }
        assert_eq!(rows.iter().collect::<Vec<_>>(), want);
        assert_eq!((rows.cell_count(1), rows.cell_count(2), rows.cell_count(3), rows.cell_count(4)), (2, 3, 0, 0));
        assert_eq!(rows.cell(2, 2).and_then(|c| c.n), Some(u64::MAX));
        assert_eq!(rows.cell(4, 0), None);
        let uniform: Rows = vec![row("x", 2, Some(2)), row("y", 2, Some(2))].into();
        assert!(uniform.uniform_cells == Some(2) && uniform.cell_ends.is_empty(), "no per-row ends when all alike");
        assert_eq!(uniform.cell(1, 1).map(|c| c.n), Some(Some(2)));
        assert_eq!(uniform.cell(2, 0), None);
    }
}
