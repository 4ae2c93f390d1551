//! Fuzz target `archive`: see [`schedlab_fuzz::checks::archive::archive`] for what it checks.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| schedlab_fuzz::checks::archive::archive(data));
