//! Ctrl-C during a core call. While Python's main thread runs one with the GIL
//! released, Python cannot act on SIGINT (its handler only notes the signal for the
//! interpreter loop, which is not running), so [`Hook`] puts a handler in front of
//! it: it requests a stop ([`schedlab::cancel::request`]) and then calls the handler
//! that was there (Python's), so that Python raises its KeyboardInterrupt as soon as
//! the call returns. Installing and restoring costs two `sigaction` calls, nothing
//! like a watcher thread per call.

use std::ffi::c_int;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The handler [`Hook`] chains to (a `void (*)(int)`, as usize; 0 = none).
static PREVIOUS: AtomicUsize = AtomicUsize::new(0);

extern "C" fn on_sigint(sig: c_int) {
    schedlab::cancel::request(); // one atomic store: async-signal-safe
    let prev = PREVIOUS.load(Ordering::Relaxed);
    if prev != 0 {
        // SAFETY: `prev` was read from the sigaction of SIGINT, a plain (not
        // SA_SIGINFO, not SIG_DFL/SIG_IGN) handler: a `void (*)(int)`.
        let f: extern "C" fn(c_int) = unsafe { std::mem::transmute::<usize, extern "C" fn(c_int)>(prev) };
        f(sig);
    }
}

/// The SIGINT handler of a core call; the previous one is restored on drop. Only
/// Python's main thread installs it (one call at a time there, so no two hooks race).
pub struct Hook {
    old: libc::sigaction,
}

impl Hook {
    /// Put [`on_sigint`] in front of the current SIGINT handler; None (nothing done)
    /// when there is no handler function to chain to (default action, ignored, or a
    /// three-argument handler) or `sigaction` fails.
    pub fn install() -> Option<Hook> {
        // SAFETY: sigaction with valid pointers to initialised structs; the new action
        // is the old one with only the handler changed (same mask and flags).
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(libc::SIGINT, std::ptr::null(), &mut old) != 0 {
                return None;
            }
            let h = old.sa_sigaction;
            if h == libc::SIG_DFL || h == libc::SIG_IGN || old.sa_flags & libc::SA_SIGINFO != 0 {
                return None;
            }
            PREVIOUS.store(h, Ordering::Relaxed);
            let mut new = old;
            new.sa_sigaction = on_sigint as extern "C" fn(c_int) as usize;
            if libc::sigaction(libc::SIGINT, &new, std::ptr::null_mut()) != 0 {
                return None;
            }
            Some(Hook { old })
        }
    }
}

impl Drop for Hook {
    fn drop(&mut self) {
        // SAFETY: restores the action read in install().
        unsafe {
            libc::sigaction(libc::SIGINT, &self.old, std::ptr::null_mut());
        }
    }
}
