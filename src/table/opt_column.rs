//! [`OptColumn`]: one field of every cell (or row) of a [`super::Rows`] store, each
//! value optional, packed without an `Option`'s padding where the type leaves room for
//! a None of its own, and no memory at all while every value is None.

/// A value type as it is stored in an [`OptColumn`]: `Repr` holds an `Option<Self>`,
/// [`Packed::NONE`] being None.
pub trait Packed: Copy {
    /// What one slot of the column holds.
    type Repr: Copy;
    /// The slot of None.
    const NONE: Self::Repr;
    /// The slot of `v`.
    fn pack(v: Option<Self>) -> Self::Repr;
    /// The value of a slot.
    fn unpack(r: Self::Repr) -> Option<Self>;
}

/// The bits of an `f64` slot that mean None: a quiet NaN with a payload that no
/// arithmetic makes from numbers (a NaN with exactly these bits is stored as the
/// usual NaN, so a real NaN always reads back as a NaN, never as None).
const F64_NONE: u64 = 0x7ff8_5c4e_d1ab_0e5e;

/// An `f64` in 8 bytes, None being one reserved NaN ([`F64_NONE`]).
impl Packed for f64 {
    type Repr = u64;
    const NONE: u64 = F64_NONE;

    fn pack(v: Option<f64>) -> u64 {
        match v.map(f64::to_bits) {
            None => F64_NONE,
            Some(F64_NONE) => f64::NAN.to_bits(),
            Some(bits) => bits,
        }
    }

    fn unpack(r: u64) -> Option<f64> {
        (r != F64_NONE).then(|| f64::from_bits(r))
    }
}

/// Types whose `Option` is as small as the compiler makes it (a niche of an enum or
/// bool: one byte; a u64: sixteen, as it has no value to spare).
macro_rules! packed_as_option {
    ($($t:ty),*) => {$(
        impl Packed for $t {
            type Repr = Option<$t>;
            const NONE: Option<$t> = None;

            fn pack(v: Option<$t>) -> Option<$t> {
                v
            }

            fn unpack(r: Option<$t>) -> Option<$t> {
                r
            }
        }
    )*};
}

packed_as_option!(bool, u64, super::CellTest, super::Verdict);

/// An index into a table of labels, None being `usize::MAX` (no table holds that many).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LabelId(pub usize);

impl Packed for LabelId {
    type Repr = usize;
    const NONE: usize = usize::MAX;

    fn pack(v: Option<LabelId>) -> usize {
        v.map_or(usize::MAX, |l| l.0)
    }

    fn unpack(r: usize) -> Option<LabelId> {
        (r != usize::MAX).then_some(LabelId(r))
    }
}

/// The values of one optional field, one slot per cell (or row) once any is Some; empty
/// (no allocation) while all are None.
#[derive(Debug, Clone)]
pub struct OptColumn<T: Packed> {
    slots: Vec<T::Repr>,
}

impl<T: Packed> Default for OptColumn<T> {
    fn default() -> Self {
        OptColumn { slots: Vec::new() }
    }
}

impl<T: Packed> OptColumn<T> {
    /// Append `v` as the value of entry `len` (the number of entries before it); a first
    /// value allocates room for `expect` entries (the number the caller expects in all).
    pub fn push(&mut self, len: usize, v: Option<T>, expect: usize) {
        if self.slots.is_empty() {
            if v.is_none() {
                return;
            }
            self.slots.reserve_exact(expect.max(len + 1));
            self.slots.resize(len, T::NONE);
        }
        self.slots.push(T::pack(v));
    }

    /// Room for `more` entries, when the column has values (one without any stays empty).
    pub fn reserve_exact(&mut self, more: usize) {
        if !self.slots.is_empty() {
            self.slots.reserve_exact(more);
        }
    }

    /// The value of entry `k` (None past the end).
    pub fn get(&self, k: usize) -> Option<T> {
        self.slots.get(k).copied().and_then(T::unpack)
    }

    /// Set entry `k` of `len` entries to `v` (nothing past the end).
    pub fn set(&mut self, len: usize, k: usize, v: Option<T>) {
        if k >= len {
            return;
        }
        if self.slots.is_empty() {
            if v.is_none() {
                return;
            }
            self.slots.resize(len, T::NONE);
        }
        if let Some(slot) = self.slots.get_mut(k) {
            *slot = T::pack(v);
        }
    }

    /// Replace every value `v` by `f(v)` (the Nones stay None).
    pub fn map(&mut self, f: impl Fn(T) -> Option<T>) {
        for slot in &mut self.slots {
            if let Some(v) = T::unpack(*slot) {
                *slot = T::pack(f(v));
            }
        }
    }
}

/// The slot of None in a [`CountColumn`] of 4-byte slots.
const COUNT_NONE: u32 = u32::MAX;

/// An optional count (a cell's `n`) per entry: 4 bytes a slot, None being
/// `u32::MAX`, while every count is below that; on the first that is not, the column
/// becomes an [`OptColumn<u64>`] (16 bytes a slot) and keeps every value. No memory
/// while every value is None.
#[derive(Debug, Clone)]
pub enum CountColumn {
    /// Every count is below `u32::MAX`.
    Small(Vec<u32>),
    /// Some count was not.
    Wide(OptColumn<u64>),
}

impl Default for CountColumn {
    fn default() -> Self {
        CountColumn::Small(Vec::new())
    }
}

impl CountColumn {
    /// The small slot of `v`, None when `v` needs the wide column.
    fn small(v: Option<u64>) -> Option<u32> {
        match v {
            None => Some(COUNT_NONE),
            Some(x) => u32::try_from(x).ok().filter(|&x| x != COUNT_NONE),
        }
    }

    /// The values in the wide column from now on (the room kept).
    fn widen(&mut self) {
        if let CountColumn::Small(slots) = self {
            let mut wide = Vec::with_capacity(slots.capacity());
            wide.extend(slots.iter().map(|&x| (x != COUNT_NONE).then_some(u64::from(x))));
            *self = CountColumn::Wide(OptColumn { slots: wide });
        }
    }

    /// Append `v` as the value of entry `len` (as [`OptColumn::push`]).
    pub fn push(&mut self, len: usize, v: Option<u64>, expect: usize) {
        let small = Self::small(v);
        if small.is_none() {
            self.widen();
        }
        match (&mut *self, small) {
            (CountColumn::Small(slots), Some(x)) => {
                if slots.is_empty() {
                    if v.is_none() {
                        return;
                    }
                    slots.reserve_exact(expect.max(len + 1));
                    slots.resize(len, COUNT_NONE);
                }
                slots.push(x);
            }
            (CountColumn::Wide(c), _) => c.push(len, v, expect),
            (CountColumn::Small(_), None) => {}
        }
    }

    /// Room for `more` entries, when the column has values.
    pub fn reserve_exact(&mut self, more: usize) {
        match self {
            CountColumn::Small(slots) if !slots.is_empty() => slots.reserve_exact(more),
            CountColumn::Small(_) => {}
            CountColumn::Wide(c) => c.reserve_exact(more),
        }
    }

    /// The value of entry `k` (None past the end).
    pub fn get(&self, k: usize) -> Option<u64> {
        match self {
            CountColumn::Small(slots) => slots.get(k).filter(|&&x| x != COUNT_NONE).map(|&x| u64::from(x)),
            CountColumn::Wide(c) => c.get(k),
        }
    }

    /// Set entry `k` of `len` entries to `v` (as [`OptColumn::set`]).
    pub fn set(&mut self, len: usize, k: usize, v: Option<u64>) {
        if k >= len {
            return;
        }
        let small = Self::small(v);
        if small.is_none() {
            self.widen();
        }
        match (&mut *self, small) {
            (CountColumn::Small(slots), Some(x)) => {
                if slots.is_empty() {
                    if v.is_none() {
                        return;
                    }
                    slots.resize(len, COUNT_NONE);
                }
                if let Some(slot) = slots.get_mut(k) {
                    *slot = x;
                }
            }
            (CountColumn::Wide(c), _) => c.set(len, k, v),
            (CountColumn::Small(_), None) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn none_and_nan_stay_apart() {
        let mut c: OptColumn<f64> = OptColumn::default();
        c.push(0, None, 0);
        assert!(c.slots.is_empty(), "all None: nothing allocated");
        c.push(1, Some(f64::NAN), 0);
        c.push(2, Some(f64::from_bits(F64_NONE)), 0);
        c.push(3, Some(-0.0), 0);
        assert_eq!(c.get(0), None);
        assert!(c.get(1).is_some_and(f64::is_nan));
        assert!(c.get(2).is_some_and(f64::is_nan), "a NaN with the reserved bits is still a NaN");
        assert_eq!(c.get(3).map(f64::to_bits), Some((-0.0f64).to_bits()));
        assert_eq!(c.get(4), None);
        c.set(4, 0, Some(1.5));
        c.set(4, 1, None);
        assert_eq!((c.get(0), c.get(1)), (Some(1.5), None));
    }

    #[test]
    fn u64_keeps_its_whole_range() {
        let mut c: OptColumn<u64> = OptColumn::default();
        c.push(0, Some(u64::MAX), 0);
        c.push(1, None, 0);
        assert_eq!((c.get(0), c.get(1)), (Some(u64::MAX), None));
    }

    #[test]
    fn counts_widen_on_the_first_that_needs_it() {
        let mut c = CountColumn::default();
        c.push(0, None, 4);
        assert!(matches!(&c, CountColumn::Small(s) if s.is_empty()), "all None: nothing allocated");
        c.push(1, Some(3), 4);
        c.push(2, None, 4);
        c.push(3, Some(u64::from(u32::MAX) - 1), 4);
        assert!(matches!(c, CountColumn::Small(_)));
        c.set(4, 0, Some(7));
        assert_eq!((c.get(0), c.get(1), c.get(2), c.get(3)), (Some(7), Some(3), None, Some(u64::from(u32::MAX) - 1)));
        c.push(4, Some(u64::from(u32::MAX)), 4);
        assert!(matches!(c, CountColumn::Wide(_)));
        c.set(5, 2, Some(u64::MAX));
        assert_eq!(
            (c.get(0), c.get(1), c.get(2), c.get(4), c.get(5)),
            (Some(7), Some(3), Some(u64::MAX), Some(u64::from(u32::MAX)), None)
        );
        let mut d = CountColumn::default();
        d.set(3, 1, Some(1 << 40));
        assert_eq!((d.get(0), d.get(1), d.get(2)), (None, Some(1 << 40), None));
    }
}
