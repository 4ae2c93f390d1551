//! Ctrl-C in the places docs/cancel.md listed last as without a check: the AMD
//! layout (its parser, renderer and normalisation), every rendering of a batch result
//! and the bootstrap interval's resampling. A stop request ends each with
//! `Error::Interrupted`, and the next call runs normally. The stop is this
//! thread's test hook (`cancel::StopAfter`), so the tests beside it run on.

use schedlab::batch::{self, render::FORMATS, Options};
use schedlab::cancel;
use schedlab::error::Error;
use schedlab::stats::{bootstrap_ratio_ci, BootstrapStatistic};
use schedlab::table::amd;
use std::path::PathBuf;

fn data(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(rel)
}

#[test]
fn a_stop_request_ends_the_amd_layout_the_batch_renderings_and_the_bootstrap() {
    let amd_text = std::fs::read_to_string(data("seeds/amd-normalized.txt")).unwrap();
    let tables = amd::parse(&amd_text).unwrap();
    assert!(!tables.is_empty());
    let dirs = data("batch/results/dirs");
    let res = batch::run(&[dirs.join("base"), dirs.join("head")], &Options::new("base")).unwrap();
    assert!(!res.rows.is_empty());
    let (a, b) = ([10.0, 11.0, 9.5, 10.2], [11.0, 12.1, 10.4, 11.3]);
    let boot = || bootstrap_ratio_ci(&a, &b, BootstrapStatistic::Median, 0.95, 1_000_000, 1, Some(2));

    let stop = cancel::StopAfter::checks(0);
    let parsed = amd::parse(&amd_text);
    let printed = amd::render(&tables[0]);
    let normalised = amd::normalise(&tables[0], false);
    let rendered: Vec<_> = FORMATS.iter().map(|f| (*f, batch::render::render(&res, f, None))).collect();
    let resampled = boot();
    drop(stop);

    assert_eq!(parsed.err(), Some(Error::Interrupted));
    assert_eq!(printed.err(), Some(Error::Interrupted));
    assert_eq!(normalised.err(), Some(Error::Interrupted));
    for (f, r) in &rendered {
        // "json" is serde's walk of the result and "html"/"github" write a bounded
        // number of rows: only the formats that walk every row check
        let walks_rows = ["jsonl", "junit", "markdown", "text"].contains(f);
        assert_eq!(r.as_ref().err() == Some(&Error::Interrupted), walks_rows, "{f}: {:?}", r.as_ref().err());
    }
    assert_eq!(resampled.err(), Some(Error::Interrupted));

    // and the next calls run to their end
    assert_eq!(amd::parse(&amd_text).unwrap().len(), tables.len());
    assert!(amd::render(&tables[0]).unwrap().contains("Interpretation"));
    assert!(amd::normalise(&tables[0], false).is_ok());
    for f in FORMATS {
        assert!(!batch::render::render(&res, f, None).unwrap().is_empty(), "{f}");
    }
    let ci = boot().unwrap();
    assert!(ci.low <= ci.estimate && ci.estimate <= ci.high);
}
