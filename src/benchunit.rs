//! Go's benchmark unit conventions (golang.org/x/perf/benchunit), which the Go
//! benchmark reader and the benchstat view follow (docs/benchstat.md §2):
//!
//! - a unit is read as tokens: `/` starts the denominator, `*` returns to the
//!   numerator, `-` and white space separate;
//! - **tidying**: `ns` in the numerator becomes `sec` (× 1e-9) and `MB` becomes `B`
//!   (× 1e6): `ns/op` → `sec/op`, `MB/s` → `B/s`, `ns/GC` → `sec/GC`;
//! - **class**: a unit with `B`, `MB` or `bytes` in its numerator is scaled by powers
//!   of two (`Ki`, `Mi`, ...), any other by SI prefixes;
//! - **scaling**: a group of numbers is printed with the one prefix and number of
//!   decimals that shows the smallest non-zero magnitude with four significant
//!   digits (`CommonScale`).

/// The tokens of `unit`: each with its byte offset and whether it is in the
/// denominator (benchunit's parser).
fn tokens(unit: &str) -> Vec<(usize, &str, bool)> {
    let mut out = Vec::new();
    let mut denom = false;
    let mut start: Option<usize> = None;
    let sep = |c: char| c == '*' || c == '/' || c == '-' || c.is_whitespace();
    for (i, c) in unit.char_indices() {
        if sep(c) {
            if let Some(s) = start.take() {
                out.push((s, unit.get(s..i).unwrap_or(""), denom));
            }
            if c == '*' {
                denom = false;
            } else if c == '/' {
                denom = true;
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push((s, unit.get(s..).unwrap_or(""), denom));
    }
    out
}

/// The tidied unit and the factor that tidies a value in `unit` (benchunit's `Tidy`).
pub fn tidy(unit: &str) -> (String, f64) {
    match unit {
        "ns/op" => return ("sec/op".into(), 1e-9),
        "MB/s" => return ("B/s".into(), 1e6),
        "B/op" | "allocs/op" => return (unit.into(), 1.0),
        _ => {}
    }
    if !(unit.contains("ns") || unit.contains("MB")) {
        return (unit.into(), 1.0);
    }
    let mut factor = 1.0;
    let mut edits: Vec<(usize, usize, &str)> = Vec::new();
    for (pos, tok, denom) in tokens(unit) {
        if denom {
            continue;
        }
        match tok {
            "ns" => {
                edits.push((pos, 2, "sec"));
                factor /= 1e9;
            }
            "MB" => {
                edits.push((pos, 2, "B"));
                factor *= 1e6;
            }
            _ => {}
        }
    }
    let mut out = unit.to_string();
    for (pos, len, with) in edits.into_iter().rev() {
        out.replace_range(pos..pos + len, with);
    }
    (out, factor)
}

/// Whether numbers in `unit` are scaled by powers of two (benchunit's `ClassOf`:
/// `B`, `MB` or `bytes` in the numerator).
pub fn binary(unit: &str) -> bool {
    tokens(unit).iter().any(|(_, t, denom)| !denom && matches!(*t, "B" | "MB" | "bytes"))
}

/// How a group of numbers is printed: decimals, divisor and prefix (benchunit's `Scaler`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scale {
    /// Digits after the decimal point.
    pub decimals: usize,
    /// The value of one prefix (1000 for `k`).
    pub factor: f64,
    /// The prefix (`k`, `Mi`, `µ`, ...).
    pub prefix: &'static str,
}

/// The SI prefixes, largest first, with their powers of ten.
const SI: [(&str, i32); 8] = [("T", 12), ("G", 9), ("M", 6), ("k", 3), ("", 0), ("m", -3), ("µ", -6), ("n", -9)];
/// The IEC prefixes, largest first, with their powers of two.
const IEC: [(&str, i32); 5] = [("Ti", 40), ("Gi", 30), ("Mi", 20), ("Ki", 10), ("", 0)];

/// A decimal literal read as Go's `strconv.ParseFloat` reads it (correctly rounded).
fn literal(s: &str) -> f64 {
    s.parse().unwrap_or(f64::INFINITY)
}

impl Scale {
    /// benchunit's `CommonScale`: the prefix and decimals that print the smallest
    /// non-zero magnitude of `values` with four significant digits (more decimals,
    /// up to ten, below the smallest prefix); three decimals when every value is 0.
    pub fn common(values: &[f64], binary: bool) -> Scale {
        let mut min = 0.0f64;
        for v in values {
            let v = v.abs();
            if v != 0.0 && (min == 0.0 || v < min) {
                min = v;
            }
        }
        if min == 0.0 {
            return Scale { decimals: 3, factor: 1.0, prefix: "" };
        }
        // (factor, prefix, the thresholds of 99.995, 9.9995 and .99995 of that prefix)
        let factors: Vec<(f64, &'static str, [f64; 3])> = if binary {
            IEC.iter()
                .map(|(p, e)| (2f64.powi(*e), *p, [99.995, 9.9995, 0.99995].map(|t: f64| t * 2f64.powi(*e))))
                .collect()
        } else {
            SI.iter()
                .map(|(p, e)| {
                    let t = [format!("99.995e{e}"), format!("9.9995e{e}"), format!(".99995e{e}")];
                    (10f64.powi(*e), *p, t.map(|s| literal(&s)))
                })
                .collect()
        };
        for (factor, prefix, [t100, t10, t1]) in &factors {
            let decimals = if min >= *t100 {
                1
            } else if min >= *t10 {
                2
            } else if min >= *t1 {
                3
            } else {
                continue;
            };
            return Scale { decimals, factor: *factor, prefix };
        }
        let (factor, prefix) = factors.last().map_or((1.0, ""), |(f, p, _)| (*f, *p));
        let v = min / factor;
        let decimals = (1..=7).find(|i| v >= literal(&format!("9.9995e-{i}"))).map_or(10, |i| i + 2);
        Scale { decimals, factor, prefix }
    }

    /// `v` divided by the factor, with the decimals, then the prefix.
    pub fn format(&self, v: f64) -> String {
        format!("{:.*}{}", self.decimals, v / self.factor, self.prefix)
    }
}

/// benchunit's `Scale`: one number with its own [`Scale::common`].
pub fn scale(v: f64, binary: bool) -> String {
    Scale::common(&[v], binary).format(v)
}

#[cfg(test)]
mod tests {
    //! benchunit's own expectations (benchunit/tidy_test.go, scale_test.go, parse_test.go).
    use super::*;

    #[test]
    fn tidy_as_benchunit() {
        for (unit, want, factor) in [
            ("ns/op", "sec/op", 1e-9),
            ("x-ns/op", "x-sec/op", 1e-9),
            ("MB/s", "B/s", 1e6),
            ("x-MB/s", "x-B/s", 1e6),
            ("B/op", "B/op", 1.0),
            ("x-B/op", "x-B/op", 1.0),
            ("x-allocs/op", "x-allocs/op", 1.0),
            ("op/ns", "op/ns", 1.0),
            ("MB*MB/s", "B*B/s", 1e6 * 1e6),
            ("MB/MB", "B/MB", 1e6),
        ] {
            let (u, f) = tidy(unit);
            assert_eq!((u.as_str(), f), (want, factor), "{unit}");
        }
    }

    #[test]
    fn class_as_benchunit() {
        for (unit, want) in [
            ("ns/op", false),
            ("sec/op", false),
            ("sec/B", false),
            ("sec/B/B", false),
            ("sec/disk-B", false),
            ("B/op", true),
            ("bytes/op", true),
            ("B/s", true),
            ("B/sec", true),
            ("sec/B*B", true),
            ("disk-B/sec", true),
        ] {
            assert_eq!(binary(unit), want, "{unit}");
        }
    }

    /// The next double towards 0 (Go's `math.Nextafter(x, 0)`), or away from it.
    fn toward_zero(x: f64) -> f64 {
        if x == 0.0 {
            x
        } else {
            f64::from_bits(x.to_bits() - 1)
        }
    }

    fn up(x: f64) -> f64 {
        f64::from_bits(x.to_bits() + 1)
    }

    #[test]
    fn scale_as_benchunit() {
        let p = |e: i32| 2f64.powi(e);
        let decimal: Vec<(f64, &str, &str)> = vec![
            (0.0, "0.000", "0.000"),
            (1.0, "1.000", "1.000"),
            (-1.0, "-1.000", "-1.000"),
            (9999500000000000.0, "9999.5T", "9999.5T"),
            (999950000000000.0, "1000.0T", "999.9T"),
            (99995000000000.0, "100.0T", "99.99T"),
            (9999500000000.0, "10.00T", "9.999T"),
            (999950000000.0, "1.000T", "999.9G"),
            (99995000000.0, "100.0G", "99.99G"),
            (9999500000.0, "10.00G", "9.999G"),
            (999950000.0, "1.000G", "999.9M"),
            (99995000.0, "100.0M", "99.99M"),
            (9999500.0, "10.00M", "9.999M"),
            (999950.0, "1.000M", "999.9k"),
            (99995.0, "100.0k", "99.99k"),
            (9999.5, "10.00k", "9.999k"),
            (999.95, "1.000k", "999.9"),
            (99.995, "100.0", "99.99"),
            (9.9995, "10.00", "9.999"),
            (0.99995, "1.000", "999.9m"),
            (0.099995, "100.0m", "99.99m"),
            (0.0099995, "10.00m", "9.999m"),
            (0.00099995, "1.000m", "999.9µ"),
            (0.000099995, "100.0µ", "99.99µ"),
            (0.0000099995, "10.00µ", "9.999µ"),
            (0.00000099995, "1.000µ", "999.9n"),
            (0.000000099995, "100.0n", "99.99n"),
            (0.0000000099995, "10.00n", "9.999n"),
            (0.00000000099995, "1.000n", "0.9999n"),
            (up(0.000000000099995), "0.1000n", "0.09999n"),
            (0.0000000000099995, "0.01000n", "0.009999n"),
            (up(0.00000000000099995), "0.001000n", "0.0009999n"),
            (0.000000000000099995, "0.0001000n", "0.00009999n"),
            (0.0000000000000099995, "0.00001000n", "0.000009999n"),
            (up(0.00000000000000099995), "0.000001000n", "0.0000009999n"),
            (-99995000000000.0, "-100.0T", "-99.99T"),
            (-0.0000000099995, "-10.00n", "-9.999n"),
        ];
        for (v, want, pred) in decimal {
            assert_eq!(scale(v, false), want, "{v}");
            assert_eq!(scale(toward_zero(v), false), pred, "{v}-ε");
        }
        let binary: Vec<(f64, &str, &str)> = vec![
            (0.0, "0.000", "0.000"),
            (1.0, "1.000", "1.000"),
            (-1.0, "-1.000", "-1.000"),
            (0.99995 * p(50), "1023.9Ti", "1023.9Ti"),
            (99.995 * p(40), "100.0Ti", "99.99Ti"),
            (9.9995 * p(40), "10.00Ti", "9.999Ti"),
            (0.99995 * p(40), "1.000Ti", "1023.9Gi"),
            (99.995 * p(30), "100.0Gi", "99.99Gi"),
            (9.9995 * p(30), "10.00Gi", "9.999Gi"),
            (0.99995 * p(30), "1.000Gi", "1023.9Mi"),
            (99.995 * p(20), "100.0Mi", "99.99Mi"),
            (9.9995 * p(20), "10.00Mi", "9.999Mi"),
            (0.99995 * p(20), "1.000Mi", "1023.9Ki"),
            (99.995 * p(10), "100.0Ki", "99.99Ki"),
            (9.9995 * p(10), "10.00Ki", "9.999Ki"),
            (0.99995 * p(10), "1.000Ki", "1023.9"),
            (99.995, "100.0", "99.99"),
            (9.9995, "10.00", "9.999"),
            (0.99995, "1.000", "0.9999"),
            (0.099995, "0.1000", "0.09999"),
            (0.0099995, "0.01000", "0.009999"),
            (0.00099995, "0.001000", "0.0009999"),
            (0.000099995, "0.0001000", "0.00009999"),
            (0.0000099995, "0.00001000", "0.000009999"),
            (0.00000099995, "0.000001000", "0.0000009999"),
            (0.00000009995, "0.0000001000", "0.0000000999"),
            (up(0.00000000995), "0.0000000100", "0.0000000099"),
            (0.00000000095, "0.0000000010", "0.0000000009"),
            (0.00000000005, "0.0000000001", "0.0000000000"),
            (0.000000000009, "0.0000000000", "0.0000000000"),
        ];
        for (v, want, pred) in binary {
            assert_eq!(scale(v, true), want, "{v}");
            assert_eq!(scale(toward_zero(v), true), pred, "{v}-ε");
        }
    }
}
