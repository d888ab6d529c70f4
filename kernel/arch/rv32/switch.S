/* Voluntary kernel entry (every kernel call; the yield is yield.S) and the resumption of
 * voluntary contexts, for RV32 M-mode. Kernel calls are plain calls with interrupts masked, so only the
 * callee-saved state (ra, sp, s0-s11) and the result (a0) belong to a voluntary context; see
 * docs/kernel.md. Offsets come from port.h (checked in port.c).
 *
 * NOTE: the wake paths of port_syscall are measured instruction by instruction (`cactus bench
 * kernel`): keep them straight-line. */
#include "port.h"
#include "bound.h"
#include "window.h"
#include "entry.h"

#define SAVE(r, n) sw r, CTX_X(n)(t6)
#define LOADT1(r, n) lw r, CTX_X(n)(t1)

    .section .text.port, "ax"

/* ---- First resumption of port_current (interrupts masked) ---------------------------------- */
    .globl port_start
port_start:
    lui t0, %hi(port_current)
    lw a0, %lo(port_current)(t0)
    j port_resume

/* ---- Resume context a0 from kernel code that is not a trap (interrupts masked) ------------- */
port_resume:
    RESUME_VOLUNTARY

/* ---- Generic kernel call: a0-a3 arguments, a4 = C function; lazy save ---------------------
 * Laid out for the measured wake paths (notify, resume, give, blocking): a call from a task
 * and a call that switches tasks take no branch; an interrupt handler's call and a call that
 * returns to its caller branch. */
    .globl port_syscall
port_syscall:
    .cfi_startproc
    csrrci t0, mstatus, MSTATUS_MIE
    la t1, port_kernel + PORT_TP
    beq tp, t1, 9f                  /* called by an interrupt handler (irq.S) */
    addi t6, tp, -PORT_TP   /* own context */
    sw ra, CTX_RA(t6)
    sw sp, CTX_SP(t6)               /* CTX_PC is already 0: the task is running */
    csrw mscratch, t6               /* kept across the call: C clobbers t6 */
    CFI_ENTERED_FROM_CONTEXT
    ENTER_KERNEL_STACK t0
    jalr a4                         /* C preserves s0-s11: they still hold the caller's values */
    lui t0, %hi(port_current)
    lw t1, %lo(port_current)(t0)
    csrr t6, mscratch
    beq t1, t6, 3f
    /* Suspend the caller. A caller the kernel restarted is not named by mscratch any more
     * (port_context_init pointed it at port_kernel.ctx, scratch here), and storing into the
     * context of a caller that ended itself is harmless: nothing resumes it, and a creation
     * that reuses its slot rewrites it. */
    SAVE(a0, 10)
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
    /* Resume context t1 (port_resume, inline: base t1, so a0 is loaded like any register). */
    lw t0, CTX_PC(t1)
    bnez t0, 4f
    lw ra, CTX_RA(t1)
    STACK_BOUND_FROM t0, PORT_TP - 4, t1
    STACK_WINDOW_FROM t0, PORT_TP - 4, t1
    lw sp, CTX_SP(t1)
    LOADT1(s0, 8)
    LOADT1(s1, 9)
    LOADT1(s2, 18)
    LOADT1(s3, 19)
    LOADT1(s4, 20)
    LOADT1(s5, 21)
    LOADT1(s6, 22)
    LOADT1(s7, 23)
    LOADT1(s8, 24)
    LOADT1(s9, 25)
    LOADT1(s10, 26)
    LOADT1(s11, 27)
    LOADT1(a0, 10)                  /* the result of the call the task made */
    addi tp, t1, PORT_TP    /* the task's stack descriptor */
    csrsi mstatus, MSTATUS_MIE
    ret
4:  mv t6, t1
    j port_resume_full
3:  /* Back to the caller (a restarted caller is never this: see above). */
    lw ra, CTX_RA(t6)
    STACK_BOUND_FROM t0, PORT_TP - 4, t6
    STACK_WINDOW_FROM t0, PORT_TP - 4, t6
    lw sp, CTX_SP(t6)
    addi tp, t6, PORT_TP
    csrsi mstatus, MSTATUS_MIE
    ret
9:  j port_syscall_isr
    .cfi_endproc


/* Without irq.S (no handler attached) only kernel code (a hook) can make a kernel call from the
 * kernel's descriptor, which no task path supports: it is a kernel panic (the illegal
 * instruction below, reported as an exception in kernel code). The sp reload is what the static
 * stack analysis takes for this path's stack switch, as in irq.S's version. */
    .weak port_syscall_isr
port_syscall_isr:
    sw sp, CTX_SP - PORT_TP(t1)
    lw sp, CTX_SP - PORT_TP(t1)
    unimp

/* ---- Where a task's entry function returns ------------------------------------------------
 * port_context_init gives every task ra = port_task_return_to and s1 = its exit function; s1 is
 * callee-saved, so it still holds the exit function when the entry returns. The call frame
 * information marks this as the outermost frame (ra undefined), so a debugger's backtrace of a
 * task ends here, at the frame below its entry, instead of running into whatever code precedes
 * the exit function (gdb looks a caller up at its return address - 1: the c.nop). */
    .section .text.port_task_return, "ax"
    .globl port_task_return
    .type port_task_return, @function
port_task_return:
    .cfi_startproc
    .cfi_undefined ra
    c.nop
    .globl port_task_return_to
port_task_return_to:
    jr s1
    .cfi_endproc
    .size port_task_return, . - port_task_return

/* ---- Stack depths for the static stack analysis (docs/stack-analysis.md) ------------------
 * These routines leave the caller's stack (la sp, port_kstack_top / lw sp from a context)
 * before they call anything, and store nothing below the caller's sp before that: on the
 * caller's stack they use 0 bytes. The analysis checks each value against the code up to the
 * switch. The section is not allocated: it does not change the image. */
    .pushsection .cactus.stack_depth, "", @progbits
    .asciz "port_syscall 0"
    .asciz "port_syscall_isr 0"
    .asciz "port_start 0"
    .asciz "port_resume 0"
    .popsection
