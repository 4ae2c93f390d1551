//! Fuzz target `pelt_ftrace`: see [`schedlab_fuzz::checks::pelt::ftrace`] for what it checks.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| schedlab_fuzz::checks::pelt::ftrace(data));
