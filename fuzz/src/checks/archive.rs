//! Archive readers (tar, tar.gz, tar.xz, zip) on in-memory bytes, then the result
//! discovery that `schedlab batch`, `mmtests compare` and `lkp compare` run on them.

use super::common::typed_error;
use schedlab::archive::tree::{walk, Tree};
use schedlab::archive::{self, Limits, MemTree};
use schedlab::Error;

/// Small limits, so that the fuzzer can reach every one of them.
pub const LIMITS: Limits = Limits { max_total_bytes: 1 << 20, max_entry_bytes: 256 << 10, max_entries: 512 };

const NAME: &str = "fuzz.archive";

/// Every path is a normalised relative path, every size within the limits, and every
/// file is listed by its directory.
fn check_tree(t: &MemTree) {
    let mut total = 0u64;
    let mut n = 0usize;
    for (path, size) in t.files() {
        n += 1;
        assert!(!path.is_empty() && !path.starts_with('/'), "bad path '{path}'");
        assert!(path.split('/').all(|c| !c.is_empty() && c != "." && c != ".."), "unnormalised path '{path}'");
        assert!(!path.contains('\\') && !path.contains('\0'), "unsafe path '{path}'");
        assert!(size as u64 <= LIMITS.max_entry_bytes, "'{path}' has {size} bytes");
        total += size as u64;
        let (dir, name) = path.rsplit_once('/').unwrap_or(("", path));
        let listed = t.list(dir).unwrap_or_else(|e| panic!("directory of '{path}' does not list: {e}"));
        assert!(listed.iter().any(|l| l == name), "'{path}' not listed in '{dir}'");
        assert!(t.is_file(path) && t.read(path).is_ok());
    }
    assert!(total <= LIMITS.max_total_bytes, "{total} bytes kept");
    assert!(n as u64 <= 2 * LIMITS.max_entries, "{n} files kept");
}

/// [`archive::read_bytes`]: a refused archive is a parse error naming it; an accepted
/// one obeys [`check_tree`]; MMTests and lkp discovery, and loading what they find, end
/// with a value or a typed error.
pub fn archive(data: &[u8]) {
    let t = match archive::read_bytes(data, NAME, &LIMITS) {
        Ok(t) => t,
        Err(e) => {
            match &e {
                Error::Parse { loc, .. } => assert_eq!(loc.path.as_deref(), Some(NAME), "{e}"),
                other => panic!("expected a parse error naming the archive, got {other:?}"),
            }
            return;
        }
    };
    check_tree(&t);
    let mut dirs = 0;
    walk(&t, &mut |_d: &str| {
        dirs += 1;
        Ok(true)
    })
    .unwrap_or_else(|e| typed_error(&e));
    match schedlab::mmtests::discover::find_runs(&t) {
        Ok((runs, _)) => {
            for r in runs.iter().take(2) {
                let names = vec![r.name.clone()];
                let opts = schedlab::mmtests::CompareOptions { threads: Some(1), ..Default::default() };
                if let Err(e) = schedlab::mmtests::compare(&t, &r.root, &r.benchmark, &names, &opts) {
                    typed_error(&e);
                }
            }
        }
        Err(e) => typed_error(&e),
    }
    match schedlab::lkp::matrix::find_roots(&t) {
        Ok(roots) => {
            for r in roots.iter().take(2) {
                if let Err(e) = schedlab::lkp::matrix::ResultRoot::load(&t, r) {
                    typed_error(&e);
                }
            }
        }
        Err(e) => typed_error(&e),
    }
}
