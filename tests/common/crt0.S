/* Start-up code and default trap entry for Cactus bare-metal test programs.
 *
 * _start: sets sp, gp and tp (the stack-check descriptor of the one stack,
 * rt_main_stack: its limit is __stack_bottom, docs/stack-checks.md), zeroes
 * .bss, points mtvec (direct mode) at rt_trap_entry, calls main() and exits
 * through the test finisher with main's return value.
 *
 * rt_trap_entry: saves every register and mepc/mcause/mtval/mstatus in a
 * frame on the trap stack (layout in trap_frame.h; __trap_stack_* in link.ld;
 * a trap taken while already on the trap stack pushes below its sp), sets tp
 * to the trap stack's descriptor, calls rt_trap_dispatch(frame) in rt.c,
 * restores registers, mepc and mstatus from the (possibly modified) frame and
 * returns with mret. The interrupted stack is never written: a failed stack
 * check traps with sp possibly far below its limit. The entry needs a valid
 * tp: it parks t0 in the descriptor's scratch word (RT_DESC_SCRATCH).
 * rt_trap_dispatch reports an ecall at a `cactus_checks` site as a stack
 * overflow (exit 101); otherwise, with no hook installed, it reports
 * "unexpected trap" and exits with code 100.
 */
#include "trap_frame.h"

    .section .text.init, "ax"
    .globl _start
_start:
.option push
.option norelax
    la      gp, __global_pointer$
.option pop
    la      sp, __stack_top
    la      tp, rt_main_stack + RT_TP_OFFSET /* limit = __stack_bottom, at tp-4 */
    la      t0, rt_trap_entry
    csrw    mtvec, t0
    la      t0, __bss_start
    la      t1, __bss_end
1:  bgeu    t0, t1, 2f
    sw      zero, 0(t0)
    addi    t0, t0, 4
    j       1b
2:  call    main
    call    rt_exit
3:  j       3b

    .text
    .balign 4
    .globl rt_trap_entry
rt_trap_entry:
    sw      t0, RT_DESC_SCRATCH(tp)
    mv      t0, sp
    /* Switch to the trap stack's top, unless already on the trap stack (a
     * trap inside a handler): then push below sp. No gp-relative relaxation:
     * gp is not trusted before it is reloaded below. */
.option push
.option norelax
    la      sp, __trap_stack_top
    bgtu    t0, sp, 1f
    la      sp, __trap_stack_bottom
    bltu    t0, sp, 2f
    mv      sp, t0
    j       1f
2:  la      sp, __trap_stack_top
.option pop
1:  addi    sp, sp, -TF_SIZE
    sw      t0, TF_REG(2)(sp)       /* the interrupted sp */
    lw      t0, RT_DESC_SCRATCH(tp)
    sw      x1, TF_REG(1)(sp)
    sw      x3, TF_REG(3)(sp)
    sw      x4, TF_REG(4)(sp)
    sw      x5, TF_REG(5)(sp)
    sw      x6, TF_REG(6)(sp)
    sw      x7, TF_REG(7)(sp)
    sw      x8, TF_REG(8)(sp)
    sw      x9, TF_REG(9)(sp)
    sw      x10, TF_REG(10)(sp)
    sw      x11, TF_REG(11)(sp)
    sw      x12, TF_REG(12)(sp)
    sw      x13, TF_REG(13)(sp)
    sw      x14, TF_REG(14)(sp)
    sw      x15, TF_REG(15)(sp)
    sw      x16, TF_REG(16)(sp)
    sw      x17, TF_REG(17)(sp)
    sw      x18, TF_REG(18)(sp)
    sw      x19, TF_REG(19)(sp)
    sw      x20, TF_REG(20)(sp)
    sw      x21, TF_REG(21)(sp)
    sw      x22, TF_REG(22)(sp)
    sw      x23, TF_REG(23)(sp)
    sw      x24, TF_REG(24)(sp)
    sw      x25, TF_REG(25)(sp)
    sw      x26, TF_REG(26)(sp)
    sw      x27, TF_REG(27)(sp)
    sw      x28, TF_REG(28)(sp)
    sw      x29, TF_REG(29)(sp)
    sw      x30, TF_REG(30)(sp)
    sw      x31, TF_REG(31)(sp)
    sw      zero, TF_REG(0)(sp)
    csrr    t0, mepc
    sw      t0, TF_MEPC(sp)
    csrr    t0, mcause
    sw      t0, TF_MCAUSE(sp)
    csrr    t0, mtval
    sw      t0, TF_MTVAL(sp)
    csrr    t0, mstatus
    sw      t0, TF_MSTATUS(sp)
.option push
.option norelax
    la      gp, __global_pointer$   /* U-mode code may have clobbered gp */
.option pop
    la      tp, rt_trap_stack + RT_TP_OFFSET /* handler code checks the trap stack */
    mv      a0, sp
    call    rt_trap_dispatch
    lw      t0, TF_MEPC(sp)
    csrw    mepc, t0
    lw      t0, TF_MSTATUS(sp)
    csrw    mstatus, t0
    lw      x1, TF_REG(1)(sp)
    lw      x3, TF_REG(3)(sp)
    lw      x4, TF_REG(4)(sp)
    lw      x5, TF_REG(5)(sp)
    lw      x6, TF_REG(6)(sp)
    lw      x7, TF_REG(7)(sp)
    lw      x8, TF_REG(8)(sp)
    lw      x9, TF_REG(9)(sp)
    lw      x10, TF_REG(10)(sp)
    lw      x11, TF_REG(11)(sp)
    lw      x12, TF_REG(12)(sp)
    lw      x13, TF_REG(13)(sp)
    lw      x14, TF_REG(14)(sp)
    lw      x15, TF_REG(15)(sp)
    lw      x16, TF_REG(16)(sp)
    lw      x17, TF_REG(17)(sp)
    lw      x18, TF_REG(18)(sp)
    lw      x19, TF_REG(19)(sp)
    lw      x20, TF_REG(20)(sp)
    lw      x21, TF_REG(21)(sp)
    lw      x22, TF_REG(22)(sp)
    lw      x23, TF_REG(23)(sp)
    lw      x24, TF_REG(24)(sp)
    lw      x25, TF_REG(25)(sp)
    lw      x26, TF_REG(26)(sp)
    lw      x27, TF_REG(27)(sp)
    lw      x28, TF_REG(28)(sp)
    lw      x29, TF_REG(29)(sp)
    lw      x30, TF_REG(30)(sp)
    lw      x31, TF_REG(31)(sp)
    lw      sp, TF_REG(2)(sp)
    mret
