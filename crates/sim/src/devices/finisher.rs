//! The SiFive test finisher at 0x0010_0000 (QEMU virt's `sifive_test`). A 16- or 32-bit write
//! to offset 0 with low half 0x5555 passes (exit 0), 0x3333 fails with code `value >> 16`,
//! 0x7777 requests a reset. Other values and offsets are ignored; reads return 0.

/// Base address of the finisher window.
pub const FINISHER_BASE: u32 = 0x0010_0000;
/// Size of the window.
pub const FINISHER_SIZE: u32 = 0x1000;

/// What a finisher write asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FinisherAction {
    /// End the run with this exit code.
    Exit(u32),
    /// The guest asked for a machine reset (reported as a fault-like outcome).
    Reset,
}

/// Decodes a write of `value` at `offset`.
pub(crate) fn finisher_write(offset: u32, value: u32) -> Option<FinisherAction> {
    if offset != 0 {
        return None;
    }
    match value & 0xFFFF {
        0x5555 => Some(FinisherAction::Exit(0)),
        0x3333 => Some(FinisherAction::Exit(value >> 16)),
        0x7777 => Some(FinisherAction::Reset),
        _ => None,
    }
}
