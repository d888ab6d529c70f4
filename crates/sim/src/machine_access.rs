//! The inspection and debugging side of [`Machine`]: breakpoints, registers, CSRs, debug
//! memory access, UART output and recorded events. None of these touch the cost model.

use crate::devices::uart::UartSink;
use crate::error::MemError;
use crate::events::Event;
use crate::loader::ElfInfo;
use crate::machine::Machine;
use std::collections::BTreeMap;

impl Machine {
    /// Breakpoints: `run` returns [`crate::RunOutcome::Breakpoint`] before executing an instruction
    /// at `pc` (but not for the very first instruction `run` resumes at).
    pub fn add_breakpoint(&mut self, pc: u32) {
        if self.breakpoints.insert(pc) {
            // Blocks may run across the new breakpoint: rebuild them.
            self.cache.flush(&mut self.bus.mem);
        }
    }

    /// True if a breakpoint is set at `pc`.
    pub fn has_breakpoint(&self, pc: u32) -> bool {
        self.breakpoints.contains(&pc)
    }

    /// Removes a breakpoint (no effect if absent).
    pub fn remove_breakpoint(&mut self, pc: u32) {
        self.breakpoints.remove(&pc);
    }

    /// Current pc.
    pub fn pc(&self) -> u32 {
        self.hart.pc
    }

    /// Sets the pc (the next instruction executed).
    pub fn set_pc(&mut self, pc: u32) {
        self.hart.pc = pc;
    }

    /// Register x`i` (x0 and out-of-range indices read 0).
    pub fn reg(&self, i: usize) -> u32 {
        self.hart.reg(i)
    }

    /// Sets register x`i`; writes to x0 (and out-of-range indices) are ignored.
    pub fn set_reg(&mut self, i: usize, v: u32) {
        if (1..32).contains(&i) {
            self.hart.x[i] = v;
        }
    }

    /// Current privilege mode.
    pub fn mode(&self) -> crate::hart::Mode {
        self.hart.mode
    }

    /// Side-effect-free CSR read; None if the CSR is not implemented.
    pub fn csr(&self, num: u16) -> Option<u32> {
        self.csr_peek(num)
    }

    /// The register-page extension's statistics (None without the extension).
    pub fn reg_page_stats(&self) -> Option<crate::RegPageStats> {
        self.reg_pages.as_ref().map(|p| p.report())
    }

    /// Debug read without side effects on devices or the cost model, at physical addresses
    /// (Carousel tags do not apply); Err names the first unmapped byte (device windows count
    /// as unmapped).
    pub fn read_debug(&self, addr: u32, buf: &mut [u8]) -> Result<(), MemError> {
        self.bus.mem.read_debug(addr, buf)
    }

    /// Debug write (all-or-nothing) at physical addresses (Carousel tags do not apply);
    /// invalidates predecoded code it touches, including code fetched through a tag from the
    /// Carousel SPM window.
    pub fn write_debug(&mut self, addr: u32, data: &[u8]) -> Result<(), MemError> {
        self.bus.mem.write_debug(addr, data)?;
        let spm = self.bus.mem.carousel.as_ref().is_some_and(|c| {
            u64::from(addr) < u64::from(c.spm_base) + u64::from(c.spm_size())
                && u64::from(c.spm_base) < u64::from(addr) + data.len() as u64
        });
        if spm || self.cache.covers(addr, data.len() as u32) {
            self.cache.flush(&mut self.bus.mem);
        }
        Ok(())
    }

    /// Sends UART output to `sink` from now on.
    pub fn set_uart_sink(&mut self, sink: Box<dyn std::io::Write + Send>) {
        self.bus.uart.sink = UartSink::Writer(sink);
    }

    /// Takes the UART output buffered so far (empty if a sink was set).
    pub fn take_uart_output(&mut self) -> Vec<u8> {
        self.bus.uart.take_output()
    }

    /// The longest window, in cycles, that the hart spent in M-mode with interrupts masked
    /// (`mstatus.MIE` clear) after interrupts were first enabled, counting closed windows
    /// only (`hart/masked.rs`): an upper bound on how long a pending interrupt waits.
    pub fn longest_masked_window(&self) -> u64 {
        self.masked.longest
    }

    /// Timer interrupt latencies so far: cycles from the moment MTIP became set (`mtime`
    /// reached `mtimecmp`, or a CLINT write made it pending) to the trap entry, as a histogram
    /// (latency -> count). Includes time the interrupt was masked.
    pub fn timer_interrupt_latency(&self) -> &BTreeMap<u64, u64> {
        &self.timer_latency
    }

    /// Events recorded so far (empty unless `MachineConfig::record_events`).
    pub fn events(&self) -> &[Event] {
        &self.bus.events
    }

    /// Info about the loaded ELF, if any.
    pub fn elf_info(&self) -> Option<&ElfInfo> {
        self.elf.as_ref()
    }
}
