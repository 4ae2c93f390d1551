//! What a trace input that is not a trace.dat is, when it is not text either: a
//! compressed file, or binary data (a trace.dat whose magic is damaged, a core file,
//! `/dev/zero`). The importers, which read anything without a trace.dat's magic as
//! ftrace text, say so instead of reporting that no event was found
//! (docs/tracing.md §2).

/// How far into the input the check looks.
pub const SNIFF_BYTES: usize = 64 << 10;

/// Why `head` (the start of an input without the trace.dat magic) is not ftrace text,
/// or `None` when it may be: a compressed file by its magic, the trace.dat magic with
/// damaged bytes, or a NUL byte within the first [`SNIFF_BYTES`] (text has none).
pub fn not_text(head: &[u8]) -> Option<String> {
    let compressed: [(&[u8], &str, &str); 4] = [
        (b"\x1f\x8b", "gzip", "zcat"),
        (b"\xfd7zXZ\x00", "xz", "xzcat"),
        (b"\x28\xb5\x2f\xfd", "zstd", "zstdcat"),
        (b"BZh", "bzip2", "bzcat"),
    ];
    for (magic, what, cat) in compressed {
        if head.starts_with(magic) {
            return Some(format!("a {what}-compressed file: decompress it first ({cat})"));
        }
    }
    if head.get(3..10) == Some(b"tracing".as_slice()) {
        return Some("a trace.dat whose magic is damaged (the file does not start with \\x17\\x08D)".into());
    }
    let look = head.get(..SNIFF_BYTES).unwrap_or(head);
    look.iter().position(|&b| b == 0).map(|at| format!("binary data (a NUL byte at byte {at})"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compressed_damaged_and_binary_inputs_are_named() {
        assert!(not_text(b"\x1f\x8b\x08\x00").unwrap().starts_with("a gzip-compressed file"));
        assert!(not_text(b"\x17\x08Xtracing6\x00").unwrap().starts_with("a trace.dat whose magic is damaged"));
        assert_eq!(not_text(&[0u8; 16]).unwrap(), "binary data (a NUL byte at byte 0)");
        assert_eq!(not_text(b"cpus=2\n  foo-1 [000] 1.0: sched_switch: ..."), None);
    }
}
