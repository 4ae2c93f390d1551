//! The calling thread's CPU affinity, scheduling policy and nice value, and the
//! system's CPU count: what a recording changes on its sampler and gives its workload
//! (`sched_setaffinity(2)`, `sched_setscheduler(2)`, `setpriority(2)`; docs/live.md §1).
//!
//! Pid 0 is the calling thread, as in the kernel's calls. The setters are plain system
//! calls on values prepared beforehand (no allocation), so that a child may call them
//! between `fork` and `exec`. Linux only: elsewhere every call is an error.

use crate::error::{Error, Result};

/// A set of CPUs as the kernel's calls take it.
#[derive(Clone, Copy)]
pub struct CpuSet(imp::RawSet);

impl std::fmt::Debug for CpuSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CpuSet({:?})", self.cpus())
    }
}

/// A scheduling policy with its parameters (`sched_getscheduler`/`sched_getparam`).
#[derive(Debug, Clone, Copy)]
pub struct Policy {
    policy: i32,
    priority: i32,
}

#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn os_error(call: &str) -> Error {
    Error::io(call, &std::io::Error::last_os_error())
}

impl Policy {
    /// `SCHED_FIFO` at `priority`.
    pub fn fifo(priority: i32) -> Result<Policy> {
        Ok(Policy { policy: imp::fifo()?, priority })
    }
}

#[cfg(target_os = "linux")]
mod imp {
    use super::{os_error, CpuSet, Policy};
    use crate::error::{Error, Result};

    pub type RawSet = libc::cpu_set_t;

    pub fn fifo() -> Result<i32> {
        Ok(libc::SCHED_FIFO)
    }

    impl CpuSet {
        /// The set of `cpus`; an error names a CPU beyond what the call can hold.
        pub fn of(cpus: &[usize]) -> Result<CpuSet> {
            // SAFETY: cpu_set_t is a plain bit array; all zeros is the empty set.
            let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
            for &c in cpus {
                if c >= libc::CPU_SETSIZE as usize {
                    return Err(Error::domain(format!("CPU {c} is beyond the {} CPUs a set holds", libc::CPU_SETSIZE)));
                }
                // SAFETY: c is below CPU_SETSIZE, the set's size.
                unsafe { libc::CPU_SET(c, &mut set) };
            }
            Ok(CpuSet(set))
        }

        /// The CPUs of the set, ascending.
        pub fn cpus(&self) -> Vec<usize> {
            // SAFETY: every index is below CPU_SETSIZE.
            (0..libc::CPU_SETSIZE as usize).filter(|&c| unsafe { libc::CPU_ISSET(c, &self.0) }).collect()
        }

        /// The CPUs task `pid` may run on (0: the calling thread).
        pub fn of_task(pid: u32) -> Result<CpuSet> {
            // SAFETY: as in `of`; the call writes at most size_of::<cpu_set_t>() bytes.
            let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
            let r = unsafe { libc::sched_getaffinity(pid as libc::pid_t, std::mem::size_of_val(&set), &mut set) };
            if r != 0 {
                return Err(os_error(&format!("sched_getaffinity of pid {pid}")));
            }
            Ok(CpuSet(set))
        }

        /// Pin the calling thread to the set (async-signal-safe).
        pub fn apply(&self) -> std::io::Result<()> {
            // SAFETY: a valid set of its own size.
            let r = unsafe { libc::sched_setaffinity(0, std::mem::size_of_val(&self.0), &self.0) };
            if r == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        }
    }

    impl Policy {
        /// The calling thread's policy and parameters.
        pub fn current() -> Result<Policy> {
            // SAFETY: plain queries of the calling thread; param is written by the call.
            let policy = unsafe { libc::sched_getscheduler(0) };
            let mut param = libc::sched_param { sched_priority: 0 };
            if policy < 0 || unsafe { libc::sched_getparam(0, &mut param) } != 0 {
                return Err(os_error("sched_getscheduler"));
            }
            Ok(Policy { policy, priority: param.sched_priority })
        }

        /// Give the calling thread this policy (async-signal-safe).
        pub fn apply(&self) -> std::io::Result<()> {
            let param = libc::sched_param { sched_priority: self.priority };
            // SAFETY: a valid param for the calling thread.
            if unsafe { libc::sched_setscheduler(0, self.policy, &param) } == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        }
    }

    /// The calling process's nice value (`getpriority(PRIO_PROCESS, 0)`).
    pub fn nice() -> Result<i32> {
        // SAFETY: errno is the calling thread's; getpriority may return -1 as a value,
        // so errno is cleared first and read after.
        unsafe {
            *libc::__errno_location() = 0;
            let n = libc::getpriority(libc::PRIO_PROCESS, 0);
            if n == -1 && *libc::__errno_location() != 0 {
                return Err(os_error("getpriority"));
            }
            Ok(n)
        }
    }

    /// Set the calling process's nice value (async-signal-safe).
    pub fn set_nice(nice: i32) -> std::io::Result<()> {
        // SAFETY: a plain system call.
        if unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, nice) } == 0 {
            Ok(())
        } else {
            Err(std::io::Error::last_os_error())
        }
    }

    /// The number of CPUs online (`sysconf(_SC_NPROCESSORS_ONLN)`, as Python's
    /// `os.cpu_count()`), at least 1.
    pub fn cpu_count() -> usize {
        // SAFETY: a plain query.
        let n = unsafe { libc::sysconf(libc::_SC_NPROCESSORS_ONLN) };
        usize::try_from(n).unwrap_or(1).max(1)
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    use super::{CpuSet, Policy};
    use crate::error::{Error, Result};

    pub type RawSet = ();

    fn unsupported<T>() -> Result<T> {
        Err(Error::domain("the live recording needs Linux (sched_setaffinity, tracefs)"))
    }

    fn unsupported_io() -> std::io::Result<()> {
        Err(std::io::Error::from(std::io::ErrorKind::Unsupported))
    }

    pub fn fifo() -> Result<i32> {
        unsupported()
    }

    impl CpuSet {
        /// Not available here.
        pub fn of(_cpus: &[usize]) -> Result<CpuSet> {
            unsupported()
        }
        /// Not available here.
        pub fn cpus(&self) -> Vec<usize> {
            Vec::new()
        }
        /// Not available here.
        pub fn of_task(_pid: u32) -> Result<CpuSet> {
            unsupported()
        }
        /// Not available here.
        pub fn apply(&self) -> std::io::Result<()> {
            unsupported_io()
        }
    }

    impl Policy {
        /// Not available here.
        pub fn current() -> Result<Policy> {
            unsupported()
        }
        /// Not available here.
        pub fn apply(&self) -> std::io::Result<()> {
            unsupported_io()
        }
    }

    /// Not available here.
    pub fn nice() -> Result<i32> {
        unsupported()
    }

    /// Not available here.
    pub fn set_nice(_nice: i32) -> std::io::Result<()> {
        unsupported_io()
    }

    /// 1.
    pub fn cpu_count() -> usize {
        1
    }
}

pub use imp::{cpu_count, nice, set_nice};

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn a_set_holds_its_cpus_and_refuses_one_beyond_its_size() {
        assert_eq!(CpuSet::of(&[3, 0, 5]).unwrap().cpus(), [0, 3, 5]);
        assert!(CpuSet::of(&[1 << 20]).unwrap_err().to_string().contains("CPU 1048576"));
        // the calling thread may run on at least one CPU, and on no more than exist
        let mine = CpuSet::of_task(0).unwrap().cpus();
        assert!(!mine.is_empty());
        assert!(cpu_count() >= 1);
    }
}
