//! A progress bar on stderr for long batch runs (drawn only when asked: the
//! caller decides, e.g. when stderr is a terminal, so CI logs stay clean).

use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const WIDTH: usize = 30;
const EVERY: Duration = Duration::from_millis(100);

/// Counts finished inputs and redraws `[#####-----] k/n inputs` at most every 100 ms.
pub struct Progress {
    total: usize,
    done: AtomicUsize,
    enabled: bool,
    last: Mutex<Option<Instant>>,
}

/// The bar for `done` of `total`: `[###---] done/total inputs` (`WIDTH` cells).
pub fn bar(done: usize, total: usize) -> String {
    let filled = (done.min(total) * WIDTH).checked_div(total).unwrap_or(WIDTH);
    format!("[{}{}] {done}/{total} inputs", "#".repeat(filled), "-".repeat(WIDTH - filled))
}

impl Progress {
    /// A counter of `total` inputs; draws nothing unless `enabled`.
    pub fn new(total: usize, enabled: bool) -> Self {
        Progress { total, done: AtomicUsize::new(0), enabled, last: Mutex::new(None) }
    }

    /// One more input finished.
    pub fn tick(&self) {
        let done = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        if !self.enabled {
            return;
        }
        let mut last = self.last.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        if done < self.total && last.is_some_and(|t| now.duration_since(t) < EVERY) {
            return;
        }
        *last = Some(now);
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\rschedlab batch: {}", bar(done, self.total));
        let _ = err.flush();
    }

    /// End the bar's line.
    pub fn finish(&self) {
        if self.enabled {
            let _ = writeln!(std::io::stderr());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bar_by_hand() {
        assert_eq!(bar(0, 4), format!("[{}] 0/4 inputs", "-".repeat(30)));
        assert_eq!(bar(2, 4), format!("[{}{}] 2/4 inputs", "#".repeat(15), "-".repeat(15)));
        assert_eq!(bar(4, 4), format!("[{}] 4/4 inputs", "#".repeat(30)));
    }
}
