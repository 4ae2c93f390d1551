//! Fuzz target `lkp_report`: see [`schedlab_fuzz::checks::tables::lkp_report`] for what it checks.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| schedlab_fuzz::checks::tables::lkp_report(data));
