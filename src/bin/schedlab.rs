//! The `schedlab` command as installed from a source build: a native launcher that
//! runs `schedlab mmtests compare` and `schedlab lkp compare` (text) itself and hands every other command line
//! to the Python command line (`python -m schedlab`), which defines them all
//! (docs/cli.md).

use schedlab::cli::fast_compare::Outcome;
use schedlab::cli::{fast_args, fast_compare, fast_lkp, messages, python};
use schedlab::stop_signal::StopOnSignal;
use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

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

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    if let Some((command, run)) = fast(&args) {
        let stop = StopOnSignal::install(libc::SIGINT);
        let outcome = run();
        drop(stop); // Python, when it runs, installs its own
        match outcome {
            Outcome::Done { stdout, stderr, code } => {
                if std::io::stdout().lock().write_all(stdout.as_bytes()).and_then(|_| std::io::stdout().flush()).is_ok()
                {
                    let _ = std::io::stderr().write_all(stderr.as_bytes());
                    return ExitCode::from(code as u8);
                }
                // standard output cannot be written: Python says why, in its words
            }
            Outcome::Interrupted => {
                eprintln!("{}", messages::interrupted(command));
                return ExitCode::from(messages::INTERRUPTED as u8);
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
        return ExitCode::from(2);
    };
    let err = python::exec(&py, &args);
    eprintln!(
        "schedlab: error: cannot run {}: {err}; set {} to a Python that has schedlab installed",
        py.display(),
        python::OVERRIDE
    );
    ExitCode::from(2)
}
