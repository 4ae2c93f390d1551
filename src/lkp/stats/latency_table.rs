//! The latency distributions of lkp-tests' redis and memtier parsers: per run a table
//! of cumulative percentages by latency bucket (Ruby arrays shared by reference: a
//! run's table can be listed twice and still be written to after it was listed),
//! lkp's `normalize_latencies` (a bucket without a value takes the previous one, 0
//! before the first) and the mean percentage per bucket with the buckets where it
//! first exceeds 90, 95, 99 and 99.9 % (`show_latencies`).

use crate::lkp::num::{ruby_sum, Num, Sum};

/// The largest bucket index a run's table may have: lkp's Ruby would allocate an array
/// of that many entries, schedlab refuses instead.
pub const MAX_BUCKETS: usize = 1 << 24;

/// The percentiles lkp reports and how it prints them.
pub const PERCENTILES: [(f64, &str); 4] = [(90.0, "90"), (95.0, "95"), (99.0, "99"), (LAST_PERCENTILE, "99.9")];

/// The last of [`PERCENTILES`]: past it no bucket is shown.
const LAST_PERCENTILE: f64 = 99.9;

/// The run tables of one parse; a table is referred to by its index.
#[derive(Debug, Default)]
pub struct Tables {
    tables: Vec<Vec<Option<Num>>>,
}

impl Tables {
    /// A new empty table (`[]`), its index.
    pub fn new_table(&mut self) -> usize {
        self.tables.push(Vec::new());
        self.tables.len() - 1
    }

    /// `table[i] = v` (a gap is filled with nil; a negative `i` counts from the end).
    /// Err with what Ruby does when `i` is before the start, or beyond [`MAX_BUCKETS`].
    pub fn set(&mut self, table: usize, i: i64, v: Num) -> Result<(), String> {
        let Some(t) = self.tables.get_mut(table) else { return Err("no such latency table".into()) };
        let len = i64::try_from(t.len()).unwrap_or(i64::MAX);
        let at = if i < 0 { i + len } else { i };
        let Ok(at) = usize::try_from(at) else {
            return Err(format!("latency bucket {i} is before the start (lkp's Ruby raises IndexError)"));
        };
        if at >= MAX_BUCKETS {
            return Err(format!("latency bucket {i} is beyond the {MAX_BUCKETS} schedlab keeps"));
        }
        if t.len() <= at {
            t.resize(at + 1, None);
        }
        if let Some(slot) = t.get_mut(at) {
            *slot = Some(v);
        }
        Ok(())
    }

    /// `normalize_latencies` then `show_latencies` over the listed tables (`None` is a
    /// nil lkp listed, on which its Ruby fails: Err). Returns the printed lines; with
    /// `with_bucket_means` the mean of each non-zero bucket is printed too (redis), and
    /// the bucket index is shown through `bucket` (memtier's are 10 µs, shown in ms).
    pub fn show(
        &mut self,
        listed: &[Option<usize>],
        name: &str,
        with_bucket_means: bool,
        bucket: impl Fn(usize) -> String,
    ) -> Result<String, String> {
        let mut ids = Vec::with_capacity(listed.len());
        for l in listed {
            match l.and_then(|i| self.tables.get(i).map(|_| i)) {
                Some(i) => ids.push(i),
                None => return Err("a run listed before its latency header (lkp's Ruby fails on nil)".into()),
            }
        }
        let maxcol = ids.iter().filter_map(|&i| self.tables.get(i)).map(Vec::len).max().unwrap_or(0);
        for &i in &ids {
            if let Some(t) = self.tables.get_mut(i) {
                t.resize(maxcol.max(t.len()), None);
                let mut prev = Num::Int(0);
                for slot in t.iter_mut() {
                    let v = slot.unwrap_or(prev);
                    prev = v;
                    *slot = Some(v);
                }
            }
        }
        let mut out = String::new();
        let mut pi = 0;
        for col in 0..maxcol {
            let ps: Vec<Num> =
                ids.iter().filter_map(|&i| self.tables.get(i).and_then(|t| t.get(col)).copied().flatten()).collect();
            let sum = ruby_sum(&ps);
            let zero = match sum {
                Sum::Int(s) => s == 0,
                Sum::Float(f) => f == 0.0,
            };
            if zero {
                continue;
            }
            let avg = sum.f() / ps.len() as f64;
            if with_bucket_means {
                out.push_str(&format!("{name}_latency_{col}ms%: {}\n", crate::lkp::rubyfmt::float_to_s(avg)));
            }
            while let Some((_, shown)) = PERCENTILES.get(pi).filter(|(p, _)| avg > *p) {
                out.push_str(&format!("{name}_latency_{shown}%_ms: {}\n", bucket(col)));
                pi += 1;
            }
            if avg > LAST_PERCENTILE {
                break;
            }
        }
        Ok(out)
    }
}
