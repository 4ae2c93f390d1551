//! The robot's ASCII plots (tests/data/lkp/golden/out_C_plot*.txt, drawn by gnuplot 5.4
//! from lkp's mmplot script) reproduced byte for byte.

use schedlab::archive::DirTree;
use schedlab::lkp::matrix::Matrix;
use schedlab::lkp::textplot::{gnuplot_script, text_plot};
use std::path::{Path, PathBuf};

fn golden() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/lkp/golden")
}

fn samples(p: &Path, key: &str) -> Vec<f64> {
    let (dir, name) = DirTree::of_file(p);
    Matrix::read(&dir, &name).unwrap().get(key).unwrap().iter().map(|n| n.f()).collect()
}

#[test]
fn will_it_scale_plot_and_script() {
    let key = "will-it-scale.per_thread_ops";
    let bad = samples(&golden().join("plot_input/bad.json"), key);
    let good = samples(&golden().join("plot_input/good.json"), key);
    assert_eq!(text_plot(key, &bad, &good), std::fs::read_to_string(golden().join("out_C_plot.txt")).unwrap());
    assert_eq!(gnuplot_script(key, &bad, &good), std::fs::read_to_string(golden().join("out_C_plot.gp")).unwrap());
}

#[test]
fn unixbench_plot_of_scenario_a() {
    let a = golden()
        .join("scenario_a_raw/unixbench/performance-30s-1-execl/lkp-ivb-d04/debian-x86_64.cgz/x86_64-rhel/gcc-7");
    let good = samples(&a.join("a07630b8b2c16f82a2d7b5ecfa4a1c0a8e0c5a01/matrix.json"), "unixbench.score");
    let bad = samples(&a.join("d519329f72a6f36bc4f2b85452aa7c3b0d1e2f3a/matrix.json"), "unixbench.score");
    let want = std::fs::read_to_string(golden().join("out_C_plot_unixbench.txt")).unwrap();
    assert_eq!(text_plot("unixbench.score", &bad, &good), want);
}
