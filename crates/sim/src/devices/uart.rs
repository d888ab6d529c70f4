//! The 16550 UART at 0x1000_0000 (8 byte registers, like QEMU virt's `serial_mm` with
//! regshift 0). Output only: bytes written to THR (with LCR.DLAB clear) go to the sink. LSR
//! always reads 0x60 (transmitter empty, no input). Wider accesses are split into byte
//! accesses, as QEMU does for this device.

use std::io::Write;

/// Base address of the UART window.
pub const UART_BASE: u32 = 0x1000_0000;
/// Size of the decoded register window.
pub const UART_SIZE: u32 = 8;

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
    fcr: u8,
    lcr: u8,
    mcr: u8,
    scr: u8,
    dll: u8,
    dlm: u8,
    pub(crate) sink: UartSink,
}

impl Uart {
    /// A UART after reset, buffering its output.
    pub(crate) fn new() -> Uart {
        Uart {
            ier: 0,
            fcr: 0,
            lcr: 0,
            mcr: 0,
            scr: 0,
            dll: 0,
            dlm: 0,
            sink: UartSink::Buffer(Vec::new()),
        }
    }

    fn dlab(&self) -> bool {
        self.lcr & 0x80 != 0
    }

    /// Reads the register at byte offset `off` (0..8).
    pub(crate) fn read_u8(&self, off: u32) -> u8 {
        match off {
            0 if self.dlab() => self.dll,
            0 => 0,
            1 if self.dlab() => self.dlm,
            1 => self.ier,
            2 => 0x01 | if self.fcr & 1 != 0 { 0xC0 } else { 0 },
            3 => self.lcr,
            4 => self.mcr,
            5 => 0x60,
            6 => 0xB0,
            _ => self.scr,
        }
    }

    /// Writes the register at byte offset `off` (0..8).
    pub(crate) fn write_u8(&mut self, off: u32, v: u8) {
        match off {
            0 if self.dlab() => self.dll = v,
            0 => self.emit(v),
            1 if self.dlab() => self.dlm = v,
            1 => self.ier = v & 0x0F,
            2 => self.fcr = v,
            3 => self.lcr = v,
            4 => self.mcr = v & 0x1F,
            5 | 6 => {}
            _ => self.scr = v,
        }
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

    #[test]
    fn thr_lsr_and_divisor_latch() {
        let mut u = Uart::new();
        u.write_u8(0, b'a');
        u.write_u8(3, 0x83); // DLAB
        u.write_u8(0, 0x01); // divisor, not output
        assert_eq!(u.read_u8(0), 0x01);
        u.write_u8(3, 0x03);
        u.write_u8(0, b'b');
        assert_eq!(u.read_u8(5), 0x60);
        assert_eq!(u.read_u8(0), 0, "no input");
        assert_eq!(u.take_output(), b"ab");
        assert!(u.take_output().is_empty());
    }
}
