/* The kernel entry of the isolate pass (docs/sensmart.md "Memory isolation"). Code built with
 * `cactus cc --isolate` checks every store through a pointer, every indirect jump and return
 * and every call of a C library writer against the running task's windows (cactus_iso_win,
 * core/isolate.c); when the inline check fails, the site's stub does
 * `jal B, port_isolate_<kind>_<A>_<B>` with A holding the address (or the jump target) and
 * B, a register dead there like A, the resume address, and then jumps back to the checked
 * statement. Kinds: b, h, w (a store of 1, 2, 4 bytes at A), j (a jump to A), r (a call
 * writing [a0, a0 + a2)), s (strcpy: [a0, a0 + strlen(a1) + 1)).
 *
 * The entry masks interrupts, saves what C may clobber into the task's context like the
 * general trap entry (trap.S), with the resume address as its pc, and calls
 * k_isolate_trap(address, kind) on the kernel stack. That either finds the access inside one
 * of the task's regions (the task resumes after its check) or applies the task's fault policy
 * and reschedules. The exit is the general one (port_trap_exit), as for
 * preempt.S: the same task resumes with its own interrupt state, another one with interrupts
 * enabled. From kernel code or an interrupt handler (tp = the kernel's descriptor) every
 * access is allowed: the entry returns at once.
 *
 * A and B are dead at the site (the pass proves it, or spilled them), so their context slots
 * may hold anything on the way back. */
#include "port.h"
#include "bound.h"
#include "entry.h"

#define T(off) (off) - PORT_TP(tp) /* a slot of the running context, from tp */

/* x<n> of register \r, for the registers of the pairs (all >= 5). */
.macro REGNUM out, r
    .ifc \r,t0
    .set \out, 5
    .endif
    .ifc \r,t1
    .set \out, 6
    .endif
    .ifc \r,t2
    .set \out, 7
    .endif
    .ifc \r,a1
    .set \out, 11
    .endif
    .ifc \r,a2
    .set \out, 12
    .endif
    .ifc \r,a3
    .set \out, 13
    .endif
    .ifc \r,a4
    .set \out, 14
    .endif
    .ifc \r,a5
    .set \out, 15
    .endif
    .ifc \r,a6
    .set \out, 16
    .endif
    .ifc \r,a7
    .set \out, 17
    .endif
    .ifc \r,t3
    .set \out, 28
    .endif
    .ifc \r,t4
    .set \out, 29
    .endif
    .ifc \r,t5
    .set \out, 30
    .endif
    .ifc \r,t6
    .set \out, 31
    .endif
.endm

/* One entry: kind \k (its code \code for k_isolate_trap), address register \a, return
 * register \b. Leaves for port_isolate_common with t0 = the address, t1 = the interrupted
 * MIE bit | code << 4, interrupts masked, the task's t0 and t1 in its context (unless they
 * are A or B, which are dead), ctx.pc = the resume address. */
.macro ISOLATE_ENTRY k, code, a, b
    .section .text.port_isolate_\k\()_\a\()_\b, "ax"
    .globl port_isolate_\k\()_\a\()_\b
    .p2align 1
port_isolate_\k\()_\a\()_\b:
    REGNUM isolate_ra, \a
    sw \a, T(CTX_X(isolate_ra))      /* an interrupt before the mask saves the same value */
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
    ori t1, t1, (\code) << 4
    lw t0, T(CTX_X(isolate_ra))      /* the address */
    j port_isolate_common
.endm

/* Every kind for one pair (the pairs of crates/cc/src/isolate.rs PAIRS). */
.macro ISOLATE_PAIR a, b
    ISOLATE_ENTRY b, 1, \a, \b
    ISOLATE_ENTRY h, 2, \a, \b
    ISOLATE_ENTRY w, 4, \a, \b
    ISOLATE_ENTRY j, 8, \a, \b
    ISOLATE_ENTRY r, 9, \a, \b
    ISOLATE_ENTRY s, 10, \a, \b
.endm

    ISOLATE_PAIR t0, t1
    ISOLATE_PAIR t2, t3
    ISOLATE_PAIR t4, t5
    ISOLATE_PAIR t6, a7
    ISOLATE_PAIR a6, a5
    ISOLATE_PAIR a4, a3
    ISOLATE_PAIR a2, a1

    .section .text.port_isolate, "ax"
    .globl port_isolate_common
    .p2align 2
port_isolate_common:
    sw t6, T(CTX_X(31))
    la t6, port_kernel + PORT_TP
    beq tp, t6, .Lisolate_in_kernel
    addi t6, tp, -PORT_TP            /* t6 = the running task's context */
    SAVE_C_CLOBBERED t6
    csrw mscratch, t6                /* the context port_trap_exit resumes or completes */
    ENTER_KERNEL_STACK t2
    addi sp, sp, -16
    sw t1, 0(sp)
    mv a0, t0
    srli a1, t1, 4
    call k_isolate_trap
    EXIT_KEEPING_MIE

.Lisolate_in_kernel:
    /* Kernel code or an interrupt handler: allowed. Return with mret, which restores the
     * interrupt enable in the same instruction. */
    lw t0, T(CTX_PC)
    csrw mepc, t0
    sw zero, T(CTX_PC)
    andi t1, t1, MSTATUS_MIE
    slli t1, t1, 4
    li t0, MSTATUS_MPIE
    csrc mstatus, t0
    li t0, MSTATUS_MPP_M
    or t1, t1, t0
    csrs mstatus, t1
    lw t0, T(CTX_X(5))
    lw t1, T(CTX_X(6))
    lw t6, T(CTX_X(31))
    mret

    /* Stack depths for the static stack analysis: nothing is written below the caller's sp. */
    .pushsection .cactus.stack_depth, "", @progbits
    .asciz "port_isolate_common 0"
    .popsection
