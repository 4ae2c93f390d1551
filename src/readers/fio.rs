//! fio's JSON output (`--output-format=json`): per job and per direction that did
//! I/O (read, write, trim), `JOB.DIR.bw` (KiB/s) and `JOB.DIR.iops` (higher is
//! better), the mean completion and total latencies `JOB.DIR.clat_mean`,
//! `JOB.DIR.lat_mean` and the completion latency percentiles fio reports,
//! `JOB.DIR.clat_p99` (ns, lower is better). One sample of each per file (a run);
//! the job descriptions fio prints before the JSON are skipped (docs/readers.md §2).

// Parsers of untrusted bytes: no unwrap, expect, indexing or string slicing that can panic on input.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

use super::json::{each_element, field, number_field, string};
use super::Samples;
use crate::error::{Error, Result};
use crate::table::Direction;

/// The samples of a fio JSON output, read one job at a time ([`each_element`]).
pub fn parse(text: &str, path: Option<&str>) -> Result<Samples> {
    // fio writes "job: (g=0): rw=..." lines first when it runs several jobs
    let start = text.find("\n{").map(|i| i + 1).filter(|_| !text.starts_with('{')).unwrap_or(0);
    let skipped = text.get(..start).map_or(0, |s| s.lines().count());
    let body = text.get(start..).unwrap_or_default();
    let mut out = Samples::default();
    each_element(body, path, skipped, ("jobs", "fio output"), &[], &mut |j, job| {
        let at = format!("jobs[{j}]");
        let name = string(job, "jobname", &at, path)?;
        for dir in ["read", "write", "trim"] {
            let Some(d) = job.get(dir) else { continue };
            let at = format!("{at}.{dir}");
            if number_field(d, "total_ios", &at, path)? <= 0.0 {
                continue;
            }
            let m = |k: &str| format!("{name}.{dir}.{k}");
            out.push(&m("bw"), number_field(d, "bw", &at, path)?, "KiB/s", Direction::Higher, "");
            out.push(&m("iops"), number_field(d, "iops", &at, path)?, "", Direction::Higher, "");
            for (key, short) in [("clat_ns", "clat"), ("lat_ns", "lat")] {
                let l = field(d, key, &at, path)?;
                let at = format!("{at}.{key}");
                out.push(&m(&format!("{short}_mean")), number_field(l, "mean", &at, path)?, "ns", Direction::Lower, "");
                if let Some(pct) = l.get("percentile").and_then(|p| p.as_object()) {
                    for (q, v) in pct {
                        let qv: f64 = q.parse().map_err(|_| {
                            Error::parse(path, None, format!("{at}.percentile: expected a percentile, got \"{q}\""))
                        })?;
                        let x = super::json::number(v, &format!("{at}.percentile.{q}"), path)?;
                        out.push(&m(&format!("{short}_p{qv}")), x, "ns", Direction::Lower, "");
                    }
                }
            }
        }
        Ok(())
    })?;
    Ok(out)
}
