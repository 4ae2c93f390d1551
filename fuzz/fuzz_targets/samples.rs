//! Fuzz target `samples`: see [`schedlab_fuzz::checks::stats::samples`] for what it checks.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| schedlab_fuzz::checks::stats::samples(data));
