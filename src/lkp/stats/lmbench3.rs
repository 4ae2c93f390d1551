//! lmbench3 as lkp-tests' programs/lmbench3/parse reads it: the latencies and
//! bandwidths of the summary lines (syscalls, select, process creation, pipe, AF_UNIX,
//! integer ops, UDP, TCP, connect, page faults), context switching of 96 processes at
//! 0/16/64 KiB, and from the data blocks the value at the largest size (file read,
//! bcopy, memory read/write, mmap) or the last value (`bw_mem -P`), as printed.

use super::ruby::{self, group, re, Lines};
use crate::lkp::rubyfmt::float_to_s;
use regex::Regex;
use std::sync::OnceLock;

/// The value a data block reader returns: Ruby's Integer 0 when no line set it.
enum Value {
    Zero,
    Float(f64),
}

impl Value {
    fn shown(&self) -> String {
        match self {
            Value::Zero => "0".into(),
            Value::Float(x) => float_to_s(*x),
        }
    }
}

/// lkp's `largest_value`: the lines up to an empty one (or the end); the second field
/// of the line whose first field is the largest (first of equals).
fn largest_value<'a>(lines: &mut impl Iterator<Item = &'a str>) -> Value {
    let (mut size, mut value) = (0.0f64, Value::Zero);
    for line in lines.by_ref() {
        if ruby::chomp(line).is_empty() {
            break;
        }
        let f = ruby::split(line);
        let field = |i: usize| f.get(i).map_or(0.0, |s| ruby::to_f(s));
        if field(0) > size {
            size = field(0);
            value = Value::Float(field(1));
        }
    }
    value
}

/// lkp's `read_mb_sec`: the second field of the last line before an empty one.
fn read_mb_sec<'a>(lines: &mut impl Iterator<Item = &'a str>) -> Value {
    let mut bandwidth = Value::Zero;
    for line in lines.by_ref() {
        if ruby::chomp(line).is_empty() {
            break;
        }
        bandwidth = Value::Float(ruby::split(line).get(1).map_or(0.0, |s| ruby::to_f(s)));
    }
    bandwidth
}

/// A summary line: its pattern and the key printed with each capture (`$1` … in the
/// key, the last capture the value).
const SIMPLE: [(&str, &str); 13] = [
    (r"^Simple (\S+): (\d+.\d+) microseconds$", "syscall.$1.latency.us"),
    (r"^Select on 100 fd's: (\d+.\d+) microseconds$", "Select.100fd.latency.us"),
    (r"^Select on 100 tcp fd's: (\d+.\d+) microseconds$", "Select.100tcp.latency.us"),
    (r"^Process (fork\+\S+)(?:\s-c)?: (\d+.?\d+) microseconds$", "Process.$1.latency.us"),
    (r"^Pipe latency: (\d+.\d+) \S+$", "PIPE.latency.us"),
    (r"^Pipe bandwidth: (\d+.\d+) \S+$", "PIPE.bandwidth.MB/sec"),
    (r"^AF_UNIX sock stream latency: (\d+.\d+) \S+$", "AF_UNIX.sock.stream.latency.us"),
    (r"^AF_UNIX sock stream bandwidth: (\d+.\d+) \S+$", "AF_UNIX.sock.stream.bandwidth.MB/sec"),
    (r"^(integer|int64|float|double) (bit|add|mul|div|mil): (\d+.\d+) nanoseconds$", "OPS.$1.$2.latency.ns"),
    (r"^UDP latency using localhost: (\d+.\d+) microseconds$", "UDP.usinglocalhost.latency.us"),
    // (the size and CTX lines are matched here, in lkp's order, by the loop)
    (r#"^"size=\d+k ovr=\d+.\d+$"#, ""),
    (r"^96 (\d+.\d+)$", ""),
    (r#"^"read bandwidth$"#, ""),
];

/// The data blocks read by [`largest_value`], in lkp's order after the TCP and
/// connect lines.
const BLOCKS: [(&str, &str); 4] = [
    (r#"^"libc bcopy unaligned$"#, "BCOPY.libc.bandwidth.MB/sec"),
    (r#"^"unrolled bcopy unaligned$"#, "BCOPY.unrolled.bandwidth.MB/sec"),
    (r"^Memory read bandwidth$", "BCOPY.memory_read.bandwidth.MB/sec"),
    (r"^Memory write bandwidth$", "BCOPY.memory_write.bandwidth.MB/sec"),
];

/// The mmap data blocks, after the page fault line.
const MMAP_BLOCKS: [(&str, &str); 3] = [
    (r#"^"mappings$"#, "MMAP.read.latency.us"),
    (r#"^"Mmap read bandwidth$"#, "MMAP.read.bandwidth.MB/sec"),
    (r#"^"Mmap read open2close bandwidth$"#, "MMAP.read_open2close.bandwidth.MB/sec"),
];

struct Patterns {
    simple: Vec<(Regex, &'static str)>,
    file_row: Regex,
    not_digit: Regex,
    tcp_latency: Regex,
    socket: Regex,
    socket_64b: Regex,
    socket_10m: Regex,
    connect: Regex,
    blocks: Vec<(Regex, &'static str)>,
    pagefaults: Regex,
    mmap_blocks: Vec<(Regex, &'static str)>,
    bw_mem: Regex,
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    let list = |l: &[(&str, &'static str)]| l.iter().map(|(p, k)| (re(p), *k)).collect();
    P.get_or_init(|| Patterns {
        simple: list(&SIMPLE),
        file_row: re(r"^(\d+.\d+) (\d+.\d+)$"),
        not_digit: re(r"^[^\d+]"),
        tcp_latency: re(r"^TCP latency using localhost:.+microseconds$"),
        socket: re(r"^Socket bandwidth using localhost$"),
        socket_64b: re(r"^0.000064 (\d+.\d+) MB/sec$"),
        socket_10m: re(r"^10.485760 (\d+.\d+) MB/sec$"),
        connect: re(r"^TCP/IP connection cost to localhost: (\d+.\d+) microseconds"),
        blocks: list(&BLOCKS),
        pagefaults: re(r"^Pagefaults on (.*): (.*) microseconds"),
        mmap_blocks: list(&MMAP_BLOCKS),
        bw_mem: re(r"bw_mem -P"),
    })
}

/// `key` with `$1`, `$2` replaced by the captures of `c`, and the last capture.
fn simple_line(key: &str, c: &regex::Captures) -> String {
    let n = c.len() - 1;
    let mut k = key.to_string();
    for i in 1..n {
        k = k.replace(&format!("${i}"), group(c, i));
    }
    format!("{k}: {}\n", group(c, n))
}

/// Parse lmbench3 output.
pub fn parse(text: &str, _path: &str) -> Lines {
    let p = patterns();
    let mut out = String::new();
    // lkp's loop variables, nil until set (`size`, `bandwidth`) or false
    let mut size: Option<i64> = None;
    let (mut read_bandwidth, mut socket_bandwidth) = (false, false);
    let mut file_size = 0.0f64;
    let mut bandwidth: Option<String> = None;
    let mut lines = ruby::lines(text);
    while let Some(line) = lines.next() {
        let simple = p.simple.iter().enumerate().find_map(|(i, (r, k))| {
            // the CTX row counts only after a size of 0, 16 or 64
            if i == 11 && !matches!(size, Some(0 | 16 | 64)) {
                return None;
            }
            r.captures(line).map(|c| (i, k, c))
        });
        if let Some((i, key, c)) = simple {
            match i {
                10 => {
                    let first = ruby::split(line).first().copied().unwrap_or("");
                    size = Some(ruby::to_i(ruby::split_on(first, '=').last().copied().unwrap_or("")));
                }
                11 => out.push_str(&format!("CTX.96P.{}K.latency.us: {}\n", size.unwrap_or(0), group(&c, 1))),
                12 => {
                    read_bandwidth = true;
                    file_size = 0.0;
                }
                _ => out.push_str(&simple_line(key, &c)),
            }
            continue;
        }
        if read_bandwidth {
            if let Some(c) = p.file_row.captures(line) {
                let s = ruby::to_f(group(&c, 1));
                if file_size < s {
                    file_size = s;
                    bandwidth = Some(group(&c, 2).to_string());
                }
                continue;
            }
            if let Some(b) = bandwidth.as_deref().filter(|_| p.not_digit.is_match(line)) {
                out.push_str(&format!("FILE.read.bandwidth.MB/sec: {b}\n"));
                read_bandwidth = false;
                continue;
            }
        }
        if p.tcp_latency.is_match(line) {
            let f = ruby::split(line);
            let v = f.len().checked_sub(2).and_then(|i| f.get(i)).copied().unwrap_or("");
            out.push_str(&format!("TCP.localhost.latency: {v}\n"));
        } else if p.socket.is_match(line) {
            socket_bandwidth = true;
        } else if let Some(c) = p.socket_64b.captures(line).filter(|_| socket_bandwidth) {
            out.push_str(&format!("TCP.socket.bandwidth.64B.MB/sec: {}\n", group(&c, 1)));
        } else if let Some(c) = p.socket_10m.captures(line).filter(|_| socket_bandwidth) {
            out.push_str(&format!("TCP.socket.bandwidth.10MB.MB/sec: {}\n", group(&c, 1)));
        } else if let Some(c) = p.connect.captures(line) {
            out.push_str(&format!("CONNECT.localhost.latency.us: {}\n", group(&c, 1)));
        } else if let Some((_, key)) = p.blocks.iter().find(|(r, _)| r.is_match(line)) {
            out.push_str(&format!("{key}: {}\n", largest_value(&mut lines).shown()));
        } else if let Some(c) = p.pagefaults.captures(line) {
            out.push_str(&format!("Pagefaults.ms: {}\n", group(&c, 2)));
        } else if let Some((_, key)) = p.mmap_blocks.iter().find(|(r, _)| r.is_match(line)) {
            out.push_str(&format!("{key}: {}\n", largest_value(&mut lines).shown()));
        } else if p.bw_mem.is_match(line) {
            out.push_str(&format!("Mem.Bandwidth.MB/sec: {}\n", read_mb_sec(&mut lines).shown()));
        }
    }
    Ok(out)
}
