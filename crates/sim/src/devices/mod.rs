//! Memory-mapped devices of the default machine (QEMU virt's addresses: UART, CLINT, PLIC,
//! test finisher) plus the simulation-only trace device and the stack-window extension's copy
//! engine. Each device decodes offsets inside
//! its own window; the bus (`bus.rs`) routes addresses to windows and the UART's interrupt
//! line to the PLIC.

pub(crate) mod clint;
pub(crate) mod copier;
pub(crate) mod finisher;
pub(crate) mod htif;
pub(crate) mod plic;
pub(crate) mod trace;
pub(crate) mod uart;
pub(crate) mod uart_input;

/// Extra cycles charged for any access to a device window (except the trace device, which is
/// free): a fixed small bus latency, independent of the profile.
pub const DEVICE_LATENCY: u32 = 1;
