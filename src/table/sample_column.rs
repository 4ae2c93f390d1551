//! [`SampleColumn`]: the per-run samples of every cell of a [`super::Rows`] store, all
//! in one `f64` list, each cell's the range after the previous cell's; no memory while
//! no cell has samples.

use super::narrow_column::{to_usize, NarrowColumn};

/// An end offset with the mark of a cell without samples (None, which is not an empty
/// list) in its lowest bit: 4 bytes a cell while the samples number under 2^31.
fn mark(end: usize, none: bool) -> u64 {
    ((end as u64) << 1) | u64::from(none)
}

/// The end offset of a mark, and whether the cell has no samples.
fn unmark(m: u64) -> (usize, bool) {
    (to_usize(m >> 1), m & 1 != 0)
}

/// The samples of every cell, in cell order.
#[derive(Debug, Clone, Default)]
pub struct SampleColumn {
    /// Every cell's samples, one after another.
    values: Vec<f64>,
    /// Per cell, where its samples end in `values` and whether it has none ([`mark`]);
    /// empty while no cell has samples.
    ends: NarrowColumn,
}

impl SampleColumn {
    /// Append the samples of cell `len` (the number of cells before it); a first cell
    /// with samples allocates room for `expect` cells (the number the caller expects).
    pub fn push(&mut self, len: usize, samples: Option<&[f64]>, expect: usize) {
        if self.ends.is_empty() {
            if samples.is_none() {
                return;
            }
            self.ends.reserve_exact(expect.max(len + 1));
            self.ends.resize(len, mark(0, true));
        }
        match samples {
            Some(s) => {
                self.values.extend_from_slice(s);
                self.ends.push(mark(self.values.len(), false));
            }
            None => self.ends.push(mark(self.values.len(), true)),
        }
    }

    /// Room for `more` cells and `samples` samples (the cells' room only when some cell
    /// has samples already; a first one allocates it).
    pub fn reserve_exact(&mut self, more: usize, samples: usize) {
        if !self.ends.is_empty() {
            self.ends.reserve_exact(more);
        }
        self.values.reserve_exact(samples);
    }

    /// Where cell `k`'s samples are in `values`, None when it has none.
    fn range(&self, k: usize) -> Option<std::ops::Range<usize>> {
        let (end, none) = unmark(self.ends.get(k)?);
        if none {
            return None;
        }
        Some(self.start(k)..end)
    }

    /// Where cell `k`'s samples (if any) start in `values`: the previous cell's end.
    fn start(&self, k: usize) -> usize {
        k.checked_sub(1).and_then(|j| self.ends.get(j)).map_or(0, |m| unmark(m).0)
    }

    /// Cell `k`'s samples (None past the end).
    pub fn get(&self, k: usize) -> Option<&[f64]> {
        self.values.get(self.range(k)?)
    }

    /// Set cell `k`'s samples, of `len` cells (nothing past the end). Samples of the
    /// same length are written in place; others move every later cell's.
    pub fn set(&mut self, len: usize, k: usize, samples: Option<&[f64]>) {
        if k >= len {
            return;
        }
        if self.ends.is_empty() {
            if samples.is_none() {
                return;
            }
            self.ends.resize(len, mark(0, true));
        }
        let Some((old_end, _)) = self.ends.get(k).map(unmark) else { return };
        let start = self.start(k);
        let new = samples.unwrap_or_default();
        if new.len() == old_end - start {
            if let Some(dst) = self.values.get_mut(start..old_end) {
                dst.copy_from_slice(new);
            }
        } else {
            self.values.splice(start..old_end, new.iter().copied());
            let (grow, by) = if new.len() > old_end - start {
                (true, new.len() - (old_end - start))
            } else {
                (false, (old_end - start) - new.len())
            };
            for j in k + 1..self.ends.len() {
                if let Some((at, none)) = self.ends.get(j).map(unmark) {
                    self.ends.set(j, mark(if grow { at + by } else { at - by }, none));
                }
            }
        }
        self.ends.set(k, mark(start + new.len(), samples.is_none()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn none_empty_and_resized_samples() {
        let mut s = SampleColumn::default();
        s.push(0, None, 0);
        s.push(1, Some(&[]), 0);
        s.push(2, Some(&[1.0, 2.0]), 0);
        s.push(3, None, 0);
        s.push(4, Some(&[3.0]), 0);
        assert_eq!(
            (s.get(0), s.get(1), s.get(2), s.get(3), s.get(4)),
            (None, Some(&[][..]), Some(&[1.0, 2.0][..]), None, Some(&[3.0][..]))
        );
        s.set(5, 2, Some(&[9.0, 8.0]));
        assert_eq!(s.get(2), Some(&[9.0, 8.0][..]));
        s.set(5, 1, Some(&[7.0, 7.5, 7.25]));
        s.set(5, 2, None);
        assert_eq!((s.get(1), s.get(2), s.get(4)), (Some(&[7.0, 7.5, 7.25][..]), None, Some(&[3.0][..])));
        s.set(5, 0, Some(&[0.5]));
        assert_eq!((s.get(0), s.get(1), s.get(4)), (Some(&[0.5][..]), Some(&[7.0, 7.5, 7.25][..]), Some(&[3.0][..])));
        assert_eq!(s.values, [0.5, 7.0, 7.5, 7.25, 3.0]);
    }
}
