/* The bare-metal side of `--logical-stack` code in fuzz programs (docs/sensmart.md "The
 * software variant", docs/fuzz.md): the slow-path entries port_lstack_<T>_<U> of the
 * logical-stack pass (crates/cc/src/logical.rs; the kernel's are kernel/arch/rv32/lstack.S).
 * Included by crt0.S.
 *
 * A fuzz program is one task whose stack never moves: its displacement (the word at tp + 32,
 * fuzz_lstack_disp, set by _start) puts its logical stack top at the aperture's end, and its
 * physical bound is the check limit at tp - 4. A translated address below that bound is an
 * access below the program's stack, which no legal program makes: every entry is an illegal
 * instruction (`unimp`) that fuzz_trap reports (exit 92), so a pass that mistranslates fails
 * the differential run. */

/* Every return register for address register \a (all entries share the one `unimp`). */
.macro LSTACK_ROW a
    .irp b, t0, t1, t2, t3, t4, t5, t6, a0, a1, a2, a3, a4, a5, a6, a7
    .ifnc \a,\b
    .globl port_lstack_\a\()_\b
port_lstack_\a\()_\b:
    .endif
    .endr
.endm

    .text
    .p2align 2
    LSTACK_ROW t0
    LSTACK_ROW t1
    LSTACK_ROW t2
    LSTACK_ROW t3
    LSTACK_ROW t4
    LSTACK_ROW t5
    LSTACK_ROW t6
    LSTACK_ROW a0
    LSTACK_ROW a1
    LSTACK_ROW a2
    LSTACK_ROW a3
    LSTACK_ROW a4
    LSTACK_ROW a5
    LSTACK_ROW a6
    LSTACK_ROW a7
    unimp
