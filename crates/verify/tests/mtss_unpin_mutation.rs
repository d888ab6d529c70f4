//! Frames whose end address is taken (docs/mtss.md, "Frames whose end address is only
//! compared"): `tests/mtss-unpin/unpin.toml` has a leaf that only compares its frame's end with
//! a cursor (`fill_sum`: the def-use scan of `cactus cc` lets it move) and a function that
//! passes the address of its stack arguments to a callee that reads and writes through it
//! (`stack_args`: pinned). Both run from 128-byte budgets. As built, `fill_sum` runs on loan
//! and gets the lender's sum, `stack_args`'s request is refused as pinned, and the ownership
//! oracle sees nothing. The same ELF with `stack_args`'s site marked movable (KIND 0, what a
//! scan that wrongly unpinned it would emit) must not pass silently: the frame moves without
//! the bytes its callee reaches through the pointer. Skipped (with a message) only when
//! riscv64-unknown-elf-gcc is not installed.

use cactus_sim::{Machine, MachineConfig, OracleMode, Profile, RunOutcome};
use object::{Object, ObjectSection, ObjectSymbol};

/// Bits 30-31 of a `cactus_checks` entry's fourth word: the site's kind.
const KIND_MASK: u32 = 3 << 30;
/// KIND 2: the frame is pinned.
const KIND_PINNED: u32 = 2 << 30;

/// The kinds of the `cactus_checks` entries whose trapping pc lies in function `name`, and a
/// copy of `elf` with those entries' kinds cleared (every other byte the same).
fn unpin(elf: &[u8], name: &str) -> (Vec<u32>, Vec<u8>) {
    let file = object::File::parse(elf).unwrap();
    let sym = file
        .symbols()
        .find(|s| s.name() == Ok(name))
        .unwrap_or_else(|| panic!("symbol {name}"));
    let (lo, hi) = (sym.address() as u32, (sym.address() + sym.size()) as u32);
    let s = file
        .section_by_name("cactus_checks")
        .expect("the mtss build has a cactus_checks section");
    let (off, len) = s.file_range().expect("the table is in the file");
    let (off, len) = (off as usize, len as usize);
    let mut out = elf.to_vec();
    let mut kinds = Vec::new();
    let word = |b: &[u8], at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
    for e in (off..off + len).step_by(16) {
        let ovf = word(elf, e);
        if (lo..hi).contains(&ovf) {
            let flags = word(elf, e + 12);
            kinds.push(flags & KIND_MASK);
            out[e + 12..e + 16].copy_from_slice(&(flags & !KIND_MASK).to_le_bytes());
        }
    }
    (kinds, out)
}

/// How one run ended: exit code (None: no clean exit), oracle violations, UART output.
fn run(elf: &[u8]) -> (Option<u32>, u64, String) {
    let mut config = MachineConfig::new(Profile::builtin("mcu").unwrap());
    config.oracle = OracleMode::Record;
    config.max_cycles = Some(50_000_000);
    let mut m = Machine::new(config);
    m.load_elf(elf).unwrap();
    let exit = match m.run() {
        RunOutcome::Exited { code } => Some(code),
        _ => None,
    };
    let uart = String::from_utf8_lossy(&m.take_uart_output()).into_owned();
    (exit, m.stats().oracle_violations, uart)
}

#[test]
fn a_frame_end_only_compared_moves_and_a_wrongly_unpinned_frame_is_caught() {
    if !crate::scenario::gcc_installed() {
        return;
    }
    let elf = crate::scenario::build_elf("tests/mtss-unpin/unpin.toml");
    // The compare-only frame is movable, the escaping one pinned.
    let (ends, _) = unpin(&elf, "fill_sum");
    assert_eq!(ends, vec![0], "fill_sum's entry site is KIND 0");
    let (kinds, mutated) = unpin(&elf, "stack_args");
    assert_eq!(
        kinds,
        vec![KIND_PINNED],
        "stack_args's entry site is pinned"
    );

    let (exit, violations, uart) = run(&elf);
    eprintln!("as built: exit {exit:?}, {violations} violations\n{uart}");
    assert_eq!((exit, violations), (Some(0), 0), "{uart}");
    // 512 bytes of frame from a 128-byte budget: it ran on loan, and its sum is the lender's.
    assert!(
        uart.contains("ends sum=") && uart.contains(": ok\nescapes"),
        "{uart}"
    );
    assert!(uart.contains("the frame is pinned"), "{uart}");
    assert!(uart.contains("escapes sum=0: none"), "{uart}");

    let (exit, violations, uart) = run(&mutated);
    eprintln!("stack_args unpinned: exit {exit:?}, {violations} violations\n{uart}");
    let silent = exit == Some(0) && violations == 0 && !uart.contains("WRONG");
    assert!(
        !silent,
        "a wrongly unpinned frame ran without a trace: the scenario is too weak\n{uart}"
    );
}
