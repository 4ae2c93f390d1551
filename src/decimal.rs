//! Integers in plain decimal, as C's `printf("%llu")`/`printf("%lld")` prints them,
//! written in place in an output buffer two digits at a time (no formatting machinery
//! and no memcpy call a number): the golden CSVs of the idle and PELT replays, whose
//! rows are nearly all integers.

// Writes into caller-sized buffers: no indexing that can panic.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

/// The longest `i64` printed: `-9223372036854775808`.
pub const MAX_I64_BYTES: usize = 20;

/// "00" to "99".
const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// Write `u` in decimal at `buf[at..]`; returns the index after it, `None` (nothing
/// written) when it does not fit.
#[inline(always)]
pub fn put_u64(buf: &mut [u8], at: usize, mut u: u64) -> Option<usize> {
    let end = at + u.checked_ilog10().map_or(1, |l| l as usize + 1);
    let out = buf.get_mut(at..end)?;
    let mut i = out.len();
    while u >= 100 {
        let r = (u % 100) as usize * 2;
        u /= 100;
        i -= 2;
        out.get_mut(i..i + 2)?.copy_from_slice(PAIRS.get(r..r + 2)?);
    }
    // one or two digits left, at the start of `out`
    if u >= 10 {
        let r = u as usize * 2;
        out.get_mut(..2)?.copy_from_slice(PAIRS.get(r..r + 2)?);
    } else {
        *out.first_mut()? = b'0' + u as u8;
    }
    Some(end)
}

/// Write `v` in decimal (a `-` before a negative one) at `buf[at..]`; returns the index
/// after it, `None` when it does not fit.
#[inline(always)]
pub fn put_i64(buf: &mut [u8], at: usize, v: i64) -> Option<usize> {
    if v < 0 {
        *buf.get_mut(at)? = b'-';
        return put_u64(buf, at + 1, v.unsigned_abs());
    }
    put_u64(buf, at, v.unsigned_abs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_print_as_printf_prints_them() {
        // printf("%lld ") of each, as C prints them
        let mut buf = [0u8; 200];
        let mut at = 0;
        for v in [0, 7, -1, 10, 99, 100, -100, 4_294_967_295, i64::MAX, i64::MIN] {
            at = put_i64(&mut buf, at, v).unwrap();
            buf[at] = b' ';
            at += 1;
        }
        at = put_u64(&mut buf, at, u64::MAX).unwrap();
        assert_eq!(
            std::str::from_utf8(&buf[..at]).unwrap(),
            "0 7 -1 10 99 100 -100 4294967295 9223372036854775807 -9223372036854775808 18446744073709551615"
        );
        // a number that does not fit is not written
        let mut small = [b'x'; 3];
        assert_eq!(put_u64(&mut small, 0, 1234), None);
        assert_eq!(put_i64(&mut small, 1, -5), Some(3));
        assert_eq!(&small, b"x-5");
        assert_eq!(MAX_I64_BYTES, i64::MIN.to_string().len());
    }
}
