//! cpuidle inputs: idle traces (CSV), state tables (CSV and sysfs dumps), ftrace text.

use super::common::{bounded, line_count, parse_error};
use schedlab::idle::governor::Spec;
use schedlab::idle::states::StateTable;
use schedlab::idle::{ftrace as idle_ftrace, simulate, trace as idle_trace};
use schedlab::import_notes::ImportOptions;

const PATH: &str = "fuzz.csv";

/// Replay a checked trace through every governor on a preset table: whatever the
/// reader accepts, the simulator must handle (no overflow, no panic) and give one
/// result row per period.
fn replay(periods: &[idle_trace::IdlePeriod]) {
    let n = periods.len().min(64);
    let Ok(table) = StateTable::preset("intel-skx") else { panic!("preset") };
    for spec in Spec::ALL {
        for hz in [250, 1000] {
            let sim = simulate::simulate(spec, &table, &periods[..n], hz, true)
                .unwrap_or_else(|e| panic!("{spec} refused a checked trace: {e}"));
            assert_eq!(sim.len(), n);
        }
    }
}

/// [`idle_trace::parse_csv`]: errors name file, line and column; the trace written by
/// [`idle_trace::to_csv`] reads back equal; the governors replay it.
pub fn trace(data: &[u8]) {
    let periods = match idle_trace::parse_csv::<Vec<schedlab::idle::IdlePeriod>>(data, Some(PATH)) {
        Ok(p) => p,
        Err(e) => return parse_error(&e, Some(PATH), line_count(data)),
    };
    bounded(periods.len() * 8, data.len(), "trace rows");
    let csv = idle_trace::to_csv(&periods);
    let back = idle_trace::parse_csv::<Vec<schedlab::idle::IdlePeriod>>(csv.as_bytes(), None)
        .unwrap_or_else(|e| panic!("to_csv does not read back: {e}"));
    assert_eq!(back, periods);
    replay(&periods);
}

fn table_round_trip(t: &StateTable) {
    let csv = t.to_csv();
    let back = StateTable::parse_csv(csv.as_bytes(), None)
        .unwrap_or_else(|e| panic!("a state table's CSV does not read back: {e}\n{csv}"));
    assert_eq!(&back, t, "CSV round trip changed the table:\n{csv}");
}

/// [`StateTable::parse_csv`]: errors name file and line; the table's CSV reads back equal.
pub fn states(data: &[u8]) {
    match StateTable::parse_csv(data, Some(PATH)) {
        Ok(t) => table_round_trip(&t),
        Err(e) => parse_error(&e, Some(PATH), line_count(data)),
    }
}

/// [`StateTable::parse_sysfs_dump`] (`grep . .../cpuidle/state*/*`): errors name file
/// and line; the table's CSV reads back equal.
pub fn sysfs(data: &[u8]) {
    match StateTable::parse_sysfs_dump(data, Some("dump.txt")) {
        Ok(t) => table_round_trip(&t),
        Err(e) => parse_error(&e, Some("dump.txt"), line_count(data)),
    }
}

/// [`idle_ftrace::parse`]: one trace per CPU whose columns have one entry per period,
/// whose periods pass the trace checker (written as CSV they read back equal) and which
/// the governors replay.
pub fn ftrace(data: &[u8]) {
    let hz = [250, 1000, 100, 300][data.first().map_or(0, |b| *b as usize % 4)];
    let cpus = match idle_ftrace::parse(data, Some("trace.txt"), hz, ImportOptions { strict: true, sort: false }) {
        Ok(c) => c.cpus,
        Err(e) => return parse_error(&e, Some("trace.txt"), line_count(data)),
    };
    let total: usize = cpus.iter().map(|c| c.periods.len()).sum();
    bounded(total * 8, data.len(), "ftrace periods");
    accepted(&cpus);
}

/// Every CPU's periods pass the strict trace checker and replay.
pub(crate) fn accepted(cpus: &[idle_ftrace::CpuTrace]) {
    for c in cpus {
        assert_eq!(c.periods.len(), c.timestamp_ns.len());
        assert_eq!(c.periods.len(), c.actual_state.len());
        let csv = idle_trace::to_csv(&c.periods);
        let back = idle_trace::parse_csv::<Vec<schedlab::idle::IdlePeriod>>(csv.as_bytes(), None)
            .unwrap_or_else(|e| panic!("ftrace gave CPU {} a period the trace checker refuses: {e}", c.cpu));
        assert_eq!(back, c.periods);
        replay(&c.periods);
    }
}
