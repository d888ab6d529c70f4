//! Property tests of the assembly syntax: printing then parsing gives back the same
//! instruction, for base, compressed and pseudo-instructions.

use crate::common::{any_cinst, any_inst};
use cactus_isa::asm::{parse_statement, Imm, Pseudo, PseudoOp, Spelling, Statement};
use cactus_isa::{encode_compressed, Inst};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    #[test]
    fn parse_inverts_print_for_base(inst in any_inst(true)) {
        let text = inst.to_string();
        let parsed = parse_statement(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let Statement::Base(a) = parsed else {
            return Err(TestCaseError::fail(format!("`{text}` parsed as {parsed:?}")));
        };
        prop_assert_eq!(a.to_inst(), Some(inst), "{}", text);
    }

    #[test]
    fn noncanonical_fences_print_as_insn_and_round_trip(inst in any_inst(false)) {
        let text = inst.to_string();
        let parsed = parse_statement(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(parsed.expand().unwrap(), vec![inst], "{}", text);
    }

    #[test]
    fn parse_inverts_print_for_compressed(c in any_cinst()) {
        let text = c.to_string();
        let parsed = parse_statement(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(parsed, Statement::Compressed(c), "{}", text);
    }

    #[test]
    fn li_expands_to_its_value(rd in 1u8..32, v in any::<i32>()) {
        let p = Pseudo { op: PseudoOp::Li, rd, rs1: 0, rs2: 0, imm: Imm::Num(v), spelling: Spelling::default() };
        let text = p.to_string();
        prop_assert_eq!(parse_statement(&text).unwrap(), Statement::Pseudo(p.clone()));
        let insts = p.expand().unwrap();
        // Evaluate lui/addi to check the value.
        let mut value: i32 = 0;
        for i in &insts {
            value = match i.op {
                cactus_isa::Op::Lui => i.imm,
                cactus_isa::Op::Addi if i.rs1 == 0 => i.imm,
                cactus_isa::Op::Addi => value.wrapping_add(i.imm),
                op => return Err(TestCaseError::fail(format!("unexpected {op:?}"))),
            };
        }
        prop_assert_eq!(value, v);
        prop_assert!(insts.len() <= 2);
        prop_assert_eq!(p.writes().0, 1 << rd);
        prop_assert!(p.reads().is_empty());
    }

    #[test]
    fn compressed_statements_have_the_effects_of_their_expansion(c in any_cinst()) {
        let s = Statement::Compressed(c);
        let e = c.expand();
        prop_assert_eq!((s.reads(), s.writes()), (e.reads(), e.writes()));
        prop_assert!(encode_compressed(&c).is_ok());
    }
}

#[test]
fn registers_parse_in_every_spelling() {
    for (text, expected) in [
        ("add a0,fp,x8", "add a0,s0,s0"),
        ("add x10,  x11 ,x31", "add a0,a1,t6"),
        ("addi\ta0,a0,0x10", "addi a0,a0,0x10"),
        ("lw a0,(a1)", "lw a0,0(a1)"),
        ("jalr ra,a0,4", "jalr ra,4(a0)"),
        ("csrr a0, 0x300", "csrr a0,mstatus"),
        ("fence rw , w", "fence rw,w"),
        ("beq a0,a1,.", "beq a0,a1,.+0"),
        ("li a0,0xffffffff", "li a0,0xffffffff"),
        ("li a0,4294967295", "li a0,-1"),
        ("addi a0,a0,-0x10", "addi a0,a0,-0x10"),
    ] {
        assert_eq!(
            parse_statement(text).unwrap().to_string(),
            expected,
            "{text}"
        );
    }
}

#[test]
fn bad_statements_are_errors_that_name_the_problem() {
    for (text, needle) in [
        ("addi a0,a1", "takes 3 operand(s), found 2"),
        ("addi a0,a1,2048", "imm = 2048"),
        ("addi a0,q1,1", "`q1` is not a register"),
        ("frobnicate a0", "unknown instruction"),
        ("lw a0,8", "offset(register)"),
        ("slli a0,a0,32", "imm = 32"),
        ("beq a0,a1,.+3", "even"),
        ("csrrw a0,4096,a1", "out of range"),
        ("csrrwi a0,mstatus,32", "unsigned 5-bit"),
        ("fence x,w", "not a fence set"),
        ("amoadd.w a0,a1,4(a2)", "takes no offset"),
        ("lw a0,%bogus(x)(a1)", "unknown relocation"),
        ("c.lw a0,4(t0)", "8..=15"),
        ("c.lwsp a0,4(a1)", "must be sp"),
        ("c.j .L1", "numeric operands only"),
        ("c.addi4spn a0,sp,0", "reserved"),
        ("c.fld a0,0(a1)", "unknown compressed"),
        ("lui a0,0x100000", "out of range"),
        ("li a0,4294967296", "out of range"),
        ("addi a0,a0,4294967295", "out of range"),
        ("beqz a0,.+8192", "imm = 8192"),
        ("add a0,a1,a2,%lo(x)", "%tprel_add"),
        ("lr.w.aq.rl a0,(a1)", "unknown instruction"),
        ("addi.aq a0,a0,1", "unknown instruction"),
    ] {
        let err = parse_statement(text).expect_err(text);
        assert!(err.to_string().contains(needle), "{text}: {err}");
        assert!(
            err.to_string()
                .contains(text.split_whitespace().next().unwrap()),
            "{err}"
        );
    }
}

fn effects(text: &str) -> (Vec<u8>, Vec<u8>) {
    let s = parse_statement(text).unwrap();
    (s.reads().iter().collect(), s.writes().iter().collect())
}

#[test]
fn read_and_write_sets_are_exact() {
    let cases: &[(&str, &[u8], &[u8])] = &[
        ("add a0,a1,a2", &[11, 12], &[10]),
        ("add a5,a5,tp,%tprel_add(x)", &[4, 15], &[15]),
        ("addi zero,a0,1", &[10], &[]),
        ("lw a0,%lo(x)(a5)", &[15], &[10]),
        ("sw a0,8(sp)", &[2, 10], &[]),
        ("beq a0,zero,.L1", &[10], &[]),
        ("jal ra,foo", &[], &[1]),
        ("jalr zero,0(ra)", &[1], &[]),
        ("lui a5,%hi(x)", &[], &[15]),
        ("csrrw t0,mscratch,t1", &[6], &[5]),
        ("csrrwi t0,mscratch,7", &[], &[5]),
        ("sc.w a0,a2,(a1)", &[11, 12], &[10]),
        ("lr.w a0,(a1)", &[11], &[10]),
        ("amoswap.w.aqrl zero,a1,(sp)", &[2, 11], &[]),
        ("fence iorw,iorw", &[], &[]),
        ("ecall", &[], &[]),
        ("mret", &[], &[]),
        ("call foo", &[], &[1]),
        ("tail foo", &[], &[6]),
        ("ret", &[1], &[]),
        ("jr a5", &[15], &[]),
        ("jalr a5", &[15], &[1]),
        ("la a0,sym", &[], &[10]),
        ("li a0,305419896", &[], &[10]),
        ("li a0,sym", &[], &[10]),
        ("mv a0,a1", &[11], &[10]),
        ("neg a0,a1", &[11], &[10]),
        ("sgt a0,a1,a2", &[11, 12], &[10]),
        ("bgt a0,a1,.L2", &[10, 11], &[]),
        ("blez a0,.L2", &[10], &[]),
        ("csrw mepc,a5", &[15], &[]),
        ("csrr a0,mcause", &[], &[10]),
        ("rdcycleh a1", &[], &[11]),
        ("c.addi4spn a0,sp,16", &[2], &[10]),
        ("c.jal .+8", &[], &[1]),
        ("c.jalr t0", &[5], &[1]),
        ("c.swsp ra,12(sp)", &[1, 2], &[]),
        ("c.sub a0,a1", &[10, 11], &[10]),
        ("c.mv a0,a1", &[11], &[10]),
    ];
    for &(text, reads, writes) in cases {
        assert_eq!(effects(text), (reads.to_vec(), writes.to_vec()), "{text}");
    }
}

#[test]
fn pseudos_expand_like_gnu_as() {
    let cases: &[(&str, &[&str])] = &[
        ("nop", &["addi zero,zero,0"]),
        ("li a0,-2049", &["lui a0,0xfffff", "addi a0,a0,2047"]),
        ("li a0,4096", &["lui a0,0x1"]),
        ("not a0,a1", &["xori a0,a1,-1"]),
        ("seqz a0,a1", &["sltiu a0,a1,1"]),
        ("snez a0,a1", &["sltu a0,zero,a1"]),
        ("sltz a0,a1", &["slt a0,a1,zero"]),
        ("sgtz a0,a1", &["slt a0,zero,a1"]),
        ("zext.b a0,a1", &["andi a0,a1,255"]),
        ("sgtu a0,a1,a2", &["sltu a0,a2,a1"]),
        ("bgez a0,.+8", &["bge a0,zero,.+8"]),
        ("bltz a0,.+8", &["blt a0,zero,.+8"]),
        ("bgtz a0,.+8", &["blt zero,a0,.+8"]),
        ("ble a0,a1,.+8", &["bge a1,a0,.+8"]),
        ("bgtu a0,a1,.+8", &["bltu a1,a0,.+8"]),
        ("bleu a0,a1,.+8", &["bgeu a1,a0,.+8"]),
        ("j .-4", &["jal zero,.-4"]),
        ("jal .+4", &["jal ra,.+4"]),
        ("call .+4096", &["auipc ra,0x1", "jalr ra,0(ra)"]),
        ("tail .+2048", &["auipc t1,0x1", "jalr zero,-2048(t1)"]),
        ("csrs mip,a5", &["csrrs zero,mip,a5"]),
        ("csrc mie,a4", &["csrrc zero,mie,a4"]),
        ("csrwi mstatus,3", &["csrrwi zero,mstatus,3"]),
        ("csrsi mstatus,8", &["csrrsi zero,mstatus,8"]),
        ("csrci mstatus,8", &["csrrci zero,mstatus,8"]),
        // GNU as takes an immediate in csrw/csrs/csrc as the *i form.
        ("csrw mscratch,5", &["csrrwi zero,mscratch,5"]),
        ("csrs mstatus,8", &["csrrsi zero,mstatus,8"]),
        ("csrc mie,0x10", &["csrrci zero,mie,16"]),
        ("rdtime a0", &["csrrs a0,time,zero"]),
        ("rdinstreth a0", &["csrrs a0,instreth,zero"]),
        ("fence", &["fence iorw,iorw"]),
    ];
    for &(text, expected) in cases {
        let insts = parse_statement(text).unwrap().expand().unwrap();
        let printed: Vec<String> = insts.iter().map(Inst::to_string).collect();
        assert_eq!(printed, expected, "{text}");
    }
    assert!(parse_statement("la a0,sym").unwrap().expand().is_err());
    assert!(parse_statement("call foo").unwrap().expand().is_err());
}

#[test]
fn symbol_forms_of_loads_and_stores_parse_print_and_name_their_registers() {
    use cactus_isa::asm::Statement;
    for (text, reads, writes) in [
        ("lw a0,counter", vec![], vec![10]),
        ("lbu a5,table+4", vec![], vec![15]),
        ("sw a0,overflow_hook,a5", vec![10], vec![15]),
        ("sh a1,x-2,t0", vec![11], vec![5]),
    ] {
        let st = parse_statement(text).expect(text);
        assert!(matches!(st, Statement::Pseudo(_)), "{text}: {st:?}");
        assert_eq!(st.to_string(), text);
        let r: Vec<u8> = st.reads().iter().collect();
        let w: Vec<u8> = st.writes().iter().collect();
        assert_eq!(r, reads, "{text} reads");
        assert_eq!(w, writes, "{text} writes");
    }
    // The base forms are unchanged.
    assert!(matches!(
        parse_statement("lw a0,4(a1)").unwrap(),
        Statement::Base(_)
    ));
}
