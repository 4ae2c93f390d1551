//! Cancellation of long computations (Ctrl-C): a process-wide flag that a caller
//! outside the core sets ([`request`]) and that long loops poll ([`check`]).
//!
//! The Python bindings set the flag when Python reports a pending signal (its
//! `KeyboardInterrupt` on Ctrl-C) while a core call runs without the GIL, and clear
//! it when that call has returned; every loop over input that can run for seconds
//! (PELT and util_est replay, idle governor replay, MMTests extraction, batch scans,
//! lkp matrix reading) calls [`check`] every few thousand iterations, so a call
//! stops within milliseconds. The flag is one for the process: an interrupt stops
//! every core call running at that moment, on any thread (docs/cancel.md).

use crate::error::{Error, Result};
use std::sync::atomic::{AtomicBool, Ordering};

/// A stop request: set from outside a computation, polled inside it.
#[derive(Debug, Default)]
pub struct Flag(AtomicBool);

impl Flag {
    /// A flag with no request.
    pub const fn new() -> Self {
        Flag(AtomicBool::new(false))
    }

    /// Request a stop.
    pub fn request(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Withdraw the request.
    pub fn clear(&self) {
        self.0.store(false, Ordering::Relaxed);
    }

    /// `Err(Error::Interrupted)` once a stop has been requested, else `Ok(())`.
    pub fn check(&self) -> Result<()> {
        if self.0.load(Ordering::Relaxed) {
            Err(Error::Interrupted)
        } else {
            Ok(())
        }
    }
}

/// The process's flag, behind [`request`], [`clear`] and [`check`].
static PROCESS: Flag = Flag::new();

/// How many iterations a loop may run between two [`check`]s: a power of two, so
/// that the test is a mask (a check is one relaxed atomic load).
pub const EVERY: usize = 4096;

/// Ask every running core computation to stop with [`Error::Interrupted`].
pub fn request() {
    PROCESS.request();
}

/// Withdraw the request (the interrupted call has returned).
pub fn clear() {
    PROCESS.clear();
}

/// `Err(Error::Interrupted)` once a stop has been requested, else `Ok(())`.
pub fn check() -> Result<()> {
    PROCESS.check()
}

/// [`check`] on every [`EVERY`]-th iteration `i` of a loop (0 included), nothing on
/// the others.
#[inline]
pub fn check_every(i: usize) -> Result<()> {
    if i.is_multiple_of(EVERY) {
        check()
    } else {
        Ok(())
    }
}

/// Sleep for `d` in slices of at most 10 ms, stopping early with
/// [`Error::Interrupted`] once a stop has been requested (a long wait in a loop that
/// must still answer Ctrl-C within milliseconds).
pub fn sleep(d: std::time::Duration) -> Result<()> {
    const SLICE: std::time::Duration = std::time::Duration::from_millis(10);
    let end = std::time::Instant::now() + d;
    loop {
        check()?;
        let now = std::time::Instant::now();
        if now >= end {
            return Ok(());
        }
        std::thread::sleep((end - now).min(SLICE));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_is_seen_until_cleared() {
        // a flag of its own: the process's would stop tests running beside this one
        let f = Flag::new();
        assert_eq!(f.check(), Ok(()));
        f.request();
        assert_eq!(f.check(), Err(Error::Interrupted));
        assert_eq!(f.check(), Err(Error::Interrupted));
        f.clear();
        assert_eq!(f.check(), Ok(()));
        assert_eq!(check_every(EVERY + 1), Ok(()));
    }
}
