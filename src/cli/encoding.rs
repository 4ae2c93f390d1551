//! Whether the Python command line would write its standard streams as UTF-8, so that
//! the launcher may write the same text itself (docs/cli.md §1). Python takes the
//! encoding from `PYTHONIOENCODING` when set; else UTF-8 in its UTF-8 mode
//! (`PYTHONUTF8=1`, or a C/POSIX locale, which Python 3.7+ treats as UTF-8: PEP 538 and
//! PEP 540); else the locale's character set. Anything the launcher cannot tell to be
//! UTF-8 is left to Python, which encodes (or refuses) as it does.

use std::ffi::CStr;

/// Whether `python -m schedlab` would encode its standard output as UTF-8 in this
/// environment (the process's locale is read and left set to it, as Python does).
pub fn python_writes_utf8() -> bool {
    if let Some(e) = std::env::var_os("PYTHONIOENCODING").filter(|e| !e.is_empty()) {
        // "utf-8" or "utf8", without an error handler after a ':'
        return e.to_str().is_some_and(|e| matches!(e.to_ascii_lowercase().as_str(), "utf-8" | "utf8"));
    }
    match std::env::var("PYTHONUTF8").as_deref() {
        Ok("1") => return true,
        Ok("0") => return locale_codeset().is_some_and(|c| is_utf8(&c)),
        _ => {}
    }
    match locale_codeset() {
        Some(c) => is_utf8(&c) || c == "ANSI_X3.4-1968", // the C/POSIX locale: Python's UTF-8 mode
        None => false,
    }
}

fn is_utf8(codeset: &str) -> bool {
    matches!(codeset.to_ascii_lowercase().as_str(), "utf-8" | "utf8")
}

/// The character set of the environment's LC_CTYPE locale (`nl_langinfo(CODESET)`
/// after `setlocale(LC_CTYPE, "")`); None when the locale cannot be set.
fn locale_codeset() -> Option<String> {
    // SAFETY: the launcher is single-threaded when it asks; setlocale with "" reads the
    // environment and returns NULL on failure, nl_langinfo returns a static string.
    unsafe {
        if libc::setlocale(libc::LC_CTYPE, c"".as_ptr()).is_null() {
            return None;
        }
        let p = libc::nl_langinfo(libc::CODESET);
        if p.is_null() {
            return None;
        }
        Some(CStr::from_ptr(p).to_string_lossy().into_owned())
    }
}
