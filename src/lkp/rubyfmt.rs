//! Ruby's number formatting, byte for byte: `format('%+10.1f')`, `'%10.4g'`, `'%10d'`,
//! `Float#to_s` and `JSON.pretty_generate`, as lkp-tests prints and writes them.
//!
//! Ruby's `sprintf` is not C's or Rust's: it runs BSD `vfprintf` over Ruby's own copy of
//! David Gay's `dtoa` (util.c), whose fast floating-point path for at most 14 digits
//! decides an undecidable last digit (the remainder within `eps` of one half) without the
//! exact bignum fallback: an odd last digit is bumped, an even one kept. Python and Rust
//! round correctly, so they disagree with Ruby on about 1–2% of report values
//! (`"%.1f" % 28.05` is `28.0` in Ruby). This module ports that path (k estimate,
//! `ieps`/`eps`, scaling by `tens`/`bigtens`) and does everything else with exact decimal
//! arithmetic, after docs/lkp.md §5 and Ruby's util.c `BSD__dtoa` (modes 2 and 3).

/// Exact powers of ten representable in f64 (dtoa's `tens`).
const TENS: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
    1e21, 1e22,
];
/// dtoa's `bigtens`.
const BIGTENS: [f64; 5] = [1e16, 1e32, 1e64, 1e128, 1e256];
/// dtoa's `Quick_max`: the fast path is tried for at most this many digits.
const QUICK_MAX: i32 = 14;
/// dtoa's `Int_max`: integers with at most this decimal exponent use the "small integer" path.
const INT_MAX_K: i32 = 14;

/// Decimal digits of a non-negative value: value = 0.DIGITS × 10^decpt.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Digits {
    digits: Vec<u8>,
    decpt: i32,
}

/// The exact decimal expansion of a finite, positive f64: (digits without leading or
/// trailing zeros, decpt) with value = 0.d1d2… × 10^decpt.
fn exact_decimal(d: f64) -> Digits {
    let bits = d.to_bits();
    let exp_bits = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    let (m, e) = if exp_bits == 0 { (frac, -1074) } else { (frac | (1u64 << 52), exp_bits - 1075) };
    // value = m * 2^e. Big integer in base 1e9 limbs, little endian.
    let mut limbs: Vec<u64> =
        vec![m % 1_000_000_000, (m / 1_000_000_000) % 1_000_000_000, m / 1_000_000_000_000_000_000];
    let mul_small = |limbs: &mut Vec<u64>, f: u64| {
        let mut carry = 0u64;
        for l in limbs.iter_mut() {
            let v = *l * f + carry;
            *l = v % 1_000_000_000;
            carry = v / 1_000_000_000;
        }
        while carry > 0 {
            limbs.push(carry % 1_000_000_000);
            carry /= 1_000_000_000;
        }
    };
    let mut shift10 = 0i32; // value = N * 10^-shift10
    if e >= 0 {
        let mut k = e;
        while k > 0 {
            let s = k.min(30);
            mul_small(&mut limbs, 1u64 << s);
            k -= s;
        }
    } else {
        // m * 2^e = m * 5^-e / 10^-e
        let mut k = -e;
        shift10 = -e;
        while k > 0 {
            let s = k.min(12); // 5^12 < 2^28
            mul_small(&mut limbs, 5u64.pow(s as u32));
            k -= s;
        }
    }
    while limbs.len() > 1 && limbs.last() == Some(&0) {
        limbs.pop();
    }
    let mut s = String::new();
    if let Some(top) = limbs.last() {
        s.push_str(&top.to_string());
    }
    for l in limbs.iter().rev().skip(1) {
        s.push_str(&format!("{l:09}"));
    }
    let mut digits: Vec<u8> = s.bytes().map(|b| b - b'0').collect();
    let int_len = digits.len() as i32;
    let decpt = int_len - shift10;
    while digits.last() == Some(&0) {
        digits.pop();
    }
    let lead = digits.iter().take_while(|&&x| x == 0).count();
    digits.drain(..lead);
    Digits { digits, decpt: decpt - lead as i32 }
}

/// Where the exact value lies against the rounding tie after `n` digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tie {
    Below,
    Exact,
    Above,
}

fn tie_after(exact: &Digits, n: usize) -> Tie {
    match exact.digits.get(n) {
        None => Tie::Below,
        Some(&d) if d < 5 => Tie::Below,
        Some(&d) if d > 5 => Tie::Above,
        Some(_) => {
            if exact.digits.len() > n + 1 {
                Tie::Above
            } else {
                Tie::Exact
            }
        }
    }
}

/// Increment a digit string as dtoa's `bump_up` does (trailing 9s become a carry).
fn bump_up(digits: &mut Vec<u8>, k: &mut i32) {
    while let Some(&last) = digits.last() {
        if last == 9 {
            digits.pop();
        } else {
            break;
        }
    }
    if let Some(last) = digits.last_mut() {
        *last += 1;
    } else {
        digits.push(1);
        *k += 1;
    }
}

fn strip_zeros(digits: &mut Vec<u8>) {
    while digits.len() > 1 && digits.last() == Some(&0) {
        digits.pop();
    }
}

/// Exactly rounded digits (half to even) of `exact` to `ilim` digits (ilim ≥ 1), as dtoa's
/// bignum path produces them (trailing zeros stripped unless `keep_zeros`).
fn exact_round(exact: &Digits, ilim: usize, small_int: bool) -> Digits {
    let mut digits: Vec<u8> = exact.digits.iter().copied().take(ilim).collect();
    let mut k = exact.decpt - 1;
    let truncated = exact.digits.len() > ilim;
    let up = match tie_after(exact, ilim) {
        Tie::Above => true,
        Tie::Exact => digits.last().is_some_and(|d| d % 2 == 1),
        Tie::Below => false,
    };
    if up {
        bump_up(&mut digits, &mut k);
    } else if !(small_int && truncated) {
        strip_zeros(&mut digits);
    }
    Digits { digits, decpt: k + 1 }
}

/// Ruby's `BSD__dtoa(d, mode, ndigits)` for mode 2 (`ndigits` significant digits, `%e`/`%g`)
/// and mode 3 (`ndigits` after the decimal point, `%f`), for finite d > 0.
fn ruby_dtoa(d: f64, mode: u8, ndigits: i32) -> Digits {
    let exact = exact_decimal(d);
    let bits = d.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let denorm = biased == 0;
    // k = floor(log10(d)) as dtoa estimates it.
    let (mut k, k_check) = if denorm {
        (exact.decpt - 1, true)
    } else {
        let d2 = f64::from_bits((bits & ((1u64 << 52) - 1)) | (1023u64 << 52));
        let i = biased - 1023;
        // dtoa's own constants (its log10(2) is deliberately this 15-digit literal)
        #[allow(clippy::approx_constant)]
        let ds = (d2 - 1.5) * 0.289529654602168 + 0.1760912590558 + f64::from(i) * 0.301029995663981;
        let mut k = ds as i32;
        if ds < 0.0 && ds != f64::from(k) {
            k -= 1;
        }
        let mut k_check = true;
        // 0 ≤ k ≤ 22: the powers of ten dtoa holds exactly
        if let Some(&ten_k) = usize::try_from(k).ok().and_then(|i| TENS.get(i)) {
            if d < ten_k {
                k -= 1;
            }
            k_check = false;
        }
        (k, k_check)
    };
    let (mut ilim, ilim1) = if mode == 2 {
        let n = ndigits.max(1);
        (n, n)
    } else {
        let i = ndigits + k + 1;
        (i, i - 1)
    };
    // dtoa's "small integer" case: an integral double with k ≤ Int_max.
    let small_int = !denorm && exact.decpt >= exact.digits.len() as i32 && k <= INT_MAX_K;

    if !denorm && (0..=QUICK_MAX).contains(&ilim) {
        if let Some(r) = quick(d, k, k_check, ilim, ilim1, ndigits, &exact, small_int) {
            return r;
        }
    }
    // Exact paths.
    k = exact.decpt - 1;
    ilim = if mode == 2 { ndigits.max(1) } else { ndigits + k + 1 };
    if ilim <= 0 {
        // fcvt style: no digits unless the value is above half of the last place.
        let above = ilim == 0 && tie_after(&Digits { digits: exact.digits.clone(), decpt: 0 }, 0) == Tie::Above;
        return if above {
            Digits { digits: vec![1], decpt: k + 2 }
        } else {
            Digits { digits: vec![], decpt: -ndigits }
        };
    }
    exact_round(&exact, ilim as usize, small_int)
}

/// dtoa's fast floating-point path; None where dtoa falls back to exact arithmetic.
#[allow(clippy::too_many_arguments)]
fn quick(
    d0: f64,
    k0: i32,
    k_check: bool,
    ilim0: i32,
    ilim1: i32,
    ndigits: i32,
    exact: &Digits,
    small_int: bool,
) -> Option<Digits> {
    let mut d = d0;
    let mut k = k0;
    let mut ilim = ilim0;
    let mut ieps: i32 = 2;
    let mut i = 0usize;
    if k > 0 {
        let mut ds = *TENS.get((k & 0xf) as usize)?;
        let mut j = k >> 4;
        if j & 0x10 != 0 {
            j &= 0x10 - 1;
            d /= BIGTENS[4];
            ieps += 1;
        }
        while j != 0 {
            if j & 1 != 0 {
                ieps += 1;
                ds *= *BIGTENS.get(i)?;
            }
            j >>= 1;
            i += 1;
        }
        d /= ds;
    } else if k < 0 {
        let j1 = -k;
        d *= *TENS.get((j1 & 0xf) as usize)?;
        let mut j = j1 >> 4;
        while j != 0 {
            if j & 1 != 0 {
                ieps += 1;
                d *= *BIGTENS.get(i)?;
            }
            j >>= 1;
            i += 1;
        }
    }
    if k_check && d < 1.0 && ilim > 0 {
        if ilim1 <= 0 {
            return None;
        }
        ilim = ilim1;
        k -= 1;
        d *= 10.0;
        ieps += 1;
    }
    // eps = (ieps*d + 7) * 2^-(P-1), done on the exponent bits as dtoa does.
    let e = f64::from(ieps) * d + 7.0;
    let mut eps = f64::from_bits(e.to_bits().wrapping_sub(52u64 << 52));
    if ilim == 0 {
        let r = d - 5.0;
        if r > eps {
            return Some(Digits { digits: vec![1], decpt: k + 2 });
        }
        if r < -eps {
            return Some(Digits { digits: vec![], decpt: -ndigits });
        }
        return None;
    }
    eps *= *TENS.get(usize::try_from(ilim - 1).ok()?)?;
    let mut digits: Vec<u8> = Vec::with_capacity(ilim as usize);
    let mut idx = 1;
    loop {
        let l = d as i64;
        d -= l as f64;
        if d == 0.0 {
            ilim = idx;
        }
        digits.push(l.clamp(0, 9) as u8);
        if idx == ilim {
            if d > 0.5 + eps {
                bump_up(&mut digits, &mut k);
                return Some(Digits { digits, decpt: k + 1 });
            } else if d < 0.5 - eps {
                strip_zeros(&mut digits);
                return Some(Digits { digits, decpt: k + 1 });
            }
            // Undecidable: Ruby's util.c bumps an odd last digit and keeps an even one.
            if digits.last().is_some_and(|x| x % 2 == 1) {
                bump_up(&mut digits, &mut k);
                return Some(Digits { digits, decpt: k + 1 });
            }
            let n = digits.len();
            let at_or_below = tie_after(exact, n) != Tie::Above;
            if at_or_below && !small_int {
                strip_zeros(&mut digits);
            }
            return Some(Digits { digits, decpt: k + 1 });
        }
        idx += 1;
        d *= 10.0;
    }
}

fn pad(s: String, width: usize, left: bool) -> String {
    let n = s.chars().count();
    if n >= width {
        s
    } else if left {
        let mut s = s;
        s.extend(std::iter::repeat_n(' ', width - n));
        s
    } else {
        let mut out: String = std::iter::repeat_n(' ', width - n).collect();
        out.push_str(&s);
        out
    }
}

fn sign_prefix(neg: bool, plus: bool) -> &'static str {
    if neg {
        "-"
    } else if plus {
        "+"
    } else {
        ""
    }
}

fn non_finite(x: f64, width: usize, plus: bool) -> String {
    let body = if x.is_nan() { "NaN" } else { "Inf" };
    let neg = x.is_sign_negative() && !x.is_nan();
    pad(format!("{}{body}", sign_prefix(neg, plus)), width, false)
}

/// Ruby `format("%[+]W.Pf", x)`.
pub fn fmt_f(x: f64, width: usize, prec: usize, plus: bool) -> String {
    if !x.is_finite() {
        return non_finite(x, width, plus);
    }
    let neg = x.is_sign_negative();
    let a = x.abs();
    let Digits { digits, decpt } =
        if a == 0.0 { Digits { digits: vec![0], decpt: 1 } } else { ruby_dtoa(a, 3, prec as i32) };
    let mut s = String::from(sign_prefix(neg, plus));
    let digit = |i: i32| -> char {
        if i >= 0 {
            digits.get(i as usize).map_or('0', |d| (b'0' + d) as char)
        } else {
            '0'
        }
    };
    if decpt <= 0 {
        s.push('0');
    } else {
        for i in 0..decpt {
            s.push(digit(i));
        }
    }
    if prec > 0 {
        s.push('.');
        for j in 0..prec as i32 {
            s.push(digit(decpt + j));
        }
    }
    pad(s, width, false)
}

/// Ruby `format("%[+]W.Pg", x)` (no `#` flag: dtoa's trailing-zero behaviour is kept).
pub fn fmt_g(x: f64, width: usize, prec: usize, plus: bool) -> String {
    if !x.is_finite() {
        return non_finite(x, width, plus);
    }
    let prec = prec.max(1) as i32;
    let neg = x.is_sign_negative();
    let a = x.abs();
    let Digits { digits, decpt } = if a == 0.0 { Digits { digits: vec![0], decpt: 1 } } else { ruby_dtoa(a, 2, prec) };
    let digits: Vec<char> =
        if digits.is_empty() { vec!['0'] } else { digits.iter().map(|d| (b'0' + d) as char).collect() };
    let mut s = String::from(sign_prefix(neg, plus));
    if decpt <= -4 || decpt > prec {
        // exponent style: d[.ddd]e±XX
        s.extend(digits.first());
        if digits.len() > 1 {
            s.push('.');
            s.extend(digits.iter().skip(1));
        }
        let e = decpt - 1;
        s.push('e');
        s.push(if e < 0 { '-' } else { '+' });
        s.push_str(&format!("{:02}", e.abs()));
    } else if decpt <= 0 {
        s.push_str("0.");
        for _ in 0..-decpt {
            s.push('0');
        }
        s.extend(&digits);
    } else if digits.len() as i32 <= decpt {
        s.extend(&digits);
        for _ in digits.len() as i32..decpt {
            s.push('0');
        }
    } else {
        // 0 < decpt < digits.len()
        s.extend(digits.iter().take(decpt as usize));
        s.push('.');
        s.extend(digits.iter().skip(decpt as usize));
    }
    pad(s, width, false)
}

/// Ruby `format("%Wd", x)` for a Float: truncation toward zero (`(long)x`).
pub fn fmt_d_float(x: f64, width: usize) -> String {
    if !x.is_finite() {
        return non_finite(x, width, false);
    }
    let t = x.trunc();
    let s = if t.abs() < 9.2e18 { format!("{}", t as i64) } else { format!("{t:.0}") };
    pad(s, width, false)
}

/// Ruby `format("%-Wd", n)` / `format("%Wd", n)` for an Integer.
pub fn fmt_d_int(n: i64, width: usize, left: bool) -> String {
    pad(n.to_string(), width, left)
}

/// Ruby `Float#to_s`: shortest round-trip digits; fixed notation when the decimal point
/// falls inside the digits or −4 < decpt ≤ 15 (always with a fraction, `1.0`), else
/// `1.0e+15` / `1.5e-05`.
pub fn float_to_s(x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Infinity".into() } else { "-Infinity".into() };
    }
    if x == 0.0 {
        return if x.is_sign_negative() { "-0.0".into() } else { "0.0".into() };
    }
    let e_form = format!("{:e}", x.abs());
    let (mant, exp) = e_form.split_once('e').unwrap_or((&e_form, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mant.chars().filter(|c| c.is_ascii_digit()).collect();
    let decpt = exp + 1;
    let mut s = String::from(if x < 0.0 { "-" } else { "" });
    let nd = digits.len() as i32;
    if decpt > 0 && (nd > decpt || decpt <= 15) {
        if nd <= decpt {
            s.push_str(&digits);
            for _ in nd..decpt {
                s.push('0');
            }
            s.push_str(".0");
        } else {
            // 0 < decpt < nd; digits are ASCII, so chars are bytes
            s.extend(digits.chars().take(decpt as usize));
            s.push('.');
            s.extend(digits.chars().skip(decpt as usize));
        }
    } else if decpt <= 0 && decpt > -4 {
        s.push_str("0.");
        for _ in 0..-decpt {
            s.push('0');
        }
        s.push_str(&digits);
    } else {
        s.extend(digits.chars().take(1));
        s.push('.');
        if nd > 1 {
            s.extend(digits.chars().skip(1));
        } else {
            s.push('0');
        }
        let e = decpt - 1;
        s.push_str(&format!("e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs()));
    }
    s
}

/// A JSON value as lkp-tests writes it (Ruby `JSON.pretty_generate`).
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    /// Ruby Integer.
    Int(i64),
    /// Ruby Float (written with `Float#to_s`).
    Float(f64),
    /// String.
    Str(String),
    /// Array.
    Arr(Vec<Json>),
    /// Object, in insertion order.
    Obj(Vec<(String, Json)>),
}

fn json_str(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

fn json_write(v: &Json, depth: usize, out: &mut String) {
    let ind = |n: usize, out: &mut String| {
        for _ in 0..n {
            out.push_str("  ");
        }
    };
    match v {
        Json::Int(i) => out.push_str(&i.to_string()),
        Json::Float(f) => out.push_str(&float_to_s(*f)),
        Json::Str(s) => json_str(s, out),
        // Ruby 3.1's json 2.6 writes empty containers over lines: `[` `` `]` and `{` `}`
        Json::Arr(a) if a.is_empty() => {
            out.push_str("[\n\n");
            ind(depth, out);
            out.push(']');
        }
        Json::Obj(o) if o.is_empty() => {
            out.push_str("{\n");
            ind(depth, out);
            out.push('}');
        }
        Json::Arr(a) => {
            out.push_str("[\n");
            for (i, x) in a.iter().enumerate() {
                ind(depth + 1, out);
                json_write(x, depth + 1, out);
                out.push_str(if i + 1 < a.len() { ",\n" } else { "\n" });
            }
            ind(depth, out);
            out.push(']');
        }
        Json::Obj(o) => {
            out.push_str("{\n");
            for (i, (k, x)) in o.iter().enumerate() {
                ind(depth + 1, out);
                json_str(k, out);
                out.push_str(": ");
                json_write(x, depth + 1, out);
                out.push_str(if i + 1 < o.len() { ",\n" } else { "\n" });
            }
            ind(depth, out);
            out.push('}');
        }
    }
}

/// `JSON.pretty_generate(v)`: two-space indent, `"key": value`, no trailing newline.
pub fn pretty_json(v: &Json) -> String {
    let mut out = String::new();
    json_write(v, 0, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ruby_differs_from_c_examples_of_the_spec() {
        // docs/lkp.md §5.3: Ruby values (Python differs).
        assert_eq!(fmt_f(28.05, 0, 1, false), "28.0");
        assert_eq!(fmt_f(2.675, 0, 2, false), "2.68");
        assert_eq!(fmt_g(-8.05, 0, 2, false), "-8.0");
        assert_eq!(fmt_g(905000.0, 0, 2, false), "9.0e+05");
    }

    #[test]
    fn table_cells_of_the_goldens() {
        // out_B_4v4.txt
        assert_eq!(fmt_g(2.967e8, 10, 4, false), " 2.967e+08");
        assert_eq!(fmt_g(1.05e104, 10, 2, true), "   +1e+104");
        assert_eq!(fmt_g(1.1e104, 10, 2, true), " +1.1e+104");
        assert_eq!(fmt_g(5e5 - 100.0, 10, 2, true), "    +5e+05");
        assert_eq!(fmt_f(-9.92, 10, 1, true), "      -9.9");
        assert_eq!(fmt_f(0.0, 10, 2, false), "      0.00");
        assert_eq!(fmt_f(-50.0, 10, 0, false), "       -50");
        assert_eq!(fmt_d_float(2999.9, 10), "      2999");
        assert_eq!(fmt_d_float(-2999.9, 6), " -2999");
        assert_eq!(fmt_f(f64::INFINITY, 10, 1, true), "      +Inf");
    }

    #[test]
    fn plain_rounding_and_zero_cases() {
        assert_eq!(fmt_f(0.05, 0, 1, false), "0.1");
        assert_eq!(fmt_f(0.04, 0, 1, false), "0.0");
        assert_eq!(fmt_f(-0.04, 0, 1, false), "-0.0");
        assert_eq!(fmt_f(0.001, 0, 1, false), "0.0");
        assert_eq!(fmt_f(0.06, 0, 1, false), "0.1");
        assert_eq!(fmt_f(9.96, 0, 1, false), "10.0");
        assert_eq!(fmt_f(1e15, 0, 1, false), "1000000000000000.0");
        assert_eq!(fmt_f(123.456, 0, 2, false), "123.46");
        assert_eq!(fmt_g(0.000123456, 0, 4, false), "0.0001235");
        assert_eq!(fmt_g(0.0000123456, 0, 4, false), "1.235e-05");
        assert_eq!(fmt_g(2999.0, 0, 4, false), "2999");
        assert_eq!(fmt_g(99999.0, 0, 2, false), "1e+05");
        assert_eq!(fmt_g(0.0, 0, 2, false), "0");
    }

    #[test]
    fn float_to_s_like_ruby() {
        assert_eq!(float_to_s(36.1), "36.1");
        assert_eq!(float_to_s(98.0), "98.0");
        assert_eq!(float_to_s(82.60000000000001), "82.60000000000001");
        // ruby 3.1.2: puts 1e14, 1e15, 999999999999999.0, 1234567890123450.0,
        // 1234567890123456.0, 1234567890123456.8, 1e16
        assert_eq!(float_to_s(1e14), "100000000000000.0");
        assert_eq!(float_to_s(1e15), "1.0e+15");
        assert_eq!(float_to_s(999999999999999.0), "999999999999999.0");
        assert_eq!(float_to_s(1234567890123450.0), "1.23456789012345e+15");
        assert_eq!(float_to_s(1234567890123456.0), "1.234567890123456e+15");
        assert_eq!(float_to_s(1234567890123456.8), "1234567890123456.8");
        assert_eq!(float_to_s(1e16), "1.0e+16");
        assert_eq!(float_to_s(1e-5), "1.0e-05");
        assert_eq!(float_to_s(0.0001), "0.0001");
        assert_eq!(float_to_s(-2.5e-7), "-2.5e-07");
    }

    #[test]
    fn pretty_json_like_ruby() {
        let v = Json::Obj(vec![
            ("a".into(), Json::Arr(vec![Json::Int(1), Json::Float(2.0)])),
            ("b".into(), Json::Arr(vec![])),
            ("c\"".into(), Json::Str("x".into())),
        ]);
        assert_eq!(pretty_json(&v), "{\n  \"a\": [\n    1,\n    2.0\n  ],\n  \"b\": [\n\n  ],\n  \"c\\\"\": \"x\"\n}");
        // ruby 3.1.2: JSON.pretty_generate({}) and ({"a" => {}})
        assert_eq!(pretty_json(&Json::Obj(vec![])), "{\n}");
        assert_eq!(pretty_json(&Json::Obj(vec![("a".into(), Json::Obj(vec![]))])), "{\n  \"a\": {\n  }\n}");
    }
}
