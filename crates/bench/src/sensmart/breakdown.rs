//! The cycle breakdown of one stack relocation (`cactus bench sensmart`, part `relocate`):
//! where the cycles from the refused access to the `mret` go, split at events the run records
//! anyway (the stack-window trap, the kernel store bracket around the copy, the oracle's region
//! reports, the OVERFLOW event, the `mret`) and at call probes on kernel function entries
//! (`stack_grow`, the software window's `port_lstack_*` entries) and at a label the kernel
//! puts before its region arithmetic (`reloc_mark_regions`), which cost
//! the guest nothing (`cactus_sim::MachineConfig::call_probes`): the figures are those of the
//! run the relocation table measures.

use cactus_sim::{Event, EventKind};
use object::{Object, ObjectSymbol};

/// The phases, in order: (column name, what it covers).
pub const PHASES: [(&str, &str); 7] = [
    (
        "entry",
        "from the refused access to `stack_grow`: the trap (hardware window) or the \
         translation's slow path (software window), the caller-saved registers, the dispatch",
    ),
    (
        "giver",
        "`stack_grow` to the region arithmetic: the bound check, the task's region, the scan \
         for the region with the most surplus",
    ),
    (
        "regions",
        "the region arithmetic to the copy: the moving region's live low, the regions in \
         between get their new bases and sizes (`regions_give`)",
    ),
    (
        "copy",
        "the kernel store bracket: the copy's set-up and the words it moves",
    ),
    (
        "windows",
        "the copy's end to the first region report: the moved tasks' displacements and bounds, \
         the software window's fix-ups of their saved registers, the counters, the window CSRs",
    ),
    (
        "reports",
        "the oracle's region reports to the OVERFLOW event",
    ),
    (
        "return",
        "the OVERFLOW event to the `mret`: the event, the way back and the registers' restore",
    ),
];

/// The function entries the breakdown probes.
const PROBED: [&str; 2] = ["stack_grow", "reloc_mark_regions"];
/// The software window's slow-path entries start with this (kernel/arch/rv32/lstack.S).
const LSTACK_ENTRY: &str = "port_lstack_";

/// The probed addresses of a relocate firmware: `stack_grow`, the mark `reloc_mark_regions`
/// (kernel/stack/relocate.c, a label before the region arithmetic) and the
/// `port_lstack_*` entries (none for the hardware window). Err when the ELF does not parse or
/// lacks one of the two functions.
pub fn probes(elf: &[u8]) -> Result<Probes, String> {
    let file = object::File::parse(elf).map_err(|e| format!("cannot read the ELF: {e}"))?;
    let mut named = [None; PROBED.len()];
    let mut lstack = Vec::new();
    for s in file.symbols() {
        let Ok(name) = s.name() else { continue };
        let addr = s.address() as u32;
        if let Some(i) = PROBED.iter().position(|p| *p == name) {
            named[i] = Some(addr);
        } else if name.starts_with(LSTACK_ENTRY) {
            lstack.push(addr);
        }
    }
    let [Some(grow), Some(give)] = named else {
        return Err(
            "the ELF has no stack_grow or reloc_mark_regions (not a relocate kernel?)".into(),
        );
    };
    Ok(Probes { grow, give, lstack })
}

/// Where the breakdown's probes are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probes {
    /// `stack_grow`'s entry.
    pub grow: u32,
    /// The mark before the region arithmetic.
    pub give: u32,
    /// The software window's slow-path entries.
    pub lstack: Vec<u32>,
}

impl Probes {
    /// Every probed address, for the machine's configuration.
    pub fn addresses(&self) -> Vec<u32> {
        let mut a = vec![self.grow, self.give];
        a.extend(&self.lstack);
        a
    }
}

/// The breakdown ([`PHASES`], cycles each) of every relocation in `events`, in order: each
/// starts at a stack-window trap or a call of a `port_lstack_*` entry and needs all of the
/// boundaries in order before its `mret`; one that misses any (a refused growth) is dropped.
pub fn breakdowns(events: &[Event], p: &Probes) -> Vec<[u64; 7]> {
    let mut out = Vec::new();
    let mut at: Vec<u64> = Vec::new();
    for e in events {
        let step = match &e.kind {
            EventKind::Trap { cause: 25, .. } => Some(0),
            EventKind::Call { .. } if p.lstack.contains(&e.pc) => Some(0),
            EventKind::Call { .. } if e.pc == p.grow => Some(1),
            EventKind::Call { .. } if e.pc == p.give => Some(2),
            EventKind::KernelEnter => Some(3),
            EventKind::KernelLeave => Some(4),
            EventKind::RegionAssign { .. } | EventKind::RegionRelease { .. } => Some(5),
            EventKind::Overflow { .. } => Some(6),
            EventKind::Mret { .. } => Some(7),
            _ => None,
        };
        match step {
            // A start, unless one is under way (the software entry's common part).
            Some(0) if at.is_empty() => at.push(e.cycle),
            Some(7) => {
                if at.len() == 7 {
                    at.push(e.cycle);
                    out.push(std::array::from_fn(|k| at[k + 1] - at[k]));
                }
                at.clear();
            }
            // The next boundary, in order; later events of a kind already passed (the other
            // region reports) change nothing.
            Some(k) if k == at.len() && k > 0 => at.push(e.cycle),
            _ => {}
        }
    }
    out
}
