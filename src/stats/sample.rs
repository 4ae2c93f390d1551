//! Input checks shared by the statistics: non-empty, no NaN, no infinity, and
//! results that stay finite.

// Parsers of untrusted bytes: no unwrap, expect, indexing or string slicing that can panic on input.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

use crate::error::{Error, Result};

/// Check that `x` is non-empty and every value is finite; `what` names the input
/// in the error message (e.g. "x", "base").
pub fn check(x: &[f64], what: &str) -> Result<()> {
    if x.is_empty() {
        return Err(Error::insufficient(format!("{what} is empty: at least one sample is needed")));
    }
    check_values(x, what)
}

/// Check that every value of `x` is finite (an empty `x` passes).
pub fn check_values(x: &[f64], what: &str) -> Result<()> {
    if let Some((i, v)) = x.iter().enumerate().find(|(_, v)| !v.is_finite()) {
        let kind = if v.is_nan() { "NaN".to_string() } else { v.to_string() };
        return Err(Error::domain(format!("{what} contains {kind} at index {i}; samples must be finite numbers")));
    }
    Ok(())
}

/// Check that `x` has at least `n` samples.
pub fn check_len(x: &[f64], n: usize, what: &str, purpose: &str) -> Result<()> {
    if x.len() < n {
        return Err(Error::insufficient(format!("{purpose} needs at least {n} samples in {what}, got {}", x.len())));
    }
    Ok(())
}

/// Check that every value is strictly positive (for hmean, gmean and ratios).
pub fn check_positive(x: &[f64], what: &str, purpose: &str) -> Result<()> {
    if let Some((i, v)) = x.iter().enumerate().find(|(_, v)| **v <= 0.0) {
        return Err(Error::domain(format!("{purpose} is undefined for non-positive values: {what}[{i}] = {v}")));
    }
    Ok(())
}

/// Return `v` if finite, else a domain error saying `what` overflowed.
pub fn finite(v: f64, what: &str) -> Result<f64> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(Error::domain(format!("{what} is not representable as a finite number ({v}); the inputs are too large")))
    }
}

/// A sorted copy of `x` (ascending; `x` must not contain NaN).
pub fn sorted(x: &[f64]) -> Vec<f64> {
    let mut v = x.to_vec();
    v.sort_unstable_by(f64::total_cmp);
    v
}
