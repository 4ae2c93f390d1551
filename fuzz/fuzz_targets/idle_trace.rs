//! Fuzz target `idle_trace`: see [`schedlab_fuzz::checks::idle::trace`] for what it checks.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| schedlab_fuzz::checks::idle::trace(data));
