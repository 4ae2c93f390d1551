//! Archive readers on archives built here: every container kind, and the hostile
//! ones (path traversal, links out, bombs, truncation, corrupt zip directory).

use schedlab::archive::{self, Limits, Tree};
use std::io::Write;
use std::path::{Path, PathBuf};

fn tar_bytes(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut b = tar::Builder::new(Vec::new());
    for (name, data) in entries {
        let mut h = tar::Header::new_gnu();
        h.set_size(data.len() as u64);
        h.set_mode(0o644);
        h.set_entry_type(tar::EntryType::Regular);
        // set the raw name bytes so that hostile names survive the builder's checks
        let raw = &mut h.as_old_mut().name;
        raw[..name.len()].copy_from_slice(name.as_bytes());
        h.set_cksum();
        b.append(&h, *data).unwrap();
    }
    b.into_inner().unwrap()
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

fn gz(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn xz(bytes: &[u8]) -> Vec<u8> {
    let mut e = xz2::write::XzEncoder::new(Vec::new(), 6);
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn zip_bytes(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, data) in entries {
        w.start_file(*name, zip::write::SimpleFileOptions::default()).unwrap();
        w.write_all(data).unwrap();
    }
    w.finish().unwrap().into_inner()
}

const FILES: &[(&str, &[u8])] = &[
    ("work/log/a/iter-0/hackbench/logs/hackbench-1-1", b"Total time: 0.081 [sec]\n"),
    ("work/log/b/iter-0/hackbench/logs/hackbench-1-1", b"Total time: 0.085 [sec]\n"),
];

fn check_tree(t: &dyn Tree) {
    assert_eq!(t.list("work/log").unwrap(), vec!["a", "b"]);
    assert_eq!(&*t.read(FILES[0].0).unwrap(), FILES[0].1);
    assert!(t.is_dir("work/log/a/iter-0/hackbench"));
}

#[test]
fn every_kind_reads_the_same_tree() {
    let d = tempfile::tempdir().unwrap();
    let tar = tar_bytes(FILES);
    let paths = [
        write(d.path(), "r.tar", &tar),
        write(d.path(), "r.tar.gz", &gz(&tar)),
        write(d.path(), "r.tgz", &gz(&tar)),
        write(d.path(), "r.tar.xz", &xz(&tar)),
        write(d.path(), "r.zip", &zip_bytes(FILES)),
    ];
    for p in &paths {
        let t = archive::open(p, &Limits::default()).unwrap();
        check_tree(t.as_ref());
    }
    let root = d.path().join("dir");
    for (name, data) in FILES {
        let p = root.join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, data).unwrap();
    }
    check_tree(archive::open(&root, &Limits::default()).unwrap().as_ref());
}

#[test]
fn traversal_is_refused_naming_archive_and_entry() {
    let d = tempfile::tempdir().unwrap();
    for (file, bytes) in [
        ("evil.tar.gz", gz(&tar_bytes(&[("../../etc/passwd", b"root:x:0:0")]))),
        ("evil.zip", zip_bytes(&[("../../etc/passwd", b"root:x:0:0")])),
        ("abs.tar", tar_bytes(&[("/etc/passwd", b"root")])),
    ] {
        let p = write(d.path(), file, &bytes);
        let e = archive::open(&p, &Limits::default()).err().expect("refused").to_string();
        assert!(e.contains(file) && e.contains("etc/passwd"), "{e}");
    }
}

#[test]
fn symlink_out_of_the_archive_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let mut b = tar::Builder::new(Vec::new());
    let mut h = tar::Header::new_gnu();
    h.set_entry_type(tar::EntryType::Symlink);
    h.set_size(0);
    b.append_link(&mut h, "work/log/a", "../../../etc").unwrap();
    let p = write(d.path(), "link.tar", &b.into_inner().unwrap());
    let e = archive::open(&p, &Limits::default()).err().expect("refused").to_string();
    assert!(e.contains("link.tar") && e.contains("points outside"), "{e}");
}

#[test]
fn bombs_stop_at_the_limit() {
    let d = tempfile::tempdir().unwrap();
    // 64 MiB of zeros in one entry compresses to ~64 KiB
    let zeros = vec![0u8; 64 << 20];
    let p = write(d.path(), "bomb.tar.gz", &gz(&tar_bytes(&[("big.log", &zeros)])));
    drop(zeros);
    let small = Limits { max_total_bytes: 8 << 20, max_entry_bytes: 4 << 20, max_entries: 100 };
    let e = archive::open(&p, &small).err().expect("refused").to_string();
    assert!(e.contains("bomb.tar.gz") && e.contains("big.log") && e.contains("limit"), "{e}");
    let many: Vec<(String, Vec<u8>)> = (0..200).map(|i| (format!("f{i}"), vec![b'x'])).collect();
    let refs: Vec<(&str, &[u8])> = many.iter().map(|(n, d)| (n.as_str(), d.as_slice())).collect();
    let p = write(d.path(), "many.zip", &zip_bytes(&refs));
    let e = archive::open(&p, &small).err().expect("refused").to_string();
    assert!(e.contains("entries"), "{e}");
}

#[test]
fn truncated_and_corrupt_archives_are_errors() {
    let d = tempfile::tempdir().unwrap();
    let full = gz(&tar_bytes(FILES));
    let p = write(d.path(), "cut.tar.gz", &full[..full.len() / 2]);
    let e = archive::open(&p, &Limits::default()).err().expect("refused").to_string();
    assert!(e.contains("cut.tar.gz"), "{e}");
    let mut z = zip_bytes(FILES);
    let n = z.len();
    for b in &mut z[n - 30..n - 10] {
        *b = 0xff; // wreck the central directory
    }
    let p = write(d.path(), "bad.zip", &z);
    let e = archive::open(&p, &Limits::default()).err().expect("refused").to_string();
    assert!(e.contains("bad.zip") && e.contains("zip"), "{e}");
    let p = write(d.path(), "notes.txt", b"hello");
    let e = archive::open(&p, &Limits::default()).err().expect("refused").to_string();
    assert!(e.contains("not a directory or a supported archive"), "{e}");
}
