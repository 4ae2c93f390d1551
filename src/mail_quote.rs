//! Tables quoted in a mail reply: every line of a quoted table starts with `>` (one per
//! reply level, usually followed by a space). The table parsers read through the quoting
//! so that a table pasted from a reply parses as the original; line numbers are kept.

use std::borrow::Cow;

/// `text` without its reply quoting: while every non-blank line starts with `>`, one
/// level is removed from each line (the `>` and one space after it, if any). Text with
/// any unquoted non-blank line is returned as it is.
pub fn unquote(text: &str) -> Cow<'_, str> {
    let quoted = |t: &str| {
        let mut any = false;
        for l in t.lines() {
            if l.trim().is_empty() {
                continue;
            }
            if !l.starts_with('>') {
                return false;
            }
            any = true;
        }
        any
    };
    if !quoted(text) {
        return Cow::Borrowed(text);
    }
    let mut cur = text.to_string();
    while quoted(&cur) {
        let mut next = String::with_capacity(cur.len());
        for l in cur.split_inclusive('\n') {
            let body = l.strip_prefix('>').unwrap_or(l);
            next.push_str(body.strip_prefix(' ').unwrap_or(body));
        }
        cur = next;
    }
    Cow::Owned(cur)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_and_two_reply_levels() {
        let table = "           a      b\nHmean 1  1.00 ( 0.00%)\n";
        assert_eq!(unquote(">            a      b\n> Hmean 1  1.00 ( 0.00%)\n"), table);
        assert_eq!(
            unquote(">>            a      b\n>\n>> Hmean 1  1.00 ( 0.00%)\n"),
            "           a      b\n\nHmean 1  1.00 ( 0.00%)\n"
        );
        assert_eq!(unquote("> > x\n> > y\n"), "x\ny\n");
        // not every line quoted: untouched
        assert_eq!(unquote("> x\ny\n"), "> x\ny\n");
        assert_eq!(unquote(""), "");
    }
}
