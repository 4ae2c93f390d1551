//! The `schedlab` command as installed from a source build: a native launcher that
//! runs `schedlab mmtests compare` and `schedlab lkp compare` (text) itself and hands every other command line
//! to the Python command line (`python -m schedlab`), which defines them all
//! (docs/cli.md).
//!
//! It has its own C `main` (`no_main`): Rust's start-up reopens a closed standard
//! input, output or error on /dev/null before `main`, so a closed standard output would
//! swallow the result and exit 0. With one of the three closed, the launcher runs nothing
//! itself and hands the command line on unchanged (descriptors and all) to Python, which
//! says which one is closed and exits 2 (docs/cli.md §1).
#![no_main]

use schedlab::cli::fast_compare::Outcome;
use schedlab::cli::{fast_args, fast_compare, fast_lkp, messages, python};
use schedlab::stop_signal::StopOnSignal;
use std::ffi::OsString;
use std::io::Write;

/// A command line the launcher runs itself: the command's name (for the interrupted
/// message) and the run.
type Fast = (&'static str, Box<dyn FnOnce() -> Outcome>);

/// The command line as one the launcher runs itself; None to hand it to Python.
fn fast(args: &[OsString]) -> Option<Fast> {
    if let Some(a) = fast_args::compare(args) {
        return Some(("mmtests", Box::new(move || fast_compare::run(&a))));
    }
    if let Some(a) = fast_args::lkp_compare(args) {
        return Some(("lkp", Box::new(move || fast_lkp::run(&a))));
    }
    None
}

/// The process's entry point, in place of Rust's runtime start-up (see the module's doc):
/// checks that standard input, output and error are open before anything can open a file
/// on their numbers, ignores SIGPIPE as Rust's start-up does (a write to a closed pipe is
/// then an error the launcher sees), and runs the command line; a panic is exit 101, as
/// from Rust's own `main`.
#[no_mangle]
pub extern "C" fn main(_argc: libc::c_int, _argv: *const *const libc::c_char) -> libc::c_int {
    // SAFETY: fcntl(F_GETFD) only queries the descriptor table
    let standard_fds_open = (0..3).all(|fd| unsafe { libc::fcntl(fd, libc::F_GETFD) } != -1);
    // SAFETY: setting a signal's disposition to ignore, before any thread exists
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_IGN) };
    std::panic::catch_unwind(|| launch(standard_fds_open)).unwrap_or(101)
}

/// Runs the command line: the fast commands here when the standard descriptors are open,
/// everything else through Python. Returns the exit status.
fn launch(standard_fds_open: bool) -> libc::c_int {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    if let Some((command, run)) = fast(&args).filter(|_| standard_fds_open) {
        let stop = StopOnSignal::install(libc::SIGINT);
        let outcome = run();
        drop(stop); // Python, when it runs, installs its own
        match outcome {
            Outcome::Done { stdout, stderr, code } => {
                if std::io::stdout().lock().write_all(stdout.as_bytes()).and_then(|_| std::io::stdout().flush()).is_ok()
                {
                    let _ = std::io::stderr().write_all(stderr.as_bytes());
                    return libc::c_int::from(code as u8);
                }
                // standard output cannot be written: Python says why, in its words
            }
            Outcome::Interrupted => {
                eprintln!("{}", messages::interrupted(command));
                return libc::c_int::from(messages::INTERRUPTED as u8);
            }
            Outcome::Fallback => {}
        }
    }
    let exe = std::env::current_exe().unwrap_or_default();
    let path = std::env::var_os("PATH");
    let Some(py) = python::interpreter(&exe, path.as_ref(), std::env::var_os(python::OVERRIDE)) else {
        eprintln!(
            "schedlab: error: no Python interpreter found to run this command line (looked beside {} and on PATH); \
             set {} to one that has schedlab installed",
            exe.display(),
            python::OVERRIDE
        );
        return 2;
    };
    let err = python::exec(&py, &args);
    eprintln!(
        "schedlab: error: cannot run {}: {err}; set {} to a Python that has schedlab installed",
        py.display(),
        python::OVERRIDE
    );
    2
}
