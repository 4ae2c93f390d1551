//! [`Rows`]: the rows of a [`super::Comparison`], read and written a whole [`Row`] at a
//! time. A row read back is a new owned [`Row`] (the store is free to keep its rows in
//! any layout); the JSON form is a list of rows, as [`Row`] serialises.

use super::comparison::{Cell, Direction, Row};
use serde::de::{SeqAccess, Visitor};
use serde::ser::SerializeSeq;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// The rows of a comparison, in display order.
#[derive(Clone, Default)]
pub struct Rows {
    rows: Vec<Row>,
}

impl Rows {
    /// No rows.
    pub fn new() -> Rows {
        Rows::default()
    }

    /// The number of rows.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether there is no row.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Append `row`.
    pub fn push(&mut self, row: Row) {
        self.rows.push(row);
    }

    /// Row `i` (a new owned copy), None past the end.
    pub fn get(&self, i: usize) -> Option<Row> {
        self.rows.get(i).cloned()
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
        self.rows.get(i).map(|r| r.group.as_str())
    }

    /// Row `i`'s name, None past the end.
    pub fn name(&self, i: usize) -> Option<&str> {
        self.rows.get(i).map(|r| r.name.as_str())
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
        self.rows.get(i).map_or(0, |r| r.cells.len())
    }

    /// Cell `j` of row `i`, None past either end.
    pub fn cell(&self, i: usize, j: usize) -> Option<Cell> {
        self.rows.get(i).and_then(|r| r.cells.get(j)).cloned()
    }

    /// Set row `i`'s direction (nothing past the end).
    pub fn set_direction(&mut self, i: usize, direction: Direction) {
        if let Some(r) = self.rows.get_mut(i) {
            r.direction = direction;
        }
    }

    /// Set cell `j` of row `i` (nothing past either end).
    pub fn set_cell(&mut self, i: usize, j: usize, cell: Cell) {
        if let Some(c) = self.rows.get_mut(i).and_then(|r| r.cells.get_mut(j)) {
            *c = cell;
        }
    }

    /// Every cell with its non-finite numbers as None ([`Cell::finite_only`]).
    pub fn finite_only(&mut self) {
        for r in &mut self.rows {
            for cell in &mut r.cells {
                *cell = std::mem::take(cell).finite_only();
            }
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
