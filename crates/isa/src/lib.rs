//! `cactus_isa`: the one RV32IMAC (+ Zicsr, Zifencei, `mret`, `wfi`) instruction table.
//!
//! Every base instruction is one row of the table in `table.rs` (mnemonic, format, timing
//! class, match/mask); every compressed form is one row of `compressed/table.rs`. From those
//! rows come:
//! - [`decode`] / [`encode`] (and [`decode_compressed`] / [`encode_compressed`]),
//! - the registers each instruction reads and writes ([`Inst::reads`], [`Inst::writes`]),
//!   which the simulator and the toolchain's liveness analysis share, so analysis cannot
//!   drift from what executes,
//! - the GNU assembler syntax in [`asm`].
//!
//! # Invariants
//! - For every [`Inst`] that [`encode`]s, `decode(encode(i)) == i`.
//! - For every [`CInst`] that encodes, `decode(encoded) == expand(c)` with `len == 2`.
//! - Read and write sets never contain `x0`.

pub mod asm;
mod compressed;
mod decode;
mod encode;
mod error;
mod format;
mod op;
mod regs;
mod table;

pub use compressed::{compress, decode_compressed, encode_compressed, CFormat, CInst, COp};
pub use decode::{decode, decode_base};
pub use encode::encode;
pub use error::{DecodeError, EncodeError};
pub use format::{Fields, Format};
pub use op::{Class, Decoded, Inst, Op, Reg};
pub use regs::{parse_reg, reg_name, RegSet, ABI_NAMES};
