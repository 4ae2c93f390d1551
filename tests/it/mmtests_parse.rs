//! parse_compare on every golden table: the parsed Comparison re-renders to the
//! same bytes, and the seeds (mail-collapsed headers, 6 kernels) parse.

use schedlab::mmtests::parse_text::parse_compare;
use schedlab::mmtests::render_text::render;
use schedlab::table::Direction;
use std::path::Path;

#[test]
fn every_golden_table_round_trips() {
    let dir = crate::goldens::dir("mmtests");
    let debug = crate::goldens::unreproducible_prefixes(&["debug"]);
    let mut n = 0;
    for g in crate::goldens::read("mmtests").iter().filter(|g| g.get("set") == "out") {
        let p = dir.join(g.file());
        let text = std::fs::read_to_string(&p).unwrap();
        let text: String = crate::goldens::kept_lines(&text, &debug).iter().map(|l| format!("{l}\n")).collect();
        if text.is_empty() {
            continue;
        }
        let c = parse_compare(&text, &p.display().to_string()).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        assert_eq!(render(&c).unwrap(), text, "{}", p.display());
        n += 1;
    }
    assert!(n >= 50, "{n}");
}

#[test]
fn seeds_parse() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/mmtests/seeds");
    let t = std::fs::read_to_string(dir.join("mmtests-netperf-udp.txt")).unwrap();
    let c = parse_compare(&t, "seed").unwrap();
    assert_eq!(c.kernels.len(), 6);
    assert_eq!(c.kernels[5], "4.18.0-teo-v6+backport");
    assert_eq!(c.meta.machine.as_deref(), Some("8x-SKYLAKE-UMA"));
    assert_eq!(c.benchmark, "netperf-udp");
    // the seed's row "Hmean send-64 362.27 ... 318.85 * -11.99%*"
    assert_eq!(c.rows.get(0).unwrap().cells[2].value, Some(318.85));
    assert_eq!(c.rows.get(0).unwrap().cells[2].change, Some(-11.99));
    assert_eq!(c.rows.get(0).unwrap().cells[2].significant, Some(true));
    assert_eq!(c.meta.mmtests.as_ref().and_then(|m| m.preferred), Some(Direction::Higher));
    let d = parse_compare(&std::fs::read_to_string(dir.join("mmtests-dbench4.txt")).unwrap(), "seed").unwrap();
    assert_eq!(d.meta.mmtests.as_ref().and_then(|m| m.preferred), Some(Direction::Lower));
    assert_eq!(d.rows.len(), 7);
}
