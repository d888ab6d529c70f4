//! Property tests: encode/decode round trips for every base op and every compressed form,
//! and the invariants of read/write sets.

use crate::common::{any_cinst, any_inst, inst_of};
use cactus_isa::{compress, decode, decode_compressed, encode, encode_compressed, Format, Op};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    #[test]
    fn decode_inverts_encode(inst in any_inst(false)) {
        let word = encode(&inst).expect("strategy yields encodable instructions");
        let d = decode(word).expect("an encoded instruction decodes");
        prop_assert_eq!(d.len, 4);
        prop_assert_eq!(d.inst, inst);
    }

    #[test]
    fn compressed_decode_inverts_encode(c in any_cinst()) {
        let half = encode_compressed(&c).unwrap();
        prop_assert_eq!(decode_compressed(half).unwrap(), c);
        let d = decode(u32::from(half)).unwrap();
        prop_assert_eq!(d.len, 2);
        prop_assert_eq!(d.inst, c.expand());
        // The expansion is itself a valid base instruction.
        prop_assert_eq!(decode(encode(&d.inst).unwrap()).unwrap().inst, d.inst);
    }

    #[test]
    fn every_expansion_compresses_back(c in any_cinst()) {
        let inst = c.expand();
        let back = compress(&inst).expect("an expansion has a compressed form");
        prop_assert_eq!(back.expand(), inst);
    }

    #[test]
    fn compress_only_returns_exact_equivalents(inst in any_inst(false)) {
        if let Some(c) = compress(&inst) {
            prop_assert_eq!(c.expand(), inst);
            prop_assert!(encode_compressed(&c).is_ok());
        }
    }

    #[test]
    fn every_decodable_halfword_reencodes(half in any::<u16>()) {
        if let Ok(c) = decode_compressed(half) {
            prop_assert_eq!(encode_compressed(&c).unwrap(), half);
        }
    }

    #[test]
    fn every_decodable_word_reencodes(word in any::<u32>().prop_map(|w| w | 3)) {
        if let Ok(d) = decode(word) {
            prop_assert_eq!(encode(&d.inst).unwrap(), word);
        }
    }

    #[test]
    fn register_sets_never_hold_x0_and_follow_the_format(inst in any_inst(false)) {
        let (r, w) = (inst.reads(), inst.writes());
        prop_assert!(!r.contains(0) && !w.contains(0));
        let f = inst.op.format();
        let expect_write = !matches!(f, Format::B | Format::S | Format::System | Format::Fence | Format::FenceI);
        prop_assert_eq!(w.contains(inst.rd), expect_write && inst.rd != 0);
        prop_assert!(w.len() <= 1);
    }

    #[test]
    fn out_of_range_registers_do_not_encode(op in proptest::sample::select(Op::ALL), r in 32u8..=255) {
        let fields = op.format().fields();
        let mut inst = cactus_isa::Inst::new(op, 0, 0, 0, 0);
        if fields.rd { inst.rd = r } else if fields.rs1 { inst.rs1 = r } else { inst.rs2 = r }
        prop_assert!(encode(&inst).is_err());
    }
}

#[test]
fn every_op_has_a_generator() {
    // Guards `inst_of`: each op yields at least one encodable instruction.
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    for &op in Op::ALL {
        let inst = inst_of(op, true).new_tree(&mut runner).unwrap().current();
        assert_eq!(decode(encode(&inst).unwrap()).unwrap().inst, inst, "{op:?}");
    }
}

#[test]
fn out_of_range_immediates_do_not_encode() {
    use cactus_isa::Inst;
    let bad = [
        Inst::new(Op::Addi, 1, 1, 0, 2048),
        Inst::new(Op::Addi, 1, 1, 0, -2049),
        Inst::new(Op::Slli, 1, 1, 0, 32),
        Inst::new(Op::Beq, 0, 1, 2, 3),
        Inst::new(Op::Beq, 0, 1, 2, 4096),
        Inst::new(Op::Jal, 1, 0, 0, 1 << 20),
        Inst::new(Op::Lui, 1, 0, 0, 0x123),
        Inst::new(Op::Csrrw, 1, 1, 0, 4096),
        Inst::new(Op::AmoaddW, 1, 1, 1, 4),
        Inst::new(Op::Add, 1, 1, 1, 1),
        Inst::new(Op::Ecall, 1, 0, 0, 0),
        Inst::new(Op::LrW, 1, 1, 1, 0),
        Inst::new(Op::Sw, 1, 1, 1, 0),
    ];
    for inst in bad {
        assert!(encode(&inst).is_err(), "{inst:?} encoded");
    }
}

#[test]
fn compress_picks_the_expected_forms() {
    use cactus_isa::{COp, Inst};
    let cases = [
        (Inst::new(Op::Addi, 10, 0, 0, 5), Some(COp::Li)),
        (Inst::new(Op::Addi, 0, 0, 0, 0), Some(COp::Nop)),
        (Inst::new(Op::Add, 10, 0, 11, 0), Some(COp::Mv)),
        (Inst::new(Op::Jalr, 0, 1, 0, 0), Some(COp::Jr)),
        (Inst::new(Op::Lw, 8, 2, 0, 12), Some(COp::Lwsp)),
        (Inst::new(Op::Lw, 8, 9, 0, 12), Some(COp::Lw)),
        (Inst::new(Op::Lw, 5, 9, 0, 12), None),
        (Inst::new(Op::Beq, 0, 8, 0, -256), Some(COp::Beqz)),
        (Inst::new(Op::Beq, 0, 8, 0, -258), None),
        (Inst::new(Op::Sub, 8, 8, 9, 0), Some(COp::Sub)),
        (Inst::new(Op::Sub, 8, 9, 9, 0), None),
        (Inst::new(Op::Ebreak, 0, 0, 0, 0), Some(COp::Ebreak)),
        (Inst::new(Op::Ecall, 0, 0, 0, 0), None),
    ];
    for (inst, expected) in cases {
        assert_eq!(compress(&inst).map(|c| c.op), expected, "{inst}");
    }
}
