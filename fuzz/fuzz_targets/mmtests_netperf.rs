//! Fuzz target `mmtests_netperf`: see [`schedlab_fuzz::checks::mmtests::netperf`] for what it checks.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| schedlab_fuzz::checks::mmtests::netperf(data));
