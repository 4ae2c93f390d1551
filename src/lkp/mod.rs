//! lkp-tests (the Intel 0-day kernel test robot) results, after docs/lkp.md.
//!
//! - [`rubyfmt`]: Ruby's `sprintf`/`Float#to_s`/pretty JSON, byte for byte.

// Parsers of untrusted bytes: no unwrap, expect, indexing or string slicing that can panic on input.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

pub mod comparison;
pub mod direction;
pub mod jobyaml;
pub mod key_index;
pub mod lookup;
pub mod matrix;
pub mod ncompare;
pub mod num;
pub mod num_column;
pub mod parse_report;
pub mod psych_scalar;
pub mod query;
pub mod render_text;
pub mod rubyfmt;
pub mod rules;
pub mod stats;
pub mod textplot;
