//! `perf c2c report` as lkp-tests' programs/perf-c2c/parse reads it: the local and
//! remote HITM, remote HIT and local and remote DRAM load counts of the summary, as
//! printed, and `HITM.total` (the last local plus the last remote HITM).

use super::ruby::{self, Lines};

/// The phrase that selects a line (in lkp's order) and its key.
const ROWS: [(&str, &str); 5] = [
    (" Load Local HITM", "HITM.local"),
    (" Load Remote HITM", "HITM.remote"),
    (" Load Remote HIT", "HIT.remote"),
    (" Load Local DRAM", "DRAM.local"),
    (" Load Remote DRAM", "DRAM.remote"),
];

/// Parse perf-c2c output.
pub fn parse(text: &str, _path: &str) -> Lines {
    let (mut local, mut remote): (Option<String>, Option<String>) = (None, None);
    let mut out = String::new();
    for line in ruby::lines(text) {
        let line = ruby::chomp(line);
        let Some(&(_, key)) = ROWS.iter().find(|(p, _)| line.contains(p)) else { continue };
        let last = ruby::split(line).last().copied().unwrap_or("").to_string();
        out.push_str(&format!("{key}: {last}\n"));
        match key {
            "HITM.local" => local = Some(last),
            "HITM.remote" => remote = Some(last),
            _ => {}
        }
    }
    let n = |v: &Option<String>| i128::from(v.as_deref().map_or(0, ruby::to_i));
    out.push_str(&format!("HITM.total: {}\n", n(&local) + n(&remote)));
    Ok(out)
}
