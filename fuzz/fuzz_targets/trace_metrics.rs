//! Fuzz target `trace_metrics`: see [`schedlab_fuzz::checks::trace::metrics_pass`] for what it checks.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| schedlab_fuzz::checks::trace::metrics_pass(data));
