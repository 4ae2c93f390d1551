//! `--print-monitor vmstat [--sub-heading COLUMN]`: one column of `vmstat -n` run
//! through latency-output (MMTests' MonitorVmstat; docs/mmtests-monitors.md §3).
//!
//! Every line counts, vmstat's two header lines too: a column read as text is dropped
//! there, a computed one (`free` in MB, `ussy`, `totalcpu`, `pfree`) adds a 0 for them,
//! as the Perl's arithmetic on text does.

use super::{num, IterDir, Reader};
use crate::error::{Error, Result};
use crate::mmtests::extract::Samples;

/// vmstat's columns in order (`_colMap`).
const COLUMNS: &[&str] =
    &["r", "b", "swpd", "free", "buff", "cache", "si", "so", "bi", "bo", "in", "cs", "us", "sy", "id", "wa", "st"];

/// What a sub-heading reads.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Column {
    /// A column as logged (`free` is divided by 1024, the CPU percentages capped at 100).
    Plain(usize),
    /// us / (us + sy).
    UserKernel,
    /// us + sy.
    TotalCpu,
    /// free · 100 / MemTotal.
    PercentFree,
}

/// The vmstat reader.
pub struct Vmstat {
    sub: String,
    column: Column,
}

impl Vmstat {
    /// A reader of sub-heading `sub` ("" = `sy`); an unknown one is refused as the Perl dies.
    pub fn new(sub: &str) -> Result<Vmstat> {
        let sub = if sub.is_empty() { "sy" } else { sub };
        let column = match sub {
            "ussy" => Column::UserKernel,
            "totalcpu" => Column::TotalCpu,
            "pfree" => Column::PercentFree,
            _ => Column::Plain(COLUMNS.iter().position(|c| *c == sub).ok_or_else(|| {
                Error::domain(format!(
                    "vmstat has no sub-heading '{sub}' (known: {}, ussy, totalcpu, pfree; MMTests dies: \"Unrecognised heading\")",
                    COLUMNS.join(", ")
                ))
            })?),
        };
        Ok(Vmstat { sub: sub.to_string(), column })
    }
}

/// MemTotal (kB) from tests-sysstate, if logged.
fn mem_total_kb(it: &IterDir<'_>) -> Result<Option<f64>> {
    let Some(log) = it.open("tests-sysstate")? else { return Ok(None) };
    for line in log.lines() {
        if let Some(rest) = line.strip_prefix("MemTotal:") {
            let t = rest.trim_start();
            let digits: &str = t.split(|c: char| !c.is_ascii_digit()).next().unwrap_or("");
            if t.get(digits.len()..).is_some_and(|r| r.starts_with(" kB")) && rest.len() > t.len() {
                return Ok(Some(crate::mmtests::perlfmt::numify(digits)));
            }
        }
    }
    Ok(None)
}

impl Reader for Vmstat {
    fn begin_run(&mut self) {}

    fn read(&mut self, it: &IterDir<'_>, out: &mut Samples) -> Result<()> {
        let total = if self.column == Column::PercentFree { mem_total_kb(it)? } else { None };
        let Some(log) = it.monitor_log("vmstat")? else { return Ok(()) };
        for (n, line) in log.lines().enumerate() {
            crate::cancel::check_every(n)?;
            // split(/--/): the text between the first and second "--"
            let details = match line.split_once("--") {
                Some((_, rest)) => rest.split("--").next().unwrap_or(""),
                None => line,
            };
            let f: Vec<&str> = details.split_ascii_whitespace().collect();
            let col = |name: &str| COLUMNS.iter().position(|c| *c == name).and_then(|i| f.get(i));
            match self.column {
                Column::UserKernel => {
                    let (u, s) = (num(col("us")), num(col("sy")));
                    out.add(&self.sub, if u == 0.0 && s == 0.0 { 0.0 } else { u / (u + s) });
                }
                Column::TotalCpu => out.add(&self.sub, num(col("us")) + num(col("sy"))),
                Column::PercentFree => {
                    let t = total.filter(|t| *t != 0.0).ok_or_else(|| {
                        Error::parse(
                            Some(&log.name()),
                            Some(n + 1),
                            "vmstat pfree needs MemTotal from tests-sysstate (MMTests dies: \"Illegal division by zero\")",
                        )
                    })?;
                    out.add(&self.sub, num(col("free")) * 100.0 / t);
                }
                Column::Plain(3) => out.add(&self.sub, num(f.get(3)) / 1024.0),
                Column::Plain(i) => {
                    let v = f.get(i).copied().unwrap_or("");
                    if (12..=16).contains(&i) && num(f.get(i)) > 100.0 {
                        out.add(&self.sub, 100.0);
                    } else {
                        out.add_text(&self.sub, v);
                    }
                }
            }
        }
        Ok(())
    }
}
