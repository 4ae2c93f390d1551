//! Number formatting and parsing exactly as Perl 5.36 (and R, where MMTests reads
//! R's printed output back) do it. Every byte of compare-mmtests.pl's tables goes
//! through these functions; nothing else in `mmtests` formats a number.

use crate::cfmt::c_fmt_g;

/// Perl's `sprintf("%{width}.{prec}f", v)`: C's `%f` for finite values (correctly
/// rounded, ties to even on the exact binary value), `NaN`, `Inf` and `-Inf`
/// otherwise (`+Inf` with `plus`; NaN never gets a sign). `left` is the `-` flag.
pub fn fmt_f(v: f64, width: usize, prec: usize, plus: bool, left: bool) -> String {
    let body = if v.is_nan() {
        "NaN".to_string()
    } else if v.is_infinite() {
        if v > 0.0 {
            if plus {
                "+Inf".to_string()
            } else {
                "Inf".to_string()
            }
        } else {
            "-Inf".to_string()
        }
    } else if plus && !v.is_sign_negative() {
        format!("+{v:.prec$}")
    } else {
        // C prints "-0.00" for negative zero, as Rust does.
        format!("{v:.prec$}")
    };
    pad(&body, width, left)
}

/// Perl's `sprintf("%{width}s", s)` (right-aligned) or `%-{width}s` (`left`).
pub fn pad(s: &str, width: usize, left: bool) -> String {
    let n = s.chars().count();
    if n >= width {
        return s.to_string();
    }
    let fill = " ".repeat(width - n);
    if left {
        format!("{s}{fill}")
    } else {
        format!("{fill}{s}")
    }
}

/// The value Perl holds after a number is stringified (`"$v"`, `%.15g`) and
/// numified again: `v` rounded to 15 significant digits. NaN and infinities pass.
pub fn perl_str_roundtrip(v: f64) -> f64 {
    if !v.is_finite() || v == 0.0 {
        return v;
    }
    format!("{v:.14e}").parse::<f64>().unwrap_or(v)
}

/// Perl's default stringification of a number (`%.15g`; `NaN`, `Inf`, `-Inf`).
pub fn perl_str(v: f64) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "Inf".into() } else { "-Inf".into() };
    }
    if v == 0.0 {
        return if v.is_sign_negative() { "-0".into() } else { "0".into() };
    }
    c_fmt_g(v, 15)
}

/// The number R prints for `v` with its default 7 significant digits
/// (`print(v)` in `R --slave`), parsed back as Perl reads it. R chooses fixed
/// notation when it is not wider than scientific notation; in fixed notation a
/// value of 10^7 or more keeps all its integer digits.
pub fn r_print7(v: f64) -> f64 {
    if !v.is_finite() || v == 0.0 {
        return v;
    }
    let sci = format!("{v:.6e}");
    let (mant, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let kpower: i32 = exp.parse().unwrap_or(0);
    let digits: String = mant.chars().filter(|c| c.is_ascii_digit()).collect();
    let nsig = digits.trim_end_matches('0').len().max(1) as i32;
    let neg = i32::from(v < 0.0);
    let rgt = (nsig - kpower - 1).max(0);
    let fixed_width =
        if kpower >= 0 { neg + kpower + 1 + if rgt > 0 { rgt + 1 } else { 0 } } else { neg + 1 + 1 + rgt };
    let sci_width = neg + if nsig > 1 { nsig + 1 } else { 1 } + if kpower.abs() >= 100 { 5 } else { 4 };
    let text = if fixed_width <= sci_width {
        let r = rgt as usize;
        format!("{v:.r$}")
    } else {
        sci.clone()
    };
    text.parse::<f64>().unwrap_or(v)
}

/// R's `print()` of a numeric vector with its default 7 significant digits, each
/// element read back as Perl reads the printed text (`None` is R's `NA`, which Perl
/// reads as the string "NA"). R formats the elements alike (`formatReal`): fixed notation
/// with as many decimals as the element needing most has (so a larger element may show
/// more than 7 digits), unless that is wider than scientific notation with the most
/// significant digits any element needs.
///
/// ```
/// use schedlab::mmtests::perlfmt::r_print7_all;
/// // `[1] 113.250000   2.315607`: 113.25 keeps the decimals 2.3156072 needs
/// assert_eq!(r_print7_all(&[Some(113.25), Some(2.31560723)]), [Some(113.25), Some(2.315607)]);
/// // `[1] 0.5 NA`
/// assert_eq!(r_print7_all(&[Some(0.5), None]), [Some(0.5), None]);
/// // `[1] 1.234568e+10 1.000000e-03`
/// assert_eq!(r_print7_all(&[Some(12345678901.0), Some(0.001)]), [Some(1.234568e10), Some(0.001)]);
/// ```
pub fn r_print7_all(v: &[Option<f64>]) -> Vec<Option<f64>> {
    // per finite element: (negative, significant digits at 7 digits, digits left of the point): rounding that reaches the next power of ten (99999999 → 1e+08)
    // does not widen the fixed notation, whose integer part has the digits the value has
    let parts: Vec<(bool, i32, i32)> = v
        .iter()
        .flatten()
        .filter(|x| x.is_finite())
        .map(|&x| {
            if x == 0.0 {
                return (false, 1, 1);
            }
            let sci = format!("{x:.6e}");
            let (mant, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
            let digits: String = mant.chars().filter(|c| c.is_ascii_digit()).collect();
            let kpower: i32 = exp.parse().unwrap_or(0);
            let fuzz = 0.5 / 10f64.powi((7 - kpower).clamp(0, 22));
            let widens = kpower > 0 && kpower <= 22 && x.abs() < 10f64.powi(kpower) - fuzz;
            let left = kpower + 1 - i32::from(widens);
            (x < 0.0, digits.trim_end_matches('0').len().max(1) as i32, left)
        })
        .collect();
    if parts.is_empty() {
        // nothing but NA (and non-finite values, printed as they are)
        return v.to_vec();
    }
    let neg = i32::from(parts.iter().any(|p| p.0));
    let (mut rgt, mut mxsl, mut mxns, mut mxl, mut mnl) = (i32::MIN, i32::MIN, i32::MIN, i32::MIN, i32::MAX);
    for &(n, nsig, left) in &parts {
        rgt = rgt.max(nsig - left);
        mxsl = mxsl.max(i32::from(n) + left.max(1));
        mxns = mxns.max(nsig);
        mxl = mxl.max(left);
        mnl = mnl.min(left);
    }
    if mxl < 0 {
        mxsl = 1 + neg;
    }
    let rgt = rgt.max(0);
    let fixed_width = mxsl + rgt + i32::from(rgt != 0);
    let e = if mxl > 100 || mnl <= -99 { 2 } else { 1 };
    let d = mxns - 1;
    let sci_width = neg + i32::from(d > 0) + d + 4 + e;
    let text = |x: f64| -> String {
        if fixed_width <= sci_width {
            format!("{x:.prec$}", prec = rgt as usize)
        } else {
            format!("{x:.prec$e}", prec = d.max(0) as usize)
        }
    };
    v.iter().map(|x| x.map(|x| if x.is_finite() { text(x).parse().unwrap_or(x) } else { x })).collect()
}

/// Perl's `looks_like_number` for the decimal forms log files contain
/// (leading/trailing whitespace, sign, digits, point, exponent, `Inf`/`NaN`).
pub fn looks_like_number(s: &str) -> bool {
    let t = s.trim_start().trim_end_matches([' ', '\t', '\n', '\r']);
    if t.is_empty() {
        return false;
    }
    let u = t.strip_prefix(['+', '-']).unwrap_or(t);
    if ["inf", "infinity", "nan"].iter().any(|w| u.eq_ignore_ascii_case(w)) {
        return true;
    }
    numeric_prefix_len(t) == t.len()
}

/// Length of the longest prefix of `s` that is a decimal number (`[+-]?digits[.digits][e[+-]digits]`).
fn numeric_prefix_len(s: &str) -> usize {
    let b = s.as_bytes();
    let digit_at = |i: usize| b.get(i).is_some_and(u8::is_ascii_digit);
    let mut i = 0;
    if matches!(b.get(i), Some(b'+' | b'-')) {
        i += 1;
    }
    let int_start = i;
    while digit_at(i) {
        i += 1;
    }
    let mut digits = i - int_start;
    if b.get(i) == Some(&b'.') {
        let f = i + 1;
        let mut j = f;
        while digit_at(j) {
            j += 1;
        }
        digits += j - f;
        if digits > 0 {
            i = j;
        }
    }
    if digits == 0 {
        return 0;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        let mut j = i + 1;
        if matches!(b.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        let s0 = j;
        while digit_at(j) {
            j += 1;
        }
        if j > s0 {
            i = j;
        }
    }
    i
}

/// Perl's numification of a string: leading whitespace skipped, the longest
/// numeric prefix read, 0 when there is none ("12abc" → 12, "abc" → 0).
pub fn numify(s: &str) -> f64 {
    let t = s.trim_start();
    let u = t.strip_prefix(['+', '-']).unwrap_or(t).as_bytes();
    let starts = |word: &[u8]| u.get(..word.len()).is_some_and(|p| p.eq_ignore_ascii_case(word));
    let neg = t.starts_with('-');
    if starts(b"inf") {
        return if neg { f64::NEG_INFINITY } else { f64::INFINITY };
    }
    if starts(b"nan") {
        return f64::NAN;
    }
    // the prefix is ASCII, so its length is a char boundary
    t.get(..numeric_prefix_len(t)).and_then(|n| n.parse::<f64>().ok()).unwrap_or(0.0)
}

/// MMTests 2018's `calc_*` validity test `/^[-0-9]+/` on a sample string.
pub fn e0_numeric(s: &str) -> bool {
    s.as_bytes().first().is_some_and(|c| *c == b'-' || c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perl_printf_specials() {
        // checked against perl 5.36: printf("[%7.2f][%+.2f][%12.4f][%+7.2f]", NaN, NaN, Inf, Inf)
        assert_eq!(fmt_f(f64::NAN, 7, 2, false, false), "    NaN");
        assert_eq!(fmt_f(f64::NAN, 0, 2, true, false), "NaN");
        assert_eq!(fmt_f(f64::INFINITY, 12, 4, false, false), "         Inf");
        assert_eq!(fmt_f(f64::INFINITY, 7, 2, true, false), "   +Inf");
        assert_eq!(fmt_f(-0.004, 7, 2, false, false), "  -0.00");
        assert_eq!(fmt_f(0.125, 0, 2, false, false), "0.12");
        assert_eq!(fmt_f(1.5, 0, 2, true, false), "+1.50");
    }

    #[test]
    fn perl_stringification() {
        // perl -e 'print 1e15, " ", 0.1+0.2, " ", 1/7, " ", -1e-5, " ", 1e100'
        assert_eq!(perl_str(1e15), "1e+15");
        assert_eq!(perl_str(0.1 + 0.2), "0.3");
        assert_eq!(perl_str(1.0 / 7.0), "0.142857142857143");
        assert_eq!(perl_str(-1e-5), "-1e-05");
        assert_eq!(perl_str(1e100), "1e+100");
        assert_eq!(perl_str(100.0), "100");
        assert_eq!(perl_str_roundtrip(1.0 / 3.0), 0.333333333333333);
    }

    #[test]
    fn r_seven_digits() {
        // R: print(1.959963984540054 * 96.12) -> 188.3917
        assert_eq!(r_print7(188.39173619998), 188.3917);
        assert_eq!(r_print7(0.000123456789), 0.0001234568);
        assert_eq!(r_print7(1.5e-5), 1.5e-5);
        // fixed notation keeps the integer digits: print(123456789.4) -> 123456789
        assert_eq!(r_print7(123456789.4), 123456789.0);
        assert_eq!(r_print7(2e10), 2e10);
    }

    #[test]
    fn numbers_in_strings() {
        assert!(looks_like_number(" 12.5\n"));
        assert!(looks_like_number("-1e5"));
        assert!(!looks_like_number("12abc"));
        assert!(!looks_like_number(""));
        assert!(!looks_like_number("."));
        assert_eq!(numify("12abc"), 12.0);
        assert_eq!(numify("abc"), 0.0);
        // perl -e 'print 0+"-INF", " ", 0+"NaNx", " ", 0+" +Infinity"'
        assert_eq!((numify("-INF"), numify(" +Infinity")), (f64::NEG_INFINITY, f64::INFINITY));
        assert!(numify("NaNx").is_nan() && looks_like_number("Infinity") && !looks_like_number("infx"));
        assert!(e0_numeric("-3") && !e0_numeric(".5"));
    }
}
