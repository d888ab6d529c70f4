//! Typed errors of decoding and encoding. Each names the offending word or field.

use thiserror::Error;

/// A word (or halfword) that is not a legal RV32IMAC + Zicsr + Zifencei instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Error)]
#[error("illegal instruction {raw:#010x}: {reason}")]
pub struct DecodeError {
    /// The raw bits that were decoded (only the low 16 bits for a compressed encoding).
    pub raw: u32,
    /// Why the encoding is illegal or reserved.
    pub reason: &'static str,
}

impl DecodeError {
    pub(crate) const fn new(raw: u32, reason: &'static str) -> Self {
        DecodeError { raw, reason }
    }
}

/// An instruction that cannot be encoded because a field does not fit its format.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Error)]
pub enum EncodeError {
    /// A field's value is outside what the format can hold.
    #[error("{mnemonic}: {field} = {value} is out of range (expected {expected})")]
    FieldOutOfRange {
        /// Mnemonic of the instruction being encoded.
        mnemonic: &'static str,
        /// Name of the field (`rd`, `rs1`, `rs2`, `imm`).
        field: &'static str,
        /// The offending value.
        value: i64,
        /// What the format accepts.
        expected: &'static str,
    },
    /// The combination of fields is a reserved encoding (compressed forms only).
    #[error("{mnemonic}: {reason}")]
    Reserved {
        /// Mnemonic of the instruction being encoded.
        mnemonic: &'static str,
        /// Which reserved combination was requested.
        reason: &'static str,
    },
}
