//! A column of Ruby numbers ([`Num`]) in 8 bytes and one bit each: the value's bits
//! (an i64 or an f64) and whether it is an Integer, so that a matrix of millions of
//! values takes about what its numbers do (issue 16's memory bound; a `Num` is 16
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
        if i % 64 == 0 {
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

    /// Give back the spare capacity growth left.
    pub fn shrink_to_fit(&mut self) {
        self.bits.shrink_to_fit();
        self.ints.shrink_to_fit();
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
    }
}
