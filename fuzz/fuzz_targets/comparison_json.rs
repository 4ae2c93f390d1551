//! Fuzz target `comparison_json`: see [`schedlab_fuzz::checks::tables::comparison_json`] for what it checks.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| schedlab_fuzz::checks::tables::comparison_json(data));
