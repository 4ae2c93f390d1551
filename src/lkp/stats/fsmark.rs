//! fs_mark as lkp-tests' programs/fsmark/parse reads it: after the `FSUse%` header, the
//! rows of five fields up to the first other line; the mean files per second and the
//! mean application overhead.

use super::ruby::{self, Lines};
use crate::lkp::num::{average, Num};
use crate::lkp::rubyfmt::float_to_s;

/// Parse fs_mark output.
pub fn parse(text: &str, _path: &str) -> Lines {
    let mut lines = ruby::lines(text);
    for line in lines.by_ref() {
        if line.starts_with("FSUse") {
            break;
        }
    }
    let (mut files, mut overhead): (Vec<Num>, Vec<Num>) = (Vec::new(), Vec::new());
    for line in lines {
        let f = ruby::split(line);
        if f.len() != 5 {
            break;
        }
        let field = |i: usize| f.get(i).map_or(0.0, |s| ruby::to_f(s));
        files.push(Num::Float(field(3)));
        overhead.push(Num::Float(field(4)));
    }
    let (Some(files), Some(overhead)) = (average(&files), average(&overhead)) else { return Ok(String::new()) };
    Ok(format!("files_per_sec: {}\napp_overhead: {}\n", float_to_s(files), float_to_s(overhead)))
}
