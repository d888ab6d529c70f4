/* The full-save switch strategy (kernel.switch = "full", the default; docs/kernel.md "Switch
 * cost"): the hooks the trap paths (tick.S, trap.S) call, for a kernel built without
 * CACTUS_SWITCH_CCS. Every timer preemption stores what C code may clobber at entry and s0-s11
 * lazily when another task is resumed; every resume restores the whole context. The ccs-sw
 * strategy (switch_ccs.h) provides the same macros. Assembly only; include after port.h. */
#ifndef CACTUS_SWITCH_FULL_H
#define CACTUS_SWITCH_FULL_H

#ifdef __ASSEMBLER__
/* The timer preemption's save (tick.S's slow path): t0 parked in mscratch, t1 already in the
 * context. Leaves mscratch = the context, every C-clobbered register and mepc stored. */
.macro PREEMPT_SAVE
    addi t1, tp, -PORT_TP           /* t1 = the interrupted task's context */
    csrr t0, mscratch
    sw t0, CTX_X(5)(t1)
    csrw mscratch, t1               /* kept for the exit: C clobbers t1 */
    SAVE_C_CLOBBERED t1
    sw t6, CTX_X(31)(t1)
    csrr t0, mepc
    sw t0, CTX_PC(t1)
.endm

/* In the trap exit, before s0-s11 of the context left (t6) are stored: nothing to skip. */
.macro SKIP_LAZY_SAVE done
.endm

/* Where a trap context (t6, its pc in t0) is resumed: always the full restore that follows. */
.macro RESUME_PARTIAL
.endm

/* Routines of the strategy (trap.S places them): none. */
.macro SWITCH_ROUTINES
.endm
#endif

#endif
