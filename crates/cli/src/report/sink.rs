//! Where the guest's UART output goes during `cactus run`.

use std::io::Write;

/// Writes guest UART bytes to the process's stdout and flushes at once, so output appears as
/// the guest produces it (also under gdb, between steps).
pub struct StdoutSink;

impl Write for StdoutSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut out = std::io::stdout().lock();
        out.write_all(buf)?;
        out.flush()?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stdout().lock().flush()
    }
}
