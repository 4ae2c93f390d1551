//! Fuzz target `mmtests_schbench`: see [`schedlab_fuzz::checks::mmtests::schbench`] for what it checks.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| schedlab_fuzz::checks::mmtests::schbench(data));
