//! The register set the stub shows gdb: RV32's integer registers and pc (the `g` packet, as
//! `gdbstub_arch`'s `Riscv32`) plus the machine-mode CSRs of trap handling (mstatus, misa, mie,
//! mtvec, mscratch, mepc, mcause, mtval, mip), read and written one at a time (`p`/`P`, gdb's
//! RISC-V numbering: 65 + the CSR's number). The kernel's unwind information names mscratch
//! (the context a trap or kernel call came from), so gdb can walk from kernel code back into
//! the task that entered the kernel (docs/cli.md "Backtraces through the kernel").

use gdbstub::arch::Arch;
use gdbstub_arch::riscv::reg::id::RiscvRegId;
use gdbstub_arch::riscv::reg::RiscvCoreRegs;

/// RV32 as cactus-sim shows it to gdb (see the module documentation).
pub enum CactusRv32 {}

impl Arch for CactusRv32 {
    type Usize = u32;
    type Registers = RiscvCoreRegs<u32>;
    type BreakpointKind = usize;
    type RegId = RiscvRegId<u32>;

    fn target_description_xml() -> Option<&'static str> {
        Some(include_str!("rv32-cactus.xml"))
    }
}

/// The CSRs the target description lists, by number: the ones gdb may read or write.
pub const CSRS: [u16; 9] = [
    0x300, 0x301, 0x304, 0x305, 0x340, 0x341, 0x342, 0x343, 0x344,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_description_numbers_each_csr_as_gdb_does() {
        let xml = CactusRv32::target_description_xml().unwrap();
        for csr in CSRS {
            let regnum = format!("regnum=\"{}\"", 65 + u32::from(csr));
            assert!(xml.contains(&regnum), "CSR {csr:#x}: no {regnum}");
        }
        assert!(xml.contains("<architecture>riscv:rv32</architecture>"));
        assert_eq!(xml.matches("<reg ").count(), 33 + CSRS.len());
    }
}
