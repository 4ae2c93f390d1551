//! The golden-file CSV of a replay (docs/idle-governors.md §2.5), written as the replay
//! runs: the 12 common columns, then the governor's state columns, every value an
//! integer printed as the kernel oracle's `printf` prints it. Rows gather in a buffer
//! handed to the output every [`CHUNK_BYTES`], so memory does not grow with the trace;
//! each integer's digits are written in place in it ([`crate::decimal`]).

use super::replay::Decision;
use super::trace::{shown_latency, IdlePeriod};
use crate::error::{Error, Result};
use std::io::Write;

/// The 12 columns every golden file starts with.
pub const COMMON_COLUMNS: [&str; 12] = [
    "step",
    "sleep_length_ns",
    "next_tick_ns",
    "wake_ns",
    "tick_stopped",
    "latency_req_ns",
    "nr_iowait",
    "idx",
    "stop_tick",
    "residency_ns",
    "got_tick",
    "poll_time_limit",
];

/// Rows are handed to the output in pieces of about this size.
pub const CHUNK_BYTES: usize = 1 << 20;

/// A golden CSV being written to `W` (see the module docs).
pub struct GoldenCsv<W: Write> {
    out: W,
    name: String,
    /// Rows are written in `buf[..len]`; `buf` has room for a row past [`CHUNK_BYTES`].
    buf: Vec<u8>,
    len: usize,
}

/// The longest integer printed and a separator.
const MAX_FIELD: usize = crate::decimal::MAX_I64_BYTES + 1;

/// Write `v` at `buf[at..]`, which has room for it ([`GoldenCsv::row`] makes it);
/// returns the index after it.
#[inline(always)]
fn put_int(buf: &mut [u8], at: usize, v: i64) -> usize {
    crate::decimal::put_i64(buf, at, v).unwrap_or(at)
}

/// `v` in decimal, as `printf("%lld")` prints it.
pub fn push_int(out: &mut Vec<u8>, v: i64) {
    let mut buf = [0u8; MAX_FIELD];
    let n = put_int(&mut buf, 0, v);
    out.extend_from_slice(&buf[..n]);
}

impl<W: Write> GoldenCsv<W> {
    /// Start the CSV on `out` (called `name` in write errors) with the header: the
    /// common columns, then `state_columns`.
    pub fn new(out: W, name: &str, state_columns: &[String]) -> Self {
        let header: Vec<&str> =
            COMMON_COLUMNS.iter().copied().chain(state_columns.iter().map(String::as_str)).collect();
        let mut buf = header.join(",").into_bytes();
        buf.push(b'\n');
        let len = buf.len();
        buf.resize(len.max(CHUNK_BYTES) + (COMMON_COLUMNS.len() + state_columns.len()) * MAX_FIELD, 0);
        GoldenCsv { out, name: name.to_string(), buf, len }
    }

    /// Append the row of period `step`: the period `p` as the governor saw it, what
    /// happened (`d`), the governor's state after it.
    #[inline]
    pub fn row(&mut self, step: usize, p: &IdlePeriod, d: &Decision, state: &[i64]) -> Result<()> {
        let room = (COMMON_COLUMNS.len() + state.len()) * MAX_FIELD;
        if self.buf.len() - self.len < room {
            self.buf.resize(self.len + room, 0);
        }
        let vals = [
            step as i64,
            p.sleep_length_ns,
            d.next_tick_ns,
            p.wake_ns,
            i64::from(p.tick_stopped),
            shown_latency(p.latency_req_ns),
            i64::from(p.nr_iowait),
            i64::from(d.idx),
            i64::from(d.stop_tick),
            d.residency_ns,
            i64::from(d.got_tick),
            i64::from(d.poll_time_limit),
        ];
        let buf = self.buf.as_mut_slice();
        let mut at = self.len;
        for &v in &vals {
            at = put_int(buf, at, v);
            buf[at] = b',';
            at += 1;
        }
        for &v in state {
            at = put_int(buf, at, v);
            buf[at] = b',';
            at += 1;
        }
        // the last separator is the line end
        buf[at - 1] = b'\n';
        self.len = at;
        if at >= CHUNK_BYTES {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<()> {
        self.out.write_all(&self.buf[..self.len]).map_err(|e| write_error(&self.name, &e))?;
        self.len = 0;
        Ok(())
    }

    /// Write what is left and flush the output; returns it.
    pub fn finish(mut self) -> Result<W> {
        self.flush()?;
        self.out.flush().map_err(|e| write_error(&self.name, &e))?;
        Ok(self.out)
    }
}

/// The error of a failed write of the output `name`; an interrupted write (the sink
/// saw a stop request) is the stop.
fn write_error(name: &str, e: &std::io::Error) -> Error {
    if e.kind() == std::io::ErrorKind::Interrupted {
        return Error::Interrupted;
    }
    Error::io(name, e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_print_like_printf() {
        let mut out = Vec::new();
        for v in [0, 7, -1, 4_294_967_295, i64::MAX, i64::MIN] {
            push_int(&mut out, v);
            out.push(b' ');
        }
        assert_eq!(String::from_utf8(out).unwrap(), "0 7 -1 4294967295 9223372036854775807 -9223372036854775808 ");
    }

    #[test]
    fn rows_reach_the_output_in_chunks_and_a_failed_write_names_it() {
        let d = Decision {
            idx: 2,
            stop_tick: true,
            residency_ns: 7,
            got_tick: false,
            poll_time_limit: false,
            next_tick_ns: 3,
        };
        let p = IdlePeriod {
            sleep_length_ns: 10,
            next_tick_ns: 4_000_003,
            wake_ns: -1,
            latency_req_ns: -1,
            ..Default::default()
        };
        let mut w = GoldenCsv::new(Vec::new(), "out.csv", &["a".to_string()]);
        w.row(0, &p, &d, &[5]).unwrap();
        let out = w.finish().unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            format!("{},a\n0,10,3,-1,0,2000000000000,0,2,1,7,0,0,5\n", COMMON_COLUMNS.join(","))
        );
        struct Full;
        impl Write for Full {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::Error::from_raw_os_error(28)) // ENOSPC
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let mut w = GoldenCsv::new(Full, "/dev/full", &[]);
        let mut last = Ok(());
        for step in 0..CHUNK_BYTES / 20 {
            last = w.row(step, &p, &d, &[]);
            if last.is_err() {
                break;
            }
        }
        let e = last.unwrap_err().to_string();
        assert!(e.starts_with("/dev/full: "), "{e}");
    }
}
