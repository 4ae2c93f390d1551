//! Fuzz target `mmtests_hackbench`: see [`schedlab_fuzz::checks::mmtests::hackbench`] for what it checks.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| schedlab_fuzz::checks::mmtests::hackbench(data));
