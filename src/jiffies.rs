//! The HZ-derived time constants as the kernel's `include/linux/jiffies.h` and
//! `include/vdso/time64.h` define them, written once for the idle and PELT replays.

/// `NSEC_PER_SEC`.
pub const NSEC_PER_SEC: u64 = 1_000_000_000;
/// `USEC_PER_SEC`.
pub const USEC_PER_SEC: u64 = 1_000_000;

/// The `CONFIG_HZ` a replay takes when none is given: 250 (x86 and arm64 defconfigs,
/// and the golden files').
pub const DEFAULT_HZ: u64 = 250;

/// The kernel's `CONFIG_HZ` choices (kernel/Kconfig.hz).
pub const CONFIG_HZ: [u32; 4] = [100, 250, 300, 1000];

/// `TICK_NSEC = (NSEC_PER_SEC + HZ/2) / HZ` for `hz` > 0.
pub const fn tick_nsec(hz: u64) -> u64 {
    (NSEC_PER_SEC + hz / 2) / hz
}

/// `TICK_USEC = (USEC_PER_SEC + HZ/2) / HZ` for `hz` > 0.
pub const fn tick_usec(hz: u64) -> u64 {
    (USEC_PER_SEC + hz / 2) / hz
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kernels_hz_choices() {
        // HZ=300 does not divide a second: jiffies.h rounds to the nearest ns / µs.
        assert_eq!(
            [tick_nsec(100), tick_nsec(250), tick_nsec(300), tick_nsec(1000)],
            [10_000_000, 4_000_000, 3_333_333, 1_000_000]
        );
        assert_eq!([tick_usec(250), tick_usec(300)], [4000, 3333]);
    }
}
