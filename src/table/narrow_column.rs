//! [`NarrowColumn`]: a column of unsigned integers (offsets, ids, counts) held in 4
//! bytes each while every value fits, widened to 8 bytes on the first that does not
//! (the memory bound of docs/readers.md §10: a table's offsets and ids are almost always below 2^32,
//! and a `usize` spends 4 bytes more on each; beyond 4 G the column still works).

/// Unsigned values in push order: `Narrow` while all are below 2^32, else `Wide`.
#[derive(Debug, Clone)]
pub enum NarrowColumn {
    /// Every value fits in 4 bytes.
    Narrow(Vec<u32>),
    /// Some value did not: all in 8 bytes.
    Wide(Vec<u64>),
}

impl Default for NarrowColumn {
    fn default() -> Self {
        NarrowColumn::Narrow(Vec::new())
    }
}

impl NarrowColumn {
    /// How many values.
    pub fn len(&self) -> usize {
        match self {
            NarrowColumn::Narrow(v) => v.len(),
            NarrowColumn::Wide(v) => v.len(),
        }
    }

    /// Whether there is no value.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Room for `more` values, allocated exactly.
    pub fn reserve_exact(&mut self, more: usize) {
        match self {
            NarrowColumn::Narrow(v) => v.reserve_exact(more),
            NarrowColumn::Wide(v) => v.reserve_exact(more),
        }
    }

    /// The values in 8 bytes each from now on (the room kept).
    fn widen(&mut self) {
        if let NarrowColumn::Narrow(v) = self {
            let mut wide = Vec::with_capacity(v.capacity());
            wide.extend(v.iter().map(|&x| u64::from(x)));
            *self = NarrowColumn::Wide(wide);
        }
    }

    /// Append `x`.
    pub fn push(&mut self, x: u64) {
        match (&mut *self, u32::try_from(x)) {
            (NarrowColumn::Narrow(v), Ok(small)) => v.push(small),
            _ => {
                self.widen();
                if let NarrowColumn::Wide(v) = self {
                    v.push(x);
                }
            }
        }
    }

    /// Value `i` (None past the end).
    pub fn get(&self, i: usize) -> Option<u64> {
        match self {
            NarrowColumn::Narrow(v) => v.get(i).map(|&x| u64::from(x)),
            NarrowColumn::Wide(v) => v.get(i).copied(),
        }
    }

    /// Set value `i` to `x` (nothing past the end).
    pub fn set(&mut self, i: usize, x: u64) {
        if i >= self.len() {
            return;
        }
        match (&mut *self, u32::try_from(x)) {
            (NarrowColumn::Narrow(v), Ok(small)) => {
                if let Some(slot) = v.get_mut(i) {
                    *slot = small;
                }
            }
            _ => {
                self.widen();
                if let NarrowColumn::Wide(v) = self {
                    if let Some(slot) = v.get_mut(i) {
                        *slot = x;
                    }
                }
            }
        }
    }

    /// Append `x` until there are `len` values.
    pub fn resize(&mut self, len: usize, x: u64) {
        match (&mut *self, u32::try_from(x)) {
            (NarrowColumn::Narrow(v), Ok(small)) => v.resize(len, small),
            _ => {
                self.widen();
                if let NarrowColumn::Wide(v) = self {
                    v.resize(len, x);
                }
            }
        }
    }
}

/// A value of a column as the `usize` it indexes (a value that no `usize` holds, only
/// possible on a 32-bit target, saturates and so indexes nothing).
pub fn to_usize(x: u64) -> usize {
    usize::try_from(x).unwrap_or(usize::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widens_on_the_first_big_value_and_keeps_the_rest() {
        let mut c = NarrowColumn::default();
        c.push(1);
        c.push(u64::from(u32::MAX));
        assert!(matches!(c, NarrowColumn::Narrow(_)));
        c.set(0, 7);
        c.push(1 << 40);
        assert!(matches!(c, NarrowColumn::Wide(_)));
        assert_eq!((c.get(0), c.get(1), c.get(2), c.get(3)), (Some(7), Some(u64::from(u32::MAX)), Some(1 << 40), None));
        let mut d = NarrowColumn::default();
        d.resize(2, 3);
        d.set(1, u64::MAX);
        d.set(5, 1);
        assert_eq!((d.len(), d.get(0), d.get(1)), (2, Some(3), Some(u64::MAX)));
    }
}
