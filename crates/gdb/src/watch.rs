//! Hardware watchpoints for gdb (`watch`, `rwatch`, `awatch`). The machine has no data
//! triggers, so while any watchpoint is set the stub runs the guest one instruction at a time
//! and decodes each before it runs: a load, store, LR/SC or AMO whose bytes overlap a watched
//! range stops the guest right after that instruction, and gdb is told which watchpoint and
//! which thread (gdb then shows the old and new value). Continuing with watchpoints is
//! therefore slower than without (one `Machine::step` per instruction, no block chaining).
//!
//! Guarantees: an access is seen whatever the addressing (base register plus offset, compressed
//! forms, AMOs); a `sc.w` counts as a write even when it fails; an instruction that traps
//! instead of accessing memory reports the trap, not the watchpoint.

use cactus_isa::{decode, Class, Op};
use cactus_sim::Machine;
use gdbstub::target::ext::breakpoints::WatchKind;

/// One watched range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Watch {
    /// First byte.
    pub addr: u32,
    /// Bytes watched (at least 1).
    pub len: u32,
    /// Which accesses trigger it.
    pub kind: WatchKind,
}

/// The memory an instruction reads or writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Access {
    addr: u32,
    len: u32,
    read: bool,
    write: bool,
}

/// The access the instruction at the machine's pc makes, if it is a load, store, LR/SC or AMO
/// (None for anything else and for bytes that do not decode).
pub(crate) fn next_access(machine: &Machine) -> Option<Access> {
    let pc = machine.pc();
    let mut low = [0u8; 2];
    machine.read_debug(pc, &mut low).ok()?;
    let mut raw = u32::from(u16::from_le_bytes(low));
    if raw & 3 == 3 {
        let mut high = [0u8; 2];
        machine.read_debug(pc.wrapping_add(2), &mut high).ok()?;
        raw |= u32::from(u16::from_le_bytes(high)) << 16;
    }
    let inst = decode(raw).ok()?.inst;
    let base = machine.reg(usize::from(inst.rs1));
    let offset = base.wrapping_add(inst.imm as u32);
    let width = inst.op.access_bytes()?;
    let (addr, read, write) = match inst.op.class() {
        Class::Load => (offset, true, false),
        Class::Store => (offset, false, true),
        Class::Amo => match inst.op {
            Op::LrW => (base, true, false),
            Op::ScW => (base, false, true),
            _ => (base, true, true),
        },
        _ => return None,
    };
    Some(Access {
        addr,
        len: width,
        read,
        write,
    })
}

/// The first of `watches` that `access` triggers.
pub(crate) fn triggered(watches: &[Watch], access: &Access) -> Option<Watch> {
    watches.iter().copied().find(|w| {
        let kind_matches = match w.kind {
            WatchKind::Write => access.write,
            WatchKind::Read => access.read,
            WatchKind::ReadWrite => access.read || access.write,
        };
        let (a0, a1) = (
            u64::from(access.addr),
            u64::from(access.addr) + u64::from(access.len),
        );
        let (w0, w1) = (
            u64::from(w.addr),
            u64::from(w.addr) + u64::from(w.len.max(1)),
        );
        kind_matches && a0 < w1 && w0 < a1
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn access(addr: u32, len: u32, read: bool, write: bool) -> Access {
        Access {
            addr,
            len,
            read,
            write,
        }
    }

    #[test]
    fn overlap_and_kind_decide() {
        let w = [Watch {
            addr: 0x100,
            len: 4,
            kind: WatchKind::Write,
        }];
        assert!(triggered(&w, &access(0x100, 4, false, true)).is_some());
        assert!(
            triggered(&w, &access(0x103, 1, false, true)).is_some(),
            "last byte"
        );
        assert!(
            triggered(&w, &access(0xfe, 4, false, true)).is_some(),
            "straddles the start"
        );
        assert!(
            triggered(&w, &access(0x104, 4, false, true)).is_none(),
            "just after"
        );
        assert!(
            triggered(&w, &access(0xfc, 4, false, true)).is_none(),
            "just before"
        );
        assert!(
            triggered(&w, &access(0x100, 4, true, false)).is_none(),
            "a read"
        );
        let r = [Watch {
            kind: WatchKind::Read,
            ..w[0]
        }];
        assert!(triggered(&r, &access(0x100, 4, true, false)).is_some());
        assert!(triggered(&r, &access(0x100, 4, false, true)).is_none());
        let a = [Watch {
            kind: WatchKind::ReadWrite,
            ..w[0]
        }];
        assert!(
            triggered(&a, &access(0x100, 4, true, true)).is_some(),
            "an AMO"
        );
    }

    #[test]
    fn a_range_at_the_top_of_the_address_space_does_not_wrap() {
        let w = [Watch {
            addr: 0xffff_fffc,
            len: 4,
            kind: WatchKind::ReadWrite,
        }];
        assert!(triggered(&w, &access(0xffff_fffc, 4, true, false)).is_some());
        assert!(triggered(&w, &access(0, 4, true, false)).is_none());
    }
}
