//! Fuzz target `tracedat`: see [`schedlab_fuzz::checks::tracedat::tracedat`] for what it checks.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| schedlab_fuzz::checks::tracedat::tracedat(data));
