//! The stack-window extension (docs/simulator-design.md, "Stack-window extension"): one
//! base/bound/displacement register pair for the running task's stack, the hardware variant
//! of SenSmart's logical stack addressing (docs/sensmart.md).
//!
//! The *aperture* [`STACK_WINDOW_BASE`, `STACK_WINDOW_END`) is a fixed part of the address
//! space that is never memory nor a device (profiles may not place a region there:
//! `profile.rs`'s device windows include it). While `mswbound` is nonzero (the window is
//! *on*), a data access (load, store, AMO, LR/SC) whose address `a` lies in the aperture is
//! translated before anything else happens to it:
//!   - `a >= mswbound`: it goes to the physical address `a + mswdisp` (mod 2^32), which
//!     then behaves exactly as any access there (latency, oracle, devices, faults);
//!   - `a < mswbound`: nothing is read or written and the access raises
//!     [`CAUSE_STACK_WINDOW`] with mtval = `a` (mepc = the instruction), so a kernel can make
//!     room (move the stack) and resume the instruction.
//!
//! While `mswbound` is 0 (the reset value) aperture addresses are plain unmapped addresses.
//! Addresses outside the aperture are never translated, so kernel code keeps its physical
//! view whatever the window holds. Instruction fetches are not translated.
//!
//! Where the translation lives: the aperture is never memory, so every aperture access misses
//! the hot loop's RAM fast path and reaches `Bus::load`/`Bus::store`, which translate first.
//! The hot loop is the same code with or without the extension, and a translated access costs
//! the cycles of the physical access it becomes (the adder is in the address path, as a
//! base/bound unit would be). Without the extension (`MachineConfig::stack_window` off) both
//! CSRs are unimplemented (illegal instruction).

/// CSR number of `mswbound`, the window's logical bound (custom machine-mode read/write
/// range; 0x7C8 is `mstackbound`).
pub const MSWBOUND: u16 = 0x7C9;
/// CSR number of `mswdisp`, the displacement added to a translated address.
pub const MSWDISP: u16 = 0x7CA;
/// First address of the stack-window aperture.
pub const STACK_WINDOW_BASE: u32 = 0x6000_0000;
/// End (exclusive) of the stack-window aperture: a task's logical stack top.
pub const STACK_WINDOW_END: u32 = 0x7000_0000;
/// mcause of the stack-window exception: an access below `mswbound` in the aperture (25, the
/// custom code after the stack bound's 24).
pub const CAUSE_STACK_WINDOW: u32 = 25;

/// The window registers (both 0 at reset: off).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct StackWindow {
    /// `mswbound`: 0 = off.
    pub(crate) bound: u32,
    /// `mswdisp`.
    pub(crate) disp: u32,
}

impl StackWindow {
    /// The physical address of data address `addr`, or Err(mtval) for the stack-window
    /// exception (an aperture address below the bound).
    #[inline]
    pub(crate) fn translate(&self, addr: u32) -> Result<u32, u32> {
        if self.bound == 0
            || addr.wrapping_sub(STACK_WINDOW_BASE) >= STACK_WINDOW_END - STACK_WINDOW_BASE
        {
            return Ok(addr);
        }
        if addr < self.bound {
            Err(addr)
        } else {
            Ok(addr.wrapping_add(self.disp))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn translation_bound_and_outside_addresses() {
        let off = StackWindow::default();
        assert_eq!(off.translate(0x6FFF_FFF0), Ok(0x6FFF_FFF0));
        let w = StackWindow {
            bound: 0x6FFF_F000,
            disp: 0x8001_0000u32.wrapping_sub(STACK_WINDOW_END),
        };
        assert_eq!(w.translate(0x6FFF_FFFC), Ok(0x8000_FFFC));
        assert_eq!(w.translate(0x6FFF_F000), Ok(0x8000_F000));
        assert_eq!(w.translate(0x6FFF_EFFC), Err(0x6FFF_EFFC));
        assert_eq!(w.translate(STACK_WINDOW_BASE), Err(STACK_WINDOW_BASE));
        // Outside the aperture nothing changes, on either side.
        assert_eq!(w.translate(0x8000_0000), Ok(0x8000_0000));
        assert_eq!(w.translate(STACK_WINDOW_END), Ok(STACK_WINDOW_END));
        assert_eq!(w.translate(0x5FFF_FFFC), Ok(0x5FFF_FFFC));
    }
}
