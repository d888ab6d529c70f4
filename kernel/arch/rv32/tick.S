/* The machine timer interrupt, for RV32 M-mode: the tick fast path, reached through vector 7
 * of port_vectors (trap.S).
 *
 * Most ticks change nothing but time: no deadline falls due and the running task either is
 * alone at its priority level or has slice left. Such a tick is handled here with two scratch
 * registers (t0 parked in mscratch, t1 in the task's context), no stack and no C: it programs
 * the next tick (mtimecmp low word; the high word too when the low one carries), counts the
 * tick, and returns with mret. Only when a deadline is due at the new tick, or the running
 * task shares its level and its slice is used up, does it save the rest of the interrupted
 * registers like the general entry (trap.S) and call the core (k_tick_due() or
 * k_tick_slice_end()) on the kernel stack, leaving through the general exit (port_trap_exit), which stores s0-s11 only if
 * another task is resumed.
 *
 * The core state it reads is named in port.h (the tick fast-path contract) and checked in
 * core/k.h and core/time.c. Interrupts are only enabled in task code, so tp is always a task's
 * descriptor here and mscratch is free: the trap entry and port_syscall use it only with
 * interrupts masked. The fast path never touches sp, so the hardware stack bound (bound.h)
 * needs no update on it. */
#include "port.h"
#include "bound.h"
#include "entry.h"

#define CLINT_MTIMECMP 0x02004000
#define X(n) (CTX_X(n) - PORT_TP) /* offset of xn's slot from tp */

    .section .text.port, "ax"

    .globl port_tick_entry
port_tick_entry:
    CFI_TRAP_START
    csrw mscratch, t0
    sw t1, X(6)(tp)
    /* The next tick: mtime of this one plus the period, low word first. */
    lui t0, %hi(k_next_tick_lo)
    lw t0, %lo(k_next_tick_lo)(t0)
    lui t1, %hi(k_tick_period)
    lw t1, %lo(k_tick_period)(t1)
    add t0, t0, t1
    bltu t0, t1, tick_carry
    lui t1, %hi(k_next_tick_lo)
    sw t0, %lo(k_next_tick_lo)(t1)
    lui t1, %hi(CLINT_MTIMECMP)
    sw t0, %lo(CLINT_MTIMECMP)(t1)
tick_count:
    lui t0, %hi(k_tick)
    lw t0, %lo(k_tick)(t0)
    addi t0, t0, 1
    lui t1, %hi(k_tick)
    sw t0, %lo(k_tick)(t1)
    /* A deadline due at the new tick (deadline - now <= 0, modulo 2^32)? */
    lui t1, %hi(k_timers)
    lw t1, %lo(k_timers)(t1)
    beqz t1, 1f
    lw t1, PORT_TIMER_DEADLINE(t1)
    sub t1, t1, t0
    blez t1, tick_due
1:  /* Alone at its level: no slice to count. */
    lw t0, PORT_LINK - PORT_TP(tp)
.if PORT_LINK == PORT_TP
    bne t0, tp, tick_shared
.else
    addi t1, tp, PORT_LINK - PORT_TP
    bne t0, t1, tick_shared
.endif
tick_return:
    lw t1, X(6)(tp)
    csrr t0, mscratch
    mret

/* The running task shares its level: count its slice (the count is stored only when the slice
 * goes on; at its end k_tick_slice_end resets it). */
tick_shared:
    lui t0, %hi(k_slice_used)
    lw t0, %lo(k_slice_used)(t0)
    lui t1, %hi(k_slice_ticks)
    lw t1, %lo(k_slice_ticks)(t1)
    addi t0, t0, 1
    bgeu t0, t1, tick_slice_end
    lui t1, %hi(k_slice_used)
    sw t0, %lo(k_slice_used)(t1)
    j tick_return

/* The low word carried (once every 2^32 mtime units): t0 = the new low word. Writing the
 * high word first is safe because the compare value only grows: in between it is later than
 * both the old and the new value, so no interrupt is raised early. */
tick_carry:
    lui t1, %hi(k_next_tick_lo)
    sw t0, %lo(k_next_tick_lo)(t1)
    sw t2, X(7)(tp)
    lui t1, %hi(k_next_tick_hi)
    lw t2, %lo(k_next_tick_hi)(t1)
    addi t2, t2, 1
    sw t2, %lo(k_next_tick_hi)(t1)
    lui t1, %hi(CLINT_MTIMECMP)
    sw t2, %lo(CLINT_MTIMECMP + 4)(t1)
    sw t0, %lo(CLINT_MTIMECMP)(t1)
    lw t2, X(7)(tp)
    j tick_count

/* Saves the interrupted code (the switch strategy's PREEMPT_SAVE: like the general entry,
 * trap.S, with the full strategy; only the live registers inside a ccs-sw range), calls the core function
 * \fn on the kernel stack and leaves through the general exit. t1 is already in the context,
 * t0 in mscratch. */
.macro TICK_TO_CORE fn
    .cfi_remember_state
    PREEMPT_SAVE                    /* the switch strategy's (entry.h) */
    CFI_TRAPPED_FROM_CONTEXT
    ENTER_KERNEL_STACK t0
    call \fn
    j port_trap_exit
    .cfi_restore_state
.endm

/* A deadline is due: the core wakes its task. */
tick_due:
    TICK_TO_CORE k_tick_due

/* The running task shares its level and its slice is used up (no deadline is due): the core
 * rotates the level. */
tick_slice_end:
    TICK_TO_CORE k_tick_slice_end
    .cfi_endproc

/* ---- Stack depths for the static stack analysis (docs/stack-analysis.md) ------------------
 * The fast path stores nothing below sp; the slow part stores the interrupted registers into
 * the task's context and switches to the kernel stack before it calls anything. tick_due and
 * tick_slice_end are labels the fast path branches to, so the analysis takes them as
 * functions of their own (each ends in that switch). */
    .pushsection .cactus.stack_depth, "", @progbits
    .asciz "port_tick_entry 0"
    .asciz "tick_due 0"
    .asciz "tick_slice_end 0"
    .popsection
