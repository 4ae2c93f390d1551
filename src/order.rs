//! A total order for numbers read from untrusted input, for sorting.
//!
//! Perl's `<=>` and Ruby's `<=>` have no answer for NaN (Perl sorts on regardless,
//! Ruby raises); `partial_cmp(..).unwrap_or(Equal)` makes NaN equal to every number,
//! which is no order at all, and Rust's sort may panic on it. A log can say `nan`.

use std::cmp::Ordering;

/// Numbers ascending (−0 equal to +0, as `<=>` has it), every NaN after every number.
pub fn nan_last(a: f64, b: f64) -> Ordering {
    match (a.is_nan(), b.is_nan()) {
        (false, false) => a.partial_cmp(&b).unwrap_or(Ordering::Equal),
        (nan_a, nan_b) => nan_a.cmp(&nan_b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nan_sorts_last_and_zeros_are_equal() {
        let mut v = [2.0, f64::NAN, -1.0, f64::INFINITY, -0.0, 0.0, f64::NAN];
        v.sort_by(|a, b| nan_last(*a, *b));
        assert_eq!(&v[..5], &[-1.0, -0.0, 0.0, 2.0, f64::INFINITY]);
        assert!(v[5].is_nan() && v[6].is_nan());
        assert_eq!(nan_last(-0.0, 0.0), Ordering::Equal);
    }
}
