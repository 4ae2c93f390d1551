//! A signal turned into a stop request while a guard is held: the signal's action
//! becomes [`crate::cancel::request`] instead of ending the process, so that the long
//! computation running returns [`crate::Error::Interrupted`] and cleans up (restores
//! what it changed, prints its line). Used for SIGTERM during a live recording
//! (docs/live.md §1) and SIGINT in the native launcher's compare (docs/cli.md §1). The
//! previous action is put back when the guard is dropped. (The Python bindings chain
//! to Python's own SIGINT handler instead: src/python/sigint.rs.)

use std::ffi::c_int;

extern "C" fn on_signal(_sig: c_int) {
    crate::cancel::request(); // one atomic store: async-signal-safe
}

/// `signal`'s action replaced by a stop request; the previous one is put back on drop.
pub struct StopOnSignal {
    signal: c_int,
    old: libc::sigaction,
}

impl StopOnSignal {
    /// Install the stop request as `signal`'s action; None (nothing done) when
    /// `sigaction` fails.
    pub fn install(signal: c_int) -> Option<StopOnSignal> {
        // SAFETY: sigaction with valid pointers to initialised structs; the new action
        // is a plain handler with an empty mask.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            let mut new: libc::sigaction = std::mem::zeroed();
            new.sa_sigaction = on_signal as extern "C" fn(c_int) as usize;
            libc::sigemptyset(&mut new.sa_mask);
            if libc::sigaction(signal, &new, &mut old) != 0 {
                return None;
            }
            Some(StopOnSignal { signal, old })
        }
    }
}

impl Drop for StopOnSignal {
    fn drop(&mut self) {
        // SAFETY: restores the action read in install().
        unsafe {
            libc::sigaction(self.signal, &self.old, std::ptr::null_mut());
        }
    }
}
