/* The call slow path of stack checks (docs/stack-checks.md "The call slow path"): a failed
 * `split` check, and the return of a frame a stack strategy moved, call into the kernel without
 * a trap.
 *
 * port_split_request: a `split` site stub jumps here with t0 = its `cactus_checks` entry; every
 * other register holds its value at the check (sp is the function's entry sp minus F1, possibly
 * below the limit, with nothing written there; ra its return address). The registers C may
 * clobber go to the task's context (not its stack: nothing is written below the limit), the
 * strategy runs on the kernel stack with interrupts masked (k_split_request, which may rewrite
 * the context's sp and ra to run the frame elsewhere), and the task resumes at the site's
 * continuation with its own interrupt state, or at the site's ecall when the strategy refused:
 * the trap path then applies the fault policy exactly as for an `mtss` check.
 *
 * port_split_return: the return address the strategies give a frame they moved (frame_move.h).
 * The frame returned with a0/a1 its result and sp its entry sp in the block; temporaries and ra
 * are dead. The strategy pops its record (k_split_return: the caller's sp, ra and limit) and the
 * task resumes at the real return address; a task that came here without a moved frame resumes
 * at port_stack_return, whose ecall applies the fault policy.
 *
 * Both leave through mret, which restores the task's interrupt enable in the same instruction
 * that resumes it (no window in which a trap could see a half-restored task). Reached from
 * kernel code (tp = the kernel's descriptor), both hand over to the trap path at once: the
 * kernel stack is in use, so the ecall's panic report is all that can be done. */
#include "port.h"
#include "bound.h"
#include "window.h"
#include "entry.h"

#define T(off) (off) - PORT_TP(tp) /* a slot of the running task's context, from tp */
#define C(r, n) CTX_X(n)(t6)

    .section .text.port_split, "ax"

/* mstatus for the mret that resumes a task whose own mstatus is in `r` (clobbers r and t1):
 * MPIE = its MIE, MPP = M. */
.macro RESUME_MSTATUS r
    andi \r, \r, MSTATUS_MIE
    slli \r, \r, 4
    li t1, MSTATUS_MPP_M
    or \r, \r, t1
    li t1, MSTATUS_MPIE
    csrc mstatus, t1
    csrs mstatus, \r
.endm

/* Calls fn(a0) on the kernel stack (tp = the kernel's descriptor), then prepares the mret that
 * resumes the running task at fn's result: t6 = its context, tp its descriptor, mepc the
 * result, mstatus from the task's own (in t0's slot), ra and sp from its context. */
.macro CALL_KERNEL fn
    ENTER_KERNEL_STACK t1
    call \fn
    lui t6, %hi(port_current)
    lw t6, %lo(port_current)(t6)
    addi tp, t6, PORT_TP
    csrw mepc, a0
    lw t0, C(t0, 5)
    RESUME_MSTATUS t0
    lw ra, CTX_RA(t6)
    STACK_BOUND_FROM t1, -4, tp
    STACK_WINDOW_FROM t1, -4, tp
    lw sp, CTX_SP(t6)
.endm

    .globl port_split_request
    .p2align 2
port_split_request:
    sw t1, T(CTX_X(6))
    /* Masked before t1 changes: a tick taken before this saves the same t1 in the same slot
     * (tick.S, the general trap entry), one taken later would overwrite it with a scratch
     * value the restore below would then load. */
    csrrci t1, mstatus, MSTATUS_MIE
    sw t1, T(CTX_X(5))               /* the task's mstatus, in t0's slot (t0 is the entry) */
    la t1, port_kernel + PORT_TP
    beq tp, t1, .Lrequest_in_kernel
    sw ra, T(CTX_RA)
    sw sp, T(CTX_SP)
    sw t2, T(CTX_X(7))
    sw a0, T(CTX_X(10))
    sw a1, T(CTX_X(11))
    sw a2, T(CTX_X(12))
    sw a3, T(CTX_X(13))
    sw a4, T(CTX_X(14))
    sw a5, T(CTX_X(15))
    sw a6, T(CTX_X(16))
    sw a7, T(CTX_X(17))
    sw t3, T(CTX_X(28))
    sw t4, T(CTX_X(29))
    sw t5, T(CTX_X(30))
    sw t6, T(CTX_X(31))
    mv a0, t0
    CALL_KERNEL k_split_request      /* a0 = where the task resumes; t6 = its context */
    lw t1, C(t1, 6)
    lw t2, C(t2, 7)
    lw a0, C(a0, 10)
    lw a1, C(a1, 11)
    lw a2, C(a2, 12)
    lw a3, C(a3, 13)
    lw a4, C(a4, 14)
    lw a5, C(a5, 15)
    lw a6, C(a6, 16)
    lw a7, C(a7, 17)
    lw t3, C(t3, 28)
    lw t4, C(t4, 29)
    lw t5, C(t5, 30)
    lw t6, C(t6, 31)
    mret
.Lrequest_in_kernel:
    lw t1, T(CTX_X(5))               /* kernel code's own interrupt state back */
    andi t1, t1, MSTATUS_MIE
    csrs mstatus, t1
    lw t1, T(CTX_X(6))
    lw t0, 0(t0)                     /* the site's ecall */
    jr t0

    .globl port_split_return
    .p2align 2
port_split_return:
    csrrci t0, mstatus, MSTATUS_MIE
    la t1, port_kernel + PORT_TP
    beq tp, t1, .Lreturn_in_kernel
    sw t0, T(CTX_X(5))               /* the task's mstatus */
    sw sp, T(CTX_SP)
    sw a0, T(CTX_X(10))
    sw a1, T(CTX_X(11))
    CALL_KERNEL k_split_return       /* a0 = where the task resumes; t6 = its context */
    lw a0, C(a0, 10)
    lw a1, C(a1, 11)
    mret
.Lreturn_in_kernel:
    csrw mstatus, t0
    j port_stack_return

    /* Stack depths for `cactus cc`'s reserves: neither writes the stack it was called on. */
    .pushsection .cactus.stack_depth, "", @progbits
    .asciz "port_split_request 0"
    .asciz "port_split_return 0"
    .popsection
