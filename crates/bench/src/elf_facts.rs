//! Small facts the benchmarks read from what a build or a run left: a kernel global's address
//! in the ELF, and the first line of a failure's message.

/// The address of the global `name` in `elf`; the error says which symbol is missing and
/// which kernel (`kernel`, e.g. "segmented") was expected to define it.
pub(crate) fn symbol_address(elf: &[u8], name: &str, kernel: &str) -> Result<u32, String> {
    use object::{Object, ObjectSymbol};
    let file = object::File::parse(elf).map_err(|e| format!("cannot read the ELF: {e}"))?;
    file.symbols()
        .find(|s| s.name() == Ok(name))
        .map(|s| s.address() as u32)
        .ok_or_else(|| format!("the ELF has no symbol {name} (not a {kernel} kernel?)"))
}

/// The word at `addr` (the global `symbol`) of a machine after its run; the error names both.
pub(crate) fn read_global(
    machine: &cactus_sim::Machine,
    addr: u32,
    symbol: &str,
) -> Result<u32, String> {
    let mut word = [0u8; 4];
    machine
        .read_debug(addr, &mut word)
        .map_err(|e| format!("{symbol} at {addr:#010x}: {e:?}"))?;
    Ok(u32::from_le_bytes(word))
}

/// The first line of `s`, at most 200 characters (a failure's reason in a table cell).
pub(crate) fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or("").chars().take(200).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_line_keeps_one_short_line() {
        assert_eq!(first_line("a\nb"), "a");
        assert_eq!(first_line(&"x".repeat(300)).len(), 200);
        assert_eq!(first_line(""), "");
    }

    #[test]
    fn a_missing_symbol_names_it_and_the_kernel() {
        let e = symbol_address(b"not an elf", "x", "segmented").unwrap_err();
        assert!(e.contains("cannot read the ELF"), "{e}");
    }
}
