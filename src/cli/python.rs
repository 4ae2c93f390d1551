//! The Python interpreter the launcher hands a command line to (`python -m schedlab
//! ARGS`), found from where the launcher is installed (docs/cli.md §3).
//!
//! A wheel installs its scripts into `PREFIX/bin` and its package into
//! `PREFIX/lib/pythonX.Y/site-packages`, whatever the scheme (a virtual environment,
//! `--user`, a system prefix), so the launcher looks for the package beside its own
//! directory and takes the interpreter of that version: the one in its directory (a
//! virtual environment's), else `pythonX.Y` on `PATH`. `SCHEDLAB_PYTHON` overrides
//! the search; without a package beside it (a build tree) it takes `python3` on `PATH`.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The environment variable naming the interpreter to use.
pub const OVERRIDE: &str = "SCHEDLAB_PYTHON";

/// The interpreter for the launcher at `exe`, or None when none is found. `path` is
/// the `PATH` to search and `env` the value of [`OVERRIDE`].
pub fn interpreter(exe: &Path, path: Option<&OsString>, env: Option<OsString>) -> Option<PathBuf> {
    if let Some(p) = env.filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p));
    }
    let bin = exe.parent()?;
    let on_path = |name: &str| -> Option<PathBuf> {
        std::env::split_paths(path?).map(|d| d.join(name)).find(|p| is_executable(p))
    };
    for version in package_versions(bin) {
        let name = format!("python{version}");
        for p in [bin.join(&name), bin.join("python3"), bin.join("python")] {
            if is_executable(&p) {
                return Some(p);
            }
        }
        if let Some(p) = on_path(&name) {
            return Some(p);
        }
    }
    on_path("python3").or_else(|| on_path("python"))
}

/// The Python versions (`3.11`) whose site-packages beside `bin` hold schedlab.
fn package_versions(bin: &Path) -> Vec<String> {
    let Some(lib) = bin.parent().map(|p| p.join("lib")) else {
        return Vec::new();
    };
    let Ok(entries) = std::fs::read_dir(&lib) else {
        return Vec::new();
    };
    let mut versions: Vec<String> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str().and_then(|n| n.strip_prefix("python")).map(str::to_string))
        .filter(|v| lib.join(format!("python{v}")).join("site-packages/schedlab/__init__.py").is_file())
        .collect();
    versions.sort();
    versions
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Replace this process with `python -m schedlab ARGS`; returns only on failure,
/// with the reason.
pub fn exec(python: &Path, args: &[OsString]) -> std::io::Error {
    use std::os::unix::process::CommandExt;
    std::process::Command::new(python).arg("-m").arg("schedlab").args(args).exec()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn touch_exe(p: &Path) {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, "").unwrap();
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    #[test]
    fn a_virtual_environment_uses_its_own_interpreter() {
        let d = tempfile::tempdir().unwrap();
        let pkg = d.path().join("lib/python3.11/site-packages/schedlab/__init__.py");
        std::fs::create_dir_all(pkg.parent().unwrap()).unwrap();
        std::fs::write(&pkg, "").unwrap();
        touch_exe(&d.path().join("bin/python3"));
        let exe = d.path().join("bin/schedlab");
        assert_eq!(interpreter(&exe, None, None), Some(d.path().join("bin/python3")));
        // the override wins
        assert_eq!(interpreter(&exe, None, Some("/x/py".into())), Some(PathBuf::from("/x/py")));
    }

    #[test]
    fn a_user_install_takes_the_packages_version_from_path() {
        let d = tempfile::tempdir().unwrap();
        let pkg = d.path().join("local/lib/python3.12/site-packages/schedlab/__init__.py");
        std::fs::create_dir_all(pkg.parent().unwrap()).unwrap();
        std::fs::write(&pkg, "").unwrap();
        touch_exe(&d.path().join("usr/bin/python3.12"));
        touch_exe(&d.path().join("usr/bin/python3"));
        let path = OsString::from(d.path().join("usr/bin"));
        let exe = d.path().join("local/bin/schedlab");
        assert_eq!(interpreter(&exe, Some(&path), None), Some(d.path().join("usr/bin/python3.12")));
        // no package beside it: python3 on PATH
        let build = d.path().join("target/debug/schedlab");
        assert_eq!(interpreter(&build, Some(&path), None), Some(d.path().join("usr/bin/python3")));
        assert_eq!(interpreter(&build, None, None), None);
    }
}
