//! `schedlab stats FILE`: the samples reader.

use super::common::{bounded, line_count, parse_error};

/// [`schedlab::stats::parse_samples`]: every sample is finite, there are no more
/// samples than tokens, and writing them back (shortest round-trip decimal, one per
/// line) reads back bit for bit.
pub fn samples(data: &[u8]) {
    match schedlab::stats::parse_samples(data, Some("fuzz.txt")) {
        Ok(v) => {
            assert!(v.iter().all(|x| x.is_finite()), "non-finite sample");
            bounded(v.len() * 2, data.len() + 1, "samples");
            let text: String = v.iter().map(|x| format!("{x}\n")).collect();
            let back = schedlab::stats::parse_samples(text.as_bytes(), None).expect("written samples read back");
            assert_eq!(back.len(), v.len());
            for (a, b) in v.iter().zip(&back) {
                assert_eq!(a.to_bits(), b.to_bits(), "{a} read back as {b}");
            }
        }
        Err(e) => parse_error(&e, Some("fuzz.txt"), line_count(data)),
    }
}
