//! The native trace.dat reader against `trace-cmd report` of the same file: traces
//! recorded on this project's Linux 6.18 machine (tests/data/traces/README.md), written
//! by trace-cmd 3.1.6 as version 7 (zstd) and converted to version 6 by `trace-cmd
//! convert`. Every record is where trace-cmd lists it, and the importers take from the
//! binary records exactly the events they take from the report's text.

use schedlab::idle::ftrace as idle_ftrace;
use schedlab::import_notes::ImportOptions;
use schedlab::pelt::cpu_capacity::Platform;
use schedlab::pelt::ftrace::task_trace_from_ftrace;
use schedlab::tracedat::Trace;
use std::collections::BTreeMap;

/// (trace.dat, its `trace-cmd report -t`): the 6.18 recordings as trace-cmd wrote them
/// (version 7, zstd) and converted (version 6), and LISA's Juno trace written again by
/// trace-cmd as version 7, zstd and zlib (tools/oracles/traces/lisa_tracedat.sh).
const TRACES: [(&str, &str); 5] = [
    ("tracedat-6.18/trace-v6.dat", "tracedat-6.18/report-t.txt"),
    ("tracedat-6.18/trace.dat", "tracedat-6.18/report-t.txt"),
    ("sched-6.18/trace.dat", "sched-6.18/report-t.txt"),
    ("lisa-sched_load/trace-zstd.dat", "lisa-sched_load/report-t.txt"),
    ("lisa-sched_load/trace-zlib.dat", "lisa-sched_load/report-t.txt"),
];

fn read(name: &str) -> Vec<u8> {
    std::fs::read(format!("tests/data/traces/{name}")).unwrap()
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

fn records(dat: &[u8]) -> Vec<(u32, u64, String)> {
    let t = Trace::open(&dat, None).unwrap();
    let mut out = Vec::new();
    t.records(|r| {
        out.push((r.cpu, r.ts, t.event_name(r.data).unwrap_or("?").to_string()));
        Ok(())
    })
    .unwrap();
    out
}

#[test]
fn every_record_as_trace_cmd_report_lists_it() {
    for (dat, report) in TRACES {
        let want = report_records(&String::from_utf8(read(report)).unwrap());
        let got = records(&read(dat));
        assert!(want.len() > 1000, "{}", want.len());
        assert_eq!(got.len(), want.len(), "{dat}");
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(g, w, "{dat}: record {i}");
        }
    }
}

#[test]
fn pelt_import_of_every_task_is_that_of_the_report() {
    let strict = ImportOptions { strict: true, sort: false };
    for (dat, report) in TRACES {
        let (dat_bytes, txt) = (read(dat), read(report));
        let text = String::from_utf8(txt.clone()).unwrap();
        // the 6 tasks switched out most often (each import decodes the whole file)
        let mut count: BTreeMap<u32, usize> = BTreeMap::new();
        for pid in text.split(" ==> ").filter_map(|l| l.rsplit_once(" [")?.0.rsplit_once(':')?.1.parse().ok()) {
            *count.entry(pid).or_default() += 1;
        }
        let mut by_count: Vec<(usize, u32)> = count.into_iter().map(|(p, n)| (n, p)).collect();
        by_count.sort_unstable_by(|a, b| b.cmp(a));
        let pids: Vec<u32> = by_count.iter().take(6).map(|&(_, p)| p).collect();
        assert!(by_count.len() > 10, "{by_count:?}");
        let mut imported = 0;
        for pid in pids {
            let a = task_trace_from_ftrace(&dat_bytes, pid, &Platform::default(), None, strict);
            let b = task_trace_from_ftrace(&txt, pid, &Platform::default(), None, strict);
            match (a, b) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(
                        (a.segments, a.start_ns, a.events),
                        (b.segments, b.start_ns, b.events),
                        "{dat}: pid {pid}"
                    );
                    assert!(a.notes.assumptions.iter().any(|n| n.starts_with("read as trace.dat")), "{:?}", a.notes);
                    imported += 1;
                }
                // the same error; a record's number is its report line's less one (`cpus=2`)
                (Err(a), Err(b)) => {
                    let (a, b) = (a.to_string(), b.to_string());
                    let (la, ma) = a.strip_prefix("line ").and_then(|r| r.split_once(": ")).unwrap();
                    let (lb, mb) = b.strip_prefix("line ").and_then(|r| r.split_once(": ")).unwrap();
                    assert_eq!((la.parse::<usize>().unwrap() + 1, ma), (lb.parse().unwrap(), mb), "{dat}: pid {pid}");
                }
                (a, b) => panic!("{dat}: pid {pid}: {a:?} vs {b:?}"),
            }
        }
        assert!(imported >= 3, "{dat}: {imported}");
    }
}

#[test]
fn idle_import_is_that_of_the_report() {
    let mut periods = 0;
    for (dat, report) in TRACES {
        let a = idle_ftrace::parse(&read(dat), Some("t"), 250, ImportOptions::default()).map(|i| i.cpus);
        let b = idle_ftrace::parse(&read(report), Some("t"), 250, ImportOptions::default()).map(|i| i.cpus);
        match (a, b) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a, b, "{dat}");
                periods += a.iter().map(|c| c.periods.len()).sum::<usize>();
            }
            // the 6.18 traces have no cpu_idle events (the machine was loaded): both say so
            (a, b) => assert_eq!(a.unwrap_err().to_string(), b.unwrap_err().to_string(), "{dat}"),
        }
    }
    // LISA's Juno trace: 474 cpu_idle events on 6 CPUs
    assert!(periods > 200, "{periods}");
}

#[test]
fn a_trace_dat_file_is_read_a_piece_at_a_time_as_its_bytes_are() {
    let strict = ImportOptions { strict: true, sort: false };
    for (dat, _) in TRACES {
        let path = std::path::PathBuf::from(format!("tests/data/traces/{dat}"));
        let a =
            schedlab::pelt::ftrace::read_ftrace(&path, 30985, &Platform::default(), strict).map_err(|e| e.to_string());
        let b =
            task_trace_from_ftrace(&read(dat), 30985, &Platform::default(), Some(&path.display().to_string()), strict)
                .map_err(|e| e.to_string());
        assert_eq!(a, b, "{dat}");
    }
}

#[test]
fn a_cut_or_corrupted_trace_dat_is_an_error_naming_the_file() {
    for (name, _) in [TRACES[0], TRACES[1], TRACES[4]] {
        let dat = read(name);
        let run = |d: &[u8]| -> Result<usize, String> {
            let t = Trace::open(&d, Some("cut.dat")).map_err(|e| e.to_string())?;
            let mut n = 0;
            t.records(|_| {
                n += 1;
                Ok(())
            })
            .map_err(|e| e.to_string())?;
            Ok(n)
        };
        // cut anywhere in the metadata or the pages
        for k in 1..10 {
            let cut = dat.len() * k / 10;
            if let Err(e) = run(&dat[..cut]) {
                assert!(e.starts_with("cut.dat: trace.dat "), "{name} cut at {cut}: {e}");
            }
        }
        // bytes changed anywhere: decoded or refused, never a panic
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..12 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mut bad = dat.clone();
            let at = (x as usize) % dat.len();
            bad[at] ^= (x >> 32) as u8 | 1;
            if let Err(e) = run(&bad) {
                assert!(e.starts_with("cut.dat: "), "{name} byte {at}: {e}");
            }
        }
    }
}
