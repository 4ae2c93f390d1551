//! schedlab: the computing core of a toolkit for Linux kernel performance engineers.
//!
//! Everything here is plain Rust that knows nothing about Python; the thin pyo3 binding
//! layer is its own package in `src/python/` (the extension `schedlab._core`, built by
//! maturin), and the native launcher is `src/bin/schedlab.rs`.
//!
//! Module map (one concept per file):
//! - [`stats`]: descriptive statistics, percent change by direction, Welch and
//!   Mann-Whitney tests, bootstrap intervals, Benjamini-Hochberg, rayon batches.
//! - [`pelt`]: PELT, util_est and schedutil replayed with the kernel's integer math
//!   (the single-CPU trace driver, ftrace task traces).
//! - [`idle`]: cpuidle governor simulation (menu and teo of 4.18–6.18 replayed
//!   bit-exactly over idle traces; state tables, ftrace import, synthetic patterns).
//! - [`jiffies`]: the HZ-derived time constants (`TICK_NSEC`), defined once.
//! - [`parallel`]: the fork-safe, size-bounded rayon pool every batch runs in.
//! - [`table`]: the one `Comparison` data model every table format renders and parses.
//! - [`archive`]: directories and tar/tar.gz/tar.xz/zip archives as one bounded, read-only tree.
//! - [`lkp`]: lkp-tests (0-day robot) results: result roots, raw-output parsers,
//!   the `lkp ncompare` table byte for byte, directions and verdicts, report parsing, plots.
//! - [`mmtests`]: MMTests log extraction and compare-mmtests.pl's tables, per MMTests era.
//! - [`mail_quote`]: tables quoted in a mail reply (`> ` lines) read as the original.
//! - [`tool_text`]: a comparison printed, or parsed back, in its own tool's text layout.
//! - [`tracedat`]: trace-cmd's trace.dat read natively (for the idle and PELT importers).
//! - [`import_notes`]: what a trace import skipped and assumed.
//! - [`text_input`]: a text input read as a stream, refused at its first binary byte or endless line.
//! - [`readers`]: result files of perf stat, fio, hyperfine, pytest-benchmark, pyperf, google-benchmark,
//!   Go's benchmark format.
//! - [`units`]: which units measure one quantity, and their conversion where samples meet.
//! - [`benchunit`]: Go's benchmark unit conventions (tidying, SI/IEC scaling).
//! - [`series`]: change points over a commit history (E-divisive means, as Apache Otava).
//! - [`batch`]: CI batch mode: archives in, BH-controlled verdicts and exit codes out.
//! - [`report_inputs`]: what each path given to `schedlab report` is.
//! - [`report_page`]: the report's self-contained HTML page and its text summary.
//! - [`live`]: the live check of a recording against the running kernel's own values.
//! - [`cancel`]: the stop request (Ctrl-C) that long loops poll; [`stop_signal`] a signal made one.
//! - [`cli`]: the native `schedlab` launcher: the command lines it runs itself, the rest to Python.
//! - [`cfmt`]: C's `%g` and Python's `repr(float)`, for the outputs that print them.
//! - [`error`]: the one error type every fallible function returns.

pub mod archive;
pub mod batch;
pub mod benchunit;
pub mod bisect;
pub mod cancel;
pub mod cfmt;
pub mod choice;
pub mod cli;
pub mod csv_table;
pub mod decimal;
pub mod direction;
pub mod error;
pub mod idle;
pub mod import_notes;
pub mod int_map;
pub mod jiffies;
pub mod json_text;
pub mod line_cap;
pub mod live;
pub mod lkp;
pub mod mail_quote;
pub mod mmtests;
pub mod order;
pub mod parallel;
pub mod pelt;
pub mod readers;
pub mod report_inputs;
pub mod report_page;
pub mod report_svg;
pub mod series;
pub mod stats;
pub mod stop_signal;
pub mod table;
pub mod text_input;
pub mod tool_text;
pub mod trace;
pub mod tracedat;
pub mod units;

pub use error::{Error, Result};
