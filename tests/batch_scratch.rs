use schedlab::batch::{self, Options};
use std::path::PathBuf;
#[test]
fn scratch() {
    let d = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    for (paths, base) in [
        (vec![d.join("mmtests/logs-legacy")], "6.8-vanilla"),
        (vec![d.join("mmtests/logs-head")], "6.8-vanilla"),
        (vec![d.join("mmtests/logs-2018")], "4.18.0-vanilla"),
        (vec![d.join("lkp/golden/scenario_a_raw")], "a07630b8b2c16f82a2d7b5ecfa4a1c0a8e0c5a01"),
    ] {
        let r = batch::run(&paths, &Options::new(base)).unwrap();
        println!("{}", batch::render::text(&r));
    }
}
