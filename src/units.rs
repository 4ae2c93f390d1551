//! Units of measured values: which units measure the same quantity, the factor
//! between two of them, and what happens where samples of one metric in different
//! units meet (docs/readers.md §12).
//!
//! A unit is a numerator and `/`-separated denominators (`ns`, `KiB/s`, `sec/op`,
//! `/s`). Each part is either a scaled unit of a known quantity — time (`s`, `sec`,
//! `second`, `ms`, `msec`, `us`, `µs`, `usec`, `ns`, `nsec`, ...) or bytes (`B`,
//! `bytes`, `kB`/`KB`, `MB`, `GB`, `TB` in powers of ten as Go's benchunit reads
//! `MB`; `KiB`, `MiB`, `GiB`, `TiB` in powers of two) — or a word that must be the
//! same on both sides (`op`, `allocs`, an event name). Two units convert when they
//! have the same number of parts and each pair is the same word or the same
//! quantity: `ns` → `s` (× 1e-9), `MB/s` → `B/s`, `KiB/s` → `MB/s`, `ns/op` →
//! `sec/op`; never `s` → `B` or `ops/s` → `/s`.
//!
//! Where samples of one metric meet — one file ([`crate::readers::parse_text`]),
//! the groups of `stats` ([`crate::readers::groups`]), a batch run's files and its
//! runs, a series' points — every sample is converted to the unit of the first
//! ([`Reconcile`]), and samples whose units do not convert are an error naming
//! both units and where each came from: never compared number against number.

use crate::error::{Error, Result};

/// A quantity whose units schedlab converts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Quantity {
    Time,
    Bytes,
}

/// A scaled unit: its quantity and its size as 10^dec · 2^bin of the base unit
/// (the second, the byte).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Scaled {
    quantity: Quantity,
    dec: i32,
    bin: i32,
}

/// The scaled unit a word names, if any.
fn scaled(word: &str) -> Option<Scaled> {
    use Quantity::*;
    let (quantity, dec, bin) = match word {
        "s" | "sec" | "secs" | "second" | "seconds" => (Time, 0, 0),
        "ms" | "msec" | "msecs" | "millisecond" | "milliseconds" => (Time, -3, 0),
        "us" | "µs" | "μs" | "usec" | "usecs" | "microsecond" | "microseconds" => (Time, -6, 0),
        "ns" | "nsec" | "nsecs" | "nanosecond" | "nanoseconds" => (Time, -9, 0),
        "B" | "byte" | "bytes" => (Bytes, 0, 0),
        "kB" | "KB" => (Bytes, 3, 0),
        "MB" => (Bytes, 6, 0),
        "GB" => (Bytes, 9, 0),
        "TB" => (Bytes, 12, 0),
        "KiB" => (Bytes, 0, 10),
        "MiB" => (Bytes, 0, 20),
        "GiB" => (Bytes, 0, 30),
        "TiB" => (Bytes, 0, 40),
        _ => return None,
    };
    Some(Scaled { quantity, dec, bin })
}

/// The exponents of the factor from `from` to `to` (value in `to` = value in
/// `from` × 10^dec × 2^bin), or None when the units do not convert.
fn exponents(from: &str, to: &str) -> Option<(i32, i32)> {
    let a: Vec<&str> = from.split('/').collect();
    let b: Vec<&str> = to.split('/').collect();
    if a.len() != b.len() {
        return None;
    }
    let (mut dec, mut bin) = (0, 0);
    for (i, (x, y)) in a.iter().zip(&b).enumerate() {
        // the numerator multiplies, each denominator divides
        let sign = if i == 0 { 1 } else { -1 };
        if x == y {
            continue;
        }
        let (sx, sy) = (scaled(x)?, scaled(y)?);
        if sx.quantity != sy.quantity {
            return None;
        }
        dec += sign * (sx.dec - sy.dec);
        bin += sign * (sx.bin - sy.bin);
    }
    Some((dec, bin))
}

/// 10^k as the decimal literal `1ek` reads (the nearest double, as a constant in Go
/// or C is: `1e-9`, not 1/10⁹ computed).
fn pow10(k: i32) -> f64 {
    format!("1e{k}").parse().unwrap_or(f64::NAN)
}

/// The factor that converts a value in `from` to `to`, or None when they measure
/// different things (or a unit schedlab does not know differs by its word).
pub fn factor(from: &str, to: &str) -> Option<f64> {
    if from == to {
        return Some(1.0);
    }
    let (dec, bin) = exponents(from, to)?;
    Some(pow10(dec) * 2f64.powi(bin))
}

/// `value` in `from` converted to `to` ([`factor`]).
pub fn convert(value: f64, from: &str, to: &str) -> Option<f64> {
    factor(from, to).map(|f| value * f)
}

/// The unit one metric's samples are taken to, and the factor of each unit seen.
#[derive(Debug, Clone, Default)]
pub struct Reconcile {
    /// Per metric: its target unit (the first seen), where that came from, and
    /// the factor of every other unit seen.
    metrics: std::collections::HashMap<String, Target>,
}

#[derive(Debug, Clone)]
struct Target {
    unit: String,
    source: String,
    factors: Vec<(String, f64)>,
}

impl Reconcile {
    /// Take a sample of `metric` in `unit`, from `source` (a file, a run): the unit
    /// to record it in and the factor to multiply its value by. The first unit seen
    /// for a metric is its unit; a later one is converted to it, or is an error
    /// naming both units and their sources when they do not convert.
    pub fn take(&mut self, metric: &str, unit: &str, source: &str) -> Result<(&str, f64)> {
        let t = self.metrics.entry(metric.to_string()).or_insert_with(|| Target {
            unit: unit.to_string(),
            source: source.to_string(),
            factors: Vec::new(),
        });
        if t.unit == unit {
            return Ok((&t.unit, 1.0));
        }
        let f = match t.factors.iter().find(|(u, _)| u == unit) {
            Some((_, f)) => *f,
            None => {
                let f = factor(unit, &t.unit).ok_or_else(|| mismatch(metric, &t.unit, &t.source, unit, source))?;
                t.factors.push((unit.to_string(), f));
                f
            }
        };
        Ok((&t.unit, f))
    }
}

/// The error of samples of `metric` in units that do not convert.
pub fn mismatch(metric: &str, unit: &str, source: &str, other: &str, other_source: &str) -> Error {
    let shown = |u: &str| if u.is_empty() { "no unit".to_string() } else { format!("'{u}'") };
    Error::domain(format!(
        "metric '{metric}': samples in {} ({other_source}) cannot be compared with samples in {} ({source}): \
         the units measure different things (schedlab converts time and byte units, docs/readers.md §12)",
        shown(other),
        shown(unit)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_and_bytes_convert_words_must_match() {
        assert_eq!(factor("ns", "s"), Some(1e-9));
        assert_eq!(factor("s", "ns"), Some(1e9));
        assert_eq!(factor("ns/op", "sec/op"), Some(1e-9));
        assert_eq!(factor("MB/s", "B/s"), Some(1e6));
        assert_eq!(factor("KiB/s", "B/s"), Some(1024.0));
        assert_eq!(factor("/ms", "/s"), Some(1e3));
        assert_eq!(factor("msec", "usec"), Some(1e3));
        assert_eq!(factor("s", "B"), None);
        assert_eq!(factor("ns/op", "ns/call"), None);
        assert_eq!(factor("ops/s", "/s"), None);
        assert_eq!(factor("widgets", "gadgets"), None);
        assert_eq!(factor("", ""), Some(1.0));
    }

    #[test]
    fn first_unit_wins_and_mismatch_names_both_sources() {
        let mut r = Reconcile::default();
        assert_eq!(r.take("m", "s", "a.json").unwrap(), ("s", 1.0));
        assert_eq!(r.take("m", "ns", "b.json").unwrap(), ("s", 1e-9));
        let e = r.take("m", "B", "c.json").unwrap_err().to_string();
        assert!(e.contains("'B' (c.json)") && e.contains("'s' (a.json)"), "{e}");
        assert_eq!(r.take("other", "B", "c.json").unwrap(), ("B", 1.0));
    }
}
