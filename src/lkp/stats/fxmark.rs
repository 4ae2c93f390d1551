//! FxMark as lkp-tests' programs/fxmark/parse reads it: per test header
//! (`## <media>:<fs>:<bench>:<ncpu>:<mode>`) the column names of the next `# ncpu …`
//! line and the values of the data row after it (`.` in a name becomes `_`); values
//! that do not start with a digit (`-nan`) are left out, as is a row for another
//! CPU count.

use super::ruby::{self, bad_line, re, Hash, Lines};
use regex::Regex;
use std::sync::OnceLock;

/// Parse FxMark output (`path` names it in errors: a column header at the end, where
/// lkp's Ruby fails reading the data row).
pub fn parse(text: &str, path: &str) -> Lines {
    static P: OnceLock<[Regex; 3]> = OnceLock::new();
    let [test, columns, digit] = P.get_or_init(|| [re("^## (hdd|ssd|nvme|mem)(.*)"), re("^# ncpu"), re(r"^\d")]);
    let mut stats: Hash<String> = Hash::default();
    // lkp's `name` and `cpu` start as nil (a nil name prints as "")
    let (mut name, mut cpu): (String, Option<String>) = (String::new(), None);
    let mut lines = ruby::lines(text).enumerate();
    while let Some((ln, raw)) = lines.next() {
        let line = ruby::chomp(raw);
        if test.is_match(line) {
            name = line.chars().skip(3).collect::<String>().replace(':', "_");
            cpu = ruby::at(&ruby::split_on(line, ':'), -2).map(|s| s.to_string());
        } else if columns.is_match(line) {
            let names: Vec<String> = ruby::split(&line.chars().skip(2).collect::<String>().replace('.', "_"))
                .into_iter()
                .map(str::to_string)
                .collect();
            let missing = || bad_line(path, ln + 1, "expected a data row after the column header (lkp's Ruby fails)");
            let mut data = lines.next().ok_or_else(missing)?.1;
            // one empty line may come between the header and the row
            if data.chars().count() == 1 {
                data = lines.next().ok_or_else(missing)?.1;
            }
            let values = ruby::split(data);
            if values.first().copied() != cpu.as_deref() {
                continue;
            }
            for (i, s) in names.iter().enumerate() {
                if let Some(v) = values.get(i).filter(|v| digit.is_match(v)) {
                    stats.set(&format!("{name}.{s}"), v.to_string());
                }
            }
        }
    }
    let mut out = String::new();
    for (k, v) in stats.iter() {
        out.push_str(&format!("{k}: {v}\n"));
    }
    Ok(out)
}
