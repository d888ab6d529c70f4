//! Naming code addresses: the ELF symbol table as sorted ranges, so a pc becomes
//! `function+0xoffset` (the nearest code symbol at or below it).

use object::{Object, ObjectSection, ObjectSymbol, SectionKind, SymbolKind};

/// The code symbols of one ELF, sorted by address.
#[derive(Clone, Debug, Default)]
pub struct Symbols {
    /// (address, name), ascending; at an address shared by several symbols the function
    /// symbol wins.
    entries: Vec<(u32, String)>,
}

impl Symbols {
    /// The code symbols of `elf` (functions, and untyped labels in executable sections; compiler
    /// local labels `.L*` and mapping symbols `$*` are left out). Errs if `elf` is not an ELF.
    pub fn from_elf(elf: &[u8]) -> Result<Symbols, String> {
        let file = object::File::parse(elf).map_err(|e| format!("cannot read the ELF: {e}"))?;
        let mut all: Vec<(u32, bool, String)> = Vec::new();
        for sym in file.symbols() {
            let Ok(name) = sym.name() else { continue };
            if name.is_empty() || name.starts_with(".L") || name.starts_with('$') {
                continue;
            }
            let in_code = sym
                .section_index()
                .and_then(|i| file.section_by_index(i).ok())
                .is_some_and(|s| s.kind() == SectionKind::Text);
            let function = sym.kind() == SymbolKind::Text;
            // Assembly entry points are untyped (STT_NOTYPE) symbols in a code section.
            let label = in_code
                && !matches!(
                    sym.kind(),
                    SymbolKind::Section | SymbolKind::File | SymbolKind::Data | SymbolKind::Tls
                );
            if !(function || label) {
                continue;
            }
            all.push((sym.address() as u32, function, name.to_string()));
        }
        // Per address: functions first, then by name, for a deterministic choice.
        all.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
        all.dedup_by_key(|e| e.0);
        Ok(Symbols {
            entries: all.into_iter().map(|(a, _, n)| (a, n)).collect(),
        })
    }

    /// The symbol at or below `pc` and the offset of `pc` into it; None below every symbol.
    pub fn lookup(&self, pc: u32) -> Option<(&str, u32)> {
        let i = self.entries.partition_point(|&(a, _)| a <= pc);
        let (addr, name) = self.entries.get(i.checked_sub(1)?)?;
        Some((name.as_str(), pc - addr))
    }

    /// `name+0xoff` for `pc` (just `name` at offset 0), or the bare address when no symbol
    /// covers it.
    pub fn name(&self, pc: u32) -> String {
        match self.lookup(pc) {
            Some((name, 0)) => name.to_string(),
            Some((name, off)) => format!("{name}+{off:#x}"),
            None => format!("{pc:#010x}"),
        }
    }

    /// The function holding `pc` (the symbol name without offset), or the bare address.
    pub fn function(&self, pc: u32) -> String {
        match self.lookup(pc) {
            Some((name, _)) => name.to_string(),
            None => format!("{pc:#010x}"),
        }
    }

    /// Symbols from (address, name) pairs, for tests and callers that have their own table.
    pub fn from_pairs(pairs: impl IntoIterator<Item = (u32, String)>) -> Symbols {
        let mut entries: Vec<(u32, String)> = pairs.into_iter().collect();
        entries.sort();
        entries.dedup_by_key(|e| e.0);
        Symbols { entries }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pc_is_named_by_the_nearest_symbol_below() {
        let s = Symbols::from_pairs([(0x100, "b".to_string()), (0x40, "a".to_string())]);
        assert_eq!(s.name(0x40), "a");
        assert_eq!(s.name(0x5c), "a+0x1c");
        assert_eq!(s.name(0x104), "b+0x4");
        assert_eq!(s.function(0x104), "b");
        assert_eq!(s.name(0x3c), "0x0000003c", "below every symbol");
        assert_eq!(s.lookup(0x3c), None);
    }

    #[test]
    fn not_an_elf_is_an_error() {
        assert!(Symbols::from_elf(b"nope")
            .unwrap_err()
            .contains("cannot read the ELF"));
    }
}
