//! Frame recovery on the prologue shapes GCC 12 emits (taken from its -O0/-O2 output).

use cactus_asm::{AsmFile, Cfg, Frame};

fn frame(body: &str) -> (Frame, bool) {
    let text = format!("\t.text\n\t.type\tf, @function\nf:\n{body}\t.size\tf, .-f\n");
    let file = AsmFile::parse(&text, "t.s").unwrap();
    let cfg = Cfg::build(&file, &file.functions()[0]);
    (Frame::recover(&file, &cfg), cfg.is_leaf())
}

#[test]
fn large_frame_through_temporary() {
    let (f, leaf) = frame(
        "\taddi sp,sp,-928\n\tsw ra,924(sp)\n\tsw s0,920(sp)\n\taddi s0,sp,928\n\tli t0,-4096\n\tadd sp,sp,t0\n\tcall use\n\tli t0,4096\n\tadd sp,sp,t0\n\tlw ra,924(sp)\n\tlw s0,920(sp)\n\taddi sp,sp,928\n\tjr ra\n",
    );
    assert_eq!(f.static_size, 5024);
    assert!(f.frame_pointer && !f.dynamic && f.exact && !leaf);
    assert_eq!(f.saved, vec![(1, -4), (8, -8)]);
    assert_eq!(f.incoming_args, 0);
}

#[test]
fn lui_addi_sub_frame() {
    let (f, _) = frame("\tlui t0,2\n\taddi t0,t0,16\n\tsub sp,sp,t0\n\tadd sp,sp,t0\n\tret\n");
    assert_eq!(f.static_size, 8208);
    assert!(!f.frame_pointer && !f.dynamic);
}

#[test]
fn vla_is_dynamic_and_restored_through_fp() {
    let (f, _) = frame(
        "\taddi sp,sp,-48\n\tsw ra,44(sp)\n\tsw s0,40(sp)\n\taddi s0,sp,48\n\tlw a5,-36(s0)\n\tsub sp,sp,a5\n\tmv a0,sp\n\tcall use\n\taddi sp,s0,-48\n\tlw ra,44(sp)\n\tlw s0,40(sp)\n\taddi sp,sp,48\n\tjr ra\n",
    );
    assert!(f.dynamic && f.frame_pointer);
    // s0 is saved before it becomes the frame pointer; the -36(s0) access is not a save.
    assert_eq!(f.saved, vec![(1, -4), (8, -8)]);
    assert_eq!(f.static_size, 48);
}

#[test]
fn stack_arguments_through_fp_and_sp() {
    let (f, leaf) = frame(
        "\taddi sp,sp,-48\n\tsw s0,44(sp)\n\taddi s0,sp,48\n\tlw a4,0(s0)\n\tlw a5,4(s0)\n\tadd a0,a4,a5\n\tlw s0,44(sp)\n\taddi sp,sp,48\n\tjr ra\n",
    );
    assert_eq!((f.static_size, f.incoming_args), (48, 8));
    assert!(leaf);
    let (g, _) = frame("\tlw a0,4(sp)\n\tret\n");
    assert_eq!((g.static_size, g.incoming_args), (0, 8));
    assert!(g.is_zero());
}

#[test]
fn shrink_wrapped_prologue_on_one_path() {
    let (f, _) = frame(
        "\tbeqz a0,.L2\n\taddi sp,sp,-16\n\tsw ra,12(sp)\n\tcall g\n\tlw ra,12(sp)\n\taddi sp,sp,16\n.L2:\n\tret\n",
    );
    assert_eq!(f.static_size, 16);
    assert!(f.exact);
    assert_eq!(f.saved, vec![(1, -4)]);
}
