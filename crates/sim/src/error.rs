//! Typed errors of the simulator library: profiles, ELF loading and debug memory access.
//! An underlying error is part of the variant's message and deliberately not its `source()`
//! (the field is `error`, not `source`), so that a chain printer such as anyhow's `{:#}` says
//! the cause once.

use thiserror::Error;

/// A profile that cannot be read, parsed or validated. Every variant names the file.
#[derive(Debug, Error)]
pub enum ProfileError {
    /// The file could not be read.
    #[error("{path}: cannot read profile: {error}")]
    Io {
        /// The path given.
        path: String,
        /// The I/O error.
        error: std::io::Error,
    },
    /// TOML syntax error, unknown key, or a value of the wrong type.
    #[error("{origin}{}: {}{message}", line.map(|l| format!(":{l}")).unwrap_or_default(), if key.is_empty() { String::new() } else { format!("key `{key}`: ") })]
    Parse {
        /// The file (or builtin name) being parsed.
        origin: String,
        /// Dotted key path (`cycles.alu`, `memory[0].base`), empty if unknown.
        key: String,
        /// 1-based line, when known.
        line: Option<usize>,
        /// What is wrong.
        message: String,
    },
    /// A well-formed profile whose values are not acceptable.
    #[error("{origin}: key `{key}`: {message}")]
    Invalid {
        /// The file (or builtin name) being parsed.
        origin: String,
        /// Dotted key path.
        key: String,
        /// What is wrong.
        message: String,
    },
}

/// Why an ELF could not be loaded. Nothing is written to memory when loading fails.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum LoadError {
    /// The bytes do not start with the ELF magic.
    #[error("not an ELF file (bad magic)")]
    NotElf,
    /// A 64-bit (ELFCLASS64) or unknown-class ELF.
    #[error("wrong ELF class {0} (expected ELFCLASS32 = 1)")]
    WrongClass(u8),
    /// A big-endian ELF.
    #[error("big-endian ELF (expected little-endian RISC-V)")]
    BigEndian,
    /// Not a RISC-V ELF.
    #[error("wrong ELF machine {0} (expected EM_RISCV = 243)")]
    WrongMachine(u16),
    /// Not an executable (ET_EXEC).
    #[error("ELF type {0} is not an executable (expected ET_EXEC = 2)")]
    NotExecutable(u16),
    /// A PT_LOAD segment that does not fit entirely in one memory region.
    #[error("segment at {vaddr:#010x} ({size} bytes) is outside the machine's memory regions")]
    SegmentOutsideMemory {
        /// Load address of the segment.
        vaddr: u32,
        /// Memory size of the segment.
        size: u32,
    },
    /// Any other structural problem.
    #[error("malformed ELF: {0}")]
    Malformed(String),
}

/// A debug memory access that touched an unmapped byte.
#[derive(Debug, Error, Clone, Copy, PartialEq, Eq)]
#[error("address {addr:#010x} is not mapped to memory")]
pub struct MemError {
    /// The first unmapped address.
    pub addr: u32,
}
