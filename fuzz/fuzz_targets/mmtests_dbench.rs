//! Fuzz target `mmtests_dbench`: see [`schedlab_fuzz::checks::mmtests::dbench`] for what it checks.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| schedlab_fuzz::checks::mmtests::dbench(data));
