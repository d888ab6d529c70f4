//! Check sites: the inline sequence after the first `sp` decrement (or at the entry, or
//! after a dynamic allocation), the out-of-line `ecall` (or, in `split` mode, the call into
//! the kernel's runtime followed by that `ecall`), and the `cactus_checks` table entry,
//! exactly as docs/stack-checks.md specifies.

use crate::emit::{directive, entry, inst};
use cactus_asm::{Entry, Item};
use cactus_isa::{Reg, RegSet};

/// Temporaries a check may use, in order of preference: t0-t2, t3-t6.
const SCRATCH: [Reg; 7] = [5, 6, 7, 28, 29, 30, 31];

/// Site kinds (word 3, bits 30-31).
pub const KIND_ENTRY: u32 = 0;
/// A check after a dynamic allocation.
pub const KIND_DYNAMIC: u32 = 1;
/// An entry check of a frame that must not be moved.
pub const KIND_PINNED: u32 = 2;

/// One check to insert.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    /// Bytes `sp` is already below the entry `sp` at the check (0 for dynamic sites).
    pub f1: u32,
    /// Bytes needed below the entry `sp` (entry sites) or the current `sp` (dynamic).
    pub need: u32,
    /// Bytes of incoming stack arguments the function reads.
    pub args: u32,
    /// Site kind.
    pub kind: u32,
    /// Registers live at the insertion point.
    pub live: RegSet,
    /// The hardware stack bound is the check: the site is inserted right before the
    /// function's first `sp` decrement (`f1` is 0, `need` at least that decrement), has no inline
    /// instruction and names the decrement in its table entry, both as the trapping pc and as
    /// where to resume (the decrement runs again on the new stack).
    pub bound: bool,
}

/// The code of one site: what goes inline at the insertion point and what goes after the
/// function's last instruction (the `ecall` and the table entry).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SiteCode {
    /// Inline items.
    pub inline: Vec<Entry>,
    /// Out-of-line items.
    pub stub: Vec<Entry>,
}

/// The ABI name of a register.
fn name(r: Reg) -> &'static str {
    cactus_isa::reg_name(r)
}

/// Picks `count` scratch registers dead at the site; `None` if there are not enough.
pub fn scratch(live: RegSet, count: usize) -> Option<Vec<Reg>> {
    let free: Vec<Reg> = SCRATCH
        .iter()
        .copied()
        .filter(|&r| !live.contains(r))
        .take(count)
        .collect();
    (free.len() == count).then_some(free)
}

/// The kernel's runtime a `split` stub jumps to with `t0` = its table entry.
pub const SPLIT_RUNTIME: &str = "port_split_request";

/// Generates site number `n` (labels `.Lcactus_ovf_<n>`, `.Lcactus_ok_<n>`). With
/// `calls_runtime`, an entry site whose check register is `t0` gets the call stub
/// (`lla t0, <entry>; j port_split_request`) before its `ecall`, and its table entry's word 0
/// names the `ecall` (label `.Lcactus_trap_<n>`); every other site keeps the plain `ecall`
/// stub. `Err` says why the site cannot be generated (no dead scratch register, a field out of
/// range).
pub fn generate(site: &Site, n: usize, calls_runtime: bool) -> Result<SiteCode, String> {
    if site.bound {
        return Ok(bound_site(site, n));
    }
    let extra = if site.kind == KIND_DYNAMIC {
        site.need
    } else {
        site.need.saturating_sub(site.f1)
    };
    if site.f1 > 0xffff {
        return Err(format!(
            "first sp decrement of {} bytes exceeds 65535",
            site.f1
        ));
    }
    if site.args > 0x3fff {
        return Err(format!(
            "{} bytes of incoming arguments exceed 16383",
            site.args
        ));
    }
    let big = extra > 2047;
    let regs = scratch(site.live, if big { 2 } else { 1 }).ok_or_else(|| {
        format!(
            "no dead scratch register (t0-t6) for a stack check (need {})",
            if big { 2 } else { 1 }
        )
    })?;
    let tx = name(regs[0]);
    let (ovf, ok) = (format!(".Lcactus_ovf_{n}"), format!(".Lcactus_ok_{n}"));
    let mut inline = vec![inst(&format!("lw {tx},-4(tp)"))];
    if big {
        let ty = name(regs[1]);
        inline.push(inst(&format!("li {ty},{extra}")));
        inline.push(inst(&format!("add {tx},{tx},{ty}")));
    } else if extra > 0 {
        inline.push(inst(&format!("addi {tx},{tx},{extra}")));
    }
    inline.push(inst(&format!("bltu sp,{tx},{ovf}")));
    inline.push(entry(Item::Label(ok.clone())));
    let info = site.f1 | (site.args << 16) | (site.kind << 30);
    // The call stub needs t0 for the entry's address; only a movable entry frame calls.
    let call = calls_runtime && site.kind == KIND_ENTRY && regs[0] == SCRATCH[0];
    let (trap, table) = (format!(".Lcactus_trap_{n}"), format!(".Lcactus_site_{n}"));
    let mut stub = vec![entry(Item::Label(ovf.clone()))];
    if call {
        stub.push(inst(&format!("lla t0,{table}")));
        stub.push(inst(&format!("j {SPLIT_RUNTIME}")));
        stub.push(entry(Item::Label(trap.clone())));
    }
    stub.extend([
        inst("ecall"),
        // SHF_LINK_ORDER ("o") to the stub's section: with `-z start-stop-gc` the linker
        // drops the entry with its function, so the table keeps nothing alive.
        directive(&format!(
            ".pushsection\tcactus_checks,\"ao\",@progbits,{ovf}"
        )),
        directive(".p2align\t2"),
    ]);
    if call {
        stub.push(entry(Item::Label(table)));
    }
    stub.extend([
        directive(&format!(".word\t{}", if call { &trap } else { &ovf })),
        directive(&format!(".word\t{ok}")),
        directive(&format!(".word\t{}", site.need)),
        directive(&format!(".word\t{info}")),
        directive(".popsection"),
    ]);
    Ok(SiteCode { inline, stub })
}

/// A hardware-bound site: the label `.Lcactus_ok_<n>` before the decrement, and the table
/// entry naming it as both the trapping pc and the continuation.
fn bound_site(site: &Site, n: usize) -> SiteCode {
    let ok = format!(".Lcactus_ok_{n}");
    let info = (site.args << 16) | (site.kind << 30);
    SiteCode {
        inline: vec![entry(Item::Label(ok.clone()))],
        stub: vec![
            directive(&format!(
                ".pushsection\tcactus_checks,\"ao\",@progbits,{ok}"
            )),
            directive(".p2align\t2"),
            directive(&format!(".word\t{ok}")),
            directive(&format!(".word\t{ok}")),
            directive(&format!(".word\t{}", site.need)),
            directive(&format!(".word\t{info}")),
            directive(".popsection"),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(entries: &[Entry]) -> String {
        entries.iter().map(|e| format!("{}\n", e.item)).collect()
    }

    #[test]
    fn bound_site_has_no_instruction_and_names_the_decrement_twice() {
        let site = Site {
            f1: 0,
            need: 48,
            args: 8,
            kind: KIND_ENTRY,
            live: RegSet::EMPTY,
            bound: true,
        };
        let code = generate(&site, 4, true).unwrap();
        assert_eq!(text(&code.inline), ".Lcactus_ok_4:\n");
        let stub = text(&code.stub);
        assert!(
            stub.contains("\t.word\t.Lcactus_ok_4\n\t.word\t.Lcactus_ok_4\n\t.word\t48\n"),
            "{stub}"
        );
        assert!(stub.contains(&format!("\t.word\t{}\n", 8 << 16)), "{stub}");
        assert!(!stub.contains("ecall"), "{stub}");
    }

    #[test]
    fn small_entry_check_matches_the_contract() {
        let site = Site {
            f1: 32,
            need: 48,
            args: 8,
            kind: KIND_ENTRY,
            live: RegSet::of(5),
            bound: false,
        };
        let code = generate(&site, 3, false).unwrap();
        assert_eq!(
            text(&code.inline),
            "\tlw t1,-4(tp)\n\taddi t1,t1,16\n\tbltu sp,t1,.Lcactus_ovf_3\n.Lcactus_ok_3:\n"
        );
        let stub = text(&code.stub);
        assert!(stub.starts_with(".Lcactus_ovf_3:\n\tecall\n"), "{stub}");
        assert!(
            stub.contains(&format!("\t.word\t{}\n", 32 | (8 << 16))),
            "{stub}"
        );
        assert!(stub.contains("\t.word\t48\n"), "{stub}");
    }

    #[test]
    fn large_extra_uses_two_registers_and_no_addi() {
        let site = Site {
            f1: 2032,
            need: 2032 + 4096,
            args: 0,
            kind: KIND_PINNED,
            live: RegSet::EMPTY,
            bound: false,
        };
        let code = generate(&site, 0, false).unwrap();
        assert_eq!(
            text(&code.inline),
            "\tlw t0,-4(tp)\n\tli t1,4096\n\tadd t0,t0,t1\n\tbltu sp,t0,.Lcactus_ovf_0\n.Lcactus_ok_0:\n"
        );
        assert!(text(&code.stub).contains(&format!("\t.word\t{}\n", 2032u32 | (2 << 30))));
    }

    #[test]
    fn zero_extra_has_no_addi_and_no_scratch_is_an_error() {
        let site = Site {
            f1: 16,
            need: 16,
            args: 0,
            kind: KIND_ENTRY,
            live: RegSet::EMPTY,
            bound: false,
        };
        assert_eq!(generate(&site, 1, false).unwrap().inline.len(), 3);
        let all_t = SCRATCH
            .iter()
            .fold(RegSet::EMPTY, |s, &r| s.union(RegSet::of(r)));
        let err = generate(
            &Site {
                live: all_t,
                ..site
            },
            1,
            false,
        )
        .unwrap_err();
        assert!(err.contains("no dead scratch register"), "{err}");
    }

    #[test]
    fn split_entry_site_calls_the_runtime_then_traps() {
        let site = Site {
            f1: 32,
            need: 32,
            args: 0,
            kind: KIND_ENTRY,
            live: RegSet::EMPTY,
            bound: false,
        };
        let stub = text(&generate(&site, 7, true).unwrap().stub);
        assert!(
            stub.starts_with(
                ".Lcactus_ovf_7:\n\tlla t0,.Lcactus_site_7\n\tj port_split_request\n\
                 .Lcactus_trap_7:\n\tecall\n"
            ),
            "{stub}"
        );
        // The table entry is labelled and its word 0 names the ecall (the trap's mepc).
        assert!(
            stub.contains(".Lcactus_site_7:\n\t.word\t.Lcactus_trap_7\n"),
            "{stub}"
        );
    }

    #[test]
    fn split_keeps_the_trap_when_t0_is_live_or_the_frame_cannot_move() {
        let entry_site = Site {
            f1: 32,
            need: 32,
            args: 0,
            kind: KIND_ENTRY,
            live: RegSet::of(5),
            bound: false,
        };
        let pinned = Site {
            kind: KIND_PINNED,
            live: RegSet::EMPTY,
            ..entry_site.clone()
        };
        for site in [entry_site, pinned] {
            let stub = text(&generate(&site, 2, true).unwrap().stub);
            assert!(stub.starts_with(".Lcactus_ovf_2:\n\tecall\n"), "{stub}");
            assert!(stub.contains("\t.word\t.Lcactus_ovf_2\n"), "{stub}");
        }
    }
}
