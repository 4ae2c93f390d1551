//! The rayon thread pool every schedlab batch runs in.
//!
//! Two rules, both from how schedlab is deployed (notebooks, CI boxes, Dask workers):
//! - The number of threads is bounded: an explicit `threads` argument, else the
//!   `SCHEDLAB_NUM_THREADS` environment variable, else the number of CPUs.
//! - A process forked after a pool was used must not deadlock on the parent's
//!   worker threads, which do not exist in the child. Pools are therefore keyed by
//!   process id: a child sees a different pid, abandons (leaks, never touches) the
//!   inherited pools and builds its own. rayon's global pool is never used.

use crate::cancel;
use crate::error::{Error, Result};
use rayon::ThreadPool;
use std::sync::{Arc, Mutex};

/// Environment variable that bounds the default number of worker threads.
pub const NUM_THREADS_ENV: &str = "SCHEDLAB_NUM_THREADS";

/// The most worker threads one pool gets, whatever is asked.
pub const MAX_THREADS: usize = 1024;

/// Pools of different sizes kept for reuse; asking for more sizes drops the least
/// recently used one (its threads end once its running jobs are done), so a caller
/// varying `threads` cannot accumulate threads without bound.
pub const MAX_POOLS: usize = 4;

struct Pools {
    pid: u32,
    by_size: Vec<(usize, Arc<ThreadPool>)>,
}

static POOLS: Mutex<Option<Pools>> = Mutex::new(None);

/// The thread count used when none is given: `SCHEDLAB_NUM_THREADS` if it is a
/// positive integer (at most [`MAX_THREADS`]), otherwise the number of CPUs available
/// to this process.
pub fn default_threads() -> usize {
    if let Ok(v) = std::env::var(NUM_THREADS_ENV) {
        if let Ok(n) = v.trim().parse::<usize>() {
            if n > 0 {
                return n.min(MAX_THREADS);
            }
        }
    }
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

/// Resolve a requested thread count (None = default); zero is refused.
pub fn resolve_threads(requested: Option<usize>) -> Result<usize> {
    match requested {
        None => Ok(default_threads()),
        Some(0) => Err(Error::domain("threads must be a positive integer, got 0")),
        Some(n) => Ok(n.min(MAX_THREADS)),
    }
}

fn pool(threads: usize) -> Result<Arc<ThreadPool>> {
    let pid = std::process::id();
    let mut guard = POOLS.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if guard.as_ref().is_some_and(|p| p.pid != pid) {
        // Forked child: the parent's workers are gone. Dropping the pools could
        // wait on them, so leak them instead (a one-off, per fork).
        if let Some(old) = guard.take() {
            std::mem::forget(old);
        }
    }
    let pools = guard.get_or_insert_with(|| Pools { pid, by_size: Vec::new() });
    if let Some(i) = pools.by_size.iter().position(|(n, _)| *n == threads) {
        // most recently used last
        let entry = pools.by_size.remove(i);
        let p = Arc::clone(&entry.1);
        pools.by_size.push(entry);
        return Ok(p);
    }
    if pools.by_size.len() >= MAX_POOLS {
        pools.by_size.remove(0);
    }
    let p = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("schedlab-{i}"))
        .build()
        .map_err(|e| Error::Internal(format!("cannot start {threads} worker threads: {e}")))?;
    let p = Arc::new(p);
    pools.by_size.push((threads, Arc::clone(&p)));
    Ok(p)
}

/// Run `f` inside a pool of `threads` workers (None = [`default_threads`]); any
/// rayon parallel iterator used by `f` stays within that pool.
pub fn install<R: Send>(threads: Option<usize>, f: impl FnOnce() -> R + Send) -> Result<R> {
    let n = resolve_threads(threads)?;
    if let Some(countdown) = cancel::scoped_countdown() {
        // a test's stop hook (cancel::StopAfter) reaches the workers of a pool of its own
        let p = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .thread_name(|i| format!("schedlab-hooked-{i}"))
            .start_handler(move |_| cancel::set_scoped_countdown(Some(Arc::clone(&countdown))))
            .build()
            .map_err(|e| Error::Internal(format!("cannot start {n} worker threads: {e}")))?;
        return Ok(p.install(f));
    }
    let p = pool(n)?;
    Ok(p.install(f))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rayon::prelude::*;

    #[test]
    fn install_bounds_the_thread_count() {
        let seen =
            install(Some(2), || (0..64).into_par_iter().map(|_| rayon::current_num_threads()).max().unwrap_or(0))
                .unwrap();
        assert_eq!(seen, 2);
        let one = install(Some(1), rayon::current_num_threads).unwrap();
        assert_eq!(one, 1);
    }

    #[test]
    fn pools_of_many_sizes_are_not_all_kept() {
        for n in 1..=3 * MAX_POOLS {
            assert_eq!(install(Some(n), rayon::current_num_threads).unwrap(), n);
        }
        let kept = POOLS.lock().map(|g| g.as_ref().map_or(0, |p| p.by_size.len())).unwrap_or(0);
        assert!(kept <= MAX_POOLS, "{kept} pools kept");
        assert_eq!(resolve_threads(Some(1 << 40)).unwrap(), MAX_THREADS);
    }

    #[test]
    fn zero_threads_is_refused() {
        assert!(matches!(resolve_threads(Some(0)), Err(Error::Domain(_))));
    }
}
