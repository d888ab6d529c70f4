//! Where the guest's UART output goes during `cactus run`.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set while the guest's output so far ends in the middle of a line.
static MID_LINE: AtomicBool = AtomicBool::new(false);

/// True when the guest's output so far does not end with a newline (so a line printed after
/// it on stdout must start on a fresh line).
pub fn guest_output_mid_line() -> bool {
    MID_LINE.load(Ordering::Relaxed)
}

/// Writes guest UART bytes to the process's stdout and flushes at once, so output appears as
/// the guest produces it (also under gdb, between steps).
pub struct StdoutSink;

impl Write for StdoutSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut out = std::io::stdout().lock();
        out.write_all(buf)?;
        out.flush()?;
        if let Some(&last) = buf.last() {
            MID_LINE.store(last != b'\n', Ordering::Relaxed);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stdout().lock().flush()
    }
}
