//! Check sites: the inline sequence after the first `sp` decrement (or at the entry, or
//! after a dynamic allocation), the out-of-line `ecall`, and the `cactus_checks` table
//! entry, exactly as docs/stack-checks.md specifies.

use cactus_asm::{Entry, Item};
use cactus_isa::asm::Statement;
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

fn inst(text: &str) -> Entry {
    let s = Statement::parse(text).unwrap_or_else(|e| panic!("generated `{text}`: {e}"));
    entry(Item::Inst(s))
}

fn entry(item: Item) -> Entry {
    Entry { line: 0, item }
}

fn directive(text: &str) -> Entry {
    let name = text.split_whitespace().next().unwrap_or(text).to_string();
    entry(Item::Directive {
        name,
        text: text.to_string(),
    })
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

/// Generates site number `n` (labels `.Lcactus_ovf_<n>`, `.Lcactus_ok_<n>`). `Err` says why
/// the site cannot be generated (no dead scratch register, a field out of range).
pub fn generate(site: &Site, n: usize) -> Result<SiteCode, String> {
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
    let stub = vec![
        entry(Item::Label(ovf.clone())),
        inst("ecall"),
        // SHF_LINK_ORDER ("o") to the stub's section: with `-z start-stop-gc` the linker
        // drops the entry with its function, so the table keeps nothing alive.
        directive(&format!(
            ".pushsection\tcactus_checks,\"ao\",@progbits,{ovf}"
        )),
        directive(".p2align\t2"),
        directive(&format!(".word\t{ovf}")),
        directive(&format!(".word\t{ok}")),
        directive(&format!(".word\t{}", site.need)),
        directive(&format!(".word\t{info}")),
        directive(".popsection"),
    ];
    Ok(SiteCode { inline, stub })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(entries: &[Entry]) -> String {
        entries.iter().map(|e| format!("{}\n", e.item)).collect()
    }

    #[test]
    fn small_entry_check_matches_the_contract() {
        let site = Site {
            f1: 32,
            need: 48,
            args: 8,
            kind: KIND_ENTRY,
            live: RegSet::of(5),
        };
        let code = generate(&site, 3).unwrap();
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
        };
        let code = generate(&site, 0).unwrap();
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
        };
        assert_eq!(generate(&site, 1).unwrap().inline.len(), 3);
        let all_t = SCRATCH
            .iter()
            .fold(RegSet::EMPTY, |s, &r| s.union(RegSet::of(r)));
        let err = generate(
            &Site {
                live: all_t,
                ..site
            },
            1,
        )
        .unwrap_err();
        assert!(err.contains("no dead scratch register"), "{err}");
    }
}
