//! Fuzz target `idle_states`: see [`schedlab_fuzz::checks::idle::states`] for what it checks.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| schedlab_fuzz::checks::idle::states(data));
