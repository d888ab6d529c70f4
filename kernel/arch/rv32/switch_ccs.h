/* The ccs-sw switch strategy (kernel.switch = "ccs-sw"; docs/ccs.md "ccs-sw in the kernel"):
 * the same hooks as switch_full.h, for a kernel built with CACTUS_SWITCH_CCS. A timer
 * preemption looks the preempted pc up in the firmware's switch table (.cactus.switch, made by
 * the build over the tasks' code and sorted by start: 16-byte records start, end (exclusive),
 * save routine, range id) through its bucket index (__cactus_switch_index, see PREEMPT_SAVE). Inside a range it stores only that range's live registers (its
 * save routine, which also keeps the range's restore routine in the context's CTX_CCS word);
 * the resume then restores only those (and, in poison mode, fills every other register with
 * garbage). Outside every range it saves like the full strategy. Assembly only; include after
 * port.h, bound.h and window.h. */
#ifndef CACTUS_SWITCH_CCS_H
#define CACTUS_SWITCH_CCS_H

/* The restore routine of a partially saved context, or 0 (a full or voluntary context): the
 * save routines (generated, switch-table.S of the build) set it. The
 * word is CTX_PREEMPT's, which only counted-branch preemption uses (kernel.preempt_traps: the
 * manifest refuses both together); port_context_init leaves it 0 without that pass, and every
 * partial resume clears it. */
#define CTX_CCS CTX_PREEMPT

#ifdef __ASSEMBLER__
/* The full save's registers that a timer preemption outside every switch range stores after
 * t0-t3, t6 and mepc (the context in t6; s0-s11 follow lazily in the exit): ccs-sw's and
 * ccs-hw's fallback. */
.macro CCS_SAVE_REST
    sw ra, CTX_RA(t6)
    sw sp, CTX_SP(t6)
    sw a0, CTX_X(10)(t6)
    sw a1, CTX_X(11)(t6)
    sw a2, CTX_X(12)(t6)
    sw a3, CTX_X(13)(t6)
    sw a4, CTX_X(14)(t6)
    sw a5, CTX_X(15)(t6)
    sw a6, CTX_X(16)(t6)
    sw a7, CTX_X(17)(t6)
    sw t4, CTX_X(29)(t6)
    sw t5, CTX_X(30)(t6)
.endm

/* The timer preemption's save (tick.S's slow path): t0 parked in mscratch, t1 already in the
 * context. Stores the lookup's scratch registers (t0, t1, t2, t3, t6: a save routine never
 * stores them) and mepc, then looks mepc up through the bucket index: O(1) to the bucket, then
 * a scan of the few records that overlap it. Leaves mscratch = the
 * context and either the range's live registers stored and CTX_CCS = its restore routine, or
 * every C-clobbered register stored (s0-s11 follow lazily in the exit, as in the full
 * strategy). */
.macro PREEMPT_SAVE
    addi t1, tp, -PORT_TP           /* t1 = the interrupted task's context */
    csrr t0, mscratch
    sw t0, CTX_X(5)(t1)
    csrw mscratch, t1               /* kept for the exit: C clobbers t1 */
    sw t2, CTX_X(7)(t1)
    sw t3, CTX_X(28)(t1)
    sw t6, CTX_X(31)(t1)
    csrr t0, mepc
    sw t0, CTX_PC(t1)
    /* The bucket index (__cactus_switch_index, filled by the build after linking: base,
     * shift, bucket count, then per bucket the first record that ends after the bucket's
     * start): the records that may hold t0 start at its bucket's first and are sorted, so the
     * scan stops at the first record that starts after t0. A pc below base wraps to a large
     * bucket, past the count: a full save. */
    lla t1, __cactus_switch_index
    lw t2, 0(t1)
    lw t3, 4(t1)
    sub t2, t0, t2
    srl t2, t2, t3                  /* the bucket */
    lw t3, 8(t1)
    addi t6, tp, -PORT_TP           /* t6 = the context (the routines' base) */
    bgeu t2, t3, .Lccs_full\@       /* outside the indexed span */
    slli t2, t2, 1
    add t2, t2, t1
    lhu t2, 12(t2)                  /* the bucket's first record */
    slli t2, t2, 4
    lla t1, __cactus_switch_start
    add t1, t1, t2
    lla t3, __cactus_switch_end
.Lccs_scan\@:
    beq t1, t3, .Lccs_full\@        /* past the last record */
    lw t2, 0(t1)
    bltu t0, t2, .Lccs_full\@       /* starts after t0: no record holds it */
    lw t2, 4(t1)
    bltu t0, t2, .Lccs_hit\@
    addi t1, t1, 16
    j .Lccs_scan\@
.Lccs_hit\@:
    lw t3, 8(t1)
    jalr t2, t3                     /* stores the range's live registers and CTX_CCS */
    j .Lccs_done\@
.Lccs_full\@:
    CCS_SAVE_REST
.Lccs_done\@:
.endm

/* In the trap exit, before s0-s11 of the context left (t6) are stored: a partial save stored
 * the live ones already, so the exit skips to \done. Clobbers t0. */
.macro SKIP_LAZY_SAVE done
    lw t0, CTX_CCS(t6)
    bnez t0, \done
.endm

/* Where a trap context (t6, its pc in t0) is resumed: a partial one through its restore
 * routine. Clobbers t1. */
.macro RESUME_PARTIAL
    lw t1, CTX_CCS(t6)
    bnez t1, port_ccs_resume
.endm

/* port_ccs_resume: t6 = a partially saved context, t0 = its pc, t1 = its restore routine;
 * interrupts masked. Clears the context's pc and CTX_CCS (running again), prepares mret and the
 * stack bound and window as the full restore does, and jumps to the routine, which loads the
 * saved registers, sets tp and leaves through mret. */
.macro CCS_RESUME_ROUTINE
    .globl port_ccs_resume
port_ccs_resume:
    csrw mepc, t0
    sw zero, CTX_PC(t6)
    sw zero, CTX_CCS(t6)
    li t0, MSTATUS_MPP_M | MSTATUS_MPIE
    csrs mstatus, t0
    STACK_BOUND_FROM t0, PORT_TP - 4, t6
    STACK_WINDOW_FROM t0, PORT_TP - 4, t6
    jr t1
.endm
.macro SWITCH_ROUTINES
    CCS_RESUME_ROUTINE
.endm
#endif

#endif
