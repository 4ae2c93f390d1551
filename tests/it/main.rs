//! The Rust integration tests: one crate (one binary to link), a module per area.
//! Run one area with `cargo test --test it <module>::`.

mod archive;
mod batch;
mod batch_missing;
mod batch_results;
mod benchstat_golden;
mod cancel_renderers;
mod cancel_tables;
mod fuzz_replay;
mod idle_cancel;
mod idle_golden;
mod live_check;
mod lkp_golden;
mod lkp_plot;
mod lkp_spec;
mod lkp_stats;
mod lkp_streamed;
mod mmtests_era_detect;
mod mmtests_errors;
mod mmtests_golden;
mod mmtests_monitors;
mod mmtests_parse;
mod mmtests_perl_deaths;
mod mmtests_real;
mod pelt_golden;
mod pelt_juno_capacity;
mod perf_script_real;
mod readers_real;
mod series_golden;
mod trace_metrics;
mod tracedat_cancel;
mod tracedat_real;
mod traces_real;
mod verdict_oracles;
mod verdict_simulation;
