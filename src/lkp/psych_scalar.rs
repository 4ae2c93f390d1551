//! A YAML scalar as lkp-tests sees it: Ruby's Psych (YAML 1.1) types a plain scalar by
//! its text (`Psych::ScalarScanner#tokenize`), and lkp prints the Ruby value with `to_s`.
//!
//! A YAML 1.2 reader would keep `yes`, `on`, `0x10`, `1:30` or `2020-1-2` as text, or
//! read `1e15` as a number; Psych makes them `true`, `true`, `16`, `5400`, the date
//! `2020-01-02` and the string `1e15`. This module gives the text Ruby prints for each
//! (docs/lkp.md, "job.yaml").

use std::sync::OnceLock;

use regex::Regex;

use super::rubyfmt::float_to_s;

/// A scalar's Ruby value, as far as lkp's job handling tells values apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RubyScalar {
    /// `nil` (empty, `~`, `null`).
    Nil,
    /// `false` (`false`, `no`, `off` in any case).
    False,
    /// A Symbol (`:name`): its name, which `to_s` prints.
    Symbol(String),
    /// Any other value, as Ruby's `to_s` prints it (`true`, integers, floats, dates, strings).
    Text(String),
}

impl RubyScalar {
    /// The text `to_s` gives (`nil` → "", `false` → "false").
    pub fn to_s(&self) -> &str {
        match self {
            RubyScalar::Nil => "",
            RubyScalar::False => "false",
            RubyScalar::Symbol(s) | RubyScalar::Text(s) => s,
        }
    }
}

fn re(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pattern).unwrap_or_else(|e| panic!("schedlab bug: built-in pattern {pattern}: {e}")))
}

macro_rules! pattern {
    ($name:ident, $p:expr) => {
        fn $name() -> &'static Regex {
            static R: OnceLock<Regex> = OnceLock::new();
            re(&R, $p)
        }
    };
}

// Psych 4's patterns (lib/psych/scalar_scanner.rb), anchored as Ruby's ^/$ anchor a one-line string.
// [[:alpha:]] as letters: word characters that are not digits (the crate's Perl classes)
pattern!(word_like, r"^[^\d.:\-]?(?:[^\W\d]|[_\s!@#$%\^&*(){}<>|/\\~;=])+");
pattern!(time, r"^-?\d{4}-\d{1,2}-\d{1,2}(?:[Tt]|\s+)\d{1,2}:\d\d:\d\d(?:\.\d*)?(?:\s*(?:Z|[-+]\d{1,2}:?(?:\d\d)?))?$");
pattern!(date, r"^(\d{4})-(1[012]|0\d|\d)-([12]\d|3[01]|0\d|\d)$");
pattern!(sexagesimal_int, r"^[-+]?[0-9][0-9_]*(:[0-5]?[0-9]){1,2}$");
pattern!(sexagesimal_float, r"^[-+]?[0-9][0-9_]*(:[0-5]?[0-9]){1,2}\.[0-9_]*$");
pattern!(float, r"^[-+]?([0-9][0-9_,]*)?\.[0-9]*([eE][-+][0-9]+)?$");
pattern!(
    integer,
    r"^(?:[-+]?0b[0-1_,]+|[-+]?0[0-7_,]+|[-+]?(?:0|[1-9](?:[0-9]|,[0-9]|_[0-9])*)|[-+]?0x[0-9a-fA-F_,]+)$"
);
pattern!(float_cleanup, r"[,_]|\.([Ee]|$)");

/// The Ruby value of a plain (unquoted, untagged) scalar, after `Psych::ScalarScanner#tokenize`.
pub fn plain(s: &str) -> RubyScalar {
    if s.is_empty() {
        return RubyScalar::Nil;
    }
    if word_like().is_match(s) || s.contains('\n') {
        return word(s);
    }
    if time().is_match(s) {
        // a Ruby Time prints in the machine's zone; kept as written
        return RubyScalar::Text(s.to_string());
    }
    if let Some(c) = date().captures(s) {
        let num = |i: usize| c.get(i).and_then(|m| m.as_str().parse::<u32>().ok()).unwrap_or(0);
        let (y, m, d) = (num(1), num(2), num(3));
        return if valid_date(y, m, d) {
            RubyScalar::Text(format!("{y:04}-{m:02}-{d:02}"))
        } else {
            RubyScalar::Text(s.to_string())
        };
    }
    let lower = s.to_ascii_lowercase();
    match lower.as_str() {
        ".inf" | "+.inf" => return RubyScalar::Text("Infinity".into()),
        "-.inf" => return RubyScalar::Text("-Infinity".into()),
        ".nan" => return RubyScalar::Text("NaN".into()),
        _ => {}
    }
    if let Some(name) = s.strip_prefix(':').filter(|n| !n.is_empty()) {
        let unquoted = ['"', '\''].iter().find_map(|&q| {
            let inner = name.strip_prefix(q)?;
            inner.find(q).and_then(|end| inner.get(..end))
        });
        return RubyScalar::Symbol(unquoted.map(|u| u.strip_prefix(':').unwrap_or(u)).unwrap_or(name).to_string());
    }
    if sexagesimal_int().is_match(s) {
        return base60(s, |p| ruby_to_i(p) as f64).map_or_else(|| RubyScalar::Text(s.into()), |v| int_text(v as i128));
    }
    if sexagesimal_float().is_match(s) {
        return base60(s, ruby_to_f).map_or_else(|| RubyScalar::Text(s.into()), |v| RubyScalar::Text(float_to_s(v)));
    }
    if float().is_match(s) {
        if matches!(s, "." | "-." | "+.") {
            return RubyScalar::Text(s.to_string());
        }
        let cleaned = float_cleanup().replace_all(s, "$1");
        return match cleaned.parse::<f64>() {
            Ok(v) => RubyScalar::Text(float_to_s(v)),
            Err(_) => RubyScalar::Text(s.to_string()),
        };
    }
    if integer().is_match(s) {
        let cleaned: String = s.chars().filter(|&c| c != ',' && c != '_').collect();
        return parse_int(&cleaned).map_or_else(|| RubyScalar::Text(s.to_string()), int_text);
    }
    RubyScalar::Text(s.to_string())
}

/// Short words that Psych reads as nil or a boolean; every other word-like text is a string.
fn word(s: &str) -> RubyScalar {
    if s.chars().count() > 5 {
        return RubyScalar::Text(s.to_string());
    }
    match s.to_ascii_lowercase().as_str() {
        "~" | "null" => RubyScalar::Nil,
        "yes" | "true" | "on" => RubyScalar::Text("true".into()),
        "no" | "false" | "off" => RubyScalar::False,
        _ => RubyScalar::Text(s.to_string()),
    }
}

fn int_text(v: i128) -> RubyScalar {
    RubyScalar::Text(v.to_string())
}

/// Ruby `Integer(text)` on a cleaned literal: 0b/0/0x prefixes; `None` where Ruby raises
/// or the value exceeds 128 bits.
fn parse_int(t: &str) -> Option<i128> {
    let (neg, body) = match t.as_bytes().first() {
        Some(b'-') => (true, t.get(1..)?),
        Some(b'+') => (false, t.get(1..)?),
        _ => (false, t),
    };
    let v = if let Some(b) = body.strip_prefix("0b") {
        i128::from_str_radix(b, 2).ok()?
    } else if let Some(h) = body.strip_prefix("0x") {
        i128::from_str_radix(h, 16).ok()?
    } else if body.len() > 1 && body.starts_with('0') {
        i128::from_str_radix(body.get(1..)?, 8).ok()?
    } else {
        body.parse::<i128>().ok()?
    };
    Some(if neg { -v } else { v })
}

/// Psych's base-60 sum: part `e` of the `:`-split text weighs `60 ** |e - 2|`.
fn base60(s: &str, value: impl Fn(&str) -> f64) -> Option<f64> {
    let mut sum = 0.0;
    for (e, part) in s.split(':').enumerate() {
        let weight = 60f64.powi((e as i32 - 2).abs());
        sum += value(part) * weight;
    }
    sum.is_finite().then_some(sum)
}

/// Ruby `String#to_i`: the leading integer (underscores between digits allowed), else 0.
fn ruby_to_i(p: &str) -> i64 {
    let digits: String = p.chars().filter(|&c| c != '_').collect();
    digits.parse().unwrap_or(0)
}

/// Ruby `String#to_f` on a base-60 part (digits, underscores, one dot).
fn ruby_to_f(p: &str) -> f64 {
    let digits: String = p.chars().filter(|&c| c != '_').collect();
    let digits = digits.strip_suffix('.').unwrap_or(&digits);
    digits.parse().unwrap_or(0.0)
}

/// Whether `y-m-d` is a date of the proleptic Gregorian calendar (Ruby's `Date.strptime`).
fn valid_date(y: u32, m: u32, d: u32) -> bool {
    let leap = (y.is_multiple_of(4) && !y.is_multiple_of(100)) || y.is_multiple_of(400);
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> String {
        plain(s).to_s().to_string()
    }

    #[test]
    fn psych_types_scalars_as_ruby_prints_them() {
        // ruby 3.1.2 (psych 4.0.4): YAML.unsafe_load("k: <s>")["k"].to_s, and .class
        let cases = [
            ("1e15", "1e15"),       // String: no dot, so not Psych's FLOAT
            ("1e16", "1e16"),       // String
            ("0.0001", "0.0001"),   // Float
            ("0.00001", "1.0e-05"), // Float
            ("1.50", "1.5"),        // Float
            (".inf", "Infinity"),
            ("-.inf", "-Infinity"),
            (".NaN", "NaN"),
            ("yes", "true"),
            ("on", "true"),
            ("0x10", "16"),
            ("010", "8"),
            ("1_000", "1000"),
            ("2.5e3", "2.5e3"),   // String: the exponent needs a sign
            ("1.0e+3", "1000.0"), // Float
            ("12345678901234567890", "12345678901234567890"),
            ("1:30", "5400"), // Psych's base 60: 1*60**2 + 30*60
            ("2020-01-02", "2020-01-02"),
            ("1.0", "1.0"),
            ("100%", "100%"),
            ("30s", "30s"),
            ("x86_64-rhel-8.3", "x86_64-rhel-8.3"),
            ("-1", "-1"),
            ("1:02:03", "3723"),
            ("1:30.5", "5430.0"),
            ("1,000", "1000"),
            ("0b101", "5"),
            ("-0x1F", "-31"),
            ("1.", "1.0"),
            ("-.5", "-0.5"),
            ("0_7", "7"),
        ];
        for (s, want) in cases {
            assert_eq!(t(s), want, "{s}");
        }
        assert_eq!(plain("no"), RubyScalar::False);
        assert_eq!(plain("OFF"), RubyScalar::False);
        assert_eq!(plain("~"), RubyScalar::Nil);
        assert_eq!(plain("Null"), RubyScalar::Nil);
        assert_eq!(plain(""), RubyScalar::Nil);
        assert_eq!(plain(":sym"), RubyScalar::Symbol("sym".into()));
        // ruby 3.1.2: y, n and words over five letters are strings; 2020-02-30 is not a date
        assert_eq!(t("y"), "y");
        assert_eq!(t("nullx"), "nullx");
        assert_eq!(t("2020-02-30"), "2020-02-30");
        assert_eq!(t("2020-1-2"), "2020-01-02");
    }
}
