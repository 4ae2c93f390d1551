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
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, OnceLock};

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

/// `Err(Error::Interrupted)` once a stop has been requested (or a [`StopAfter`]
/// hook has counted down), else `Ok(())`.
pub fn check() -> Result<()> {
    PROCESS.check()?;
    if hook_fired() {
        return Err(Error::Interrupted);
    }
    Ok(())
}

/// The environment variable that makes a process stop at its N-th check as if
/// Ctrl-C had been pressed there: the command line's tests stop a long command at a
/// known point instead of timing a signal (docs/cancel.md §3).
pub const STOP_AFTER_CHECKS_ENV: &str = "SCHEDLAB_STOP_AFTER_CHECKS";

/// A count of checks still allowed before every check answers `Interrupted`, and
/// optionally a [`Gate`] the first check pauses at.
#[derive(Debug)]
pub struct Countdown {
    left: AtomicI64,
    pause: Option<(Arc<Gate>, AtomicBool)>,
}

impl Countdown {
    fn new(checks: u64) -> Self {
        Countdown { left: AtomicI64::new(i64::try_from(checks).unwrap_or(i64::MAX)), pause: None }
    }

    /// Count one check; true once the allowance is used up. The first check of a
    /// pausing countdown (on whichever thread carries it) waits at its gate first; a
    /// gate never opened stops the computation instead of hanging it.
    fn fired(&self) -> bool {
        if let Some((gate, passed)) = &self.pause {
            if !passed.swap(true, Ordering::AcqRel) && !gate.pause() {
                return true;
            }
        }
        self.left.fetch_sub(1, Ordering::Relaxed) <= 0
    }
}

/// A meeting point for tests (docs/cancel.md §3): computations under a
/// [`StopAfter::pausing`] hook stop at their first [`check`] and wait there until the
/// test opens the gate, so a test can observe what holds while they are all inside at
/// once (other threads run, the GIL is free) without timing anything.
#[derive(Debug, Default)]
pub struct Gate {
    state: std::sync::Mutex<GateState>,
    changed: std::sync::Condvar,
}

#[derive(Debug, Default)]
struct GateState {
    reached: usize,
    open: bool,
    gave_up: bool,
}

impl Gate {
    /// How long a computation waits at a gate that is never opened before it gives up
    /// and stops (`Interrupted`): a guard against a test that hangs, not a time bound.
    pub const GIVE_UP: std::time::Duration = std::time::Duration::from_secs(300);

    /// A closed gate nobody has reached.
    pub fn new() -> Arc<Self> {
        Arc::new(Gate::default())
    }

    /// Arrive and wait until the gate is opened: true then, false after [`Self::GIVE_UP`].
    fn pause(&self) -> bool {
        let mut st = self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        st.reached += 1;
        self.changed.notify_all();
        let (mut st, timeout) = self
            .changed
            .wait_timeout_while(st, Self::GIVE_UP, |s| !s.open)
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if timeout.timed_out() && !st.open {
            st.gave_up = true;
            return false;
        }
        true
    }

    /// Wait until `n` computations have arrived (true), or `limit` has passed (false).
    pub fn wait_reached(&self, n: usize, limit: std::time::Duration) -> bool {
        let st = self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let (st, _) = self
            .changed
            .wait_timeout_while(st, limit, |s| s.reached < n)
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        st.reached >= n
    }

    /// How many computations have arrived so far.
    pub fn reached(&self) -> usize {
        self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner).reached
    }

    /// Whether a computation waited [`Self::GIVE_UP`] and stopped.
    pub fn gave_up(&self) -> bool {
        self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner).gave_up
    }

    /// Let every waiting (and later) computation through.
    pub fn open(&self) {
        self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner).open = true;
        self.changed.notify_all();
    }
}

thread_local! {
    static SCOPED: RefCell<Option<Arc<Countdown>>> = const { RefCell::new(None) };
}

/// The process's countdown from [`STOP_AFTER_CHECKS_ENV`], read once.
fn from_env() -> Option<&'static Countdown> {
    static ENV: OnceLock<Option<Countdown>> = OnceLock::new();
    ENV.get_or_init(|| {
        std::env::var(STOP_AFTER_CHECKS_ENV).ok().and_then(|v| v.trim().parse::<u64>().ok()).map(Countdown::new)
    })
    .as_ref()
}

fn hook_fired() -> bool {
    let scoped = SCOPED.with(|s| s.borrow().as_ref().map(|c| c.fired()));
    scoped.unwrap_or(false) || from_env().is_some_and(Countdown::fired)
}

/// The countdown of this thread's [`StopAfter`] hook, if one is in place (the pools
/// of `crate::parallel` hand it to their workers).
pub fn scoped_countdown() -> Option<Arc<Countdown>> {
    SCOPED.with(|s| s.borrow().clone())
}

/// Put `countdown` in place on this thread (a worker of a pool started under a
/// hook); `None` removes it.
pub fn set_scoped_countdown(countdown: Option<Arc<Countdown>>) {
    SCOPED.with(|s| *s.borrow_mut() = countdown);
}

/// A test hook: while it lives, this thread's computations (and the parallel work
/// they start) stop with `Interrupted` at their `checks + 1`-th [`check`], as if a
/// stop had been requested there, without touching the process's flag, so tests
/// running beside it are not stopped. `StopAfter::checks(0)` stops at the first
/// check. Dropping it removes the hook (docs/cancel.md §3).
#[derive(Debug)]
pub struct StopAfter {
    previous: Option<Arc<Countdown>>,
}

impl StopAfter {
    /// Allow `checks` checks, then stop.
    pub fn checks(checks: u64) -> Self {
        Self::install(Countdown::new(checks))
    }

    /// Pause the first check at `gate` until it is opened, then never stop.
    pub fn pausing(gate: Arc<Gate>) -> Self {
        Self::install(Countdown { pause: Some((gate, AtomicBool::new(false))), ..Countdown::new(u64::MAX) })
    }

    fn install(countdown: Countdown) -> Self {
        let previous = scoped_countdown();
        set_scoped_countdown(Some(Arc::new(countdown)));
        StopAfter { previous }
    }
}

impl Drop for StopAfter {
    fn drop(&mut self) {
        set_scoped_countdown(self.previous.take());
    }
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

    #[test]
    fn a_pausing_hook_waits_at_its_first_check_until_the_gate_opens() {
        let gate = Gate::new();
        let workers: Vec<_> = (0..3)
            .map(|_| {
                let g = Arc::clone(&gate);
                std::thread::spawn(move || {
                    let _hook = StopAfter::pausing(g);
                    (check(), check(), check())
                })
            })
            .collect();
        // all three are inside at once: none can pass before the gate opens
        assert!(gate.wait_reached(3, Gate::GIVE_UP));
        assert_eq!(gate.reached(), 3);
        gate.open();
        for w in workers {
            assert_eq!(w.join().unwrap(), (Ok(()), Ok(()), Ok(())));
        }
        assert!(!gate.gave_up());
        // a check without the hook never pauses
        assert_eq!(check(), Ok(()));
    }

    #[test]
    fn a_hook_stops_this_thread_after_its_checks_and_no_other() {
        {
            let _hook = StopAfter::checks(2);
            assert_eq!(check(), Ok(()));
            assert_eq!(check(), Ok(()));
            assert_eq!(std::thread::spawn(check).join().unwrap(), Ok(()));
            assert_eq!(check(), Err(Error::Interrupted));
            assert_eq!(check(), Err(Error::Interrupted));
        }
        assert_eq!(check(), Ok(()));
    }
}
