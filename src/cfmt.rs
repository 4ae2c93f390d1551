//! C's, Python's and Go's renderings of an `f64` that several outputs share: C's `%g`
//! (which Perl's stringification, awk's `OFMT` and Python's `%g` all are), Python's
//! `repr(float)` (what pandas writes into a CSV) and Go's `%v` (what benchstat prints in
//! its messages). docs/tables.md says which view uses which.

/// C's `%.{digits}g` of a finite `v` (`digits` ≥ 1): what Perl's stringification (15),
/// awk's default `OFMT` (`%.6g`) and Python's `f"{v:.{digits}g}"` print.
pub fn c_fmt_g(v: f64, digits: usize) -> String {
    if v == 0.0 {
        return if v.is_sign_negative() { "-0".into() } else { "0".into() };
    }
    let p = digits.max(1) - 1;
    let e = format!("{v:.p$e}");
    let (mant, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if (-4..digits as i32).contains(&exp) {
        let decimals = (p as i32 - exp).max(0) as usize;
        let s = format!("{v:.decimals$}");
        strip_zeros(&s)
    } else {
        let m = strip_zeros(mant);
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{m}e{sign}{:02}", exp.abs())
    }
}

fn strip_zeros(s: &str) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s.to_string()
    }
}

/// Python's `repr(v)`: the shortest digits that read back as `v`, in fixed notation
/// for decimal exponents −4 to 15 (always with a fractional part, `4626.0`) and in
/// scientific notation otherwise (`1e-09`, `1.5e+16`); `nan`, `inf`, `-inf`.
pub fn py_float_repr(v: f64) -> String {
    if v.is_nan() {
        return "nan".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf".into() } else { "-inf".into() };
    }
    if v == 0.0 {
        return if v.is_sign_negative() { "-0.0".into() } else { "0.0".into() };
    }
    shortest(v, -4..16, ".0")
}

/// Go's `fmt` `%v` of a float64 (`strconv.FormatFloat(v, 'g', -1, 64)`): the shortest
/// digits that read back as `v`, in fixed notation for decimal exponents −4 to 5
/// (without a fractional part when there is none: `100`, `0.5`) and in scientific
/// notation otherwise (`1e+06`, `1.5e-07`); `NaN`, `+Inf`, `-Inf`.
pub fn go_fmt_v(v: f64) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "+Inf".into() } else { "-Inf".into() };
    }
    if v == 0.0 {
        return if v.is_sign_negative() { "-0".into() } else { "0".into() };
    }
    shortest(v, -4..6, "")
}

/// A finite, non-zero `v` in its shortest round-trip digits (Rust's `{:e}` gives them, as
/// Python's repr and Go's `FormatFloat(v, 'g', -1, 64)` do): in fixed notation for the
/// decimal exponents in `fixed`, `whole` after a value without a fractional part (".0"
/// for Python, nothing for Go), and in scientific notation otherwise (`1.5e+16`).
fn shortest(v: f64, fixed: std::ops::Range<i32>, whole: &str) -> String {
    let e = format!("{:e}", v.abs());
    let (mant, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mant.chars().filter(char::is_ascii_digit).collect();
    let sign = if v < 0.0 { "-" } else { "" };
    if fixed.contains(&exp) {
        let body = if exp < 0 {
            format!("0.{}{digits}", "0".repeat((-exp - 1) as usize))
        } else {
            let int_len = exp as usize + 1;
            if digits.len() <= int_len {
                format!("{digits}{}{whole}", "0".repeat(int_len - digits.len()))
            } else {
                let (i, f) = digits.split_at(int_len);
                format!("{i}.{f}")
            }
        };
        format!("{sign}{body}")
    } else {
        let (first, rest) = digits.split_at(1.min(digits.len()));
        let frac = if rest.is_empty() { String::new() } else { format!(".{rest}") };
        let esign = if exp < 0 { '-' } else { '+' };
        format!("{sign}{first}{frac}e{esign}{:02}", exp.abs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_g_as_printf() {
        // printf("%.6g") in C: 45296.8 83.45 1.23457e+06 1.23457e-05
        assert_eq!(c_fmt_g(45296.78, 6), "45296.8");
        assert_eq!(c_fmt_g(83.45, 6), "83.45");
        assert_eq!(c_fmt_g(1234567.0, 6), "1.23457e+06");
        assert_eq!(c_fmt_g(0.0000123456789, 6), "1.23457e-05");
    }

    #[test]
    fn python_repr() {
        // Python 3.11: repr() of each value, written out by hand from the interpreter.
        let cases: &[(f64, &str)] = &[
            (4626.0, "4626.0"),
            (-9.92, "-9.92"),
            (1e-9, "1e-09"),
            (0.0001, "0.0001"),
            (0.00012, "0.00012"),
            (0.00001, "1e-05"),
            (1.5e16, "1.5e+16"),
            (1e16, "1e+16"),
            (9999999999999998.0, "9999999999999998.0"),
            (123456789012345.6, "123456789012345.6"),
            (0.1 + 0.2, "0.30000000000000004"),
            (-0.0, "-0.0"),
            (1e300, "1e+300"),
            (5e-324, "5e-324"),
            (100.0, "100.0"),
        ];
        for &(v, want) in cases {
            assert_eq!(py_float_repr(v), want, "{v:e}");
        }
    }

    #[test]
    fn go_v() {
        // Go 1.19: fmt.Sprint of each value, written out by hand from the go tool
        let cases: &[(f64, &str)] = &[
            (100.0, "100"),
            (101.0, "101"),
            (0.5, "0.5"),
            (1.7180000000000001e-06, "1.7180000000000001e-06"),
            (2.294891936453654e-06, "2.294891936453654e-06"),
            (1e21, "1e+21"),
            (123456.0, "123456"),
            (1e6, "1e+06"),
            (1234567.0, "1.234567e+06"),
            (999999.5, "999999.5"),
            (0.0001, "0.0001"),
            (0.00001234, "1.234e-05"),
            (-2.5, "-2.5"),
            (2.2530000000000016e-06, "2.2530000000000016e-06"),
        ];
        for &(v, want) in cases {
            assert_eq!(go_fmt_v(v), want, "{v:e}");
        }
    }
}
