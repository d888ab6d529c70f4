//! Naming code addresses from the ELF's symbol table, for the messages `cactus run` prints.

use object::{Object, ObjectSymbol, SymbolKind};

/// `name+0xoff` of the function of `elf` whose `[address, address + size)` holds `pc` (the
/// nearest function symbol at or below `pc` when sizes are missing); `None` when the ELF
/// cannot be read or has no such symbol.
pub fn function_at(elf: &[u8], pc: u32) -> Option<String> {
    let file = object::File::parse(elf).ok()?;
    let pc = u64::from(pc);
    let best = file
        .symbols()
        .filter(|s| s.kind() == SymbolKind::Text && s.address() <= pc)
        .filter(|s| s.size() == 0 || pc < s.address() + s.size())
        .max_by_key(|s| (s.address(), s.size()))?;
    let name = best.name().ok()?;
    let off = pc - best.address();
    Some(if off == 0 {
        name.to_string()
    } else {
        format!("{name}+{off:#x}")
    })
}
