//! A column of Ruby numbers ([`Num`]) in 8 bytes and one bit each: the value's bits
//! (an i64 or an f64) and whether it is an Integer, so that a matrix of millions of
//! values takes about what its numbers do (the memory bound of docs/readers.md §10; a `Num` is 16
//! bytes; docs/lkp.md §2.3).

use super::num::Num;

/// Numbers in push order.
#[derive(Debug, Clone, Default)]
pub struct NumColumn {
    bits: Vec<u64>,
    ints: Vec<u64>,
}

impl NumColumn {
    /// Append `n`.
    pub fn push(&mut self, n: Num) {
        let i = self.bits.len();
        let (bits, int) = match n {
            Num::Int(v) => (v as u64, true),
            Num::Float(x) => (x.to_bits(), false),
        };
        self.bits.push(bits);
        if i.is_multiple_of(64) {
            self.ints.push(0);
        }
        if int {
            if let Some(w) = self.ints.get_mut(i / 64) {
                *w |= 1 << (i % 64);
            }
        }
    }

    /// The number at `i` (None past the end).
    pub fn get(&self, i: usize) -> Option<Num> {
        let bits = *self.bits.get(i)?;
        let int = self.ints.get(i / 64).is_some_and(|w| w & (1 << (i % 64)) != 0);
        Some(if int { Num::Int(bits as i64) } else { Num::Float(f64::from_bits(bits)) })
    }

    /// How many numbers it holds.
    pub fn len(&self) -> usize {
        self.bits.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.bits.is_empty()
    }

    /// The last number.
    pub fn last(&self) -> Option<Num> {
        self.len().checked_sub(1).and_then(|i| self.get(i))
    }

    /// Remove the last number.
    pub fn pop(&mut self) -> Option<Num> {
        let n = self.last()?;
        let i = self.bits.len() - 1;
        self.bits.pop();
        if i.is_multiple_of(64) {
            self.ints.pop();
        } else if let Some(w) = self.ints.get_mut(i / 64) {
            *w &= !(1 << (i % 64));
        }
        Some(n)
    }

    /// The numbers in order.
    pub fn iter(&self) -> impl Iterator<Item = Num> + '_ {
        (0..self.len()).filter_map(|i| self.get(i))
    }

    /// The numbers as a vector.
    pub fn to_vec(&self) -> Vec<Num> {
        self.iter().collect()
    }

    /// Give back the spare capacity growth left.
    pub fn shrink_to_fit(&mut self) {
        self.bits.shrink_to_fit();
        self.ints.shrink_to_fit();
    }
}

impl FromIterator<Num> for NumColumn {
    fn from_iter<I: IntoIterator<Item = Num>>(it: I) -> Self {
        let mut c = NumColumn::default();
        for n in it {
            c.push(n);
        }
        c
    }
}

/// Equal numbers in the same order (Ruby's `==` on each, as `Vec<Num>`'s).
impl PartialEq for NumColumn {
    fn eq(&self, o: &NumColumn) -> bool {
        self.len() == o.len() && self.iter().zip(o.iter()).all(|(a, b)| a == b)
    }
}

impl<const N: usize> PartialEq<[Num; N]> for NumColumn {
    fn eq(&self, o: &[Num; N]) -> bool {
        self.len() == N && self.iter().zip(o).all(|(a, b)| a == *b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ints_and_floats_kept_apart() {
        let mut c = NumColumn::default();
        let want: Vec<Num> = (0..200)
            .map(|i| if i % 3 == 0 { Num::Float(i as f64 + 0.5) } else { Num::Int(i64::MIN + i) })
            .chain([Num::Int(-1), Num::Float(-0.0), Num::Float(f64::NAN)])
            .collect();
        for &n in &want {
            c.push(n);
        }
        assert_eq!(c.len(), want.len());
        for (i, n) in want.iter().enumerate() {
            let got = c.get(i).unwrap();
            match (got, n) {
                (Num::Int(a), Num::Int(b)) => assert_eq!(a, *b),
                (Num::Float(a), Num::Float(b)) => assert_eq!(a.to_bits(), b.to_bits()),
                _ => panic!("{i}: {got:?} vs {n:?}"),
            }
        }
        assert_eq!(c.get(want.len()), None);
        // pop clears the Integer bit of a slot the next push reuses
        let mut d: NumColumn = [Num::Int(1), Num::Int(2)].into_iter().collect();
        assert_eq!(d.pop(), Some(Num::Int(2)));
        d.push(Num::Float(2.0));
        assert_eq!(d, [Num::Int(1), Num::Float(2.0)]);
        assert_eq!(d.last(), Some(Num::Float(2.0)));
    }
}
