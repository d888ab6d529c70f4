//! Thunks for uninstrumented functions whose address a unit takes: the pointer goes to a
//! unit-local `__cactus_thunk_<sym>` that checks the function's reserve, then `tail <sym>`.
//! A call through the pointer therefore checks before entering code that checks nothing.

use crate::checks::{generate, Site, KIND_ENTRY, KIND_PINNED};
use crate::emit::directive;
use cactus_asm::{Entry, Item};
use cactus_isa::asm::Statement;
use cactus_isa::RegSet;

/// The thunk symbol for `sym`.
pub fn thunk_name(sym: &str) -> String {
    format!("__cactus_thunk_{sym}")
}

/// The entries of the thunk for `sym` with reserve `need` bytes, using site number `n`.
/// In `mtss` mode the site is pinned (KIND 2): the callee's stack arguments are unknown.
/// The thunk uses only `t0`/`t1`, which carry no arguments (and `tail` clobbers `t1`).
pub fn thunk(sym: &str, need: u32, n: usize, mtss: bool) -> Result<Vec<Entry>, String> {
    let name = thunk_name(sym);
    let site = Site {
        f1: 0,
        need,
        args: 0,
        kind: if mtss { KIND_PINNED } else { KIND_ENTRY },
        live: RegSet(!(1 << 5 | 1 << 6)),
        bound: false,
    };
    let code = generate(&site, n, false)?;
    let tail = Statement::parse(&format!("tail {sym}")).map_err(|e| e.to_string())?;
    let mut out = vec![
        directive(&format!(".pushsection\t.text.{name},\"ax\",@progbits")),
        directive(".p2align\t1"),
        directive(&format!(".type\t{name}, @function")),
        Entry {
            line: 0,
            item: Item::Label(name.clone()),
        },
    ];
    out.extend(code.inline);
    out.push(Entry {
        line: 0,
        item: Item::Inst(tail),
    });
    out.extend(code.stub);
    out.push(directive(&format!(".size\t{name}, .-{name}")));
    out.push(directive(".popsection"));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thunk_checks_then_tail_calls() {
        let text: String = thunk("puts", 300, 7, false)
            .unwrap()
            .iter()
            .map(|e| format!("{}\n", e.item))
            .collect();
        let want = "__cactus_thunk_puts:\n\tlw t0,-4(tp)\n\taddi t0,t0,300\n\tbltu sp,t0,.Lcactus_ovf_7\n.Lcactus_ok_7:\n\ttail puts\n.Lcactus_ovf_7:\n\tecall\n";
        assert!(text.contains(want), "{text}");
        assert!(text.contains("\t.size\t__cactus_thunk_puts, .-__cactus_thunk_puts\n"));
    }
}
