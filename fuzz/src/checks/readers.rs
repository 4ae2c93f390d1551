//! `schedlab stats --format` and `schedlab.readers.read`: the result file readers.

use super::common::{bounded, line_count, parse_error};
use schedlab::Error;

/// [`schedlab::readers::read`] with the format detected, then in every format: each
/// sample is finite and named, there are no more samples than bytes, and an error
/// is a parse error naming the input at a line it has, or "no measured value".
pub fn results(data: &[u8]) {
    let formats = schedlab::readers::FORMAT_NAMES.iter().map(|n| schedlab::readers::Format::parse(n).ok());
    for format in std::iter::once(None).chain(formats.map(|f| Some(f.expect("every name parses")))) {
        match schedlab::readers::read(data, Some("fuzz.txt"), format) {
            Ok(v) => {
                assert!(!v.is_empty(), "no samples without an error");
                assert!(v.iter().all(|s| s.value.is_finite()), "non-finite sample");
                bounded(v.len(), data.len() + 1, "results");
            }
            Err(Error::InsufficientData(msg)) => assert!(msg.starts_with("fuzz.txt: "), "{msg}"),
            Err(e) => parse_error(&e, Some("fuzz.txt"), line_count(data)),
        }
    }
}
