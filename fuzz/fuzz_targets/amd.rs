//! Fuzz target `amd`: see [`schedlab_fuzz::checks::tables::amd`] for what it checks.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| schedlab_fuzz::checks::tables::amd(data));
