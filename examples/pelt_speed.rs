use schedlab::pelt::{driver, row::Count, util_only, Segment, State};
use std::time::Instant;
fn main() {
    let n = 1_000_000usize;
    let mut x: u64 = 12345;
    let mut segs = Vec::with_capacity(n);
    for i in 0..n {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let r = (x >> 33) % 12_000_000 + 200_000;
        segs.push(Segment { dur_ns: r, state: if i % 2 == 0 { State::Run } else { State::Sleep }, cpu_cap: 1024, freq_cap: 1024 });
    }
    let cfg = driver::Config::default();
    for _ in 0..3 {
        let t = Instant::now();
        let mut c = Count::default();
        driver::simulate(&segs, &cfg, &mut c).unwrap();
        let dt = t.elapsed().as_secs_f64();
        println!("count sink: {} rows in {:.3} s: {:.1} M seg/s, {:.1} M rows/s", c.0, dt, n as f64 / dt / 1e6, c.0 as f64 / dt / 1e6);
    }
    for _ in 0..3 {
        let t = Instant::now();
        let mut c = Count::default();
        util_only::simulate_util(&segs, &cfg, &mut c).unwrap();
        let dt = t.elapsed().as_secs_f64();
        println!("util-only, count sink: {} rows in {:.3} s: {:.1} M seg/s, {:.1} M rows/s", c.0, dt, n as f64 / dt / 1e6, c.0 as f64 / dt / 1e6);
    }
    if std::env::args().nth(1).as_deref() == Some("count") { return; }
    let t = Instant::now();
    let mut w = schedlab::pelt::CsvWriter::new(std::io::sink(), false, "x").unwrap();
    driver::simulate(&segs, &cfg, &mut w).unwrap();
    w.finish().unwrap();
    let dt = t.elapsed().as_secs_f64();
    println!("csv to io::sink: {:.3} s", dt);
}

