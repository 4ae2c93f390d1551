//! The bodies of schedlab's fuzz targets (one function per target in [`checks`]),
//! shared by the libFuzzer binaries in `fuzz_targets/` and by the repository's
//! `tests/it/fuzz_replay.rs`, which runs the seed corpora and every committed
//! regression input through the same functions under `cargo test`.
#![allow(clippy::missing_panics_doc)]

#[path = "checks/mod.rs"]
pub mod checks;
