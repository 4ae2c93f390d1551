//! Fuzz target `idle_ftrace`: see [`schedlab_fuzz::checks::idle::ftrace`] for what it checks.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| schedlab_fuzz::checks::idle::ftrace(data));
