//! The stack-window extension's copy engine (`COPIER_*`, docs/simulator-design.md,
//! "Stack-window extension"): a GO store moves WORDS words from SRC to DST as memmove does,
//! in both overlapping directions, stalling the hart one cycle per word; a misaligned or
//! unmapped range is refused with nothing written; without the extension the window is not
//! there.

use crate::common::*;
use cactus_isa::{Inst, Op};
use cactus_sim::{Machine, COPIER_GO, COPIER_REFUSED};

const MCYCLE: u16 = 0xB00;
const BUF: u32 = RAM + 0x4000;

/// SRC, DST and WORDS written, then GO between two mcycle reads (A0, A1); GO read into A2.
fn copy(src: u32, dst: u32, words: u32) -> Vec<Inst> {
    cat(&[
        copier_setup(src, dst, words),
        vec![
            csr(Op::Csrrs, A0, MCYCLE, ZERO),
            s(Op::Sw, T0, S0, COPIER_GO as i32),
            csr(Op::Csrrs, A1, MCYCLE, ZERO),
            i(Op::Lw, A2, S0, COPIER_GO as i32),
            sys(Op::Ebreak),
        ],
    ])
}

fn fill(m: &mut Machine, words: u32) {
    let data: Vec<u8> = (0..words)
        .flat_map(|k| (0x1000 + k).to_le_bytes())
        .collect();
    m.write_debug(BUF, &data).unwrap();
}

fn word(m: &Machine, addr: u32) -> u32 {
    let mut b = [0u8; 4];
    m.read_debug(addr, &mut b).unwrap();
    u32::from_le_bytes(b)
}

/// Runs a copy of `words` words from BUF to BUF + shift; returns the GO store's cycles.
fn run_copy(words: u32, shift: i32) -> (Machine, u32) {
    let dst = BUF.wrapping_add_signed(shift);
    let mut m = machine_stack_window(true, &copy(BUF, dst, words));
    fill(&mut m, 64);
    run_to_ebreak(&mut m);
    let cycles = m.reg(A1 as usize) - m.reg(A0 as usize);
    (m, cycles)
}

#[test]
fn go_moves_words_as_memmove_in_both_directions() {
    for shift in [8i32, -8, 256, -256] {
        let (m, _) = run_copy(64, shift);
        assert_eq!(m.reg(A2 as usize), 64, "GO reads the words copied");
        let dst = BUF.wrapping_add_signed(shift);
        for k in 0..64 {
            assert_eq!(word(&m, dst + 4 * k), 0x1000 + k, "shift {shift} word {k}");
        }
    }
}

#[test]
fn a_copy_stalls_one_cycle_per_word() {
    let (_, none) = run_copy(0, 256);
    let (_, sixty_four) = run_copy(64, 256);
    let (_, one) = run_copy(1, 256);
    assert_eq!(sixty_four - none, 64);
    assert_eq!(one - none, 1);
}

#[test]
fn a_bad_range_is_refused_and_writes_nothing() {
    for (src, dst, words) in [
        (BUF + 2, BUF + 512, 4),       // misaligned source
        (BUF, BUF + 514, 4),           // misaligned destination
        (0x4000_0000, BUF + 512, 4),   // no memory there
        (BUF, 0x4000_0000, 4),         // nor there
        (BUF, BUF + 512, 0x4000_0000), // beyond RAM
    ] {
        let mut m = machine_stack_window(true, &copy(src, dst, words));
        fill(&mut m, 64);
        run_to_ebreak(&mut m);
        assert_eq!(m.reg(A2 as usize), COPIER_REFUSED);
        let go = m.reg(A1 as usize) - m.reg(A0 as usize);
        assert!(go < 8, "a refused copy stalls nothing: {go} cycles");
        assert_eq!(word(&m, BUF + 512), 0, "nothing written");
    }
}

#[test]
fn without_the_extension_there_is_no_copy_engine() {
    let mut m = machine_stack_window(false, &copy(BUF, BUF + 512, 4));
    let f = fault(m.run());
    assert_eq!(
        f.cause, 7,
        "a store to an unmapped address is a store access fault"
    );
}
