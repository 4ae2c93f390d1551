//! Progress of a long batch run on stderr (drawn only when asked: the caller
//! decides, e.g. a redrawn bar when stderr is a terminal, so CI logs stay clean, or
//! plain lines every few seconds for a CI log that wants them).

use serde::{Deserialize, Serialize};
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const WIDTH: usize = 30;
/// How often the terminal bar is redrawn.
const BAR_EVERY: Duration = Duration::from_millis(100);
/// How often a line is printed in [`Mode::Lines`].
const LINE_EVERY: Duration = Duration::from_secs(5);

/// How progress is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Mode {
    /// Nothing.
    #[default]
    Off,
    /// One bar redrawn in place with `\r` (a terminal).
    Bar,
    /// One full line every 5 seconds and at the end (a CI log).
    Lines,
}

impl crate::choice::Choice for Mode {
    const WHAT: &'static str = "progress";
    const ALL: &'static [Self] = &[Mode::Bar, Mode::Lines, Mode::Off];

    fn name(self) -> &'static str {
        match self {
            Mode::Off => "off",
            Mode::Bar => "bar",
            Mode::Lines => "lines",
        }
    }
}

/// Counts finished inputs and shows the count, the rate and the time left.
pub struct Progress {
    total: usize,
    done: AtomicUsize,
    mode: Mode,
    start: Instant,
    last: Mutex<Option<Instant>>,
}

/// `s` seconds as `42s`, `3m07s` or `2h05m`.
pub fn duration(s: f64) -> String {
    let s = s.max(0.0).round() as u64;
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, s % 3600 / 60),
    }
}

/// The status for `done` of `total` inputs after `elapsed` seconds:
/// `[###---] done/total inputs, R/s, ETA T` (`WIDTH` cells). The rate is the
/// mean since the start; the ETA is the inputs left at that rate (none before
/// the first input finished, `done` in its place at the end).
pub fn bar(done: usize, total: usize, elapsed: f64) -> String {
    let filled = (done.min(total) * WIDTH).checked_div(total).unwrap_or(WIDTH);
    let mut s = format!("[{}{}] {done}/{total} inputs", "#".repeat(filled), "-".repeat(WIDTH - filled));
    if done == 0 || elapsed <= 0.0 {
        return s;
    }
    let rate = done as f64 / elapsed;
    let shown = if rate >= 10.0 { format!("{rate:.0}") } else { format!("{rate:.2}") };
    s.push_str(&format!(", {shown}/s"));
    if done >= total {
        s.push_str(&format!(", done in {}", duration(elapsed)));
    } else {
        s.push_str(&format!(", ETA {}", duration(total.saturating_sub(done) as f64 / rate)));
    }
    s
}

impl Progress {
    /// A counter of `total` inputs shown as `mode` says.
    pub fn new(total: usize, mode: Mode) -> Self {
        Progress { total, done: AtomicUsize::new(0), mode, start: Instant::now(), last: Mutex::new(None) }
    }

    /// One more input finished.
    pub fn tick(&self) {
        let done = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        let every = match self.mode {
            Mode::Off => return,
            Mode::Bar => BAR_EVERY,
            Mode::Lines => LINE_EVERY,
        };
        let mut last = self.last.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        let since = last.map_or(now.duration_since(self.start), |t| now.duration_since(t));
        if done < self.total && since < every {
            return;
        }
        *last = Some(now);
        let status = bar(done, self.total, now.duration_since(self.start).as_secs_f64());
        let mut err = std::io::stderr().lock();
        let _ = match self.mode {
            Mode::Bar => write!(err, "\rschedlab batch: {status}"),
            _ => writeln!(err, "schedlab batch: {status}"),
        };
        let _ = err.flush();
    }

    /// End the bar's line.
    pub fn finish(&self) {
        if self.mode == Mode::Bar {
            let _ = writeln!(std::io::stderr());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bar_by_hand() {
        assert_eq!(bar(0, 4, 0.0), format!("[{}] 0/4 inputs", "-".repeat(30)));
        // 2 inputs in 4 s: 0.5 inputs/s, 2 left at that rate = 4 s
        assert_eq!(bar(2, 4, 4.0), format!("[{}{}] 2/4 inputs, 0.50/s, ETA 4s", "#".repeat(15), "-".repeat(15)));
        // 50 of 1000 in 2 s: 25/s, 950 left = 38 s
        assert_eq!(bar(50, 1000, 2.0), format!("[{}{}] 50/1000 inputs, 25/s, ETA 38s", "#", "-".repeat(29)));
        assert_eq!(bar(4, 4, 130.0), format!("[{}] 4/4 inputs, 0.03/s, done in 2m10s", "#".repeat(30)));
    }

    #[test]
    fn durations_by_hand() {
        assert_eq!(duration(0.4), "0s");
        assert_eq!(duration(187.0), "3m07s");
        assert_eq!(duration(7500.0), "2h05m");
    }
}
