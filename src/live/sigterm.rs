//! SIGTERM during a recording: while [`Hook`] is held, SIGTERM requests a stop
//! ([`crate::cancel::request`]) instead of ending the process, so that the recording
//! returns [`crate::Error::Interrupted`] and restores every setting it changed, as on
//! Ctrl-C (docs/live.md §1). The previous action is restored on drop.

use std::ffi::c_int;

extern "C" fn on_sigterm(_sig: c_int) {
    crate::cancel::request(); // one atomic store: async-signal-safe
}

/// SIGTERM's action replaced by a stop request; the previous one is put back on drop.
pub struct Hook {
    old: libc::sigaction,
}

impl Hook {
    /// Install the stop request as SIGTERM's action; None (nothing done) when
    /// `sigaction` fails.
    pub fn install() -> Option<Hook> {
        // SAFETY: sigaction with valid pointers to initialised structs; the new action
        // is a plain handler with an empty mask.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            let mut new: libc::sigaction = std::mem::zeroed();
            new.sa_sigaction = on_sigterm as extern "C" fn(c_int) as usize;
            libc::sigemptyset(&mut new.sa_mask);
            if libc::sigaction(libc::SIGTERM, &new, &mut old) != 0 {
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
            libc::sigaction(libc::SIGTERM, &self.old, std::ptr::null_mut());
        }
    }
}
