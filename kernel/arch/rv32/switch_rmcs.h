/* The rmcs switch strategy (kernel.switch = "rmcs"; docs/ccs.md "rmcs"): ccs-hw's switch table,
 * deferral and partial resume on cactus-sim's register-page extension (docs/simulator-design.md,
 * "Register-page extension": CSR mrfmap maps pages 1-3, x8-x31, onto the base file's own pages
 * or a pool of CACTUS_SWITCH_RMCS extra pages). A timer preemption inside a switch range stores
 * only the range's page-0 registers (ra, sp, t0-t2: the page the trap entry needs) and, for each
 * of pages 1-3 holding a live register, keeps the page the task ran on as its *held* page and
 * maps a free physical page in its place: one mrfmap write instead of the stores. When no page
 * usable there is free, the least critical holder of one (lowest effective priority, the
 * preempted task included) has it stored to its context's own slots for those registers
 * ("spilled"). The resume maps the task's held pages back and loads its spilled ones.
 *
 * The record of who holds what is the owner table port_rmcs_owner (one word per physical page:
 * the base file's pages 1-3 at indices 0-2, pool page k at k+2; the holder's context | the
 * architectural page it holds it for, or 0) and the free-page mask port_rmcs_free (bit i: page i
 * is neither mapped nor held): the TCB does not grow, a spilled page lands in the context's
 * slots for its registers, which a partial save leaves unused. The mapping itself is never
 * changed by any other path: a full save or restore works on whatever pages are mapped.
 *
 * For a kernel built with CACTUS_SWITCH_CCS, CACTUS_SWITCH_CCS_HW and CACTUS_SWITCH_RMCS (the
 * pool's pages, 1-3). Include after port.h, bound.h and window.h. */
#ifndef CACTUS_SWITCH_RMCS_H
#define CACTUS_SWITCH_RMCS_H

#define CSR_MRFMAP 0x7CE /* crates/sim/src/hart/regpages.rs */

#if CACTUS_SWITCH_RMCS < 1 || CACTUS_SWITCH_RMCS > 3
#error "an rmcs kernel needs CACTUS_SWITCH_RMCS = the pool's pages (1-3; kernel.reg_pool)"
#endif

/* The pool's pages in the free-page mask (bits 3 .. 2 + pool). */
#define RMCS_POOL_BITS (((1 << CACTUS_SWITCH_RMCS) - 1) << 3)

#ifndef __ASSEMBLER__
struct port_context;
/* Forgets the pages `ctx` holds (port_context_init: a rewritten context is resumed in full,
 * never through its held pages). Interrupts masked. */
void port_rmcs_release(struct port_context *ctx);
#else

#include "switch_ccs_hw.h"

/* At boot (crt0.S, after CCS_HW_BOOT): maps the pool's last page once and back, so a core with
 * a smaller pool (or none) stops here with an illegal instruction naming the pc instead of at
 * the first preemption, and marks the pool's pages free. Clobbers t0, t1. */
.macro RMCS_BOOT
    li t0, CACTUS_SWITCH_RMCS
    csrw CSR_MRFMAP, t0
    csrw CSR_MRFMAP, zero
    li t0, RMCS_POOL_BITS
    la t1, port_rmcs_free
    sw t0, 0(t1)
.endm

/* Stores page \p's eight registers (x8p..x8p+7) at their context slots from \base. */
.macro RMCS_PAGE_STORE p, base
.if \p == 1
    .irp r, 8, 9, 10, 11, 12, 13, 14, 15
    sw x\r, CTX_X(\r)(\base)
    .endr
.elseif \p == 2
    .irp r, 16, 17, 18, 19, 20, 21, 22, 23
    sw x\r, CTX_X(\r)(\base)
    .endr
.else
    .irp r, 24, 25, 26, 27, 28, 29, 30, 31
    sw x\r, CTX_X(\r)(\base)
    .endr
.endif
.endm

/* The hold of page \p: t2 = the bit of the physical page to map at \p (free or just stolen),
 * sp = the mapping being built, ra = the free-page mask. The page mapped at \p now (the task's)
 * becomes held by the context in mscratch. Clobbers t1, t2. */
.macro RMCS_TAKE p
    not t1, t2
    and ra, ra, t1
    srli t1, t2, 3
    srli t2, t2, 5
    sub t1, t1, t2                  /* its MPN: 0 for the base page, k for pool bit 2 + k */
    srli t2, sp, 4 * (\p - 1)
    andi t2, t2, 15                 /* the MPN at \p now: the task's page */
    xor t1, t1, t2
    slli t1, t1, 4 * (\p - 1)
    xor sp, sp, t1
    beqz t2, 1f
    addi t2, t2, 3 - \p
1:  addi t2, t2, \p - 1             /* the task's page's index: base p - 1, pool k: k + 2 */
    slli t2, t2, 2
    lla t1, port_rmcs_owner
    add t2, t2, t1
    csrr t1, mscratch
    ori t1, t1, \p
    sw t1, 0(t2)
.endm

/* A candidate victim: the holder of page \i, if it is less critical than the best so far
 * (t0 = its priority, t1 = its index); sp = the owner table. Clobbers t2. */
.macro RMCS_VICTIM i
    lw t2, 4 * \i(sp)
    beqz t2, 1f
    andi t2, t2, -4
    lbu t2, PORT_PRIO(t2)
    bgeu t2, t0, 1f
    mv t0, t2
    li t1, \i
1:
.endm

/* Page \p (\b = p - 1, its base page's index) of the preempted task, t0 = the range's live
 * pages (bit p - 1): when live, held (a free page usable at \p mapped in its place); with none
 * free, the least critical holder of a usable page gives it up (its registers stored to its
 * context) or, when that is the preempted task itself, its page is stored to its own context. */
.macro RMCS_HOLD_ONE p, b
    andi t2, t0, 1 << \b
    beqz t2, .Lrmcs_next\@
    li t2, (1 << \b) | RMCS_POOL_BITS
    and t2, t2, ra                  /* the free pages usable at \p */
    beqz t2, .Lrmcs_none\@
    neg t1, t2
    and t2, t2, t1                  /* the lowest: the base page if free, else the first pool page */
    RMCS_TAKE \p
    j .Lrmcs_next\@
.Lrmcs_none\@:
    /* No page usable at \p is held by anyone (the common case): nothing to steal. */
    lla t1, port_rmcs_owner
    lw t2, 4 * \b(t1)
    bnez t2, .Lrmcs_search\@
    lw t2, 12(t1)
    bnez t2, .Lrmcs_search\@
.if CACTUS_SWITCH_RMCS >= 2
    lw t2, 16(t1)
    bnez t2, .Lrmcs_search\@
.endif
.if CACTUS_SWITCH_RMCS >= 3
    lw t2, 20(t1)
    bnez t2, .Lrmcs_search\@
.endif
    j .Lrmcs_own\@
.Lrmcs_search\@:
    lla t1, port_rmcs_tmp
    sw t0, 0(t1)
    sw ra, 4(t1)
    sw sp, 8(t1)
    csrr t2, mscratch
    lbu t0, PORT_PRIO(t2)       /* the preempted task's priority: a victim is below it */
    li t1, -1
    lla sp, port_rmcs_owner
    RMCS_VICTIM \b
    RMCS_VICTIM 3
.if CACTUS_SWITCH_RMCS >= 2
    RMCS_VICTIM 4
.endif
.if CACTUS_SWITCH_RMCS >= 3
    RMCS_VICTIM 5
.endif
    lla t0, port_rmcs_tmp
    lw ra, 4(t0)
    lw sp, 8(t0)
    bltz t1, .Lrmcs_self\@
    slli t2, t1, 2                  /* steal page t1 from its holder U (owner word U | p') */
    lla t0, port_rmcs_owner
    add t2, t2, t0
    lw t0, 0(t2)
    sw zero, 0(t2)                  /* U's page p' is spilled from now on */
    andi t2, t0, 3
    addi t2, t2, -\p
    slli t2, t2, 5
    andi t0, t0, -4
    add t0, t0, t2                  /* U's context + 32 (p' - p): page \p's slots are p''s */
    lla t2, port_rmcs_tmp
    sw t0, 12(t2)
    li t2, 1
    sll t2, t2, t1
    RMCS_TAKE \p
    csrw CSR_MRFMAP, sp             /* the stolen page at \p: U's registers in view */
    lla t0, port_rmcs_tmp
    lw t1, 12(t0)
    RMCS_PAGE_STORE \p, t1
    lw t1, 20(t0)                   /* port_rmcs_stats[1]: pages stolen */
    addi t1, t1, 1
    sw t1, 20(t0)
    lw t0, 0(t0)
    j .Lrmcs_next\@
.Lrmcs_self\@:
    lw t0, 0(t0)
.Lrmcs_own\@:
    csrr t1, mscratch
    RMCS_PAGE_STORE \p, t1          /* spilled: the resume finds no held page and loads it */
    lla t1, port_rmcs_stats
    lw t2, 0(t1)                    /* port_rmcs_stats[0]: own pages spilled */
    addi t2, t2, 1
    sw t2, 0(t1)
.Lrmcs_next\@:
.endm

/* The timer preemption's save (tick.S's slow path; t0 parked in mscratch, t1 already in the
 * context). Stores t0, t2 and mepc; with a range matched (mswmatch, as ccs-hw) calls its save
 * routine (generated: stores the range's ra and sp, sets CTX_CCS, returns t0 = its live pages)
 * and holds those pages with one mrfmap write, touching nothing but page 0 until then; with 0
 * (a budget expiry, or a tick outside every range) stores every C-clobbered register as the full
 * strategy does. Leaves mscratch = the context. */
.purgem PREEMPT_SAVE
.macro PREEMPT_SAVE
    addi t1, tp, -PORT_TP           /* t1 = the interrupted task's context */
    csrr t0, mscratch
    sw t0, CTX_X(5)(t1)
    csrw mscratch, t1               /* kept for the exit: C clobbers t1 */
    sw t2, CTX_X(7)(t1)
    csrr t0, mepc
    sw t0, CTX_PC(t1)
    csrr t0, CSR_MSWMATCH
    beqz t0, .Lrmcs_full\@
    jalr t2, t0                     /* ra, sp, CTX_CCS; t0 = the live pages */
    csrr sp, CSR_MRFMAP
    lla ra, port_rmcs_free
    lw ra, 0(ra)
    RMCS_HOLD_ONE 1, 0
    RMCS_HOLD_ONE 2, 1
    RMCS_HOLD_ONE 3, 2
    csrw CSR_MRFMAP, sp
    lla t1, port_rmcs_free
    sw ra, 0(t1)
    j .Lrmcs_done\@
.Lrmcs_full\@:
    sw t3, CTX_X(28)(t1)
    sw t6, CTX_X(31)(t1)
    mv t6, t1
    CCS_SAVE_REST
.Lrmcs_done\@:
.endm

/* ---- The resume (used by the generated restore routines, switch-table.S): t2 = the context,
 * every other register scratch. RMCS_RESUME_BEGIN, one RMCS_BACK per live page, then
 * RMCS_RESUME_MAP: the held pages mapped back (the pages they replace freed), tp = the live
 * pages found spilled (bit p - 1), whose registers the routine then loads from the context. */
.macro RMCS_RESUME_BEGIN
    csrr ra, CSR_MRFMAP
    lui t0, %hi(port_rmcs_free)
    lw sp, %lo(port_rmcs_free)(t0)
    li tp, 0
.endm

/* Is page \i held for page \p by this context (t1 = context | \p)? Then t1 = \i and on to
 * \found. Clobbers t0. */
.macro RMCS_TRY i, found
    lui t0, %hi(port_rmcs_owner + 4 * \i)
    lw t0, %lo(port_rmcs_owner + 4 * \i)(t0)
    bne t0, t1, 1f
    lui t0, %hi(port_rmcs_owner + 4 * \i)
    sw zero, %lo(port_rmcs_owner + 4 * \i)(t0)
    li t1, \i
    j \found
1:
.endm

/* Page \p (\b = p - 1): its held page mapped back into ra (the mapping being built), the page
 * it replaces freed in sp (the free-page mask), or bit \b of tp set (spilled). */
.macro RMCS_BACK p, b
    ori t1, t2, \p
    RMCS_TRY \b, .Lrmcs_found\@
    RMCS_TRY 3, .Lrmcs_found\@
.if CACTUS_SWITCH_RMCS >= 2
    RMCS_TRY 4, .Lrmcs_found\@
.endif
.if CACTUS_SWITCH_RMCS >= 3
    RMCS_TRY 5, .Lrmcs_found\@
.endif
    ori tp, tp, 1 << \b
    j .Lrmcs_back\@
.Lrmcs_found\@:
    sltiu t0, t1, 3
    addi t0, t0, -1
    addi t1, t1, -2
    and t1, t1, t0                  /* the held page's MPN: 0 for a base page, else index - 2 */
    srli t0, ra, 4 * \b
    andi t0, t0, 15                 /* the MPN mapped at \p now */
    xor t1, t1, t0
    slli t1, t1, 4 * \b
    xor ra, ra, t1
    beqz t0, 1f
    addi t0, t0, 3 - \p
1:  addi t0, t0, \b                 /* the replaced page's index, freed */
    li t1, 1
    sll t1, t1, t0
    or sp, sp, t1
.Lrmcs_back\@:
.endm

.macro RMCS_RESUME_MAP
    csrw CSR_MRFMAP, ra
    lui t0, %hi(port_rmcs_free)
    sw sp, %lo(port_rmcs_free)(t0)
.endm

/* ccs's port_ccs_resume, port_rmcs_release and the page records. */
.purgem SWITCH_ROUTINES
.macro SWITCH_ROUTINES
    CCS_RESUME_ROUTINE              /* switch_ccs.h */

    /* void port_rmcs_release(struct port_context *ctx) */
    .globl port_rmcs_release
port_rmcs_release:
    lla a1, port_rmcs_owner
    lla a2, port_rmcs_free
    li a3, 1                        /* the page's bit */
    li a4, 1 << (3 + CACTUS_SWITCH_RMCS)
1:  lw a5, 0(a1)
    andi a5, a5, -4
    bne a5, a0, 2f
    sw zero, 0(a1)
    lw a5, 0(a2)
    or a5, a5, a3
    sw a5, 0(a2)
2:  addi a1, a1, 4
    slli a3, a3, 1
    bne a3, a4, 1b
    ret

    .pushsection .bss.port_rmcs, "aw", @nobits
    .balign 4
    .globl port_rmcs_owner, port_rmcs_free, port_rmcs_tmp, port_rmcs_stats
port_rmcs_owner:                    /* per physical page: holder context | its page, or 0 */
    .space 4 * (3 + CACTUS_SWITCH_RMCS)
port_rmcs_free:                     /* bit i: page i neither mapped nor held (RMCS_BOOT) */
    .space 4
port_rmcs_tmp:                      /* the preemption's scratch: pages, free, map, victim */
    .space 16
port_rmcs_stats:                    /* pages spilled: the preempted task's own, stolen (read by
                                     * cactus bench ccs; port_rmcs_tmp + 16) */
    .space 8
    .popsection
.endm
#endif

#endif
