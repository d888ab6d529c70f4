/* The slow path of the logical-stack pass (docs/sensmart.md, "The software variant"; the
 * software window, window_sw.h). Code built with `cactus cc --logical-stack` translates a
 * logical stack address into T and compares it with the running task's physical bound; below
 * it, the site's stub does `jal U, port_lstack_<T>_<U>` (U, dead there like T, holds the
 * resume address: the stub's jump back to the start of the translation, which then runs
 * again) and this entry calls k_lstack_trap(T) on the kernel stack, which grows the task's
 * stack (relocate.c) or applies its fault policy. T and U are any two distinct caller-saved
 * registers (crates/cc/src/logical.rs SCRATCH); each entry is in its own section, so only the
 * ones a firmware uses are linked.
 *
 * Like isolate.S: the entry masks interrupts, saves what C may clobber into the task's context
 * with the resume address as its pc, and leaves through the general exit (EXIT_KEEPING_MIE). A
 * logical address below the bound in kernel code or an interrupt handler (tp = the kernel's
 * descriptor) is a kernel panic. Only a software-window kernel (CACTUS_STACK_WINDOW_SW) has
 * these entries. */
#include "port.h"
#include "bound.h"
#include "window.h"
#include "entry.h"

#if CACTUS_STACK_WINDOW_SW
#define T(off) (off) - PORT_TP(tp) /* a slot of the running context, from tp */

/* One entry for address register \a and return register \b (x\na and x\nb). */
.macro LSTACK_ENTRY a, na, b
    .section .text.port_lstack_\a\()_\b, "ax"
    .globl port_lstack_\a\()_\b
    .p2align 1
port_lstack_\a\()_\b:
    sw \a, T(CTX_X(\na))             /* the physical address, for the common part */
    csrrci \a, mstatus, MSTATUS_MIE  /* \a = the interrupted mstatus; masked from here */
    sw \b, T(CTX_PC)                 /* resume at the stub's jump back */
    .ifnc \a,t0
    .ifnc \b,t0
    sw t0, T(CTX_X(5))
    .endif
    .endif
    .ifnc \a,t1
    .ifnc \b,t1
    sw t1, T(CTX_X(6))
    .endif
    .endif
    andi t1, \a, MSTATUS_MIE
    lw t0, T(CTX_X(\na))
    j port_lstack_common
.endm

/* Every return register for address register \a. */
.macro LSTACK_ROW a, na
    .irp b, t0, t1, t2, t3, t4, t5, t6, a0, a1, a2, a3, a4, a5, a6, a7
    .ifnc \a,\b
    LSTACK_ENTRY \a, \na, \b
    .endif
    .endr
.endm

    LSTACK_ROW t0, 5
    LSTACK_ROW t1, 6
    LSTACK_ROW t2, 7
    LSTACK_ROW t3, 28
    LSTACK_ROW t4, 29
    LSTACK_ROW t5, 30
    LSTACK_ROW t6, 31
    LSTACK_ROW a0, 10
    LSTACK_ROW a1, 11
    LSTACK_ROW a2, 12
    LSTACK_ROW a3, 13
    LSTACK_ROW a4, 14
    LSTACK_ROW a5, 15
    LSTACK_ROW a6, 16
    LSTACK_ROW a7, 17

    .section .text.port_lstack, "ax"
    .globl port_lstack_common
    .p2align 2
port_lstack_common:
    sw t6, T(CTX_X(31))
    la t6, port_kernel + PORT_TP
    beq tp, t6, .Llstack_in_kernel
    addi t6, tp, -PORT_TP            /* t6 = the running task's context */
    SAVE_C_CLOBBERED t6
    csrw mscratch, t6                /* the context port_trap_exit resumes or completes */
    ENTER_KERNEL_STACK t2
    addi sp, sp, -16
    sw t1, 0(sp)
    mv a0, t0
    call k_lstack_trap
    EXIT_KEEPING_MIE

.Llstack_in_kernel:
    mv a0, t0
    call k_lstack_kernel_panic       /* does not return */

    /* Stack depths for the static stack analysis: nothing is written below the caller's sp. */
    .pushsection .cactus.stack_depth, "", @progbits
    .asciz "port_lstack_common 0"
    .popsection
#endif
