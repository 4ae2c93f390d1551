//! Fuzz target `mmtests_text`: see [`schedlab_fuzz::checks::tables::mmtests_text`] for what it checks.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| schedlab_fuzz::checks::tables::mmtests_text(data));
