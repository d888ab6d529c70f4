//! Decoding checked against GNU binutils: `data/objdump_ref.s` was assembled with
//! `riscv64-unknown-elf-as -march=rv32imac_zicsr_zifencei`, linked at address 0 and
//! disassembled with `objdump -M no-aliases`; `data/objdump_ref.txt` holds the resulting
//! (word, text) pairs, with pc-relative targets rewritten as `.+N`, base shift amounts in
//! decimal and `c.addi zero,N` written `c.nop [N]`. Two shamt-0 HINTs that GNU as refuses
//! (`c.srli a5,0x0` = 0x8381, `c.slli ra,0x0` = 0x0082) were added by hand from the spec.

use cactus_isa::{decode, decode_compressed, encode, encode_compressed, COp, Op};
use std::collections::BTreeSet;

const REFERENCE: &str = include_str!("data/objdump_ref.txt");

fn pairs() -> impl Iterator<Item = (&'static str, &'static str)> {
    REFERENCE
        .lines()
        .map(|line| line.split_once('\t').expect("word<TAB>text"))
}

#[test]
fn every_reference_word_decodes_prints_and_reencodes() {
    let mut checked = 0;
    for (hex, text) in pairs() {
        let word = u32::from_str_radix(hex, 16).unwrap();
        let decoded = decode(word).unwrap_or_else(|e| panic!("{hex} ({text}): {e}"));
        if hex.len() == 4 {
            let c = decode_compressed(word as u16).unwrap();
            assert_eq!(c.to_string(), text, "print of {hex}");
            assert_eq!(decoded.len, 2, "{hex}");
            assert_eq!(decoded.inst, c.expand(), "{hex}");
            assert_eq!(
                encode_compressed(&c).unwrap(),
                word as u16,
                "re-encode of {text}"
            );
        } else {
            assert_eq!(decoded.len, 4, "{hex}");
            assert_eq!(decoded.inst.to_string(), text, "print of {hex}");
            assert_eq!(encode(&decoded.inst).unwrap(), word, "re-encode of {text}");
        }
        checked += 1;
    }
    assert!(checked > 150, "reference file too short: {checked}");
}

#[test]
fn reference_covers_every_op_and_every_compressed_form() {
    let mut ops = BTreeSet::new();
    let mut cops = BTreeSet::new();
    for (hex, _) in pairs() {
        let word = u32::from_str_radix(hex, 16).unwrap();
        if hex.len() == 4 {
            cops.insert(decode_compressed(word as u16).unwrap().op);
        } else {
            ops.insert(decode(word).unwrap().inst.op);
        }
    }
    let missing: Vec<Op> = Op::ALL
        .iter()
        .copied()
        .filter(|op| !ops.contains(op))
        .collect();
    assert!(missing.is_empty(), "no reference for {missing:?}");
    let missing: Vec<COp> = COp::ALL
        .iter()
        .copied()
        .filter(|op| !cops.contains(op))
        .collect();
    assert!(missing.is_empty(), "no reference for {missing:?}");
}

#[test]
fn illegal_and_reserved_encodings_are_errors() {
    let illegal: &[(u32, &str)] = &[
        (0x0000_0000, "all-zero halfword"),
        (0x0008, "c.addi4spn with nzuimm 0"),
        (0x6501, "c.lui a0 with nzimm 0"),
        (0x6101, "c.addi16sp with nzimm 0"),
        (0x8002, "c.jr x0"),
        (0x4002, "c.lwsp x0"),
        (0x1506, "c.slli with shamt[5] = 1"),
        (0x9101, "c.srli with shamt[5] = 1"),
        (0x9501, "c.srai with shamt[5] = 1"),
        (0x6008, "c.flw (F extension)"),
        (0x2008, "c.fld (D extension)"),
        (0x8000, "reserved quadrant-0 funct3 100"),
        (0x2002, "c.fldsp"),
        (0x6002, "c.flwsp"),
        (0xe002, "c.fswsp"),
        (0x9c01, "c.subw (RV64 only)"),
        (0x9c21, "c.addw (RV64 only)"),
        (0x0205_1513, "slli with shamt[5] = 1"),
        (0x0205_5513, "srli with shamt[5] = 1"),
        (0x4205_5513, "srai with shamt[5] = 1"),
        (0x0000_001b, "OP-IMM-32 (RV64 only)"),
        (0x0000_003b, "OP-32 (RV64 only)"),
        (0x0000_3003, "ld (RV64 only)"),
        (0x0000_3023, "sd (RV64 only)"),
        (0x0000_7003, "load funct3 111"),
        (0x0000_1063 | 0x2000, "branch funct3 010"),
        (0x0000_1067, "jalr funct3 001"),
        (0x0c00_0033, "OP with unknown funct7"),
        (0x0000_4073, "SYSTEM funct3 100"),
        (0x0020_0073, "unknown SYSTEM funct12"),
        (0x1200_0073, "sfence.vma (no S mode)"),
        (0x1000_302f, "lr.d (RV64 only)"),
        (0x1010_202f, "lr.w with rs2 != 0"),
        (0xf800_202f, "unknown AMO funct5"),
        (0x0000_0007, "FP load"),
        (0x0000_001f, "48-bit encoding"),
        (0xffff_ffff, "all ones"),
    ];
    for &(raw, what) in illegal {
        let err = decode(raw).expect_err(what);
        assert_eq!(
            err.raw,
            if raw & 3 == 3 { raw } else { raw & 0xffff },
            "{what}"
        );
    }
}

#[test]
fn hints_decode_to_their_base_instruction() {
    // c.nop 3 -> addi x0,x0,3; c.li zero,3 -> addi x0,x0,3; c.mv zero,a1 -> add x0,x0,a1.
    for (raw, text) in [
        (0x000du32, "addi zero,zero,3"),
        (0x400d, "addi zero,zero,3"),
        (0x802e, "add zero,zero,a1"),
    ] {
        assert_eq!(decode(raw).unwrap().inst.to_string(), text);
    }
}
