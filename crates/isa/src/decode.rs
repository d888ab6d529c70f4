//! Decoding of 32-bit words (and, through [`crate::compressed`], 16-bit forms) using the
//! table's match/mask patterns. No allocation; a lookup by major opcode, then at most a
//! couple of dozen mask compares.

use crate::compressed::decode_compressed;
use crate::error::DecodeError;
use crate::op::{Decoded, Inst, Op};

/// Most table rows sharing one major opcode (OP has the 10 RV32I + 8 M rows).
const BUCKET: usize = 20;
const EMPTY: u8 = u8::MAX;

/// For each major opcode (bits 6:2), the table indices of the rows with that opcode.
static BY_MAJOR: [[u8; BUCKET]; 32] = build_index();

const fn build_index() -> [[u8; BUCKET]; 32] {
    let mut index = [[EMPTY; BUCKET]; 32];
    let mut count = [0usize; 32];
    let mut i = 0;
    while i < Op::ALL.len() {
        let op = Op::ALL[i];
        assert!(op as usize == i, "Op discriminants must follow table order");
        assert!(
            op.match_bits() & 3 == 3,
            "base rows must have low bits 0b11"
        );
        assert!(
            op.match_bits() & !op.mask_bits() == 0,
            "match bits outside mask"
        );
        let major = ((op.match_bits() >> 2) & 0x1f) as usize;
        assert!(count[major] < BUCKET, "too many rows for one major opcode");
        index[major][count[major]] = i as u8;
        count[major] += 1;
        i += 1;
    }
    index
}

/// Decodes the instruction whose low bits are in `raw` (the 32 bits at pc, little-endian).
/// If the low two bits are not `0b11`, only the low 16 bits are used and the compressed
/// form is expanded to its base instruction (`len` = 2).
///
/// Illegal and reserved encodings (the all-zero halfword, reserved C encodings, shifts with
/// `shamt[5] = 1`, unknown opcodes, encodings longer than 32 bits) give `Err`; HINT
/// encodings decode to their base instruction.
#[inline]
pub fn decode(raw: u32) -> Result<Decoded, DecodeError> {
    if raw & 3 != 3 {
        let c = decode_compressed(raw as u16)?;
        return Ok(Decoded {
            inst: c.expand(),
            len: 2,
        });
    }
    decode_base(raw).map(|inst| Decoded { inst, len: 4 })
}

/// Decodes a 32-bit (non-compressed) word. `Err` if the low two bits are not `0b11`.
pub fn decode_base(raw: u32) -> Result<Inst, DecodeError> {
    if raw & 3 != 3 {
        return Err(DecodeError::new(
            raw,
            "not a 32-bit encoding (low bits are not 0b11)",
        ));
    }
    if raw & 0x1c == 0x1c {
        return Err(DecodeError::new(raw, "encoding longer than 32 bits"));
    }
    let bucket = &BY_MAJOR[((raw >> 2) & 0x1f) as usize];
    for &index in bucket {
        if index == EMPTY {
            break;
        }
        let op = Op::ALL[index as usize];
        if raw & op.mask_bits() == op.match_bits() {
            let (rd, rs1, rs2, imm) = op.format().extract(raw);
            return Ok(Inst {
                op,
                rd,
                rs1,
                rs2,
                imm,
            });
        }
    }
    Err(DecodeError::new(
        raw,
        "no RV32IMA/Zicsr/Zifencei instruction has this encoding",
    ))
}
