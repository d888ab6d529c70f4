//! Register names and register sets, and the exact registers each instruction reads and
//! writes (derived from its format).

use crate::format::Format;
use crate::op::{Inst, Reg};

/// ABI names of `x0`..`x31`, in register order (`x8` is `s0`; `fp` is accepted as an alias).
pub const ABI_NAMES: [&str; 32] = [
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4",
    "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4",
    "t5", "t6",
];

/// The ABI name of register `r` (`"a0"` for 10). Panics-free: `r` is masked to 5 bits.
pub fn reg_name(r: Reg) -> &'static str {
    ABI_NAMES[usize::from(r & 31)]
}

/// Parses a register name: an ABI name, `fp`, or `x0`..`x31`.
pub fn parse_reg(name: &str) -> Option<Reg> {
    if name == "fp" {
        return Some(8);
    }
    if let Some(i) = ABI_NAMES.iter().position(|&n| n == name) {
        return Some(i as Reg);
    }
    let digits = name.strip_prefix('x')?;
    if digits.is_empty() || (digits.len() > 1 && digits.starts_with('0')) {
        return None;
    }
    let n: u8 = digits.parse().ok()?;
    (n < 32).then_some(n)
}

/// A set of integer registers as a bitmask (bit `i` = `x{i}`).
/// Sets produced by [`Inst::reads`] and [`Inst::writes`] never contain `x0`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RegSet(pub u32);

impl RegSet {
    /// The empty set.
    pub const EMPTY: RegSet = RegSet(0);

    /// The set holding only `r`, or the empty set if `r` is `x0`.
    pub const fn of(r: Reg) -> RegSet {
        if r == 0 {
            RegSet(0)
        } else {
            RegSet(1 << (r & 31))
        }
    }

    /// Whether `r` is in the set.
    pub const fn contains(self, r: Reg) -> bool {
        self.0 & (1 << (r & 31)) != 0
    }

    /// Set union.
    pub const fn union(self, other: RegSet) -> RegSet {
        RegSet(self.0 | other.0)
    }

    /// Set difference (`self` without the members of `other`).
    pub const fn minus(self, other: RegSet) -> RegSet {
        RegSet(self.0 & !other.0)
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Number of registers in the set.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// The members in increasing register order.
    pub fn iter(self) -> impl Iterator<Item = Reg> {
        (0..32u8).filter(move |&r| self.contains(r))
    }
}

impl Inst {
    /// The registers whose values this instruction reads (architecturally; `x0` excluded
    /// since it is constant). `ecall` reads nothing; calling conventions are the analysis's
    /// business. `fence`/`fence.i` ignore their `rd`/`rs1` fields.
    pub fn reads(&self) -> RegSet {
        let f = self.op.format();
        match f {
            Format::CsrI | Format::Fence | Format::FenceI => RegSet::EMPTY,
            _ => {
                let fields = f.fields();
                let mut set = RegSet::EMPTY;
                if fields.rs1 {
                    set = set.union(RegSet::of(self.rs1));
                }
                if fields.rs2 {
                    set = set.union(RegSet::of(self.rs2));
                }
                set
            }
        }
    }

    /// The registers this instruction writes (`x0` never included). `jal`/`jalr` write
    /// `rd`; CSR instructions write `rd` (even when they skip the CSR read for `rd = x0`,
    /// which then writes nothing).
    pub fn writes(&self) -> RegSet {
        let f = self.op.format();
        match f {
            Format::Fence | Format::FenceI => RegSet::EMPTY,
            _ if f.fields().rd => RegSet::of(self.rd),
            _ => RegSet::EMPTY,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::op::Op;

    #[test]
    fn register_names_parse_and_print() {
        for r in 0..32u8 {
            assert_eq!(parse_reg(reg_name(r)), Some(r));
            assert_eq!(parse_reg(&format!("x{r}")), Some(r));
        }
        assert_eq!(parse_reg("fp"), Some(8));
        for bad in ["x32", "x01", "x", "a8", "s12", "t7", "", "X1", "zero "] {
            assert_eq!(parse_reg(bad), None, "{bad}");
        }
    }

    #[test]
    fn regset_operations() {
        let a = RegSet::of(1).union(RegSet::of(10));
        assert!(a.contains(1) && a.contains(10) && !a.contains(2));
        assert_eq!(a.len(), 2);
        assert_eq!(a.minus(RegSet::of(1)), RegSet::of(10));
        assert_eq!(RegSet::of(0), RegSet::EMPTY);
        assert_eq!(a.iter().collect::<Vec<_>>(), vec![1, 10]);
        assert!(RegSet::EMPTY.is_empty());
    }

    #[test]
    fn fences_and_system_ops_touch_no_registers() {
        // fence's rd/rs1 fields are reserved and ignored; csrr*i's rs1 is an immediate.
        for op in [Op::Fence, Op::FenceI, Op::Csrrwi] {
            let i = Inst::new(op, 0, 5, 0, 0);
            assert!(i.reads().is_empty(), "{op:?}");
        }
        assert!(Inst::new(Op::Fence, 5, 5, 0, 0xff).writes().is_empty());
        assert_eq!(
            Inst::new(Op::Csrrwi, 5, 5, 0, 0x300).writes(),
            RegSet::of(5)
        );
        assert!(Inst::new(Op::Ecall, 0, 0, 0, 0).reads().is_empty());
    }
}
