/* The ccs-hw switch strategy (kernel.switch = "ccs-hw"; docs/ccs.md "ccs-hw"): ccs-sw's switch
 * table, save and restore routines and partial resume (switch_ccs.h, whose SKIP_LAZY_SAVE,
 * RESUME_PARTIAL and SWITCH_ROUTINES it keeps), on cactus-sim's switch registers
 * (docs/simulator-design.md, "Switch-register extension"). The boot code (crt0.S) loads the
 * registers with the firmware's table and arms the deferral with CACTUS_SWITCH_BUDGET cycles:
 * a pending timer interrupt then waits until the task's pc is inside a switch range (or the
 * budget has passed), and the trap entry leaves the range's save routine in the CSR mswmatch
 * (0: no range). The timer preemption reads it instead of searching the table. Device and
 * software interrupts are not deferred. For a kernel built with CACTUS_SWITCH_CCS and
 * CACTUS_SWITCH_CCS_HW; assembly only; include after port.h, bound.h and window.h. */
#ifndef CACTUS_SWITCH_CCS_HW_H
#define CACTUS_SWITCH_CCS_HW_H

#include "switch_ccs.h"

/* The switch registers' CSRs (crates/sim/src/hart/switchregs.rs). */
#define CSR_MSWTAB 0x7CB    /* the table's address */
#define CSR_MSWCOUNT 0x7CC  /* a write of n loads n 16-byte records from mswtab */
#define CSR_MSWBUDGET 0x7CD /* the deferral budget in cycles (0: none) */
#define CSR_MSWMATCH 0xFC8  /* read-only: the matched range's save routine, or 0 */

#ifndef CACTUS_SWITCH_BUDGET
#error "a ccs-hw kernel needs CACTUS_SWITCH_BUDGET (kernel.switch_budget)"
#endif

#ifdef __ASSEMBLER__
/* At boot (crt0.S, after mtvec is set): the switch registers get the firmware's table
 * (__cactus_switch_start..__cactus_switch_end, sorted by the build) and the budget. A core
 * without the extension raises an illegal instruction at the first write, a malformed table
 * the switch-table exception (cause 26): either is a kernel fault naming the pc. Clobbers t0,
 * t1. */
.macro CCS_HW_BOOT
    la t0, __cactus_switch_start
    la t1, __cactus_switch_end
    csrw CSR_MSWTAB, t0
    sub t1, t1, t0
    srli t1, t1, 4
    csrw CSR_MSWCOUNT, t1
    li t0, CACTUS_SWITCH_BUDGET
    csrw CSR_MSWBUDGET, t0
.endm

/* The timer preemption's save (tick.S's slow path), as ccs-sw's with the lookup replaced by
 * the hardware's match: stores t0, t1, t2, t3, t6 and mepc, then calls the save routine in
 * mswmatch (the range's live registers and CTX_CCS) or, with 0 there, stores every
 * C-clobbered register (s0-s11 follow lazily in the exit, as in the full strategy). Leaves
 * mscratch = the context. mswmatch stays valid: nothing traps between the timer's trap entry
 * and here (interrupts are masked and the tick path raises no exception). */
.purgem PREEMPT_SAVE
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
    mv t6, t1                       /* the routines' base */
    csrr t3, CSR_MSWMATCH
    beqz t3, .Lccshw_full\@
    jalr t2, t3                     /* stores the range's live registers and CTX_CCS */
    j .Lccshw_done\@
.Lccshw_full\@:
    CCS_SAVE_REST
.Lccshw_done\@:
.endm
#endif

#endif
