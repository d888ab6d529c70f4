//! HTIF `tohost` exit (riscv-tests convention): when the ELF defines `tohost`, a 32-bit store
//! of an odd value `v` to it ends the run with exit code `v >> 1`. Even nonzero values
//! (proxy-kernel syscalls) are not supported and are just stored. The page holding `tohost`
//! is flagged so that only stores to that page pay for the check.

/// Exit code requested by a store of `value` (width `width` bytes) at `addr`, if any.
#[inline]
pub(crate) fn htif_exit(tohost: Option<u32>, addr: u32, width: u32, value: u32) -> Option<u32> {
    match tohost {
        Some(t) if t == addr && width == 4 && value & 1 == 1 => Some(value >> 1),
        _ => None,
    }
}
