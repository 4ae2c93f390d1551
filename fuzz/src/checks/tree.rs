//! The small text container the tree-reading targets (MMTests extractors, lkp run
//! directories) take, so that a seed is a readable file and a regression input
//! shows which file of the tree held which bytes:
//!
//! ```text
//! <header line, read by the target>
//! @@ relative/path/of/a/file
//! <its bytes, up to the next line starting with "@@ ">
//! @@ another/file
//! ...
//! ```
//!
//! A path the archive readers would refuse (absolute, `..`) is skipped; at most
//! [`MAX_FILES`] files are kept.

use schedlab::archive::MemTree;

/// Most files one input may describe.
pub const MAX_FILES: usize = 64;

/// The header line and the files of `data`.
pub fn split(data: &[u8]) -> (&[u8], Vec<(String, &[u8])>) {
    let (header, mut rest) = match data.iter().position(|&b| b == b'\n') {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &data[data.len()..]),
    };
    let mut files = Vec::new();
    // every "@@ " at the start of a line begins a file
    while let Some(body) = rest.strip_prefix(b"@@ ") {
        let name_end = body.iter().position(|&b| b == b'\n').unwrap_or(body.len());
        let name = String::from_utf8_lossy(&body[..name_end]).into_owned();
        let content = if name_end < body.len() { &body[name_end + 1..] } else { &body[body.len()..] };
        let end = find_marker(content).unwrap_or(content.len());
        // the newline before the next marker belongs to the marker
        let file = if end < content.len() { &content[..end - 1] } else { content };
        if files.len() < MAX_FILES {
            files.push((name, file));
        }
        rest = &content[end..];
    }
    (header, files)
}

/// Offset of the first "@@ " that starts a line (after a '\n') in `content`.
fn find_marker(content: &[u8]) -> Option<usize> {
    content.windows(4).position(|w| w == b"\n@@ ").map(|p| p + 1)
}

/// A tree named `origin` holding `files` under `prefix`; paths that would be
/// refused in an archive are dropped.
pub fn mem_tree(origin: &str, prefix: &str, files: &[(String, &[u8])]) -> MemTree {
    let mut t = MemTree::new(origin);
    for (name, bytes) in files {
        let full = if prefix.is_empty() { name.clone() } else { format!("{prefix}/{name}") };
        if let Ok(rel) = schedlab::archive::path::normalize(&full, origin) {
            if !rel.is_empty() {
                t.add_file(&rel, bytes.to_vec());
            }
        }
    }
    t
}

/// The inverse of [`split`] (used to write seeds).
pub fn join(header: &str, files: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut out = header.as_bytes().to_vec();
    for (name, bytes) in files {
        out.extend_from_slice(b"\n@@ ");
        out.extend_from_slice(name.as_bytes());
        out.push(b'\n');
        out.extend_from_slice(bytes);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let files = vec![("a/b".to_string(), b"x\ny".to_vec()), ("c".to_string(), b"".to_vec())];
        let data = join("hdr", &files);
        let (h, got) = split(&data);
        assert_eq!(h, b"hdr");
        let got: Vec<(String, Vec<u8>)> = got.into_iter().map(|(n, b)| (n, b.to_vec())).collect();
        assert_eq!(got, files);
    }
}
