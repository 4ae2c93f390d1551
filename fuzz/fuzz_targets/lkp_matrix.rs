//! Fuzz target `lkp_matrix`: see [`schedlab_fuzz::checks::lkp::matrix`] for what it checks.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| schedlab_fuzz::checks::lkp::matrix(data));
