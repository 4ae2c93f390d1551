//! Fuzz target `lkp_jobyaml`: see [`schedlab_fuzz::checks::lkp::jobyaml`] for what it checks.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| schedlab_fuzz::checks::lkp::jobyaml(data));
