//! The per-resume-point lending margins (`cactus_margins`, docs/mtss.md "A margin per resume
//! point") are exact where they decide, and a scenario can tell: `tests/mtss-margin/margin.toml`
//! has a lender yield right before code that writes below its sp without a check, while a
//! borrower needs three of its pages. Run with the lender at every 16-byte offset over two
//! pages, the firmware as built never lends a page the lender still writes (zero ownership-
//! oracle violations); the same ELF with every margin of its table one 16-byte unit short (the
//! smallest error: frames, and so margins, are multiples of 16) lends one at some offset, and
//! the oracle reports the lender's write into the borrower's frame. Skipped (with a message)
//! only when riscv64-unknown-elf-gcc is not installed.

use cactus_sim::{Machine, MachineConfig, OracleMode, Profile, RunOutcome};
use object::{Object, ObjectSection, ObjectSymbol};

/// The table's "no bound here" value (the kernel uses the firmware-wide margin).
const NO_MARGIN: u32 = u32::MAX;

/// The file range of the ELF's `cactus_margins` section.
fn margins_range(elf: &[u8]) -> (usize, usize) {
    let file = object::File::parse(elf).unwrap();
    let s = file
        .section_by_name("cactus_margins")
        .expect("the mtss build has a cactus_margins section");
    let (off, len) = s.file_range().expect("the table is in the file");
    (off as usize, len as usize)
}

/// `elf` with every known margin `m` replaced by `m - cut` (at least 0).
fn cut_margins(elf: &[u8], cut: u32) -> Vec<u8> {
    let (off, len) = margins_range(elf);
    let mut out = elf.to_vec();
    for e in (off..off + len).step_by(8) {
        let m = u32::from_le_bytes(out[e + 4..e + 8].try_into().unwrap());
        if m != NO_MARGIN {
            out[e + 4..e + 8].copy_from_slice(&m.saturating_sub(cut).to_le_bytes());
        }
    }
    out
}

/// What one run showed: how it ended, the lender's offset, the oracle's violations, whether
/// the borrower's request was refused.
#[derive(Debug)]
struct Seen {
    exit: Option<u32>,
    free: Option<u32>,
    violations: u64,
    refused: bool,
}

/// Runs `elf` with `margin_target` (at `target_addr`) set to `target`.
fn run(elf: &[u8], target_addr: u32, target: u32) -> Seen {
    let mut config = MachineConfig::new(Profile::builtin("mcu").unwrap());
    config.oracle = OracleMode::Record;
    config.max_cycles = Some(50_000_000);
    let mut m = Machine::new(config);
    m.load_elf(elf).unwrap();
    m.write_debug(target_addr, &target.to_le_bytes()).unwrap();
    let exit = match m.run() {
        RunOutcome::Exited { code } => Some(code),
        _ => None,
    };
    let uart = String::from_utf8_lossy(&m.take_uart_output()).into_owned();
    let free = uart
        .lines()
        .find_map(|l| l.strip_prefix("lender free="))
        .and_then(|v| v.trim().parse().ok());
    Seen {
        exit,
        free,
        violations: m.stats().oracle_violations,
        refused: uart.contains("why: no lender"),
    }
}

#[test]
fn a_margin_one_unit_short_is_caught_by_the_oracle() {
    if !crate::scenario::gcc_installed() {
        return;
    }
    let elf = crate::scenario::build_elf("tests/mtss-margin/margin.toml");
    let file = object::File::parse(&*elf).unwrap();
    let target_addr = file
        .symbols()
        .find(|s| s.name() == Ok("margin_target"))
        .expect("margin_target")
        .address() as u32;
    let mutated = cut_margins(&elf, 16);
    let (mut caught, mut refused) = (Vec::new(), 0);
    for target in (384..640).step_by(16) {
        let good = run(&elf, target_addr, target);
        assert_eq!(good.exit, Some(0), "target {target}: {good:?}");
        assert_eq!(good.violations, 0, "target {target}: {good:?}");
        refused += usize::from(good.refused);
        let bad = run(&mutated, target_addr, target);
        if bad.violations > 0 {
            caught.push(good.free.unwrap_or(0));
        }
    }
    eprintln!("caught at lender offsets {caught:?}; {refused} correct runs refused the request");
    assert!(
        refused > 0,
        "the scenario never makes the margin decide (no refused request)"
    );
    assert!(
        !caught.is_empty(),
        "margins one 16-byte unit short were not caught at any offset: the scenario is too weak"
    );
}
