//! Fuzz target `idle_sysfs`: see [`schedlab_fuzz::checks::idle::sysfs`] for what it checks.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| schedlab_fuzz::checks::idle::sysfs(data));
