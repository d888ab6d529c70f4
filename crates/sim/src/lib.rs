//! cactus-sim: a deterministic RV32IMAC + Zicsr + Zifencei machine with M and U modes, QEMU
//! virt's memory map (RAM, 16550 UART with interrupts and scheduled input, CLINT, PLIC, test
//! finisher), HTIF `tohost`, the simulation-only trace device and ownership oracle
//! (docs/trace-device.md), an optional
//! stack-bound CSR (`mstackbound`, [`MachineConfig::stack_bound`]), and a per-class cycle and
//! energy model read from TOML profiles (docs/profiles.md).
//!
//! Design (docs/simulator-design.md): instructions are decoded once by `cactus_isa::decode`
//! into basic blocks of compact instructions, cached per 4 KiB page; a block body runs in a
//! tight `match` loop and its static cycles and class counts are added once per block.
//! Same ELF + profile + options always give the same cycles, instructions, energy and events.

mod bus;
mod call_probe;
mod config;
mod cost;
mod devices;
mod error;
mod events;
mod ext;
mod hart;
pub mod jobs;
mod limits;
mod loader;
mod loan_depth;
mod machine;
mod machine_access;
mod memory;
mod oracle;
mod profile;
mod report;
mod stats;
mod stats_build;
mod task_energy;
mod task_probe;

pub use config::{MachineConfig, OracleMode, TimerJitter};
pub use cost::{CostClass, COST_CLASSES, NUM_CLASSES};
pub use devices::clint::CLINT_BASE;
pub use devices::copier::{
    COPIER_BASE, COPIER_DST, COPIER_GO, COPIER_REFUSED, COPIER_SIZE, COPIER_SRC, COPIER_WORDS,
};
pub use devices::finisher::FINISHER_BASE;
pub use devices::plic::{PLIC_BASE, PLIC_SOURCES, UART_IRQ};
pub use devices::trace::{TRACE_BASE, TRACE_ID, TRACE_VERSION};
pub use devices::uart::UART_BASE;
pub use devices::DEVICE_LATENCY;
pub use error::{LoadError, MemError, ProfileError};
pub use events::{Event, EventKind, NOBODY};
pub use ext::carousel::{TAG_INFO, TAG_SPM_BASE, UNUSED as CAROUSEL_UNUSED};
pub use ext::dma::{
    DMA_COPIES, DMA_CTRL, DMA_CTRL_QUEUE, DMA_CTRL_START, DMA_DST, DMA_LAST_CYCLES, DMA_LEN,
    DMA_SRC, DMA_STATUS_BUSY, DMA_STATUS_ERROR, DMA_WAIT,
};
pub use ext::run::SPM_REGION;
pub use ext::spec::{CacheSpec, CarouselSpec, DmaSpec, ExternalSpec, WritePolicy};
pub use ext::stats::{CacheStats, MemSysStats};
pub use hart::csr::MISA;
pub use hart::regpages::{RegPageStats, MAPPABLE_PAGES, MAX_POOL_PAGES, MRFMAP, PAGE_REGS};
pub use hart::spbound::{CAUSE_STACK_BOUND, MSTACKBOUND};
pub use hart::stackwin::{
    CAUSE_STACK_WINDOW, MSWBOUND, MSWDISP, STACK_WINDOW_BASE, STACK_WINDOW_END,
};
pub use hart::switchregs::{
    SwitchRegStats, CAUSE_SWITCH_TABLE, MAX_SWITCH_RANGES, MSWBUDGET, MSWCOUNT, MSWMATCH, MSWTAB,
};
pub use hart::Mode;
pub use loader::ElfInfo;
pub use machine::{Machine, RunOutcome};
pub use profile::{CycleTable, EnergyTable, MemoryRegion, Misaligned, Profile};
pub use report::{cause_name, FaultKind, FaultReport, ViolationReport, ABI_NAMES};
pub use stats::{ClassStats, ModeStats, RegionStats, Stats, TaskStats, MAX_LISTED_VIOLATIONS};
pub use task_probe::TaskProbe;
