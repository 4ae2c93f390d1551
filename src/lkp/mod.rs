//! lkp-tests (the Intel 0-day kernel test robot) results, after reference/lkp.md.
//!
//! - [`rubyfmt`]: Ruby's `sprintf`/`Float#to_s`/pretty JSON, byte for byte.
pub mod rubyfmt;
pub mod compare;
pub mod jobyaml;
pub mod matrix;
pub mod num;
pub mod render_text;
pub mod rules;
pub mod comparison;
pub mod direction;
pub mod stats;
pub mod parse_report;
pub mod textplot;
