//! What a recording notes about the running kernel: its release and its `CONFIG_HZ`
//! (from `/proc/config.gz`, else `/boot/config-<release>`; 250 when neither says).

use super::sys_file;
use crate::error::{Error, Result};
use std::io::Read;

/// `CONFIG_HZ` when a config names none (the kernel's default).
pub const DEFAULT_HZ: u32 = 250;

/// The running kernel's release (`uname -r`, `/proc/sys/kernel/osrelease`).
pub fn release() -> Result<String> {
    sys_file::read("/proc/sys/kernel/osrelease")
}

/// The `CONFIG_HZ=` value of a kernel config's text `text` (file `path`, for errors),
/// None when the text has no such line.
pub fn parse_hz(text: &str, path: &str) -> Result<Option<u32>> {
    for (i, ln) in text.lines().enumerate() {
        if let Some(v) = ln.strip_prefix("CONFIG_HZ=") {
            let hz = v.trim().parse().map_err(|_| {
                Error::parse_col(Some(path), Some(i + 1), "CONFIG_HZ", format!("expected an integer, got {v:?}"))
            })?;
            return Ok(Some(hz));
        }
    }
    Ok(None)
}

/// `CONFIG_HZ` of the running kernel: the first of `/proc/config.gz` and
/// `/boot/config-<release>` that can be read and has the line, else [`DEFAULT_HZ`].
pub fn config_hz() -> Result<u32> {
    let boot = format!("/boot/config-{}", release()?);
    for path in ["/proc/config.gz", boot.as_str()] {
        let Ok(bytes) = std::fs::read(path) else { continue };
        let text = if path.ends_with(".gz") {
            let mut out = Vec::new();
            if flate2::read::GzDecoder::new(bytes.as_slice()).read_to_end(&mut out).is_err() {
                continue;
            }
            out
        } else {
            bytes
        };
        if let Some(hz) = parse_hz(&String::from_utf8_lossy(&text), path)? {
            return Ok(hz);
        }
    }
    Ok(DEFAULT_HZ)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_config_hz_and_names_a_bad_value() {
        let config = "# CONFIG_HZ_100 is not set\nCONFIG_HZ_250=y\nCONFIG_HZ=250\nCONFIG_NO_HZ_IDLE=y\n";
        assert_eq!(parse_hz(config, "config").unwrap(), Some(250));
        assert_eq!(parse_hz("CONFIG_HZ_1000=y\nCONFIG_HZ=1000\n", "config").unwrap(), Some(1000));
        assert_eq!(parse_hz("CONFIG_NO_HZ=y\n", "config").unwrap(), None);
        let e = parse_hz("CONFIG_HZ=fast\n", "/boot/config-6.18").unwrap_err().to_string();
        assert_eq!(e, "/boot/config-6.18:1: column 'CONFIG_HZ': expected an integer, got \"fast\"");
        assert!(config_hz().unwrap() > 0);
    }
}
