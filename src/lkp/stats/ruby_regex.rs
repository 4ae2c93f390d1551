//! Ruby (Onigmo) regular expressions as `regex` crate ones, with Ruby's meaning kept
//! (docs/lkp-stats.md §4): `^`/`$` match at line boundaries; `\d`, `\s`, `\w`, `\h`
//! and their negations are ASCII classes (in Ruby they are, for UTF-8 strings too),
//! while `\b` stays Unicode-aware as in Ruby; an escaped punctuation character is that
//! character (Ruby's `\/`, `\<`, `\-`); `\e` is ESC, `\uHHHH` a code point; `{,n}` is
//! `{0,n}`. Both engines prefer alternatives and repetitions in the same order
//! (leftmost-first), so a match and its groups are Ruby's.
//!
//! What the `regex` crate cannot do (look-around, back-references, atomic groups,
//! possessive quantifiers, `\Z`, POSIX bracket classes, whose Ruby meaning is Unicode)
//! is refused, as are the POSIX bracket classes other than `[:digit:]`, `[:space:]`,
//! `[:word:]` (Unicode in Ruby, as here) and `[:xdigit:]`: lkp's patterns that need
//! them are written out by hand in the parser.

use regex::Regex;

/// The `regex` crate form of the Ruby pattern `src` (`icase`: Ruby's `/i`), or why it
/// has none.
pub fn translate(src: &str, icase: bool) -> Result<String, String> {
    let mut out = String::from(if icase { "(?mi)" } else { "(?m)" });
    let chars: Vec<char> = src.chars().collect();
    let mut i = 0;
    // depth of character classes (Ruby nests them: `[a-z&&[^aeiou]]`)
    let mut class = 0usize;
    // at the first item of a class, where `]` is a literal and `^` negates
    let mut class_start = false;
    while let Some(&c) = chars.get(i) {
        let next = chars.get(i + 1).copied();
        let first = std::mem::replace(&mut class_start, false);
        match c {
            '\\' => {
                let Some(e) = next else { return Err("a trailing backslash".into()) };
                i += 2;
                let (outside, inside) = match e {
                    'd' => ("[0-9]", "0-9"),
                    's' => (r"[\t\n\x0B\x0C\r ]", r"\t\n\x0B\x0C\r "),
                    'w' => ("[0-9A-Za-z_]", "0-9A-Za-z_"),
                    'h' => ("[0-9A-Fa-f]", "0-9A-Fa-f"),
                    'D' => ("[^0-9]", ""),
                    'S' => (r"[^\t\n\x0B\x0C\r ]", ""),
                    'W' => ("[^0-9A-Za-z_]", ""),
                    'H' => ("[^0-9A-Fa-f]", ""),
                    _ => ("", ""),
                };
                if !outside.is_empty() {
                    if class == 0 {
                        out.push_str(outside);
                    } else if inside.is_empty() {
                        return Err(format!("\\{e} inside a character class"));
                    } else {
                        out.push_str(inside);
                    }
                    continue;
                }
                match e {
                    'b' | 'B' | 'A' | 'z' if class == 0 => {
                        out.push('\\');
                        out.push(e);
                    }
                    'n' | 't' | 'r' | 'f' | 'v' | 'a' => {
                        out.push('\\');
                        out.push(e);
                    }
                    'e' => out.push_str(r"\x1B"),
                    '0' if !chars.get(i).is_some_and(char::is_ascii_digit) => out.push_str(r"\x00"),
                    'x' => {
                        let hex: String = chars.iter().skip(i).take(2).take_while(|c| c.is_ascii_hexdigit()).collect();
                        if hex.is_empty() {
                            return Err("\\x without hex digits".into());
                        }
                        i += hex.len();
                        out.push_str(&format!("\\x{{{hex}}}"));
                    }
                    'u' => {
                        let hex: String = chars.iter().skip(i).take(4).collect();
                        if hex.len() != 4 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
                            return Err("\\u without four hex digits".into());
                        }
                        i += 4;
                        out.push_str(&format!("\\u{{{hex}}}"));
                    }
                    e if e.is_ascii_punctuation() || e == ' ' => {
                        let mut b = [0u8; 4];
                        out.push_str(&regex::escape(e.encode_utf8(&mut b)));
                    }
                    e => return Err(format!("the escape \\{e}")),
                }
                continue;
            }
            '[' if class > 0 && next == Some(':') => {
                // POSIX bracket classes are Unicode in Ruby: those the `regex` crate has
                // as Unicode classes without more tables
                let rest: String = chars.iter().skip(i).take(12).collect();
                let known = [
                    ("[:digit:]", r"\d"),
                    ("[:^digit:]", r"\D"),
                    ("[:space:]", r"\s"),
                    ("[:^space:]", r"\S"),
                    ("[:word:]", r"\w"),
                    ("[:^word:]", r"\W"),
                    ("[:xdigit:]", "0-9A-Fa-f"),
                ];
                let Some((name, class)) = known.iter().find(|(n, _)| rest.starts_with(n)) else {
                    return Err(format!("the POSIX bracket class {}", rest.split(']').next().unwrap_or("")));
                };
                out.push_str(class);
                i += name.chars().count();
                continue;
            }
            '[' => {
                class += 1;
                class_start = true;
                out.push('[');
                if next == Some('^') {
                    out.push('^');
                    i += 1;
                }
            }
            ']' if class > 0 && !first => {
                class -= 1;
                out.push(']');
            }
            ']' if class > 0 => out.push_str(r"\]"),
            '(' if class == 0 && next == Some('?') => {
                let rest: String = chars.iter().skip(i + 2).take(2).collect();
                if rest.starts_with('<') && !rest.starts_with("<=") && !rest.starts_with("<!")
                    || rest.starts_with(':')
                    || rest.starts_with(['i', 'x', '-'])
                {
                    out.push('(');
                } else {
                    return Err(format!("the group (?{rest}"));
                }
            }
            '{' if class == 0 => {
                // an interval `{n}`, `{n,}`, `{,m}`, `{n,m}`; any other `{` is a literal in Ruby
                let rest: String = chars.iter().skip(i + 1).take_while(|c| **c != '}').collect();
                let closed = chars.get(i + 1 + rest.chars().count()) == Some(&'}');
                let (lo, hi) = rest.split_once(',').map_or((rest.as_str(), None), |(a, b)| (a, Some(b)));
                let digits = |s: &str| s.chars().all(|c| c.is_ascii_digit());
                let valid = closed
                    && digits(lo)
                    && hi.is_none_or(digits)
                    && (!lo.is_empty() || hi.is_some_and(|h| !h.is_empty()));
                if !valid {
                    out.push_str(r"\{");
                } else {
                    if chars.get(i + 2 + rest.chars().count()) == Some(&'+') {
                        return Err("a possessive quantifier".into());
                    }
                    out.push('{');
                    out.push_str(if lo.is_empty() { "0" } else { lo });
                    if let Some(h) = hi {
                        out.push(',');
                        out.push_str(h);
                    }
                    out.push('}');
                    i += rest.chars().count() + 2;
                    continue;
                }
            }
            '}' if class == 0 => out.push_str(r"\}"),
            '+' | '*' | '?' if class == 0 && next == Some('+') => {
                return Err("a possessive quantifier".into());
            }
            // the `regex` crate reads `&&`, `--` and `~~` in a class as set operations and
            // `[` as a nested class: Ruby has `&&` alone (and `[` nests)
            '-' | '~' if class > 0 && next == Some(c) => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
        i += 1;
    }
    if class > 0 {
        return Err("an unclosed character class".into());
    }
    Ok(out)
}

/// A Ruby pattern built into schedlab (lkp's literal regexp), compiled; a pattern this
/// module cannot translate is a schedlab bug.
pub fn rre(src: &str) -> Regex {
    translate(src, false)
        .and_then(|p| Regex::new(&p).map_err(|e| e.to_string()))
        .unwrap_or_else(|e| panic!("schedlab bug: built-in Ruby pattern /{src}/: {e}"))
}

/// [`rre`] with Ruby's `/i`.
pub fn rre_i(src: &str) -> Regex {
    translate(src, true)
        .and_then(|p| Regex::new(&p).map_err(|e| e.to_string()))
        .unwrap_or_else(|e| panic!("schedlab bug: built-in Ruby pattern /{src}/i: {e}"))
}

/// Ruby's `[[:print:]]` for a character of a UTF-8 string: not a control (C0, DEL,
/// C1), not the line or paragraph separator, not a noncharacter. (Ruby also takes
/// code points unassigned in its Unicode version as not printable; schedlab takes them
/// as printable.)
pub fn is_print(c: char) -> bool {
    let u = u32::from(c);
    let control = u < 0x20 || (0x7f..=0x9f).contains(&u);
    let separator = c == '\u{2028}' || c == '\u{2029}';
    let nonchar = (0xfdd0..=0xfdef).contains(&u) || u & 0xfffe == 0xfffe;
    !(control || separator || nonchar)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_classes_and_line_anchors() {
        // Ruby 3.1: "٣" =~ /\d/ → nil, "\u00a0" =~ /\s/ → nil, "é" =~ /\w/ → nil,
        // "aé" =~ /a\b/ → nil (\b is Unicode-aware), "a\nb" =~ /^b$/ → 2
        assert!(!rre(r"\d").is_match("٣"));
        assert!(!rre(r"\s").is_match("\u{a0}"));
        assert!(!rre(r"\w").is_match("é"));
        assert!(!rre(r"a\b").is_match("aé"));
        assert_eq!(rre(r"^b$").find("a\nb").map(|m| m.start()), Some(2));
        assert!(rre(r"[\s,]x").is_match("\x0bx"));
        assert!(rre(r"\/tmp\/\<\-").is_match("/tmp/<-"));
        assert!(rre(r"a{,2}b").is_match("aab") && rre(r"^a{2}$").is_match("aa") && rre(r"a{1,}").is_match("a"));
        // Ruby: a `{` that is not an interval is itself: "x{ y }" =~ /x{ y }/ → 0
        assert!(rre(r"x{ y }").is_match("x{ y }") && rre(r"{a,b}").is_match("{a,b}"));
        assert!(rre(r"(?<r>ok|not ok) \d+").is_match("not ok 3"));
        assert!(rre(r"[^\]a]b").is_match("xb") && !rre(r"[^\]a]b").is_match("]b"));
        assert!(rre(r"[]a]").is_match("]"));
        assert!(rre(r"[a-z&&[^aeiou]]").is_match("b") && !rre(r"[a-z&&[^aeiou]]").is_match("a"));
        assert!(rre(r"#\[0-5\]-&").is_match("#[0-5]-&"));
        assert!(rre_i(r"^# running (.+)").is_match("# RUNNING x"));
        assert!(rre(r"\e\[K").is_match("\x1b[K"));
        // Ruby 3.1: "٣" =~ /[[:digit:]]/ → 0, "\u00a0" =~ /[[:space:]]/ → 0
        assert!(rre(r"[[:digit:]]").is_match("٣") && rre(r"[[:space:]]").is_match("\u{a0}"));
        assert!(rre(r"[^[:digit:]x]").is_match("y") && !rre(r"[^[:digit:]x]").is_match("1"));
    }

    #[test]
    fn print_class_as_ruby() {
        // Ruby 3.1: [c].pack("U") =~ /[[:print:]]/ for U+0085 nil, U+00A0 0, U+200B 0,
        // U+2028 nil, U+E000 0, U+00AD 0, U+007F nil, U+001F nil, U+0020 0, U+FFFF nil,
        // U+1F600 0, U+F0000 0
        let printable = |u: u32| is_print(char::from_u32(u).unwrap());
        for u in [0xa0, 0x200b, 0xe000, 0xad, 0x20, 0x1f600, 0xf0000] {
            assert!(printable(u), "{u:x}");
        }
        for u in [0x85, 0x2028, 0x7f, 0x1f, 0xffff] {
            assert!(!printable(u), "{u:x}");
        }
    }

    #[test]
    fn what_the_regex_crate_lacks_is_refused() {
        for p in [r"a(?=b)", r"(?<!a)b", r"(a)\1", r"a++", r"(?>a)", r"[[:print:]]", r"[[:alpha:]]", r"\Z", r"[\S]"] {
            assert!(translate(p, false).is_err(), "{p}");
        }
    }
}
