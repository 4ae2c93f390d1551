use schedlab::pelt::{driver, row::Count, util_only, Segment, State};
use std::time::Instant;
fn main() {
    let n = 1_000_000usize;
    let mut x: u64 = 12345;
    let mut segs = Vec::with_capacity(n);
    for i in 0..n {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let r = (x >> 33) % 12_000_000 + 200_000;
        segs.push(Segment {
            dur_ns: r,
            state: if i % 2 == 0 { State::Run } else { State::Sleep },
            cpu_cap: 1024,
            freq_cap: 1024,
            cpu: 0,
            sync_lag_ns: None,
            tick: false,
        });
    }
    let cfg = driver::Config::default();
    let only_util = std::env::args().nth(1).as_deref() == Some("util");
    for _ in 0..if only_util { 0 } else { 3 } {
        let t = Instant::now();
        let mut c = Count::default();
        driver::simulate(&segs, &cfg, &mut c).unwrap();
        let dt = t.elapsed().as_secs_f64();
        println!(
            "count sink: {} rows in {:.3} s: {:.1} M seg/s, {:.1} M rows/s",
            c.0,
            dt,
            n as f64 / dt / 1e6,
            c.0 as f64 / dt / 1e6
        );
    }
    // the last segment at cpu_cap 1023: the general util-only model, on (almost) the same work
    let mut lowered = segs.clone();
    if let Some(s) = lowered.last_mut() {
        s.cpu_cap = 1023;
    }
    for _ in 0..3 {
        for (name, tr) in [("full-capacity model", &segs), ("general model", &lowered)]
            .into_iter()
            .take(if std::env::var_os("ONLY_FULL").is_some() { 1 } else { 2 })
        {
            let t = Instant::now();
            let mut c = Count::default();
            util_only::simulate_util(tr, &cfg, &mut c).unwrap();
            let dt = t.elapsed().as_secs_f64();
            println!(
                "util-only, {name}, count sink: {} rows in {:.3} s: {:.1} M seg/s, {:.1} M rows/s",
                c.0,
                dt,
                n as f64 / dt / 1e6,
                c.0 as f64 / dt / 1e6
            );
        }
    }
    if only_util || std::env::args().nth(1).as_deref() == Some("count") {
        return;
    }
    let t = Instant::now();
    let mut w = schedlab::pelt::CsvWriter::new(std::io::sink(), false, "x").unwrap();
    driver::simulate(&segs, &cfg, &mut w).unwrap();
    w.finish().unwrap();
    let dt = t.elapsed().as_secs_f64();
    println!("csv to io::sink: {:.3} s", dt);
}
