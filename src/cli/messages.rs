//! The lines `schedlab mmtests compare` prints on standard error, and its exit code
//! for missing data, defined once for the Python command line and the native launcher
//! (docs/cli.md §2).

/// The note saying which MMTests era the files told and why; None when the user chose
/// the era (`--compat`) or the detection gave no reason.
///
/// ```
/// use schedlab::cli::messages::era_note;
/// assert_eq!(era_note("2025", "files of the 2025 layout", false).unwrap(),
///            "schedlab mmtests: note: MMTests 2025: files of the 2025 layout");
/// assert_eq!(era_note("2025", "files of the 2025 layout", true), None);
/// ```
pub fn era_note(era: &str, reason: &str, compat_given: bool) -> Option<String> {
    (!compat_given && !reason.is_empty()).then(|| format!("schedlab mmtests: note: MMTests {era}: {reason}"))
}

/// One line per missing datum the compare found (a log without a result line that
/// MMTests counts as 0, a run without some of the baseline's operations), and the
/// exit code: 2 when there is any and the user did not allow missing data (fail
/// closed, docs/batch.md), else 0.
///
/// ```
/// use schedlab::cli::messages::missing_data;
/// let (lines, code) = missing_data(&["run b: no result line".to_string()], false);
/// assert_eq!(lines, ["schedlab mmtests: error: missing data: run b: no result line"]);
/// assert_eq!(code, 2);
/// assert_eq!(missing_data(&["x".to_string()], true).1, 0);
/// ```
pub fn missing_data(warnings: &[String], allowed: bool) -> (Vec<String>, i32) {
    let level = if allowed { "warning" } else { "error" };
    let lines = warnings.iter().map(|w| format!("schedlab mmtests: {level}: missing data: {w}")).collect();
    (lines, if !warnings.is_empty() && !allowed { 2 } else { 0 })
}

/// The line a command stopped by Ctrl-C prints (exit code [`INTERRUPTED`]).
pub fn interrupted(command: &str) -> String {
    format!("schedlab {command}: interrupted")
}

/// The exit code of a command stopped by Ctrl-C (128 + SIGINT, as a shell reports it).
pub const INTERRUPTED: i32 = 130;
