//! CoreMark as lkp-tests' programs/coremark/parse reads it: the text after the first
//! `:` of each `Iterations/Sec` line, as printed (its leading space kept).

use super::ruby::{self, Lines};

/// Parse CoreMark output.
pub fn parse(text: &str, _path: &str) -> Lines {
    let mut out = String::new();
    for line in ruby::lines(text) {
        if line.starts_with("Iterations/Sec") {
            // `line.split(':', 2)[1]`: nil (printed as "") without a ':'
            let rest = line.split_once(':').map_or("", |(_, r)| r);
            ruby::puts(&mut out, &format!("iterations_per_sec: {rest}"));
        }
    }
    Ok(out)
}
