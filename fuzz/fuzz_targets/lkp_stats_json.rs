//! Fuzz target `lkp_stats_json`: see [`schedlab_fuzz::checks::lkp::stats_json`] for what it checks.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| schedlab_fuzz::checks::lkp::stats_json(data));
