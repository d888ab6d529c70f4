/* Trap entry and exit, and the full-context restore, for RV32 M-mode.
 *
 * Invariants: tp points just past the running code's stack descriptor, which always lies right after a
 * context (PORT_STACK_DESC): a task's in its TCB, the kernel's in port_kernel. So the trap entry
 * saves the interrupted registers at tp - PORT_TP, a task's into its TCB and kernel
 * code's (a trap from kernel code is a panic) into port_kernel.ctx, never into a task's, and
 * leaves that context pointer in mscratch for the exit and port_trap. Kernel C code runs
 * only on port_kstack (never on a task stack) with tp = &port_kernel.stack + 1; on every exit path
 * the context named by port_current is resumed with tp = context + PORT_TP. Offsets
 * come from port.h (checked in port.c and core/k.h).
 *
 * Lazy save: the entry stores only what C code may clobber (ra, sp, t0-t6, a0-a7) and mepc;
 * s0-s11 still hold the interrupted task's values when port_trap returns (C preserves them), so
 * they are stored only when another task is resumed. A trap that does not switch restores 16
 * registers and returns; one that switches stores the other 12 first.
 * Every exit leaves through mret with mstatus.MPP = M and MPIE = 1: an interrupt was taken with
 * MIE = 1 (so MPIE = 1), and port_trap sets MPIE for exceptions (except a task resumed in place
 * after a granted stack request, which keeps its own). */
#include "port.h"
#include "bound.h"
#include "window.h"
#include "entry.h"

#define SAVE(r, n) sw r, CTX_X(n)(t6)
#define LOAD(r, n) lw r, CTX_X(n)(t6)
#define LOADA(r, n) lw r, CTX_X(n)(a0)

    .section .text.port, "ax"

/* ---- The vector table (mtvec = port_vectors | 1, vectored mode; entry.h) ------------------- */
    .globl port_vectors
    .balign 64
port_vectors:
    PORT_VECTOR_TABLE port_irq_entry

/* Without a handler attached (no call to port_irq_route, so irq.S is not linked) software and
 * external interrupts take the general entry like any other unexpected trap. */
    .weak port_irq_entry
    .set port_irq_entry, port_trap_entry

/* ---- General trap entry ------------------------------------------------------------------ */
    .globl port_trap_entry
port_trap_entry:
    CFI_TRAP_START
    sw t6, CTX_X(31) - PORT_TP(tp)
    addi t6, tp, -PORT_TP   /* t6 = the interrupted code's context */
    SAVE(t0, 5)
    SAVE(t1, 6)
    SAVE_C_CLOBBERED t6
    csrw mscratch, t6               /* kept for the exit: C clobbers t6 */
    csrr t5, mepc
    sw t5, CTX_PC(t6)
    CFI_TRAPPED_FROM_CONTEXT
    ENTER_KERNEL_STACK t5
    csrr a0, mcause
    call port_trap
    /* The exit of every trap (tick.S comes here too): mscratch = the interrupted context, whose
     * s0-s11 are still in the registers. */
    .globl port_trap_exit
port_trap_exit:
    lui t0, %hi(port_current)
    lw a0, %lo(port_current)(t0)
    csrr t6, mscratch               /* the context the trap interrupted */
    beq a0, t6, port_trap_same
    /* Switch (falls through: the preemption path takes no branch here). t6 = context left
     * (complete it with s0-s11), a0 = context to resume. A context the kernel rewrote in this
     * trap (a restart) is not t6: port_context_init pointed mscratch at port_kernel.ctx,
     * scratch here. Storing into a killed task's context is harmless. */
    SKIP_LAZY_SAVE 2f               /* a ccs-sw partial save stored what is live */
    SAVE(s0, 8)
    SAVE(s1, 9)
    SAVE(s2, 18)
    SAVE(s3, 19)
    SAVE(s4, 20)
    SAVE(s5, 21)
    SAVE(s6, 22)
    SAVE(s7, 23)
    SAVE(s8, 24)
    SAVE(s9, 25)
    SAVE(s10, 26)
    SAVE(s11, 27)
2:  lw t0, CTX_PC(a0)
    bnez t0, 1f
    /* Voluntary context resumed from a trap: leave through mret so the trap ends. */
    lw ra, CTX_RA(a0)
    STACK_BOUND_FROM t0, PORT_TP - 4, a0
    STACK_WINDOW_FROM t0, PORT_TP - 4, a0
    lw sp, CTX_SP(a0)
    LOADA(s0, 8)
    LOADA(s1, 9)
    LOADA(s2, 18)
    LOADA(s3, 19)
    LOADA(s4, 20)
    LOADA(s5, 21)
    LOADA(s6, 22)
    LOADA(s7, 23)
    LOADA(s8, 24)
    LOADA(s9, 25)
    LOADA(s10, 26)
    LOADA(s11, 27)
    csrw mepc, ra
    addi tp, a0, PORT_TP
    LOADA(a0, 10)
    mret
1:  mv t6, a0
    j port_resume_full

port_trap_same:
    /* Same task, its context as the entry left it (a restarted one is never this: see
     * above): s0-s11 are still live. */
    lw t0, CTX_PC(t6)
    RESUME_PARTIAL                  /* the switch strategy's (entry.h) */
    csrw mepc, t0
    sw zero, CTX_PC(t6)             /* running again: see CTX_PC in port.h */
    lw ra, CTX_RA(t6)
    STACK_BOUND_FROM t0, PORT_TP - 4, t6
    STACK_WINDOW_FROM t0, PORT_TP - 4, t6
    lw sp, CTX_SP(t6)
    LOAD(t0, 5)
    LOAD(t1, 6)
    LOAD(t2, 7)
    LOAD(a0, 10)
    LOAD(a1, 11)
    LOAD(a2, 12)
    LOAD(a3, 13)
    LOAD(a4, 14)
    LOAD(a5, 15)
    LOAD(a6, 16)
    LOAD(a7, 17)
    LOAD(t3, 28)
    LOAD(t4, 29)
    LOAD(t5, 30)
    addi tp, t6, PORT_TP
    LOAD(t6, 31)
    mret
    .cfi_endproc

/* ---- Full restore: t6 = context, t0 = its pc; interrupts masked ----------------------------- */
    .globl port_resume_full
port_resume_full:
    RESUME_PARTIAL                  /* the switch strategy's (entry.h) */
    csrw mepc, t0
    sw zero, CTX_PC(t6)             /* running again: see CTX_PC in port.h */
    li t0, MSTATUS_MPP_M | MSTATUS_MPIE
    csrs mstatus, t0
    lw ra, CTX_RA(t6)
    STACK_BOUND_FROM t0, PORT_TP - 4, t6
    STACK_WINDOW_FROM t0, PORT_TP - 4, t6
    lw sp, CTX_SP(t6)
    LOAD(t0, 5)
    LOAD(t1, 6)
    LOAD(t2, 7)
    LOAD(s0, 8)
    LOAD(s1, 9)
    LOAD(a0, 10)
    LOAD(a1, 11)
    LOAD(a2, 12)
    LOAD(a3, 13)
    LOAD(a4, 14)
    LOAD(a5, 15)
    LOAD(a6, 16)
    LOAD(a7, 17)
    LOAD(s2, 18)
    LOAD(s3, 19)
    LOAD(s4, 20)
    LOAD(s5, 21)
    LOAD(s6, 22)
    LOAD(s7, 23)
    LOAD(s8, 24)
    LOAD(s9, 25)
    LOAD(s10, 26)
    LOAD(s11, 27)
    LOAD(t3, 28)
    LOAD(t4, 29)
    LOAD(t5, 30)
    addi tp, t6, PORT_TP
    LOAD(t6, 31)
    mret

    SWITCH_ROUTINES                 /* the switch strategy's (entry.h) */

/* ---- Stack depths for the static stack analysis (docs/stack-analysis.md) ------------------
 * Trap entry stores the interrupted state into its context and switches to the kernel stack;
 * port_resume_full loads sp from the context it resumes: neither stores below the sp it
 * finds. The section is not allocated: it does not change the image. */
    .pushsection .cactus.stack_depth, "", @progbits
    .asciz "port_trap_entry 0"
    .asciz "port_resume_full 0"
    .popsection
