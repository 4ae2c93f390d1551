//! Ruby numbers as lkp-tests sees them: an Integer or a Float (several lkp rules depend
//! on which), and the exact arithmetic of lkp's statistics: Ruby's `Array#sum`
//! (exact Integer accumulation, then Kahan–Babuska compensation from the first Float),
//! `average` (sum / n.to_f) and the population standard deviation of lib/statistics.rb.

use std::cmp::Ordering;

/// One value of a matrix column: a Ruby Integer or Float (JSON `4` vs `4.0`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Num {
    /// A JSON integer literal.
    Int(i64),
    /// A JSON number with a fraction or exponent.
    Float(f64),
}

impl Num {
    /// The value as f64 (Ruby `to_f`).
    pub fn f(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(x) => x,
        }
    }

    /// Ruby `zero?`.
    pub fn is_zero(self) -> bool {
        match self {
            Num::Int(i) => i == 0,
            Num::Float(x) => x == 0.0,
        }
    }

    /// Ruby `positive?`.
    pub fn is_positive(self) -> bool {
        match self {
            Num::Int(i) => i > 0,
            Num::Float(x) => x > 0.0,
        }
    }

    /// Ruby's numeric `<=>` between Integer and Float (exact for integers below 2^53).
    pub fn cmp_num(self, other: Num) -> Ordering {
        match (self, other) {
            (Num::Int(a), Num::Int(b)) => a.cmp(&b),
            (a, b) => crate::order::nan_last(a.f(), b.f()),
        }
    }

    /// Ruby `a - b` (Integer − Integer stays Integer).
    pub fn minus(self, other: Num) -> Num {
        match (self, other) {
            (Num::Int(a), Num::Int(b)) => a.checked_sub(b).map_or(Num::Float(a as f64 - b as f64), Num::Int),
            (a, b) => Num::Float(a.f() - b.f()),
        }
    }

    /// Ruby `==` between numbers.
    pub fn eq_num(self, other: Num) -> bool {
        self.cmp_num(other) == Ordering::Equal
    }
}

/// The result of Ruby `Array#sum`: an Integer while every element is one, else a Float.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Sum {
    /// Exact integer sum.
    Int(i128),
    /// Compensated float sum.
    Float(f64),
}

impl Sum {
    /// As f64.
    pub fn f(self) -> f64 {
        match self {
            Sum::Int(i) => i as f64,
            Sum::Float(x) => x,
        }
    }
}

/// Ruby `Array#sum` (array.c `ary_sum`): integers add exactly; from the first Float on,
/// Kahan–Babuska compensated summation starting from the integer prefix.
pub fn ruby_sum(v: &[Num]) -> Sum {
    let mut n: i128 = 0;
    for (i, x) in v.iter().enumerate() {
        match x {
            Num::Int(x) => n += i128::from(*x),
            Num::Float(_) => return Sum::Float(kahan(n as f64, v.iter().skip(i).map(|x| x.f()))),
        }
    }
    Sum::Int(n)
}

/// Ruby `Array#sum(0.0)`: compensated summation of every element from 0.0.
pub fn ruby_sum_f0(v: &[Num]) -> f64 {
    kahan(0.0, v.iter().map(|x| x.f()))
}

fn kahan(init: f64, xs: impl Iterator<Item = f64>) -> f64 {
    let mut f = init;
    let mut c = 0.0f64;
    for x in xs {
        if f.is_nan() {
            continue;
        }
        if x.is_nan() {
            f = x;
            continue;
        }
        if x.is_infinite() {
            f = if f.is_infinite() && x.is_sign_negative() != f.is_sign_negative() { f64::NAN } else { x };
            continue;
        }
        if f.is_infinite() {
            continue;
        }
        let t = f + x;
        if f.abs() >= x.abs() {
            c += (f - t) + x;
        } else {
            c += (x - t) + f;
        }
        f = t;
    }
    f + c
}

/// lkp `Enumerable#average`: `sum / length.to_f` (None for an empty array).
pub fn average(v: &[Num]) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    Some(ruby_sum(v).f() / v.len() as f64)
}

/// Ruby `x ** 2` for a Float: C `pow(x, 2.0)`, which is not always `x * x` (the
/// exponent is hidden from the optimiser, which would turn the call into `x * x`).
pub fn ruby_square(x: f64) -> f64 {
    x.powf(std::hint::black_box(2.0))
}

/// lkp `standard_deviation`: `sqrt(1/n.to_f * Σ(x − avg)**2)`, the sum a plain left-to-right
/// loop (population SD, lib/statistics.rb `sample_variance`).
pub fn standard_deviation(v: &[Num]) -> Option<f64> {
    let avg = average(v)?;
    let mut acc = 0.0f64;
    for x in v {
        acc += ruby_square(x.f() - avg);
    }
    Some((1.0 / v.len() as f64 * acc).sqrt())
}

/// lkp `relative_stddev`: `standard_deviation * 100 / average`.
pub fn relative_stddev(v: &[Num]) -> Option<f64> {
    Some(standard_deviation(v)? * 100.0 / average(v)?)
}

/// lkp `harmonic_mean`: `length / Σ 1/x` (the sum a plain loop from Integer 0).
pub fn harmonic_mean(v: &[f64]) -> f64 {
    let inv: f64 = v.iter().fold(0.0, |acc, x| acc + 1.0 / x);
    v.len() as f64 / inv
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kahan_sum_as_ruby() {
        // docs/lkp.md §5.1: [5.0,4.9,4.8].sum/3 = 4.8999999999999995
        let v = [Num::Float(5.0), Num::Float(4.9), Num::Float(4.8)];
        assert_eq!(average(&v), Some(4.8999999999999995));
        assert_eq!(ruby_sum(&[Num::Int(1), Num::Int(2)]), Sum::Int(3));
        assert_eq!(ruby_sum(&[Num::Int(1), Num::Float(0.5), Num::Int(2)]), Sum::Float(3.5));
    }

    #[test]
    fn population_sd_by_hand() {
        // [6,0,0,0]: mean 1.5, squares 20.25+3*2.25 = 27, /4 = 6.75, sqrt = 2.598…
        let v = [Num::Float(6.0), Num::Float(0.0), Num::Float(0.0), Num::Float(0.0)];
        assert_eq!(standard_deviation(&v), Some(6.75f64.sqrt()));
        assert_eq!(standard_deviation(&[]), None);
    }

    #[test]
    fn integer_float_comparisons() {
        assert!(Num::Int(1).eq_num(Num::Float(1.0)));
        assert_eq!(Num::Int(3).minus(Num::Int(1)), Num::Int(2));
        assert_eq!(Num::Float(3.5).minus(Num::Int(1)), Num::Float(2.5));
    }
}
