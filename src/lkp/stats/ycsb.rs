//! YCSB as lkp-tests' programs/ycsb/parse reads it: the run time, throughput, garbage
//! collection figures and the per-operation (READ, CLEANUP, INSERT and their -FAILED
//! forms) counts and latencies of the summary; per figure the total and the mean over
//! the summaries; the preload duration and two INSERT-FAILED figures also as printed.

use super::ruby::{self, group, re, Hash, Lines};
use crate::lkp::num::{ruby_sum_f0, Num};
use crate::lkp::rubyfmt::float_to_s;
use regex::Regex;
use std::sync::OnceLock;

/// A summary line: the section its line selects (lkp's dispatch), its pattern (the
/// value in group 1), lkp's key, and whether lkp also prints the value at once.
const LINES: &[(Section, &str, &str, bool)] = {
    use Section::{Cleanup, Insert, Overall, Read};
    &[
        (Overall, r"OVERALL\W, RunTime.ms., (\d+)$", "runtime", false),
        (Overall, r"OVERALL\W, Throughput.ops.sec., (\d+\.\d+)$", "throughput_ops/s", false),
        (Overall, r"TOTAL_GCS_G1_Young_Generation\W, Count, (\d+)$", "gcs_g1", false),
        (Overall, r"TOTAL_GC_TIME_G1_Young_Generation\W, Time.ms., (\d+)$", "gc_time_g1", false),
        (Overall, r"TOTAL_GC_TIME_%_G1_Young_Generation\W, Time.%., (\d+\.\d+)$", "gc_time_%", false),
        (Overall, r"TOTAL_GCS_G1_Old_Generation\W, Count, (\d+)$", "gcs_g1_old", false),
        (Overall, r"TOTAL_GC_TIME_G1_Old_Generation\W, Time.ms., (\d+)$", "gc_time_g1_old", false),
        (Overall, r"TOTAL_GC_TIME_%_G1_Old_Generation\W, Time.%., (\d+\.\d+)$", "gc_time_%_old", false),
        (Overall, r"TOTAL_GCs\W, Count, (\d+)$", "total_gcs", false),
        (Overall, r"TOTAL_GC_TIME\W, Time.ms., (\d+)$", "total_gc_time", false),
        (Overall, r"TOTAL_GC_TIME_%\W, Time.%., (\d+\.\d+)$", "total_gc_time_%", false),
        (Read, r"READ\W, Operations, (\d+)$", "read_operations", false),
        (Read, r"READ\W, AverageLatency.us., (\d+\.\d+)$", "read_averagelatency", false),
        (Read, r"READ\W, MinLatency.us., (\d+)$", "read_minlatency", false),
        (Read, r"READ\W, MaxLatency.us., (\d+)$", "read_maxlatency", false),
        (Read, r"READ\W, 95thPercentileLatency.us., (\d+)$", "read_95%latency", false),
        (Read, r"READ\W, 99thPercentileLatency.us., (\d+)$", "read_99%latency", false),
        (Read, r"READ\W, Return=OK, (\d+)$", "read_return_ok", false),
        (Read, r"READ\W, Return=NOT_FOUND, (\d+)$", "read_return_notfound", false),
        (Read, r"READ-FAILED\W, Operations, (\d+)$", "read_failed_operations", false),
        (Read, r"READ-FAILED\W, AverageLatency.us., (\d+\.\d+)$", "read_failed_averagelatency", false),
        (Read, r"READ-FAILED\W, MinLatency.us., (\d+)$", "read_failed_minlatency", false),
        (Read, r"READ-FAILED\W, MaxLatency.us., (\d+)$", "read_failed_maxlatency", false),
        (Read, r"READ-FAILED\W, 95thPercentileLatency.us., (\d+)$", "read_failed_95%latency", false),
        (Read, r"READ-FAILED\W, 99thPercentileLatency.us., (\d+)$", "read_failed_99%latency", false),
        (Cleanup, r"CLEANUP\W, Operations, (\d+)$", "cleanup_operations", false),
        (Cleanup, r"CLEANUP\W, AverageLatency.us., (\d+\.\d+)$", "cleanup_averagelatency", false),
        (Cleanup, r"CLEANUP\W, MinLatency.us., (\d+)$", "cleanup_minlatency", false),
        (Cleanup, r"CLEANUP\W, MaxLatency.us., (\d+)$", "cleanup_maxlatency", false),
        (Cleanup, r"CLEANUP\W, 95thPercentileLatency.us., (\d+)$", "cleanup_95%latency", false),
        (Cleanup, r"CLEANUP\W, 99thPercentileLatency.us., (\d+)$", "cleanup_99%latency", false),
        (Insert, r"INSERT\W, Operations, (\d+)$", "insert_operations", false),
        (Insert, r"INSERT\W, AverageLatency.us., (\d+\.\d+)$", "insert_averagelatency", false),
        (Insert, r"INSERT\W, MinLatency.us., (\d+)$", "insert_minlatency", false),
        (Insert, r"INSERT\W, MaxLatency.us., (\d+)$", "insert_maxlatency", false),
        (Insert, r"INSERT\W, 95thPercentileLatency.us., (\d+)$", "insert_95%latency", false),
        (Insert, r"INSERT\W, 99thPercentileLatency.us., (\d+)$", "insert_99%latency", false),
        (Insert, r"INSERT\W, Return=OK, (\d+)$", "insert_return_ok", false),
        (Insert, r"INSERT\W, Return=ERROR, (\d+)$", "insert_return_error", false),
        (Insert, r"INSERT-FAILED\W, Operations, (\d+)$", "insert_failed_operations", true),
        (Insert, r"INSERT-FAILED\W, AverageLatency.us., (\d+\.\d+)$", "insert_failed_averagelatency", false),
        (Insert, r"INSERT-FAILED\W, MinLatency.us., (\d+)$", "insert_failed_minlatency", true),
        (Insert, r"INSERT-FAILED\W, MaxLatency.us., (\d+)$", "insert_failed_maxlatency", false),
        (Insert, r"INSERT-FAILED\W, 95thPercentileLatency.us., (\d+)$", "insert_failed_95%latency", false),
        (Insert, r"INSERT-FAILED\W, 99thPercentileLatency.us., (\d+)$", "insert_failed_99%latency", false),
    ]
};

/// lkp's `parse` dispatch: the first of these words in the line picks the section.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Section {
    Overall,
    Read,
    Cleanup,
    Insert,
}

struct Patterns {
    sections: [(Regex, Section); 5],
    lines: Vec<(Section, Regex, &'static str, bool)>,
    preload: Regex,
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| Patterns {
        sections: [
            (re("OVERALL"), Section::Overall),
            (re("TOTAL"), Section::Overall),
            (re("READ"), Section::Read),
            (re("CLEANUP"), Section::Cleanup),
            (re("INSERT"), Section::Insert),
        ],
        lines: LINES.iter().map(|&(s, p, k, print)| (s, re(p), k, print)).collect(),
        preload: re(r"^preload duration: (\d+\.\d+)$"),
    })
}

/// Parse YCSB output.
pub fn parse(text: &str, _path: &str) -> Lines {
    let p = patterns();
    let mut results: Hash<Vec<Num>> = Hash::default();
    let mut out = String::new();
    for line in ruby::lines(text) {
        let Some(section) = p.sections.iter().find(|(r, _)| r.is_match(line)).map(|(_, s)| *s) else {
            if let Some(c) = p.preload.captures(line) {
                out.push_str(&format!("preload_duration: {}\n", group(&c, 1)));
            }
            continue;
        };
        let hit = p
            .lines
            .iter()
            .filter(|l| l.0 == section)
            .find_map(|(_, r, k, print)| r.captures(line).map(|c| (c, k, print)));
        if let Some((c, key, print)) = hit {
            if let Some(v) = results.entry(key, Vec::new) {
                v.push(Num::Float(ruby::to_f(group(&c, 1))));
            }
            if *print {
                out.push_str(&format!("{key}: {}\n", group(&c, 1)));
            }
        }
    }
    for (k, v) in results.iter() {
        out.push_str(&format!("total_{k}: {}\n", float_to_s(ruby_sum_f0(v))));
    }
    for (k, v) in results.iter() {
        out.push_str(&format!("avg_{k}: {}\n", float_to_s(ruby_sum_f0(v) / v.len() as f64)));
    }
    Ok(out)
}
