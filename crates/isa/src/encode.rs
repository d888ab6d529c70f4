//! Encoding of base instructions: the table row's match bits plus the format's fields.

use crate::error::EncodeError;
use crate::op::Inst;

/// Encodes a base instruction to its 32-bit word. `Err` if a field is out of range for the
/// op's format, or if a field the format does not have is nonzero. For every `inst` that
/// encodes, `decode(encode(inst)) == Ok(inst)` (with `len` 4).
pub fn encode(inst: &Inst) -> Result<u32, EncodeError> {
    let op = inst.op;
    let fields = op.format().pack(inst)?;
    // WARNING: formats only pack bits outside the op's fixed mask; a new format or row
    // that breaks this would make encode produce a different op.
    debug_assert_eq!(fields & op.mask_bits(), 0, "{op:?} packs into fixed bits");
    Ok(op.match_bits() | fields)
}
