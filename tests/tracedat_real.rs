//! The native trace.dat reader against `trace-cmd report` of the same file: a trace
//! recorded on this project's Linux 6.18 machine (tests/data/traces/README.md), written
//! by trace-cmd 3.1.6 as version 7 (zstd) and converted to version 6 by `trace-cmd convert`.

use schedlab::import_notes::ImportOptions;
use schedlab::pelt::ftrace::task_trace_from_ftrace;
use schedlab::tracedat;
use std::collections::BTreeSet;

const DIR: &str = "tests/data/traces/tracedat-6.18";

fn read(name: &str) -> Vec<u8> {
    std::fs::read(format!("{DIR}/{name}")).unwrap()
}

/// (cpu, ns, event name) of each line of `trace-cmd report -t` (`... [CPU] S.NNNNNNNNN: name: ...`).
fn report_records(text: &str) -> Vec<(u32, u64, String)> {
    text.lines()
        .filter_map(|l| {
            let toks: Vec<&str> = l.split_whitespace().collect();
            let i = toks.iter().position(|t| t.ends_with(':') && t.contains('.') && t.len() > 10)?;
            let cpu = toks.get(i - 1)?.trim_matches(|c| c == '[' || c == ']').parse().ok()?;
            let (s, ns) = toks[i].trim_end_matches(':').split_once('.')?;
            let ts = s.parse::<u64>().ok()? * 1_000_000_000 + ns.parse::<u64>().ok()?;
            Some((cpu, ts, toks.get(i + 1)?.trim_end_matches(':').to_string()))
        })
        .collect()
}

#[test]
fn every_record_as_trace_cmd_report_lists_it() {
    let ours = tracedat::to_text(&read("trace-v6.dat"), None, &[]).unwrap();
    let want = report_records(&String::from_utf8(read("report-t.txt")).unwrap());
    let got = report_records(&ours);
    assert!(want.len() > 1000, "{}", want.len());
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "record {i}");
    }
}

#[test]
fn pelt_import_of_the_trace_dat_is_that_of_its_report() {
    let (dat, txt) = (read("trace-v6.dat"), read("report-t.txt"));
    let text = String::from_utf8(txt.clone()).unwrap();
    let pids: BTreeSet<u32> =
        text.split(" ==> ").filter_map(|l| l.rsplit_once(" [")?.0.rsplit_once(':')?.1.parse().ok()).collect();
    assert!(pids.len() > 20, "{pids:?}");
    let strict = ImportOptions { strict: true, sort: false };
    // the importer reads the trace.dat itself (pids.txt: periodic=30985) ...
    let a = task_trace_from_ftrace(&dat, 30985, 1024, 1024, None, strict).unwrap();
    let b = task_trace_from_ftrace(&txt, 30985, 1024, 1024, None, strict).unwrap();
    assert_eq!((a.segments, a.start_ns, a.events), (b.segments, b.start_ns, b.events));
    assert!(a.notes.assumptions.iter().any(|n| n.contains("trace.dat")));
    // ... and every other task through one rendering
    let rendered = tracedat::to_text(&dat, None, &tracedat::IMPORTED_EVENTS).unwrap().into_bytes();
    let mut imported = 0;
    for pid in pids {
        let a = task_trace_from_ftrace(&rendered, pid, 1024, 1024, None, strict);
        let b = task_trace_from_ftrace(&txt, pid, 1024, 1024, None, strict);
        match (a, b) {
            (Ok(a), Ok(b)) => {
                assert_eq!((a.segments, a.start_ns, a.events), (b.segments, b.start_ns, b.events), "pid {pid}");
                imported += 1;
            }
            (Err(a), Err(b)) => assert_eq!(a.to_string().split(": ").last(), b.to_string().split(": ").last()),
            (a, b) => panic!("pid {pid}: {a:?} vs {b:?}"),
        }
    }
    assert!(imported > 10, "{imported}");
}

#[test]
fn version_7_is_refused_with_the_conversion_to_run() {
    let e = tracedat::to_text(&read("trace.dat"), Some("trace.dat"), &[]).unwrap_err().to_string();
    assert!(e.contains("trace-cmd convert --file-version 6 --compression none"), "{e}");
}

#[test]
fn a_cut_or_corrupted_trace_dat_is_an_error_naming_the_file() {
    let dat = read("trace-v6.dat");
    // cut anywhere in the metadata or the pages
    for k in 1..24 {
        let cut = dat.len() * k / 24;
        match tracedat::to_text(&dat[..cut], Some("cut.dat"), &[]) {
            Ok(_) => {}
            Err(e) => assert!(e.to_string().starts_with("cut.dat: "), "{e}"),
        }
    }
    // bytes changed in the page data (the last ~40%): decoded or refused, never a panic
    let mut x = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..16 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let mut bad = dat.clone();
        let at = dat.len() * 6 / 10 + (x as usize) % (dat.len() * 4 / 10);
        bad[at] ^= (x >> 32) as u8 | 1;
        if let Err(e) = tracedat::to_text(&bad, Some("bad.dat"), &[]) {
            assert!(e.to_string().starts_with("bad.dat: "), "{e}");
        }
    }
}
