//! The stack-window extension's copy engine (docs/simulator-design.md, "Stack-window
//! extension"): a memmove of whole words for the `relocate` strategy's hardware variant, so a
//! relocation costs one cycle per word moved instead of a CPU copy loop's four.
//!
//! Registers (32-bit, word-aligned; present only with the stack-window extension):
//! SRC `+0x0`, DST `+0x4`, WORDS `+0x8` (read/write, kept between copies, physical byte
//! addresses; the window does not translate them) and GO `+0xC`: a write of any value copies
//! WORDS words from SRC to DST as `memmove` does (overlapping ranges copy right) and completes
//! when the copy has: the store stalls the hart one cycle per word (the device access's own
//! latency on top). A read of GO returns the words of the last copy, or `0xFFFF_FFFF` when it
//! was refused (an address not word-aligned, or a range not inside one writable memory
//! region): nothing is written then.
//!
//! The ownership oracle sees every destination word as a store of the code that wrote GO
//! (the kernel, inside its store bracket, for a relocation): a word the writer may not store
//! into is a violation, as if the CPU had stored it (under `OracleMode::Stop` the run ends
//! there and the word is not written).

/// Base of the register window (unused in QEMU virt's map).
pub const COPIER_BASE: u32 = 0x0E00_1000;
/// Size of the register window.
pub const COPIER_SIZE: u32 = 0x10;
/// Source address register.
pub const COPIER_SRC: u32 = 0x0;
/// Destination address register.
pub const COPIER_DST: u32 = 0x4;
/// Word count register.
pub const COPIER_WORDS: u32 = 0x8;
/// Write: copy. Read: the last copy's words, or [`COPIER_REFUSED`].
pub const COPIER_GO: u32 = 0xC;
/// GO's value after a refused copy.
pub const COPIER_REFUSED: u32 = 0xFFFF_FFFF;

/// The copy engine's registers.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Copier {
    pub(crate) src: u32,
    pub(crate) dst: u32,
    pub(crate) words: u32,
    /// What a read of GO returns.
    pub(crate) last: u32,
}

impl Copier {
    /// A register read (None: not a register).
    pub(crate) fn read(&self, off: u32, width: u32) -> Option<u32> {
        if width != 4 {
            return None;
        }
        match off {
            COPIER_SRC => Some(self.src),
            COPIER_DST => Some(self.dst),
            COPIER_WORDS => Some(self.words),
            COPIER_GO => Some(self.last),
            _ => None,
        }
    }
}
