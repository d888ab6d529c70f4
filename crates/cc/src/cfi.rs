//! Call frame information for a check's out-of-line stub. The stub sits after the function's
//! last instruction, where the compiler's `.cfi_*` directives describe the frame as it is
//! after the epilogue; a debugger stopped at the stub's `ecall` (a failed check's trap, or the
//! call slow path naming it) would unwind from the wrong frame. [`stub_directives`] replays the
//! function's directives up to the check and gives the directives that say, at the stub, what
//! the frame is at the check (docs/stack-checks.md, "Backtraces from a failed check").

use crate::emit::directive;
use cactus_asm::{AsmFile, Entry, Item};
use std::collections::{BTreeMap, BTreeSet};

/// DWARF number of `sp` on RISC-V.
const SP: u32 = 2;

/// Where a register's caller value is, as a `.cfi_*` rule.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Rule {
    Offset(i64),
    Register(u32),
    SameValue,
    Undefined,
}

/// The frame described by the directives replayed so far.
#[derive(Clone, Debug, PartialEq, Eq)]
struct State {
    cfa_reg: u32,
    cfa_off: i64,
    regs: BTreeMap<u32, Rule>,
}

impl State {
    fn initial() -> State {
        State {
            cfa_reg: SP,
            cfa_off: 0,
            regs: BTreeMap::new(),
        }
    }
}

/// A register operand of a `.cfi_*` directive: a DWARF number or an ABI/`xN` name.
fn reg(text: &str) -> Option<u32> {
    let t = text.trim();
    t.parse::<u32>()
        .ok()
        .or_else(|| cactus_isa::parse_reg(t).map(u32::from))
}

fn num(text: &str) -> Option<i64> {
    text.trim().parse::<i64>().ok()
}

/// The operands of a directive's text, split at commas.
fn args(text: &str) -> Vec<&str> {
    text.split_once(char::is_whitespace)
        .map_or(Vec::new(), |(_, rest)| {
            rest.split(',').map(str::trim).collect()
        })
}

/// Applies one directive; `None` for a `.cfi_*` directive this replay does not model (the
/// frame is then unknown). `registers` collects every register a rule names.
fn apply(
    st: &mut State,
    saved: &mut Vec<State>,
    name: &str,
    text: &str,
    registers: &mut BTreeSet<u32>,
) -> Option<()> {
    let a = args(text);
    let arg = |i: usize| a.get(i).copied().unwrap_or("");
    let mut rule = |st: &mut State, r: Option<u32>, rule: Option<Rule>| -> Option<()> {
        let r = r?;
        registers.insert(r);
        match rule {
            Some(rule) => st.regs.insert(r, rule),
            None => st.regs.remove(&r),
        };
        Some(())
    };
    match name {
        ".cfi_startproc" => *st = State::initial(),
        ".cfi_def_cfa" => {
            st.cfa_reg = reg(arg(0))?;
            st.cfa_off = num(arg(1))?;
        }
        ".cfi_def_cfa_register" => st.cfa_reg = reg(arg(0))?,
        ".cfi_def_cfa_offset" => st.cfa_off = num(arg(0))?,
        ".cfi_adjust_cfa_offset" => st.cfa_off += num(arg(0))?,
        ".cfi_offset" => rule(st, reg(arg(0)), Some(Rule::Offset(num(arg(1))?)))?,
        ".cfi_rel_offset" => {
            let at = num(arg(1))? - st.cfa_off;
            rule(st, reg(arg(0)), Some(Rule::Offset(at)))?
        }
        ".cfi_register" => rule(st, reg(arg(0)), Some(Rule::Register(reg(arg(1))?)))?,
        ".cfi_same_value" => rule(st, reg(arg(0)), Some(Rule::SameValue))?,
        ".cfi_undefined" => rule(st, reg(arg(0)), Some(Rule::Undefined))?,
        ".cfi_restore" => rule(st, reg(arg(0)), None)?,
        ".cfi_remember_state" => saved.push(st.clone()),
        ".cfi_restore_state" => *st = saved.pop()?,
        ".cfi_sections" | ".cfi_signal_frame" => {}
        n if n.starts_with(".cfi_") => return None,
        _ => {}
    }
    Some(())
}

/// The directives that open the stub of a check inserted before entry `at` of the function
/// spanning entries `start..end`: the frame at the check (the compiler's directives up to the
/// next instruction, which describe the instruction the check follows, e.g. the `sp`
/// decrement), every register any rule of the function names set to its state there, and the
/// check's source line (the last `.loc` before it, without a view). Empty when the function has no
/// `.cfi_startproc` before the check; when its directives use one this replay does not model,
/// the return address is marked undefined, so a backtrace ends at the function instead of
/// walking on from a wrong frame.
pub fn stub_directives(file: &AsmFile, start: usize, end: usize, at: usize) -> Vec<Entry> {
    let entries = &file.entries[start..end.min(file.entries.len())];
    let is_code = |e: &Entry| matches!(e.item, Item::Inst(_) | Item::Opaque(_));
    let upto = (at.max(start)..end.min(file.entries.len()))
        .find(|&i| is_code(&file.entries[i]))
        .unwrap_or(end.min(file.entries.len()));
    let mut st = State::initial();
    let mut saved = Vec::new();
    let mut registers = BTreeSet::new();
    let mut started = false;
    let mut known = true;
    let mut loc = None;
    for (i, e) in entries.iter().enumerate() {
        let Item::Directive { name, text } = &e.item else {
            continue;
        };
        if start + i < upto {
            if name == ".loc" && start + i < at {
                loc = Some(text.split(" view ").next().unwrap_or(text).to_string());
            }
            started |= name == ".cfi_startproc";
            if known && apply(&mut st, &mut saved, name, text, &mut registers).is_none() {
                known = false;
            }
        } else if name.starts_with(".cfi_") {
            // The registers later rules name must be put back at the stub too.
            let mut scratch = (st.clone(), Vec::new());
            let _ = apply(&mut scratch.0, &mut scratch.1, name, text, &mut registers);
        }
    }
    if !started {
        return Vec::new();
    }
    let mut out = Vec::new();
    if let Some(loc) = loc {
        out.push(directive(&loc));
    }
    if !known {
        out.push(directive(".cfi_undefined 1"));
        return out;
    }
    out.push(directive(&format!(
        ".cfi_def_cfa {}, {}",
        st.cfa_reg, st.cfa_off
    )));
    for r in registers {
        out.push(directive(&match st.regs.get(&r) {
            Some(Rule::Offset(o)) => format!(".cfi_offset {r}, {o}"),
            Some(Rule::Register(to)) => format!(".cfi_register {r}, {to}"),
            Some(Rule::SameValue) => format!(".cfi_same_value {r}"),
            Some(Rule::Undefined) => format!(".cfi_undefined {r}"),
            None => format!(".cfi_restore {r}"),
        }));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(e: &[Entry]) -> Vec<String> {
        e.iter()
            .map(|e| match &e.item {
                Item::Directive { text, .. } => text.clone(),
                other => format!("{other:?}"),
            })
            .collect()
    }

    /// The stub directives for a check inserted before the entry right after the line that
    /// contains `after` (the first such line).
    fn at_check(asm: &str, after: &str) -> Vec<String> {
        let file = AsmFile::parse(asm, "t.s").unwrap();
        let at = file
            .entries
            .iter()
            .position(|e| format!("{}", e.item).contains(after))
            .unwrap()
            + 1;
        texts(&stub_directives(&file, 0, file.entries.len(), at))
    }

    const PROLOGUE: &str = "f:\n\t.cfi_startproc\n\t.loc 1 11 1 view .LVU3\n\taddi sp,sp,-80\n\
        \t.cfi_def_cfa_offset 80\n\tsw s0,72(sp)\n\tsw ra,76(sp)\n\t.cfi_offset 8, -8\n\
        \t.cfi_offset 1, -4\n\tmv s0,a0\n\t.loc 1 18 1\n\tlw ra,76(sp)\n\t.cfi_restore 1\n\
        \tlw s0,72(sp)\n\t.cfi_restore 8\n\taddi sp,sp,80\n\t.cfi_def_cfa_offset 0\n\tjr ra\n\
        \t.cfi_endproc\n";

    #[test]
    fn an_entry_check_sees_the_decrement_and_no_saved_register() {
        // Inserted right after the decrement, before the compiler's directive for it.
        assert_eq!(
            at_check(PROLOGUE, "addi sp,sp,-80"),
            [
                ".loc 1 11 1",
                ".cfi_def_cfa 2, 80",
                ".cfi_restore 1",
                ".cfi_restore 8"
            ]
        );
    }

    #[test]
    fn a_later_check_sees_the_saved_registers() {
        assert_eq!(
            at_check(PROLOGUE, "mv s0,a0"),
            [
                ".loc 1 11 1",
                ".cfi_def_cfa 2, 80",
                ".cfi_offset 1, -4",
                ".cfi_offset 8, -8"
            ]
        );
    }

    #[test]
    fn remembered_states_and_frame_pointers_are_followed() {
        let asm = "g:\n\t.cfi_startproc\n\taddi sp,sp,-32\n\t.cfi_def_cfa_offset 32\n\
            \tsw s0,24(sp)\n\t.cfi_offset s0, -8\n\taddi s0,sp,32\n\t.cfi_def_cfa s0, 0\n\
            \t.cfi_remember_state\n\t.cfi_def_cfa sp, 32\n\tnop\n\t.cfi_restore_state\n\
            \tsub sp,sp,a0\n\tnop\n\t.cfi_endproc\n";
        assert_eq!(
            at_check(asm, "sub sp,sp,a0"),
            [".cfi_def_cfa 8, 0", ".cfi_offset 8, -8"]
        );
    }

    #[test]
    fn an_unmodelled_directive_ends_the_backtrace_instead_of_guessing() {
        let asm = "h:\n\t.cfi_startproc\n\t.cfi_escape 0x10, 1, 2, 0x72, 4\n\
            \taddi sp,sp,-16\n\tnop\n\t.cfi_endproc\n";
        assert_eq!(at_check(asm, "addi sp,sp,-16"), [".cfi_undefined 1"]);
    }

    #[test]
    fn a_function_without_call_frame_information_gets_none() {
        let asm = "k:\n\taddi sp,sp,-16\n\tnop\n";
        assert!(at_check(asm, "addi sp,sp,-16").is_empty());
    }
}
