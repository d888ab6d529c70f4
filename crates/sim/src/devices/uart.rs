//! The 16550 UART at 0x1000_0000 (8 byte registers, like QEMU virt's `serial_mm` with
//! regshift 0), with QEMU 7.2 `serial.c`'s receive and interrupt behaviour. Wider accesses
//! are split into byte accesses, as QEMU does for this device.
//!
//! Transmit: bytes written to THR (with LCR.DLAB clear) go to the sink at once, so LSR always
//! has THRE and TEMT set. Receive: bytes come from a [`UartInput`] schedule into RBR (one byte)
//! or, with FCR.FE set, a 16-byte FIFO; LSR.DR says a byte is waiting and reading RBR pops it
//! (an empty FIFO reads 0). Changing FCR.FE, or writing FCR.RFR, drops the received bytes
//! (with the FIFO off too); writing FCR.XFR raises the THR-empty condition.
//!
//! Interrupts (IER bit 0 received data, bit 1 THR empty) are reported in IIR by priority:
//! received data (0x04) when a byte is waiting (with the FIFO on, once the FIFO holds the
//! trigger level of FCR bits 7:6: 1, 4, 8 or 14 bytes), then THR empty (0x02), else none
//! (0x01); bits 7:6 of IIR are set while the FIFO is on. The THR-empty condition is raised by
//! every THR write (the byte leaves at once), by FCR.XFR and when IER.THRI goes from 0 to 1,
//! and cleared by a read of IIR that reports it and by clearing IER.THRI. The line to the PLIC
//! is re-evaluated where QEMU calls `serial_update_irq`: on an arrival, an RBR read, an IIR
//! read that clears THR empty, a THR write, an IER write that changes IER and any FCR write;
//! each evaluation with IIR reporting something raises the line ([`Uart::raised`]).
//! Reset values as QEMU: MCR = 0x08 (OUT2), divisor latch = 0x000C.
//!
//! Not modelled: the line-status and modem-status interrupts (no errors, no modem changes),
//! loopback, and QEMU's character-timeout indication (IIR 0x0C, raised by QEMU when FIFO bytes
//! below the trigger level wait for four character times); with trigger level 1 (FCR bits
//! 7:6 = 0) every waiting byte raises the received-data interrupt on both.

use crate::devices::uart_input::UartInput;
use std::collections::VecDeque;
use std::io::Write;

/// Base address of the UART window.
pub const UART_BASE: u32 = 0x1000_0000;
/// Size of the decoded register window.
pub const UART_SIZE: u32 = 8;

/// Receive FIFO depth with FCR.FE set (QEMU's `UART_FIFO_LENGTH`).
const FIFO_DEPTH: usize = 16;
const IER_RDI: u8 = 0x01;
const IER_THRI: u8 = 0x02;
const FCR_FE: u8 = 0x01;
const FCR_RFR: u8 = 0x02;
const FCR_XFR: u8 = 0x04;
const IIR_NONE: u8 = 0x01;
const IIR_THRI: u8 = 0x02;
const IIR_RDI: u8 = 0x04;
const LSR_DR: u8 = 0x01;
/// THRE | TEMT: the transmitter is always empty.
const LSR_TX_EMPTY: u8 = 0x60;

/// Where transmitted bytes go.
pub(crate) enum UartSink {
    /// Kept in memory until `take_uart_output`.
    Buffer(Vec<u8>),
    /// Written through immediately.
    Writer(Box<dyn Write + Send>),
}

/// UART register state.
pub(crate) struct Uart {
    ier: u8,
    /// FCR bits that stick (0xC9 of the value written).
    fcr: u8,
    lcr: u8,
    mcr: u8,
    scr: u8,
    dll: u8,
    dlm: u8,
    /// Received bytes waiting (at most 1 without the FIFO, FIFO_DEPTH with it).
    rx: VecDeque<u8>,
    /// The last byte read from RBR without the FIFO (RBR keeps it after DR clears).
    rbr: u8,
    /// QEMU's `thr_ipending`: the THR-empty interrupt condition.
    thr_ipending: bool,
    input: UartInput,
    /// Set when an access or an arrival re-evaluated the interrupt line with the line high
    /// (QEMU's `serial_update_irq` raising it); the bus raises PLIC source 10 and clears it.
    pub(crate) raised: bool,
    pub(crate) sink: UartSink,
}

impl Uart {
    /// A UART after reset, buffering its output and receiving `input`.
    pub(crate) fn new(input: UartInput) -> Uart {
        Uart {
            ier: 0,
            fcr: 0,
            lcr: 0,
            mcr: 0x08,
            scr: 0,
            dll: 0x0C,
            dlm: 0,
            rx: VecDeque::new(),
            rbr: 0,
            thr_ipending: false,
            input,
            raised: false,
            sink: UartSink::Buffer(Vec::new()),
        }
    }

    fn dlab(&self) -> bool {
        self.lcr & 0x80 != 0
    }

    fn fifo_on(&self) -> bool {
        self.fcr & FCR_FE != 0
    }

    fn capacity(&self) -> usize {
        if self.fifo_on() {
            FIFO_DEPTH
        } else {
            1
        }
    }

    /// The receive-FIFO trigger level (FCR bits 7:6).
    fn trigger_level(&self) -> usize {
        [1, 4, 8, 14][usize::from(self.fcr >> 6)]
    }

    /// The interrupt identification (IIR bits 3:0).
    fn iir_id(&self) -> u8 {
        let rx_ready =
            !self.rx.is_empty() && (!self.fifo_on() || self.rx.len() >= self.trigger_level());
        if self.ier & IER_RDI != 0 && rx_ready {
            IIR_RDI
        } else if self.ier & IER_THRI != 0 && self.thr_ipending {
            IIR_THRI
        } else {
            IIR_NONE
        }
    }

    /// The interrupt line (to PLIC source 10): high while IIR reports an interrupt.
    pub(crate) fn line(&self) -> bool {
        self.iir_id() != IIR_NONE
    }

    /// Re-evaluates the line (QEMU's `serial_update_irq`).
    fn update(&mut self) {
        if self.line() {
            self.raised = true;
        }
    }

    /// The cycle the next input byte arrives, if one is left and the receiver has room.
    pub(crate) fn next_arrival(&self) -> Option<u64> {
        if self.rx.len() < self.capacity() {
            self.input.next_arrival()
        } else {
            None
        }
    }

    /// Delivers the input bytes due by `cycle` while there is room.
    pub(crate) fn sync(&mut self, cycle: u64) {
        while self.rx.len() < self.capacity() {
            let Some(b) = self.input.take_due(cycle) else {
                break;
            };
            self.rx.push_back(b);
            self.update();
        }
    }

    /// Input bytes not delivered yet.
    pub(crate) fn input_remaining(&self) -> usize {
        self.input.remaining()
    }

    /// Removes received bytes by `f`, noting new room at `cycle` if the receiver was full.
    fn drain_rx(&mut self, cycle: u64, f: impl FnOnce(&mut VecDeque<u8>)) {
        let was_full = self.rx.len() >= self.capacity();
        f(&mut self.rx);
        if was_full && self.rx.len() < self.capacity() {
            self.input.room_at(cycle);
        }
    }

    /// Reads the register at byte offset `off` (0..8) at `cycle` (after `sync(cycle)`).
    pub(crate) fn read_u8(&mut self, off: u32, cycle: u64) -> u8 {
        match off {
            0 if self.dlab() => self.dll,
            0 => {
                let mut popped = None;
                self.drain_rx(cycle, |rx| popped = rx.pop_front());
                self.update();
                match popped {
                    Some(b) => {
                        self.rbr = b;
                        b
                    }
                    None if self.fifo_on() => 0,
                    None => self.rbr,
                }
            }
            1 if self.dlab() => self.dlm,
            1 => self.ier,
            2 => {
                let id = self.iir_id();
                if id == IIR_THRI {
                    self.thr_ipending = false;
                    self.update();
                }
                id | if self.fifo_on() { 0xC0 } else { 0 }
            }
            3 => self.lcr,
            4 => self.mcr,
            5 => LSR_TX_EMPTY | if self.rx.is_empty() { 0 } else { LSR_DR },
            6 => 0xB0,
            _ => self.scr,
        }
    }

    /// Writes the register at byte offset `off` (0..8) at `cycle` (after `sync(cycle)`).
    pub(crate) fn write_u8(&mut self, off: u32, v: u8, cycle: u64) {
        match off {
            0 if self.dlab() => self.dll = v,
            0 => {
                self.emit(v);
                // The byte leaves at once: THR is empty again.
                self.thr_ipending = true;
                self.update();
            }
            1 if self.dlab() => self.dlm = v,
            1 => {
                let changed = (self.ier ^ v) & 0x0F;
                self.ier = v & 0x0F;
                if changed & IER_THRI != 0 {
                    self.thr_ipending = self.ier & IER_THRI != 0;
                }
                if changed != 0 {
                    self.update();
                }
            }
            2 => self.write_fcr(v, cycle),
            3 => self.lcr = v,
            4 => self.mcr = v & 0x1F,
            5 | 6 => {}
            _ => self.scr = v,
        }
    }

    fn write_fcr(&mut self, v: u8, cycle: u64) {
        let mut v = v;
        if (v ^ self.fcr) & FCR_FE != 0 {
            v |= FCR_RFR | FCR_XFR;
        }
        if v & FCR_RFR != 0 {
            self.drain_rx(cycle, VecDeque::clear);
        }
        if v & FCR_XFR != 0 {
            self.thr_ipending = true;
        }
        self.fcr = v & 0xC9;
        self.update();
    }

    fn emit(&mut self, byte: u8) {
        match &mut self.sink {
            UartSink::Buffer(buf) => buf.push(byte),
            UartSink::Writer(w) => {
                // NOTE: a failing host sink must not stop the guest; output is best effort.
                let _ = w.write_all(&[byte]);
                if byte == b'\n' {
                    let _ = w.flush();
                }
            }
        }
    }

    /// Flushes a writer sink (a buffer needs nothing).
    pub(crate) fn flush(&mut self) {
        if let UartSink::Writer(w) = &mut self.sink {
            let _ = w.flush();
        }
    }

    /// Takes the buffered output (empty when a writer sink is set).
    pub(crate) fn take_output(&mut self) -> Vec<u8> {
        match &mut self.sink {
            UartSink::Buffer(buf) => std::mem::take(buf),
            UartSink::Writer(w) => {
                let _ = w.flush();
                Vec::new()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uart(input: &[u8], rate: u64) -> Uart {
        Uart::new(UartInput::new(input.to_vec(), rate))
    }

    #[test]
    fn thr_lsr_and_divisor_latch() {
        let mut u = uart(b"", 1);
        u.write_u8(0, b'a', 0);
        u.write_u8(3, 0x83, 0); // DLAB
        u.write_u8(0, 0x01, 0); // divisor, not output
        assert_eq!(u.read_u8(0, 0), 0x01);
        assert_eq!(u.read_u8(1, 0), 0x00, "DLM after reset");
        u.write_u8(3, 0x03, 0);
        assert_eq!(u.read_u8(4, 0), 0x08, "MCR resets to OUT2");
        u.write_u8(0, b'b', 0);
        assert_eq!(u.read_u8(5, 0), 0x60);
        assert_eq!(u.read_u8(0, 0), 0, "no input");
        assert_eq!(u.take_output(), b"ab");
        assert!(u.take_output().is_empty());
    }

    #[test]
    fn received_bytes_wait_in_rbr_and_never_overrun() {
        let mut u = uart(b"xy", 100);
        u.sync(99);
        assert_eq!(u.read_u8(5, 99) & LSR_DR, 0, "nothing before cycle 100");
        assert_eq!(u.next_arrival(), Some(100));
        u.sync(250);
        assert_eq!(u.read_u8(5, 250), 0x61, "one byte in RBR");
        assert_eq!(u.next_arrival(), None, "y waits: RBR is full");
        assert_eq!(u.read_u8(0, 300), b'x');
        assert_eq!(u.next_arrival(), Some(300), "y arrives once RBR is read");
        assert_eq!(u.read_u8(0, 301), b'x', "RBR keeps the last byte");
        u.sync(300);
        assert_eq!(u.read_u8(0, 300), b'y');
        assert_eq!(u.input_remaining(), 0);
    }

    #[test]
    fn fifo_holds_sixteen_and_reset_empties_it() {
        let mut u = uart(&[7; 20], 1);
        u.write_u8(2, 0x01, 0);
        assert_eq!(u.read_u8(2, 0), 0xC1, "FIFO on, no interrupt");
        u.sync(1000);
        assert_eq!(u.rx.len(), 16);
        assert_eq!(u.next_arrival(), None);
        u.write_u8(2, 0x03, 1000); // RFR
        assert!(u.rx.is_empty());
        assert_eq!(u.next_arrival(), Some(1000));
        u.sync(1000);
        assert_eq!(u.rx.len(), 4);
        assert_eq!(u.read_u8(0, 1000), 7);
        u.write_u8(2, 0x00, 1000); // FIFO off: flushed
        assert_eq!(u.read_u8(5, 1000) & LSR_DR, 0);
        assert_eq!(u.read_u8(2, 1000), 0x01);
    }

    #[test]
    fn iir_priority_and_thre_semantics() {
        let mut u = uart(b"k", 10);
        assert!(!u.line());
        u.write_u8(1, IER_THRI, 0);
        assert_eq!(
            u.read_u8(2, 0),
            IIR_THRI,
            "enabling THRI with THR empty raises it"
        );
        assert_eq!(u.read_u8(2, 0), IIR_NONE, "reading IIR cleared it");
        u.write_u8(0, b'o', 0);
        assert!(u.line(), "a THR write empties THR again");
        u.write_u8(1, IER_THRI | IER_RDI, 0);
        u.sync(10);
        assert_eq!(u.read_u8(2, 10), IIR_RDI, "received data before THR empty");
        assert!(u.line());
        assert_eq!(u.read_u8(0, 10), b'k');
        assert_eq!(u.read_u8(2, 10), IIR_THRI, "THR empty still pending");
        assert_eq!(u.read_u8(2, 10), IIR_NONE);
        u.write_u8(0, b'p', 10);
        u.write_u8(1, IER_RDI, 10);
        assert!(!u.line(), "clearing THRI drops the THR-empty condition");
        u.write_u8(1, IER_RDI | IER_THRI, 10);
        assert!(u.line(), "setting THRI again raises it");
    }

    #[test]
    fn raised_follows_qemu_update_points() {
        let mut u = uart(b"q", 5);
        u.write_u8(1, IER_RDI, 0);
        assert!(
            !u.raised,
            "nothing waiting: the IER write evaluates a low line"
        );
        u.sync(5);
        assert!(u.raised, "the arrival raises the line");
        u.raised = false;
        assert_eq!(u.read_u8(5, 5), 0x61);
        assert!(!u.raised, "an LSR read does not re-evaluate");
        u.write_u8(1, IER_RDI, 5);
        assert!(
            !u.raised,
            "an IER write that changes nothing does not either"
        );
        u.write_u8(2, 0x00, 5);
        assert!(u.raised, "any FCR write re-evaluates");
        u.raised = false;
        assert_eq!(u.read_u8(0, 5), b'q');
        assert!(!u.raised, "RBR read re-evaluates a now low line");
        u.write_u8(1, IER_RDI | IER_THRI, 5);
        assert!(u.raised, "enabling THRI raises");
        u.raised = false;
        u.write_u8(2, 0x02, 5);
        assert!(u.raised, "THR empty is still pending");
    }

    #[test]
    fn fifo_trigger_level_gates_the_received_data_interrupt() {
        let mut u = uart(b"abcd", 1);
        u.write_u8(2, 0x41, 0); // FIFO on, trigger level 4
        u.write_u8(1, IER_RDI, 0);
        u.sync(3);
        assert_eq!(u.read_u8(5, 3) & LSR_DR, LSR_DR);
        assert!(!u.line(), "3 bytes < trigger level 4");
        u.sync(4);
        assert_eq!(u.read_u8(2, 4), 0xC0 | IIR_RDI);
        assert_eq!(u.read_u8(0, 4), b'a');
        assert!(!u.line());
    }
}
