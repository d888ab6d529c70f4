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
 * port_split_return_args_entry: the same for a moved frame whose caller passed it arguments on
 * the stack (frame_move.h): its record lies above the copied arguments, where call frame
 * information cannot find it, so a backtrace ends there instead of walking on.
 *
 * Both leave through mret, which restores the task's interrupt enable in the same instruction
 * that resumes it (no window in which a trap could see a half-restored task). Reached from
 * kernel code (tp = the kernel's descriptor), both hand over to the trap path at once: the
 * kernel stack is in use, so the ecall's panic report is all that can be done.
 *
 * Call frame information (docs/cli.md, "Backtraces through the kernel"): a backtrace from the
 * strategy (k_split_request and what it calls) walks through port_split_request into the
 * function whose check failed, at its check (the context's pc holds the site's ecall while the
 * kernel runs, mscratch the context, as in every trap entry); a backtrace from a function
 * running in a moved frame walks through port_split_return into the real caller, whose sp and
 * return address are the strategy's record at the moved frame's entry sp (frame_move.h: entry
 * sp, then return address). Inside the return path's kernel call the backtrace ends at the
 * trampoline: the record is not at a place the unwinder can reach from there. */
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

/* A DWARF expression's two bytes for the address sp + off: DW_OP_breg2 off (0 <= off < 64). */
#define CFI_AT_SP(off) 0x72, off

    .globl port_split_request
    .type port_split_request, @function
    .p2align 2
port_split_request:
    /* The check's function stopped at its site: its pc is the site's ecall (word 0 of the
     * entry t0 names), every register as it is; a signal frame, so the debugger looks the
     * function up at that pc itself. */
    CFI_TRAP_START
    .cfi_escape 0x10, 0xc1, 0x26, 2, 0x75, 0    /* pc: DW_OP_breg5 (t0) 0, the site */
    .cfi_remember_state
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
    /* For the debugger only, as the trap entries leave it: the interrupted pc (the site's
     * ecall) in the context, the context in mscratch. CTX_PC is cleared again below. */
    lw t1, 0(t0)
    sw t1, T(CTX_PC)
    addi t1, tp, -PORT_TP
    csrw mscratch, t1
    CFI_TRAPPED_FROM_CONTEXT
    mv a0, t0
    CALL_KERNEL k_split_request      /* a0 = where the task resumes; t6 = its context */
    /* The task's own sp, ra and tp again; it resumes at mepc. */
    .cfi_def_cfa sp, 0
    .cfi_same_value ra
    .cfi_same_value tp
    .cfi_same_value 4929
    sw zero, CTX_PC(t6)              /* running again: see CTX_PC in port.h */
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
    .cfi_restore_state
    lw t1, T(CTX_X(5))               /* kernel code's own interrupt state back */
    andi t1, t1, MSTATUS_MIE
    csrs mstatus, t1
    lw t1, T(CTX_X(6))
    lw t0, 0(t0)                     /* the site's ecall */
    .cfi_register 4929, t0
    jr t0
    .cfi_endproc
    .size port_split_request, . - port_split_request

/* The body both return trampolines share, from their csrrci (t0 = the task's mstatus). */
.macro SPLIT_RETURN
    .cfi_remember_state
    la t1, port_kernel + PORT_TP
    beq tp, t1, .Lreturn_in_kernel\@
    sw t0, T(CTX_X(5))               /* the task's mstatus */
    sw sp, T(CTX_SP)
    sw a0, T(CTX_X(10))
    sw a1, T(CTX_X(11))
    .cfi_undefined 4929              /* the record is out of reach from here: the end */
    CALL_KERNEL k_split_return       /* a0 = where the task resumes; t6 = its context */
    .cfi_def_cfa sp, 0               /* the caller's sp, ra and tp; it resumes at mepc */
    .cfi_same_value ra
    .cfi_same_value 4929
    lw a0, C(a0, 10)
    lw a1, C(a1, 11)
    mret
.Lreturn_in_kernel\@:
    .cfi_restore_state
    csrw mstatus, t0
    j port_stack_return
.endm

/* A moved frame returned here (ra was this address) with sp = its entry sp in the block, where
 * the strategy's record is: the caller's sp (the CFA) at sp + 0, its return address at sp + 4,
 * which is both the caller's pc and, as after any return, its ra. A debugger looks this frame
 * up at its return address - 1: the c.nop inside the procedure. It is a signal frame: the
 * caller's frame may lie below the moved one (blocks come from anywhere in the pool), which a
 * debugger accepts only across a signal frame. */
    .globl port_split_return
    .type port_split_return, @function
    .p2align 2
    .cfi_startproc
    .cfi_signal_frame                /* its caller's sp may be below its own (a block) */
    .cfi_return_column 4929
    .cfi_escape 0x0f, 3, CFI_AT_SP(0), 0x06     /* CFA = *(sp + 0) */
    .cfi_escape 0x10, 0xc1, 0x26, 2, CFI_AT_SP(4)
    .cfi_escape 0x10, 1, 2, CFI_AT_SP(4)
    c.nop
    c.nop
port_split_return:
    csrrci t0, mstatus, MSTATUS_MIE
    SPLIT_RETURN
    .cfi_endproc
    .size port_split_return, . - port_split_return

/* The same for a frame whose caller's stack arguments were copied above it (the record is
 * above them, at an offset the unwinder cannot know): the backtrace ends here. */
    .globl port_split_return_args
    .type port_split_return_args, @function
    .p2align 2
port_split_return_args:              /* named from the c.nop: the last frame of a backtrace */
    .cfi_startproc
    .cfi_return_column 4929
    .cfi_undefined 4929
    c.nop
    c.nop
    .globl port_split_return_args_entry
port_split_return_args_entry:
    csrrci t0, mstatus, MSTATUS_MIE
    SPLIT_RETURN
    .cfi_endproc
    .size port_split_return_args, . - port_split_return_args

    /* Stack depths for `cactus cc`'s reserves: none writes the stack it was called on. */
    .pushsection .cactus.stack_depth, "", @progbits
    .asciz "port_split_request 0"
    .asciz "port_split_return 0"
    .asciz "port_split_return_args 0"
    .popsection
