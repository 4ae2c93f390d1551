//! The Ruby string and number behaviour lkp-tests' parsers rely on: `String#split`
//! (awk mode), `String#to_f`/`to_i`, `Float#round(n)`, regular expressions with Ruby's
//! line anchors, and insertion-ordered `Hash.new(0)` tallies.

use crate::error::{Error, Result};
use regex::Regex;
use std::collections::HashMap;

/// Ruby's whitespace (`isspace`).
const SPACE: [char; 6] = [' ', '\t', '\n', '\x0b', '\x0c', '\r'];

/// Ruby's awk-mode `String#split`: fields separated by runs of space, `\t`, `\n`,
/// `\v`, `\f`, `\r`; leading and trailing separators ignored.
pub fn split(s: &str) -> Vec<&str> {
    s.split(SPACE).filter(|f| !f.is_empty()).collect()
}

/// Ruby `String#split(sep)` with a one-character separator: trailing empty fields dropped.
pub fn split_on(s: &str, sep: char) -> Vec<&str> {
    let mut v: Vec<&str> = s.split(sep).collect();
    while v.last().is_some_and(|f| f.is_empty()) {
        v.pop();
    }
    v
}

fn digits_end(b: &[u8], mut i: usize) -> usize {
    // digits with single underscores between them, as Ruby's number literals
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
        if b.get(i) == Some(&b'_') && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
    }
    i
}

/// Ruby `String#to_f`: the longest leading decimal float (leading whitespace, sign,
/// digits, fraction, exponent), 0.0 if there is none.
pub fn to_f(s: &str) -> f64 {
    let s = s.trim_start_matches(SPACE);
    let b = s.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let int_end = digits_end(b, i);
    let mut end = int_end;
    if b.get(end) == Some(&b'.') && b.get(end + 1).is_some_and(u8::is_ascii_digit) {
        end = digits_end(b, end + 1);
    }
    if end == i {
        return 0.0;
    }
    if matches!(b.get(end), Some(b'e' | b'E')) {
        let mut e = end + 1;
        if matches!(b.get(e), Some(b'+' | b'-')) {
            e += 1;
        }
        let e_end = digits_end(b, e);
        if e_end > e {
            end = e_end;
        }
    }
    i = end;
    // only ASCII bytes were passed, so `i` is a char boundary
    s.get(..i).map_or(0.0, |n| n.replace('_', "").parse().unwrap_or(0.0))
}

/// Ruby `String#to_i`: the leading decimal integer, 0 if there is none (saturating
/// beyond i64, where Ruby would grow a Bignum).
pub fn to_i(s: &str) -> i64 {
    let s = s.trim_start_matches(SPACE);
    let b = s.as_bytes();
    let sign = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let end = digits_end(b, sign);
    if end == sign {
        return 0;
    }
    let neg = b.first() == Some(&b'-');
    let digits = s.get(sign..end).unwrap_or("").replace('_', "");
    match digits.parse::<i64>() {
        Ok(v) if neg => -v,
        Ok(v) => v,
        Err(_) if neg => i64::MIN,
        Err(_) => i64::MAX,
    }
}

/// The binary exponent of C `frexp`: `x = m·2^e` with `0.5 ≤ |m| < 1`.
fn frexp_exp(x: f64) -> i32 {
    let bits = x.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    if biased == 0 {
        // subnormal: scale into the normal range first
        let y = x * f64::from_bits(0x4350_0000_0000_0000); // 2^54
        return ((((y.to_bits() >> 52) & 0x7ff) as i32) - 1022) - 54;
    }
    biased - 1022
}

/// Ruby `Float#round(ndigits)` for `1 ≤ ndigits ≤ 14` (float.c `flo_round` with
/// `round_half_up`): unchanged when the digits are beyond the float's precision, 0 for
/// a positive number below them, else `round_half_up(x, 10^n) / 10^n`.
pub fn round(x: f64, ndigits: i32) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let binexp = frexp_exp(x);
    let float_dig = 17;
    if ndigits >= float_dig - (if binexp > 0 { binexp / 4 } else { binexp / 3 - 1 }) {
        return x;
    }
    if x > 0.0 && ndigits < -(if binexp > 0 { binexp / 3 + 1 } else { binexp / 4 }) {
        return 0.0;
    }
    let s = 10f64.powi(ndigits);
    let mut f = (x * s).round();
    if x > 0.0 {
        if (f + 0.5) / s <= x {
            f += 1.0;
        }
    } else if (f - 0.5) / s >= x {
        f -= 1.0;
    }
    f / s
}

/// A Ruby regular expression literal as a [`Regex`]: `^`/`$` match at line boundaries
/// and `\d`, `\w`, `\s`, `\h` (and their negations) are ASCII classes, as in Ruby
/// (the regex crate's are Unicode). Patterns are built-in constants; a bad one is a bug.
pub fn re(pattern: &str) -> Regex {
    let p = ascii_classes(pattern);
    Regex::new(&format!("(?m){p}")).unwrap_or_else(|e| panic!("schedlab bug: built-in pattern {pattern}: {e}"))
}

/// `pattern` with Ruby's ASCII shorthand classes spelled as the regex crate's ASCII
/// classes: `\d` → `[[:digit:]]` (inside a bracket class `[:digit:]`), and so on.
/// (`\b` stays: Ruby's word boundary is Unicode's, as the regex crate's.)
fn ascii_classes(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() + 16);
    let mut depth = 0usize;
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let Some(n) = chars.next() else {
                    out.push(c);
                    break;
                };
                let class = match n {
                    'd' => Some("[:digit:]"),
                    'D' => Some("[:^digit:]"),
                    'w' => Some("[:word:]"),
                    'W' => Some("[:^word:]"),
                    's' => Some("[:space:]"),
                    'S' => Some("[:^space:]"),
                    'h' => Some("[:xdigit:]"),
                    'H' => Some("[:^xdigit:]"),
                    _ => None,
                };
                match (class, n) {
                    (Some(k), _) if depth > 0 => out.push_str(k),
                    (Some(k), _) => {
                        out.push('[');
                        out.push_str(k);
                        out.push(']');
                    }
                    _ => {
                        out.push(c);
                        out.push(n);
                    }
                }
            }
            '[' => {
                out.push(c);
                depth += 1;
                if chars.peek() == Some(&'^') {
                    out.extend(chars.next());
                }
            }
            ']' if depth > 0 => {
                out.push(c);
                depth -= 1;
            }
            _ => out.push(c),
        }
    }
    out
}

/// The lines of `text` as Ruby's `gets` returns them: each with its `\n` (the last
/// one may lack it).
pub fn lines(text: &str) -> impl Iterator<Item = &str> {
    text.split_inclusive('\n')
}

/// Capture group `i` of a match, `""` when it did not take part.
pub fn group<'t>(c: &regex::Captures<'t>, i: usize) -> &'t str {
    c.get(i).map_or("", |m| m.as_str())
}

/// `Hash.new(0)` of Floats: insertion-ordered sums with a default of 0.
#[derive(Debug, Default, Clone)]
pub struct Tally {
    keys: Vec<String>,
    values: Vec<f64>,
    index: HashMap<String, usize>,
}

impl Tally {
    /// `h[key] += v`.
    pub fn add(&mut self, key: &str, v: f64) {
        match self.index.get(key).and_then(|&i| self.values.get_mut(i)) {
            Some(slot) => *slot += v,
            None => {
                self.index.insert(key.to_string(), self.keys.len());
                self.keys.push(key.to_string());
                self.values.push(v);
            }
        }
    }

    /// `h[key]` (0 when absent).
    pub fn get(&self, key: &str) -> f64 {
        self.index.get(key).and_then(|&i| self.values.get(i)).copied().unwrap_or(0.0)
    }

    /// `h.key?(key)`.
    pub fn contains(&self, key: &str) -> bool {
        self.index.contains_key(key)
    }

    /// `h.empty?`.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// `h.each`, in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, f64)> {
        self.keys.iter().map(String::as_str).zip(self.values.iter().copied())
    }

    /// `h.clear`.
    pub fn clear(&mut self) {
        self.keys.clear();
        self.values.clear();
        self.index.clear();
    }
}

/// `Hash` with insertion order: a key set again keeps its first place (`h[k] = v`).
#[derive(Debug, Clone)]
pub struct Hash<V> {
    entries: Vec<(String, V)>,
    index: HashMap<String, usize>,
}

impl<V> Default for Hash<V> {
    fn default() -> Self {
        Hash { entries: Vec::new(), index: HashMap::new() }
    }
}

impl<V> Hash<V> {
    /// `h[key] = v`.
    pub fn set(&mut self, key: &str, v: V) {
        match self.index.get(key).and_then(|&i| self.entries.get_mut(i)) {
            Some(slot) => slot.1 = v,
            None => {
                self.index.insert(key.to_string(), self.entries.len());
                self.entries.push((key.to_string(), v));
            }
        }
    }

    /// `h[key]` of a Hash whose default block stores `default()` (`Hash.new { |h, k| h[k] = … }`);
    /// always Some.
    pub fn entry(&mut self, key: &str, default: impl FnOnce() -> V) -> Option<&mut V> {
        let i = match self.index.get(key) {
            Some(&i) => i,
            None => {
                self.index.insert(key.to_string(), self.entries.len());
                self.entries.push((key.to_string(), default()));
                self.entries.len() - 1
            }
        };
        self.entries.get_mut(i).map(|e| &mut e.1)
    }

    /// `h[key]` (None when absent).
    pub fn get(&self, key: &str) -> Option<&V> {
        self.index.get(key).and_then(|&i| self.entries.get(i)).map(|e| &e.1)
    }

    /// `h.key?(key)`.
    pub fn contains(&self, key: &str) -> bool {
        self.index.contains_key(key)
    }

    /// `h.empty?`.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// `h.each`, in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &V)> {
        self.entries.iter().map(|(k, v)| (k.as_str(), v))
    }
}

/// Ruby `puts s` into `out`: `s` and a newline unless `s` already ends with one.
pub fn puts(out: &mut String, s: &str) {
    out.push_str(s);
    if !s.ends_with('\n') {
        out.push('\n');
    }
}

/// Ruby's `strip` set: whitespace and NUL (Ruby 3.1 strips NUL at both ends).
const STRIP: [char; 7] = ['\0', ' ', '\t', '\n', '\x0b', '\x0c', '\r'];

/// Ruby `String#strip`.
pub fn strip(s: &str) -> &str {
    s.trim_matches(STRIP)
}

/// Ruby `String#lstrip`.
pub fn lstrip(s: &str) -> &str {
    s.trim_start_matches(STRIP)
}

/// Ruby `String#chomp`: one trailing `\r\n`, `\n` or `\r` removed.
pub fn chomp(s: &str) -> &str {
    chomp_bang(s).unwrap_or(s)
}

/// Ruby `String#chomp!`: the chomped string, None (Ruby's nil) when nothing was removed.
pub fn chomp_bang(s: &str) -> Option<&str> {
    s.strip_suffix("\r\n").or_else(|| s.strip_suffix('\n')).or_else(|| s.strip_suffix('\r'))
}

/// Ruby `String#downcase`: each character's full lower-case mapping, without
/// context (Ruby maps a final capital sigma to σ, as the character mapping does).
pub fn downcase(s: &str) -> String {
    s.chars().flat_map(char::to_lowercase).collect()
}

/// Ruby `Array#[i]` with a negative `i` counting from the end.
pub fn at<T>(v: &[T], i: i64) -> Option<&T> {
    let i = if i < 0 { i.checked_add(i64::try_from(v.len()).ok()?)? } else { i };
    v.get(usize::try_from(i).ok()?)
}

/// Ruby `String#to_i` of a number a parser goes on computing with: an error naming
/// `path` and `line` beyond 64 bits, where Ruby would go on with an exact Bignum.
pub fn int(s: &str, path: &str, line: usize) -> Result<i64> {
    let t = s.trim_start_matches(SPACE);
    let b = t.as_bytes();
    let sign = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let end = digits_end(b, sign);
    if end == sign {
        return Ok(0);
    }
    let text = t.get(..end).unwrap_or("").replace('_', "");
    text.parse::<i64>().map_err(|_| bad_line(path, line, format!("{text} is beyond 64-bit integers")))
}

/// The error of a parser line lkp's Ruby would raise on: `path`, 1-based `line`, `msg`.
pub fn bad_line(path: &str, line: usize, msg: impl Into<String>) -> Error {
    Error::parse(Some(path), Some(line), msg)
}

/// `Result` of a parser: its `key: value` lines.
pub type Lines = Result<String>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn to_f_and_to_i_as_ruby() {
        // Ruby 3.1: "1.5e3x".to_f = 1500.0, " -2.5".to_f = -2.5, "1_000.5".to_f = 1000.5,
        // ".5".to_f = 0.5, "5.".to_f = 5.0, "1e".to_f = 1.0, "1e5_0".to_f = 1e50, "1.e5".to_f = 1.0
        assert_eq!(to_f("1.5e3x"), 1500.0);
        assert_eq!(to_f(" -2.5"), -2.5);
        assert_eq!(to_f("1_000.5"), 1000.5);
        assert_eq!(to_f("5."), 5.0);
        assert_eq!(to_f("1e"), 1.0);
        assert_eq!(to_f(".5"), 0.5);
        assert_eq!(to_f("1e5_0"), 1e50);
        assert_eq!(to_f("1.e5"), 1.0);
        assert_eq!(to_f("<not counted>"), 0.0);
        assert_eq!(to_i("42 lps"), 42);
        assert_eq!(to_i("-7x"), -7);
        assert_eq!(to_i("x"), 0);
    }

    #[test]
    fn round_as_ruby() {
        // Ruby 3.1: 2.675.round(2) = 2.68 (round_half_up's correction), 1.005.round(2) = 1.01,
        // 0.125.round(2) = 0.13, -0.125.round(2) = -0.13, 1e20.round(2) = 1e20, 0.0001.round(2) = 0.0
        assert_eq!(round(2.675, 2), 2.68);
        assert_eq!(round(1.005, 2), 1.01);
        assert_eq!(round(0.125, 2), 0.13);
        assert_eq!(round(-0.125, 2), -0.13);
        assert_eq!(round(1e20, 2), 1e20);
        assert_eq!(round(0.0001, 2), 0.0);
    }

    #[test]
    fn shorthand_classes_are_ascii_as_in_ruby() {
        assert_eq!(
            ascii_classes(r"(\d+)\s*[\d.]+\w[^\d+]"),
            r"([[:digit:]]+)[[:space:]]*[[:digit:].]+[[:word:]][^[:digit:]+]"
        );
        assert_eq!(ascii_classes(r"\bx\.\(\)[\]a]\\d"), r"\bx\.\(\)[\]a]\\d");
        // Ruby 3.1: "\u0663" =~ /\d/ is nil, "\u00e9" =~ /\w/ is nil
        assert!(!re(r"\d").is_match("\u{663}"));
        assert!(!re(r"\w").is_match("\u{e9}"));
        assert!(re(r"^\d+$").is_match("x\n42\n"));
        // Ruby 3.1: "\u2003" =~ /\s/ is nil, but "a\u00e9" =~ /a\b/ is nil too (its \b is
        // Unicode's), and " \u00e9" =~ /\b/ is 1
        assert!(!re(r"\s").is_match("\u{2003}"));
        assert!(!re(r"a\b").is_match("a\u{e9}") && re(r"\b").find(" \u{e9}").map(|m| m.start()) == Some(1));
    }

    #[test]
    fn split_as_ruby() {
        assert_eq!(split("  a \tb\x0bc\n"), ["a", "b", "c"]);
        assert_eq!(split_on("a,,b,,", ','), ["a", "", "b"]);
        assert_eq!(split_on("a,b,\n", ','), ["a", "b", "\n"]);
    }
}
