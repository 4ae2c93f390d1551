//! Fuzz target `results`: see [`schedlab_fuzz::checks::readers::results`] for what it checks.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| schedlab_fuzz::checks::readers::results(data));
