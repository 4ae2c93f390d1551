//! Fuzz target `lkp_raw`: see [`schedlab_fuzz::checks::lkp::raw`] for what it checks.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| schedlab_fuzz::checks::lkp::raw(data));
