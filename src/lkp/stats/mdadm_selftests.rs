//! mdadm's test suite output as lkp-tests' programs/mdadm-selftests/parse (awk) reads
//! it: fields split at `... `; a line with the separator and nothing after it, or
//! whose second field says `FAILED`, as `<test>.fail: 1`, `succeeded` as
//! `<test>.pass: 1`, the test name being the first field from its 39th character.

/// awk's `substr(s, 39)`: the characters from the 39th on.
fn from_39th(s: &str) -> &str {
    s.char_indices().nth(38).map_or("", |(i, _)| s.get(i..).unwrap_or(""))
}

/// Parse mdadm test output.
pub fn parse(text: &str) -> String {
    let mut out = String::new();
    for record in text.split_inclusive('\n').map(|l| l.strip_suffix('\n').unwrap_or(l)) {
        let mut fields = record.split("... ");
        let first = fields.next().unwrap_or("");
        let second = fields.next().unwrap_or("");
        let name = from_39th(first);
        // three awk rules, each printing when it matches
        if record.contains("... ") && second.is_empty() {
            out.push_str(&format!("{name}.fail: 1\n"));
        }
        if second.contains("FAILED") {
            out.push_str(&format!("{name}.fail: 1\n"));
        }
        if second.contains("succeeded") {
            out.push_str(&format!("{name}.pass: 1\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn substr_39() {
        // gawk: substr("abc", 39) = "", substr(x, 39) of 40 characters = the last two
        assert_eq!(super::from_39th("abc"), "");
        assert_eq!(super::from_39th(&format!("{}xy", "a".repeat(38))), "xy");
    }
}
