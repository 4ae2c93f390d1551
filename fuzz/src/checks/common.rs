//! Assertions shared by the targets.

use schedlab::Error;

/// Number of lines of `data` as the parsers count them (`split('\n')`).
pub fn line_count(data: &[u8]) -> usize {
    data.split(|&b| b == b'\n').count()
}

/// `e` must be a parse error naming `path` (when given) with, if it names a line,
/// a line in `1..=lines`. Anything else (a domain or I/O error for bad bytes, an
/// internal error, i.e. a caught panic) fails the target.
pub fn parse_error(e: &Error, path: Option<&str>, lines: usize) {
    match e {
        Error::Parse { loc, msg } => {
            assert!(!msg.is_empty(), "parse error without a message: {e:?}");
            if let Some(p) = path {
                assert_eq!(loc.path.as_deref(), Some(p), "parse error names the wrong input: {e}");
            }
            if let Some(l) = loc.line {
                assert!(l >= 1 && l <= lines.max(1), "parse error at line {l} of an input of {lines} lines: {e}");
            }
        }
        other => panic!("expected a parse error with a location, got {other:?}"),
    }
}

/// `e` must be a typed, expected error: parse, domain, insufficient data or I/O,
/// never `Internal`.
pub fn typed_error(e: &Error) {
    assert!(!matches!(e, Error::Internal(_)), "internal error: {e:?}");
}

/// `a` and `b` agree to the `decimals` a format prints (both NaN, both the same
/// infinity, or within half a unit of the last printed digit plus rounding noise).
pub fn close(a: f64, b: f64, decimals: usize) -> bool {
    if a.is_nan() || b.is_nan() {
        return a.is_nan() && b.is_nan();
    }
    if a.is_infinite() || b.is_infinite() {
        return a == b;
    }
    let unit = 0.5 * 10f64.powi(-(decimals.min(300) as i32));
    (a - b).abs() <= unit * (1.0 + 1e-9) + 1e-12 * a.abs().max(b.abs())
}

/// Optional values agree as [`close`] does; None only matches None.
pub fn close_opt(a: Option<f64>, b: Option<f64>, decimals: usize) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(x), Some(y)) => close(x, y, decimals),
        _ => false,
    }
}

/// `a` and `b` agree to `digits` significant digits (for `%g`-style formats).
pub fn close_sig(a: f64, b: f64, digits: i32) -> bool {
    if a.is_nan() || b.is_nan() {
        return a.is_nan() && b.is_nan();
    }
    if a.is_infinite() || b.is_infinite() {
        return a == b;
    }
    let scale = a.abs().max(b.abs());
    if scale == 0.0 {
        return true;
    }
    (a - b).abs() <= scale * 10f64.powi(1 - digits) * 0.5 * (1.0 + 1e-9)
}

/// Input text as the text entry points get it (the Python layer passes `str`).
pub fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// An output must stay within a budget proportional to its input: a renderer or
/// parser that allocates by a number read from the input fails here.
pub fn bounded(out_len: usize, in_len: usize, what: &str) {
    let budget = 64 * in_len + (1 << 16);
    assert!(out_len <= budget, "{what}: {out_len} bytes out of {in_len} bytes in");
}
