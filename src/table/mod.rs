//! The one data model of comparison tables, shared by every tool.
//!
//! MMTests compare tables, lkp ncompare tables, AMD's normalised tables and the
//! markdown/CSV/JSON/HTML renderings are all views of one [`Comparison`]: rows
//! (operations or metrics) × kernels, each cell holding a value, its spread, the
//! change against the baseline, the verdict and the test that decided it. Each
//! tool's exact text format is a renderer and parser of this model, living in that
//! tool's module; the quirks of a tool stay there.

// Parsers of untrusted bytes: no unwrap, expect, indexing or string slicing that can panic on input.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

pub mod amd;
pub mod assess;
pub mod benchproc;
pub mod benchstat;
pub mod benchtab;
pub mod cell_test;
pub mod cell_text;
pub mod comparison;
pub mod groups;
pub mod html;
mod labels;
pub mod markdown;
pub mod meta;
mod narrow_column;
mod opt_column;
pub mod rows;
mod sample_column;
pub mod text_grid;
pub mod tidy;
pub mod verdict;

/// The output formats of a comparison on the command line (`--format` of `mmtests
/// compare`/`parse` and `lkp compare`): the tool's text, the tidy CSV, the JSON form,
/// markdown, HTML and the benchstat view.
pub const FORMATS: [&str; 6] = ["text", "csv", "json", "markdown", "html", "benchstat"];

pub use assess::{assess_many, Assessment};
pub use cell_test::CellTest;
pub use comparison::{Cell, ChangeKind, Comparison, Direction, Row, SCHEMA_VERSION};
pub use meta::{LkpMeta, LostRun, Meta, MmtestsLayout, MmtestsMeta, VerdictMeta};
pub use rows::Rows;
pub use verdict::{decide, evidence, more_runs, Evidence, Test, Verdict, VerdictRule};
