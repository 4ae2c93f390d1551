//! lkp-tests' String extensions (lib/string.rb) the log parsers call on each line:
//! `uncolorize`, `plain_text`, `strip_nonprintable_characters` (docs/lkp-stats.md §5).

use super::ruby::re;
use super::ruby_regex::is_print;
use regex::Regex;
use std::borrow::Cow;
use std::sync::OnceLock;

/// `uncolorize`: SGR colour sequences (`ESC[…m`, up to three numbers) and `ESC[K` removed.
pub fn uncolorize(s: &str) -> Cow<'_, str> {
    static P: OnceLock<[Regex; 2]> = OnceLock::new();
    let [sgr, erase] = P.get_or_init(|| [re(r"\e\[(\d+)?(;\d+)?(;\d+)?m"), re(r"\e\[K")]);
    match sgr.replace_all(s, "") {
        Cow::Borrowed(b) => erase.replace_all(b, ""),
        Cow::Owned(o) => Cow::Owned(erase.replace_all(&o, "").into_owned()),
    }
}

/// `plain_text`: colour sequences removed, `\r` made `\n`, then every character neither
/// printable nor `\n` removed.
pub fn plain_text(s: &str) -> String {
    static P: OnceLock<Regex> = OnceLock::new();
    let color = P.get_or_init(|| re(r"\e\[([0-9;]+m|[mK])"));
    color
        .replace_all(s, "")
        .chars()
        .map(|c| if c == '\r' { '\n' } else { c })
        .filter(|&c| c == '\n' || is_print(c))
        .collect()
}

/// `strip_nonprintable_characters`: every character not printable (`[^[:print:]]`) removed.
pub fn strip_nonprintable(s: &str) -> String {
    s.chars().filter(|&c| is_print(c)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn as_lkp() {
        // lib/string.rb, Ruby 3.1: "\e[32mPASS\e[0m x\e[K".uncolorize = "PASS x",
        // "\e[1;31ma\rb\tc\n".plain_text = "a\nbc\n", "a\tb\u0085c".strip_nonprintable_characters = "abc"
        assert_eq!(uncolorize("\x1b[32mPASS\x1b[0m x\x1b[K"), "PASS x");
        assert_eq!(plain_text("\x1b[1;31ma\rb\tc\n"), "a\nbc\n");
        assert_eq!(strip_nonprintable("a\tb\u{85}c"), "abc");
    }
}
