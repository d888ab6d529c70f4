//! What ended a run of a plain program linked with `cactus cc`'s bare-metal runtime: the
//! runtime records a caught stack overflow or a trap in `cactus_rt_fault` before it reports it
//! on the UART and exits with code 3 (crates/cc/runtime/rt.c). `cactus run` reads the record
//! after the run, so that the overflow also reaches stderr, as a manifest firmware's does
//! ([`super::overflow`]), and the run cannot exit 0.

use cactus_sim::Machine;
use object::{Object, ObjectSymbol};

/// The runtime's record (its symbol).
const SYMBOL: &str = "cactus_rt_fault";

/// What the runtime caught.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuntimeFault {
    /// A failed stack check at `pc`: the frame needed `over` bytes more than the
    /// `stack_size`-byte stack has.
    Overflow {
        /// The check's pc.
        pc: u32,
        /// Bytes below the stack's limit.
        over: u32,
        /// The program stack's size.
        stack_size: u32,
    },
    /// Any other trap.
    Trap {
        /// The trap's cause.
        mcause: u32,
        /// Where it happened.
        pc: u32,
    },
}

/// The record of the runtime linked into `elf`, as `machine` ends the run; `None` when the ELF
/// has no runtime or the runtime caught nothing.
pub fn read(elf: &[u8], machine: &Machine) -> Option<RuntimeFault> {
    let file = object::File::parse(elf).ok()?;
    let sym = file.symbols().find(|s| s.name() == Ok(SYMBOL))?;
    let mut buf = [0u8; 20];
    machine
        .read_debug(u32::try_from(sym.address()).ok()?, &mut buf)
        .ok()?;
    let word = |i: usize| u32::from_le_bytes(buf[4 * i..4 * i + 4].try_into().unwrap());
    match word(0) {
        1 => Some(RuntimeFault::Overflow {
            pc: word(2),
            over: word(3),
            stack_size: word(4),
        }),
        2 => Some(RuntimeFault::Trap {
            mcause: word(1),
            pc: word(2),
        }),
        _ => None,
    }
}

/// The stderr message for `fault`; `function` names the code at its pc (`name+0xoff`).
pub fn render(fault: &RuntimeFault, function: Option<&str>) -> String {
    let at = |pc: u32| match function {
        Some(f) => format!("{f} (pc {pc:#010x})"),
        None => format!("pc {pc:#010x}"),
    };
    match *fault {
        RuntimeFault::Overflow {
            pc,
            over,
            stack_size,
        } => format!(
            "cactus: stack overflow caught in {}: the frame needed {over} bytes more than the \
             {stack_size}-byte stack has\ncactus:   fix: link with at least \
             -Wl,--defsym=__cactus_stack_size={} (more if deeper calls follow)\n",
            at(pc),
            (stack_size + over).div_ceil(16) * 16
        ),
        RuntimeFault::Trap { mcause, pc } => format!(
            "cactus: the program trapped in {} (mcause {mcause}); the runtime's report is in \
             its output\n",
            at(pc)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_overflow_names_function_bytes_and_the_link_option() {
        let f = RuntimeFault::Overflow {
            pc: 0x8000_0522,
            over: 48,
            stack_size: 2048,
        };
        let text = render(&f, Some("descend+0x3e"));
        assert!(text.starts_with(
            "cactus: stack overflow caught in descend+0x3e (pc 0x80000522): the frame needed \
             48 bytes more than the 2048-byte stack has\n"
        ));
        assert!(text.contains("__cactus_stack_size=2096 "), "{text}");
    }
}
