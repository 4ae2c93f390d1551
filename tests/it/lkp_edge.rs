//! Edge cases of the parsers (tests/data/lkp/edge/<program>/<case>, written by
//! tools/oracles/lkp/edge_cases.py to reach the branches lkp-tests' own fixtures leave
//! out): where lkp's own parser prints `<case>.yaml`, schedlab prints the same text
//! (compared as lkp's stats_spec.rb compares); where lkp's parser exits with an error
//! (`<case>.error` holds its message), schedlab returns a parse error naming the file.

use schedlab::lkp::stats::program;
use std::path::Path;

fn chomp(s: &str) -> &str {
    s.strip_suffix("\r\n").or_else(|| s.strip_suffix('\n')).unwrap_or(s)
}

#[test]
fn edge_cases_agree_with_lkps_parsers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/lkp/edge");
    let mut programs: Vec<_> =
        std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()).collect();
    programs.sort();
    let (mut failures, mut report, mut total) = (Vec::new(), Vec::new(), 0);
    for dir in &programs {
        let name = dir.file_name().unwrap().to_str().unwrap();
        let mut cases: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "yaml" || e == "error"))
            .collect();
        cases.sort();
        let mut pass = 0;
        for expected in &cases {
            let input = expected.with_extension("");
            let shown = input.display().to_string();
            let got = program::parse(name, &std::fs::read_to_string(&input).unwrap(), &shown)
                .unwrap_or_else(|| panic!("no parser for {name}"));
            let want = std::fs::read_to_string(expected).unwrap();
            match (expected.extension().unwrap().to_str().unwrap(), got) {
                ("yaml", Ok(got)) if chomp(&got) == chomp(&want) => pass += 1,
                ("yaml", Ok(got)) => failures.push(format!("{shown}:\n--- want\n{want}\n--- got\n{got}")),
                ("yaml", Err(e)) => failures.push(format!("{shown}: {e}")),
                (_, Err(e)) if e.to_string().contains(&shown) => pass += 1,
                (_, Err(e)) => failures.push(format!("{shown}: the error does not name the file: {e}")),
                (_, Ok(got)) => {
                    failures.push(format!("{shown}: lkp's parser fails ({}), schedlab printed\n{got}", chomp(&want)))
                }
            }
        }
        total += cases.len();
        report.push(format!("{name}: {pass}/{}", cases.len()));
    }
    eprintln!("{}", report.join("\n"));
    assert!(total > 0, "no edge cases under {}", root.display());
    assert!(failures.is_empty(), "{}\n\n{}", report.join("\n"), failures.join("\n\n"));
}
