//! Fuzz target `mmtests_sockperf`: see [`schedlab_fuzz::checks::mmtests::sockperf`] for what it checks.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| schedlab_fuzz::checks::mmtests::sockperf(data));
