//! Fuzz properties over untrusted input, bounded to a few seconds in `cargo test` (raise
//! `PROPTEST_CASES` for a longer run): a mutated or truncated ELF either loads or is a
//! [`LoadError`], and what loads runs a bounded slice without panicking the host; a mutated
//! machine profile (`mcu`, `carousel-paper`, `cache-wb`: the memory-system tables too) either
//! parses, and then a machine built from it runs a bounded slice, or is a [`ProfileError`]
//! naming the file. Failing inputs are
//! kept by proptest in `tests/fuzz.proptest-regressions` and replayed first on every run.

use cactus_sim::{Machine, MachineConfig, Profile};
use proptest::prelude::*;

/// A minimal RV32 executable: ELF header, one PT_LOAD program header and `code` at
/// 0x8000_0000 (entry).
fn tiny_elf(code: &[u32]) -> Vec<u8> {
    let mut e = Vec::new();
    let text_off = 52 + 32;
    let size = (code.len() * 4) as u32;
    e.extend_from_slice(&[0x7f, b'E', b'L', b'F', 1, 1, 1, 0]);
    e.extend_from_slice(&[0; 8]);
    let half = |e: &mut Vec<u8>, v: u16| e.extend_from_slice(&v.to_le_bytes());
    let word = |e: &mut Vec<u8>, v: u32| e.extend_from_slice(&v.to_le_bytes());
    half(&mut e, 2); // ET_EXEC
    half(&mut e, 243); // EM_RISCV
    word(&mut e, 1);
    word(&mut e, 0x8000_0000); // entry
    word(&mut e, 52); // phoff
    word(&mut e, 0); // shoff
    word(&mut e, 0); // flags
    half(&mut e, 52);
    half(&mut e, 32);
    half(&mut e, 1); // phnum
    half(&mut e, 40);
    half(&mut e, 0);
    half(&mut e, 0);
    // PT_LOAD
    for v in [1, text_off, 0x8000_0000, 0x8000_0000, size, size + 64, 5, 4] {
        word(&mut e, v);
    }
    for w in code {
        word(&mut e, *w);
    }
    e
}

fn base_elf() -> Vec<u8> {
    // addi a0, a0, 1; j .-4 (an endless loop)
    tiny_elf(&[0x0015_0513, 0xffdf_f06f])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn mutated_elfs_load_or_are_errors(
        edits in proptest::collection::vec((0usize..120, any::<u8>()), 0..6),
        cut in 0usize..130,
    ) {
        let mut bytes = base_elf();
        for (i, b) in edits {
            if let Some(x) = bytes.get_mut(i) {
                *x = b;
            }
        }
        bytes.truncate(cut.max(1));
        let mut cfg = MachineConfig::new(Profile::default_mcu());
        cfg.max_cycles = Some(5_000);
        let mut m = Machine::new(cfg);
        if m.load_elf(&bytes).is_ok() {
            let _ = m.run_for(2_000);
        }
    }

    #[test]
    fn mutated_profiles_parse_or_are_errors(
        edits in proptest::collection::vec((0usize..2000, "[ -~\n]{0,4}"), 1..4),
        base in 0usize..3,
    ) {
        // The default profile and the memory-system ones (their extension tables).
        let mut text = [
            include_str!("../../../profiles/mcu.toml"),
            include_str!("../../../profiles/carousel-paper.toml"),
            include_str!("../../../profiles/cache-wb.toml"),
        ][base]
            .to_string();
        for (at, s) in edits {
            let mut at = at.min(text.len());
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            let end = (at + s.len()).min(text.len());
            let mut end = end;
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            text.replace_range(at..end, &s);
        }
        match Profile::from_toml(&text, "fuzz.toml") {
            Err(e) => prop_assert!(e.to_string().starts_with("fuzz.toml"), "{}", e),
            // A profile that parses builds a machine that runs (no panic on odd values).
            Ok(p) => {
                let mut cfg = MachineConfig::new(p);
                cfg.max_cycles = Some(50_000);
                let mut m = Machine::new(cfg);
                if m.load_elf(&base_elf()).is_ok() {
                    let _ = m.run_for(500);
                }
            }
        }
    }
}

#[test]
fn the_unmutated_elf_loads_and_runs() {
    let mut cfg = MachineConfig::new(Profile::default_mcu());
    cfg.max_cycles = Some(1_000);
    let mut m = Machine::new(cfg);
    m.load_elf(&base_elf()).expect("the base ELF is valid");
    assert!(matches!(m.run(), cactus_sim::RunOutcome::CycleLimit(_)));
    assert!(m.reg(10) > 100);
}
