//! The machine-code stack analysis on hand-written fixtures assembled (or compiled) at test
//! time with the cross toolchain: frames in 32-bit and compressed forms adding up along calls,
//! tail calls through relocations and jumps, assembly labels without sizes, libgcc's
//! save/restore millicode, archives and linked ELFs.

use crate::common;
use crate::common::*;
use cactus_analysis::machine::{analyze_files, MachineDepth};
use std::process::Command;

const CHAIN: &str = r#"
    .text
    .globl top
    .type top, @function
top:
    addi sp, sp, -32
    sw ra, 28(sp)
    call mid
    lw ra, 28(sp)
    addi sp, sp, 32
    ret
    .size top, .-top

    .globl mid
    .type mid, @function
mid:
    c.addi16sp sp, -64
    c.swsp ra, 60(sp)
    jal ra, leaf
    c.lwsp ra, 60(sp)
    c.addi16sp sp, 64
    c.jr ra
    .size mid, .-mid

    .globl leaf
    .type leaf, @function
leaf:
    c.addi sp, -16
    c.addi sp, 16
    ret
    .size leaf, .-leaf
"#;

#[test]
fn frames_add_up_along_calls_in_all_encodings() {
    let dir = tempfile::tempdir().unwrap();
    let a = analyse(&[assemble(dir.path(), "chain.s", CHAIN)]);
    assert_eq!(depth(&a, "leaf"), MachineDepth::Bytes(16));
    assert_eq!(depth(&a, "mid"), MachineDepth::Bytes(64 + 16));
    assert_eq!(depth(&a, "top"), MachineDepth::Bytes(32 + 64 + 16));
    let top = a.functions.iter().find(|f| f.names[0] == "top").unwrap();
    assert_eq!(top.frame, 32);
    assert_eq!(top.callees, vec!["mid".to_string()]);
}

const TAILS: &str = r#"
    .text
    .globl via_tail
    .type via_tail, @function
via_tail:
    addi sp, sp, -16
    sw ra, 12(sp)
    lw ra, 12(sp)
    addi sp, sp, 16
    tail big
    .size via_tail, .-via_tail

    .globl via_j
    .type via_j, @function
via_j:
    addi sp, sp, -8
    addi sp, sp, 8
    j big
    .size via_j, .-via_j

    .globl deep_tail
    .type deep_tail, @function
deep_tail:
    addi sp, sp, -16
    beqz a0, 1f
    addi sp, sp, 16
    tail big
1:  addi sp, sp, 16
    ret
    .size deep_tail, .-deep_tail

    .globl cond_tail
    .type cond_tail, @function
cond_tail:
    addi sp, sp, -4
    addi sp, sp, 4
    beqz a0, big
    ret
    .size cond_tail, .-cond_tail

    .type big, @function
big:
    addi sp, sp, -100
    addi sp, sp, 100
    ret
    .size big, .-big
"#;

#[test]
fn tail_calls_replace_the_frame() {
    let dir = tempfile::tempdir().unwrap();
    let a = analyse(&[assemble(dir.path(), "tails.s", TAILS)]);
    assert_eq!(depth(&a, "via_tail"), MachineDepth::Bytes(100));
    assert_eq!(depth(&a, "via_j"), MachineDepth::Bytes(100));
    assert_eq!(depth(&a, "deep_tail"), MachineDepth::Bytes(100));
    assert_eq!(depth(&a, "cond_tail"), MachineDepth::Bytes(100));
    // `big` is local: it has no global name, but it was analysed.
    assert!(!a.depths.contains_key("big"));
    assert!(a.functions.iter().any(|f| f.names == ["big"]));
}

const LABELS: &str = r#"
    .text
    .globl entry
entry:
    addi sp, sp, -12
    addi sp, sp, 12
    /* falls through into `next`, a label without .size, as kernel assembly does */
next:
    addi sp, sp, -20
    addi sp, sp, 20
    ret
"#;

#[test]
fn assembly_without_sizes_falls_through_labels() {
    let dir = tempfile::tempdir().unwrap();
    let a = analyse(&[assemble(dir.path(), "labels.s", LABELS)]);
    assert_eq!(depth(&a, "entry"), MachineDepth::Bytes(20));
    let f = a.functions.iter().find(|f| f.names[0] == "entry").unwrap();
    assert_eq!(f.callees, vec!["next".to_string()]);
}

const SAVE_RESTORE_C: &str = r#"
extern int g(int);
int uses_millicode(int x) {
    int a = g(x), b = g(a), c = g(b);
    return a + b + c + g(x * 3);
}
"#;

#[test]
fn libgcc_save_restore_millicode_moves_the_callers_sp() {
    let dir = tempfile::tempdir().unwrap();
    let obj = common::object(
        dir.path(),
        "mc.c",
        SAVE_RESTORE_C,
        &["-Os", "-msave-restore"],
    );
    let leaf = assemble(
        dir.path(),
        "g.s",
        "\t.text\n\t.globl g\n\t.type g,@function\ng:\n\tret\n\t.size g,.-g\n",
    );
    let out = Command::new(GCC)
        .args(["-march=rv32imac", "-mabi=ilp32", "-print-libgcc-file-name"])
        .output()
        .unwrap();
    let libgcc = std::path::PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    let a = analyse(&[obj, leaf, libgcc]);
    let f = a
        .functions
        .iter()
        .find(|f| f.names[0] == "uses_millicode")
        .unwrap();
    assert!(
        f.callees.iter().any(|c| c.starts_with("__riscv_save_")),
        "{:?}",
        f.callees
    );
    // __riscv_save_N allocates the frame (16 bytes for up to 3 saved registers) and the
    // function's code moves sp no further; the millicode itself reaches 16 (save_0..3).
    assert_eq!(depth(&a, "uses_millicode"), MachineDepth::Bytes(16));
    assert_eq!(f.frame, 16);
}

#[test]
fn archive_members_resolve_each_other() {
    let dir = tempfile::tempdir().unwrap();
    let a = assemble(
        dir.path(),
        "a.s",
        "\t.text\n\t.globl a\n\t.type a,@function\na:\n\taddi sp,sp,-16\n\tsw ra,12(sp)\n\tcall b\n\tlw ra,12(sp)\n\taddi sp,sp,16\n\tret\n\t.size a,.-a\n",
    );
    let b = assemble(
        dir.path(),
        "b.s",
        "\t.text\n\t.globl b\n\t.type b,@function\nb:\n\taddi sp,sp,-40\n\taddi sp,sp,40\n\tret\n\t.size b,.-b\n",
    );
    let lib = dir.path().join("libab.a");
    run(Command::new("riscv64-unknown-elf-ar")
        .arg("rcs")
        .arg(&lib)
        .arg(&a)
        .arg(&b));
    let an = analyse(&[lib]);
    assert_eq!(depth(&an, "a"), MachineDepth::Bytes(56));
    let origin = &an
        .functions
        .iter()
        .find(|f| f.names[0] == "b")
        .unwrap()
        .origin;
    assert!(origin.ends_with("libab.a(b.o)"), "{origin}");
}

#[test]
fn linked_elf_calls_resolve_by_address() {
    let dir = tempfile::tempdir().unwrap();
    let obj = assemble(dir.path(), "chain.s", CHAIN);
    let elf = dir.path().join("chain.elf");
    run(Command::new(GCC)
        .args([
            "-march=rv32imac",
            "-mabi=ilp32",
            "-nostdlib",
            "-nostartfiles",
        ])
        .args(["-Wl,-e,top", "-Wl,-Ttext=0x80000000"])
        .arg(&obj)
        .arg("-o")
        .arg(&elf));
    let a = analyse(&[elf]);
    assert_eq!(depth(&a, "top"), MachineDepth::Bytes(32 + 64 + 16));
    assert_eq!(depth(&a, "mid"), MachineDepth::Bytes(64 + 16));
}

#[test]
fn not_riscv_elf_is_an_error_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("junk.o");
    std::fs::write(&p, b"hello").unwrap();
    let e = analyze_files(&[p]).unwrap_err().to_string();
    assert!(e.contains("junk.o") && e.contains("not an ELF"), "{e}");
}

#[test]
fn foreign_archive_members_without_code_are_skipped_with_code_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let rv32 = assemble(
        dir.path(),
        "f.s",
        "\t.text\n\t.globl f\n\t.type f,@function\nf:\n\tret\n\t.size f,.-f\n",
    );
    let as64 = |name: &str, text: &str| {
        let src = dir.path().join(name);
        std::fs::write(&src, text).unwrap();
        let obj = src.with_extension("o");
        run(Command::new(GCC)
            .args(["-march=rv64imac", "-mabi=lp64", "-c"])
            .arg(&src)
            .arg("-o")
            .arg(&obj));
        obj
    };
    let empty64 = as64("empty.s", "\t.text\n");
    let code64 = as64(
        "g.s",
        "\t.text\n\t.globl g\n\t.type g,@function\ng:\n\tret\n\t.size g,.-g\n",
    );
    let lib = dir.path().join("libmixed.a");
    run(Command::new("riscv64-unknown-elf-ar")
        .arg("rcs")
        .arg(&lib)
        .arg(&rv32)
        .arg(&empty64));
    assert_eq!(
        depth(&analyse(std::slice::from_ref(&lib)), "f"),
        MachineDepth::Bytes(0)
    );
    run(Command::new("riscv64-unknown-elf-ar")
        .arg("rcs")
        .arg(&lib)
        .arg(&code64));
    let e = analyze_files(&[lib]).unwrap_err().to_string();
    assert!(e.contains("libmixed.a(g.o)") && e.contains("RV32"), "{e}");
}
