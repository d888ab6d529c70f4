//! Names of the CSRs Cactus's code refers to. Any other CSR is written as a number.

/// `(name, number)` for every named CSR, as GNU as spells them.
pub const CSR_NAMES: &[(&str, u16)] = &[
    ("mstatus", 0x300),
    ("misa", 0x301),
    ("mie", 0x304),
    ("mtvec", 0x305),
    ("mscratch", 0x340),
    ("mepc", 0x341),
    ("mcause", 0x342),
    ("mtval", 0x343),
    ("mip", 0x344),
    ("mcycle", 0xb00),
    ("minstret", 0xb02),
    ("mcycleh", 0xb80),
    ("minstreth", 0xb82),
    ("cycle", 0xc00),
    ("time", 0xc01),
    ("instret", 0xc02),
    ("cycleh", 0xc80),
    ("timeh", 0xc81),
    ("instreth", 0xc82),
    ("mvendorid", 0xf11),
    ("marchid", 0xf12),
    ("mimpid", 0xf13),
    ("mhartid", 0xf14),
];

/// The name of CSR `number`, if it is one of [`CSR_NAMES`].
pub fn csr_name(number: u16) -> Option<&'static str> {
    CSR_NAMES
        .iter()
        .find(|&&(_, n)| n == number)
        .map(|&(name, _)| name)
}

/// The number of the CSR called `name`, if it is one of [`CSR_NAMES`].
pub fn csr_number(name: &str) -> Option<u16> {
    CSR_NAMES
        .iter()
        .find(|&&(n, _)| n == name)
        .map(|&(_, number)| number)
}
