//! What a recording changed on the system (a tracefs mount and instance, the cpuidle
//! governor, the sampler's affinity and scheduling policy, a signal handler), undone
//! in reverse order when the guard is dropped: on return, on error, and on an
//! interrupt (Ctrl-C, SIGTERM), which the recording reports as an error
//! (docs/live.md §1).

/// A stack of undo actions, run last first on [`Restore::run`] or on drop. An action
/// that fails is skipped (the others still run), as a setting that is already back
/// needs nothing.
#[derive(Default)]
pub struct Restore {
    undo: Vec<Box<dyn FnOnce()>>,
}

impl Restore {
    /// A guard with nothing to undo yet.
    pub fn new() -> Restore {
        Restore::default()
    }

    /// Undo `action` after everything pushed later.
    pub fn push(&mut self, action: impl FnOnce() + 'static) {
        self.undo.push(Box::new(action));
    }

    /// Run the actions pushed so far, last first (the guard is then empty).
    pub fn run(&mut self) {
        while let Some(action) = self.undo.pop() {
            action();
        }
    }
}

impl Drop for Restore {
    fn drop(&mut self) {
        self.run();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;
    use std::rc::Rc;

    #[test]
    fn undoes_in_reverse_order_on_drop() {
        let log = Rc::new(RefCell::new(Vec::new()));
        {
            let mut r = Restore::new();
            for name in ["mount", "governor", "instance"] {
                let log = Rc::clone(&log);
                r.push(move || log.borrow_mut().push(name));
            }
        }
        assert_eq!(*log.borrow(), ["instance", "governor", "mount"]);
    }
}
