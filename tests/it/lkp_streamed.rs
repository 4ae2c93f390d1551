//! `lkp::comparison::compare_to_comparison`, which makes each compare row only when its
//! table row is (the memory bound of docs/readers.md §10), gives the same comparison, to the JSON byte,
//! as `to_comparison` of the whole compare result, with and without `-a`.

use schedlab::lkp::comparison::{compare_to_comparison, to_comparison, Test};
use schedlab::lkp::matrix::ResultRoot;
use schedlab::lkp::ncompare::{compare_roots, Options};
use std::path::Path;

const LKP: &str = "tests/data/lkp/golden/scenario_a_raw/unixbench/performance-30s-1-execl/lkp-ivb-d04/debian-x86_64.cgz/x86_64-rhel/gcc-7";

#[test]
fn the_streamed_comparison_is_the_collected_one() {
    let roots: Vec<ResultRoot> =
        ["a07630b8b2c16f82a2d7b5ecfa4a1c0a8e0c5a01", "d519329f72a6f36bc4f2b85452aa7c3b0d1e2f3a"]
            .iter()
            .map(|c| ResultRoot::open(&Path::new(LKP).join(c)).unwrap())
            .collect();
    for opt in [Options::default(), Options { all_keys: true, more: true, ..Options::default() }] {
        let whole = to_comparison(compare_roots(&roots, opt).unwrap(), Test::Welch, 0.05).unwrap();
        let streamed = compare_to_comparison(&roots, opt, Test::Welch, 0.05).unwrap();
        assert!(!whole.rows.is_empty());
        assert_eq!(streamed.to_json().unwrap(), whole.to_json().unwrap(), "{opt:?}");
    }
}
