/* The kernel entry of the preempt-traps pass (docs/sensmart.md "Preemption by counted
 * branches"). Code built with `cactus cc --preempt-traps=N` decrements the running task's
 * branch counter (its context's CTX_PREEMPT slot, at tp - 8) at every backward branch; when it
 * reaches zero the site's stub does `jal rX, port_preempt_rX` with rX a register dead there and
 * then jumps back to the branch. Every other register holds the task's value.
 *
 * port_preempt_rX parks the resume address (rX) in the counter slot (the counter is 0 and only
 * this path reloads it), masks interrupts, saves what C may clobber into the task's context
 * like the general trap entry (trap.S), with the resume address as its pc, and calls
 * k_preempt_trap on the kernel stack: it reloads the counter, runs the ticks a masked timer
 * interrupt could not deliver and preempts if the slice is used up or a higher-priority task is
 * ready. The exit is the general one (port_trap_exit): the same task resumes with its own
 * interrupt state (it may have masked interrupts: that is the point), another one with
 * interrupts enabled, as after every trap; a task left here with interrupts masked resumes
 * later, like every preempted task, with interrupts enabled (docs/sensmart.md).
 *
 * From kernel code or an interrupt handler (tp = the kernel's descriptor) the entry only
 * reloads the counter and returns: the kernel stack is in use. */
#include "port.h"
#include "bound.h"
#include "entry.h"

#define T(off) (off) - PORT_TP(tp) /* a slot of the running context, from tp */
#define SAVE(r, n) sw r, CTX_X(n)(t6)
#define LOAD(r, n) lw r, CTX_X(n)(t6)

/* One entry per register a site may use (any but zero, sp, gp and tp), each in its own
 * section so the linker keeps only the ones some site calls. */
.macro PREEMPT_ENTRY r
    .section .text.port_preempt_\r, "ax"
    .globl port_preempt_\r
    .p2align 1
port_preempt_\r:
    sw \r, T(CTX_PREEMPT)
    j port_preempt_common
.endm

    .irp r, ra, t0, t1, t2, s0, s1, a0, a1, a2, a3, a4, a5, a6, a7
    PREEMPT_ENTRY \r
    .endr
    .irp r, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, t3, t4, t5, t6
    PREEMPT_ENTRY \r
    .endr

    .section .text.port_preempt, "ax"
    .globl port_preempt_common
    .p2align 2
port_preempt_common:
    sw t1, T(CTX_X(6))
    /* Masked before t1 changes: a tick taken before this saves the same t1 in the same slot. */
    csrrci t1, mstatus, MSTATUS_MIE  /* t1 = the interrupted code's mstatus */
    sw t6, T(CTX_X(31))
    addi t6, tp, -PORT_TP            /* t6 = the running code's context */
    SAVE(t0, 5)
    la t0, port_kernel + PORT_TP
    beq tp, t0, .Lpreempt_in_kernel
    SAVE_C_CLOBBERED t6
    csrw mscratch, t6                /* the context port_trap_exit resumes or completes */
    lw t0, CTX_PREEMPT(t6)
    sw t0, CTX_PC(t6)                /* a full context: it resumes at the stub's jump back */
    ENTER_KERNEL_STACK t0
    addi sp, sp, -16
    sw t1, 0(sp)
    call k_preempt_trap
    EXIT_KEEPING_MIE

.Lpreempt_in_kernel:
    /* Kernel code or an interrupt handler: reload the counter and return with mret, which
     * restores the interrupt enable in the same instruction. */
    lw t0, CTX_PREEMPT(t6)
    csrw mepc, t0
    la t0, cactus_preempt_period
    sw t0, CTX_PREEMPT(t6)
    andi t1, t1, MSTATUS_MIE
    slli t1, t1, 4
    li t0, MSTATUS_MPIE
    csrc mstatus, t0
    li t0, MSTATUS_MPP_M
    or t1, t1, t0
    csrs mstatus, t1
    LOAD(t0, 5)
    LOAD(t1, 6)
    LOAD(t6, 31)
    mret

    .weak cactus_preempt_period

    /* Stack depths for the static stack analysis: nothing is written below the caller's sp. */
    .pushsection .cactus.stack_depth, "", @progbits
    .asciz "port_preempt_common 0"
    .popsection
