//! Fuzz target: the samples-file reader (`schedlab stats FILE`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match schedlab::stats::parse_samples(data, Some("fuzz.txt")) {
        Ok(v) => assert!(v.iter().all(|x| x.is_finite())),
        Err(e) => assert!(matches!(e, schedlab::Error::Parse { .. }), "{e:?}"),
    }
});
