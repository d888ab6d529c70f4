//! The machine-code stack analysis on fixtures whose stack use is unusual: every reason a
//! function has no bound (recursion, indirect calls and jumps, dynamic `sp`, unresolved
//! externals, undecodable bytes, unannotated stack switches), and what still has one (jump
//! tables, frame pointers, constant `sp` adjustments, annotated stack switches).

use crate::common::*;
use cactus_analysis::machine::{analyze_files, MachineDepth};

const CYCLES: &str = r#"
    .text
    .globl selfrec
    .type selfrec, @function
selfrec:
    addi sp, sp, -16
    sw ra, 12(sp)
    call selfrec
    lw ra, 12(sp)
    addi sp, sp, 16
    ret
    .size selfrec, .-selfrec

    .globl even
    .type even, @function
even:
    addi sp, sp, -16
    call odd
    addi sp, sp, 16
    ret
    .size even, .-even

    .globl odd
    .type odd, @function
odd:
    tail even
    .size odd, .-odd

    .globl ptr
    .type ptr, @function
ptr:
    addi sp, sp, -16
    jalr a5
    addi sp, sp, 16
    ret
    .size ptr, .-ptr

    .globl ptr_tail
    .type ptr_tail, @function
ptr_tail:
    lw a5, 16(a0)
    jr a5
    .size ptr_tail, .-ptr_tail

    .globl grows
    .type grows, @function
grows:
    sub sp, sp, a0
    ret
    .size grows, .-grows

    .globl calls_out
    .type calls_out, @function
calls_out:
    addi sp, sp, -16
    call not_here
    addi sp, sp, 16
    ret
    .size calls_out, .-calls_out

    .globl pushes
    .type pushes, @function
pushes:
1:  addi sp, sp, -4
    bnez a0, 1b
    ret
    .size pushes, .-pushes

    .globl data_in_text
    .type data_in_text, @function
data_in_text:
    beqz a0, 1f
    ret
1:  .half 0
    .size data_in_text, .-data_in_text
"#;

#[test]
fn unbounded_functions_say_why() {
    let dir = tempfile::tempdir().unwrap();
    let a = analyse(&[assemble(dir.path(), "cycles.s", CYCLES)]);
    assert_eq!(reason(&a, "selfrec"), "recursion selfrec -> selfrec");
    let r = reason(&a, "even");
    assert!(r.starts_with("recursion even -> odd -> even"), "{r}");
    assert!(reason(&a, "odd").starts_with("recursion"));
    assert_eq!(reason(&a, "ptr"), "indirect call at ptr+0x2");
    assert!(
        reason(&a, "ptr_tail").starts_with("indirect jump at ptr_tail+0x2"),
        "{}",
        reason(&a, "ptr_tail")
    );
    assert!(reason(&a, "grows").starts_with("dynamic sp adjustment at grows+0x0"));
    assert_eq!(
        reason(&a, "calls_out"),
        "unresolved external not_here (called by calls_out)"
    );
    // The loop pushes 4 bytes per turn: seen either as more sp values than a loop may have
    // or as returns at different sp, whichever the walk meets first.
    let r = reason(&a, "pushes");
    assert!(
        r.contains("the stack grows in a loop") || r.starts_with("pushes returns with sp"),
        "{r}"
    );
    assert!(reason(&a, "data_in_text").starts_with("undecodable bytes at data_in_text+0x4"));
}

const JUMP_TABLE: &str = r#"
    .text
    .globl dispatch
    .type dispatch, @function
dispatch:
    lui a5, %hi(.Ltable)
    addi a5, a5, %lo(.Ltable)
    slli a0, a0, 2
    add a0, a0, a5
    lw a5, 0(a0)
    jr a5
.Lcase0:
    addi sp, sp, -48
    addi sp, sp, 48
    ret
.Lcase1:
    addi sp, sp, -200
    addi sp, sp, 200
    ret
    .size dispatch, .-dispatch

    .section .rodata
    .p2align 2
.Ltable:
    .word .Lcase0
    .word .Lcase1
"#;

#[test]
fn jump_tables_are_followed() {
    let dir = tempfile::tempdir().unwrap();
    let a = analyse(&[assemble(dir.path(), "table.s", JUMP_TABLE)]);
    assert_eq!(depth(&a, "dispatch"), MachineDepth::Bytes(200));
}

const FRAME_POINTER: &str = r#"
    .text
    .globl fp
    .type fp, @function
fp:
    addi sp, sp, -32
    sw s0, 28(sp)
    addi s0, sp, 32
    addi sp, sp, -16
    li t1, -16
    sub sp, sp, t1
    addi sp, s0, -32
    lw s0, 28(sp)
    addi sp, sp, 32
    ret
    .size fp, .-fp
"#;

#[test]
fn frame_pointer_and_constant_adjustments_are_tracked() {
    let dir = tempfile::tempdir().unwrap();
    let a = analyse(&[assemble(dir.path(), "fp.s", FRAME_POINTER)]);
    assert_eq!(depth(&a, "fp"), MachineDepth::Bytes(48));
}

const SWITCHER: &str = r#"
    .text
    .globl switcher
switcher:
    addi sp, sp, -8
    sw ra, 4(sp)
    la sp, other_stack_top
    call kernel_work
    ret
    .globl bad_switcher
bad_switcher:
    addi sp, sp, -24
    la sp, other_stack_top
    ret
    .globl unannotated
unannotated:
    la sp, other_stack_top
    ret
    .globl kernel_work
kernel_work:
    jalr a4
    ret
    .bss
other_stack:
    .space 64
other_stack_top:
    .section .cactus.stack_depth,"",@progbits
    .asciz "switcher 8"
    .asciz "bad_switcher 16"
"#;

#[test]
fn annotated_stack_switches_are_checked_against_the_code() {
    let dir = tempfile::tempdir().unwrap();
    let a = analyse(&[assemble(dir.path(), "switch.s", SWITCHER)]);
    assert_eq!(depth(&a, "switcher"), MachineDepth::Bytes(8));
    let r = reason(&a, "bad_switcher");
    assert!(r.contains("declares 16 bytes but its code uses 24"), "{r}");
    assert!(reason(&a, "unannotated").contains("needs a .cactus.stack_depth annotation"));
    assert!(reason(&a, "kernel_work").starts_with("indirect call"));
}

#[test]
fn an_annotation_naming_no_function_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let obj = assemble(
        dir.path(),
        "bad.s",
        "\t.text\n\t.globl f\nf:\n\tret\n\t.section .cactus.stack_depth,\"\",@progbits\n\t.asciz \"g 0\"\n",
    );
    let e = analyze_files(&[obj]).unwrap_err().to_string();
    assert!(
        e.contains("bad.o") && e.contains("\"g 0\"") && e.contains("no function"),
        "{e}"
    );
}
