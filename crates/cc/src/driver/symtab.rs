//! The function table the runtime's trap report names code with: every sized function symbol
//! of a linked ELF as `{address, size, name}` entries in assembly (`.cactus_rt_syms`, names in
//! `.cactus_rt_symstr`), which the runtime's linker script places after everything else, so
//! linking it in moves no code ([`functions`] of both links must agree, which the driver checks).

use crate::CcError;
use object::{Object, ObjectSymbol, SymbolKind};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

/// The sized function symbols of the ELF at `path`: address → (size, name), one name per
/// address (the first in the symbol table, a global one if there is one).
pub(super) fn functions(path: &Path) -> Result<BTreeMap<u32, (u32, String)>, CcError> {
    let bytes = std::fs::read(path).map_err(|e| super::files::io_error(path, e))?;
    let file = object::File::parse(&*bytes).map_err(|e| {
        CcError::Tool(format!(
            "{}: cannot read the linked ELF: {e}",
            path.display()
        ))
    })?;
    let mut table: BTreeMap<u32, (u32, String, bool)> = BTreeMap::new();
    for sym in file.symbols() {
        if sym.kind() != SymbolKind::Text || sym.size() == 0 {
            continue;
        }
        let (Ok(name), Ok(addr), Ok(size)) = (
            sym.name(),
            u32::try_from(sym.address()),
            u32::try_from(sym.size()),
        ) else {
            continue;
        };
        let global = sym.is_global();
        match table.get(&addr) {
            Some((_, _, true)) => {}
            Some((_, _, false)) if !global => {}
            _ => {
                table.insert(addr, (size, name.to_string(), global));
            }
        }
    }
    Ok(table
        .into_iter()
        .map(|(a, (s, n, _))| (a, (s, n)))
        .collect())
}

/// GNU assembly defining the table of `functions` (see the module documentation).
pub(super) fn assembly(functions: &BTreeMap<u32, (u32, String)>) -> String {
    let mut s = String::from("    .section .cactus_rt_syms, \"a\"\n    .p2align 2\n");
    for (k, (addr, (size, _))) in functions.iter().enumerate() {
        let _ = writeln!(s, "    .word {addr:#x}, {size}, .Lcactus_rt_name{k}");
    }
    s.push_str("    .section .cactus_rt_symstr, \"a\"\n");
    for (k, (_, name)) in functions.values().enumerate() {
        let quoted: String = name
            .chars()
            .flat_map(|c| match c {
                '"' | '\\' => vec!['\\', c],
                c => vec![c],
            })
            .collect();
        let _ = writeln!(s, ".Lcactus_rt_name{k}: .asciz \"{quoted}\"");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_lists_each_function_with_its_name() {
        let mut f = BTreeMap::new();
        f.insert(0x8000_0000, (16, "main".to_string()));
        f.insert(0x8000_0010, (8, "odd\"name".to_string()));
        let text = assembly(&f);
        assert!(
            text.contains(".word 0x80000000, 16, .Lcactus_rt_name0"),
            "{text}"
        );
        assert!(
            text.contains(".word 0x80000010, 8, .Lcactus_rt_name1"),
            "{text}"
        );
        assert!(
            text.contains(".Lcactus_rt_name1: .asciz \"odd\\\"name\""),
            "{text}"
        );
    }
}
