/* The bare-metal entry of `--preempt-traps` code (docs/sensmart.md "Preemption by counted
 * branches"), shared by every runtime without a kernel: cactus cc's own runtime (crt0.S here),
 * the fuzz runtime (crates/verify/fuzz-runtime/crt0.S) and the pass tests' fixture crt0.
 *
 * A site whose branch counter (the word at tp - 8) reached zero calls port_preempt_<reg> with
 * <reg> dead there holding the return address. Bare metal has nothing to preempt to: the entry
 * reloads the counter with the period (the absolute symbol cactus_preempt_period the pass
 * defines; 0 in a program built without it) and returns, using only <reg> and the scratch word
 * at tp - 12. The runtime that includes this file guarantees both words sit just below the
 * stack descriptor tp points past. The kernel's own entry (kernel/arch/rv32/preempt.S)
 * preempts instead. */
.macro PREEMPT_ENTRY r
    .section .text.port_preempt_\r, "ax"
    .globl port_preempt_\r
    .p2align 1
port_preempt_\r:
    sw \r, -12(tp)
    la \r, cactus_preempt_period
    sw \r, -8(tp)
    lw \r, -12(tp)
    jr \r
.endm
    .irp r, ra, t0, t1, t2, s0, s1, a0, a1, a2, a3, a4, a5, a6, a7
    PREEMPT_ENTRY \r
    .endr
    .irp r, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, t3, t4, t5, t6
    PREEMPT_ENTRY \r
    .endr
    .weak cactus_preempt_period
    .text
