/* The software stack window (docs/sensmart.md, "The software variant"): the translation
 * backend of the `relocate` strategy on any RV32 core (QEMU too). Task code is built with
 * `cactus cc --logical-stack` (crates/cc/src/logical.rs): a task's sp stays *physical*, every
 * stack address that leaves sp is converted to its logical form (in the aperture
 * [PORT_WINDOW_BASE, PORT_WINDOW_TOP), the task's stack ending at PORT_WINDOW_TOP, as with the
 * hardware window), and every access through another base translates an aperture address
 * with the running code's displacement and checks it against its physical bound.
 *
 * The pass reads both from the running code's own context, through tp: the displacement is
 * the TCB word PORT_STACK_DISP (tp + PORT_STACK_DISP - PORT_TP = tp + 32), the physical bound
 * the stack descriptor's limit (tp - 4, the word the stack checks compare sp with). So nothing
 * is copied on a switch (STACK_WINDOW_FROM is empty) and kernel code or an interrupt handler
 * (tp = the kernel's descriptor, whose displacement word is 0) converts its own stack addresses
 * to themselves. A task's descriptor limit is therefore its region's base (physical), its
 * logical bound limit - disp.
 *
 * A move of a task's stack (relocate.c) must fix what the task holds physically: its saved sp,
 * and, when it was stopped inside a sequence of the pass, what the `cactus_lstack` records of
 * that pc say: a kind-0 record restarts the sequence (it only wrote dead registers), a kind-1
 * record names a register holding a translated (physical) address of the task's stack, which
 * moves with it when its value lies in the moved region. Those registers are caller-saved ones
 * (t0-t6, a0-a7), which every kernel entry saves and restores. */
#ifndef CACTUS_WINDOW_SW_H
#define CACTUS_WINDOW_SW_H

#define MCAUSE_STACK_WINDOW 25 /* never raised: no hardware window */
#define PORT_WINDOW_BASE 0x60000000u
#define PORT_WINDOW_TOP 0x70000000u
/* Offsets from tp the pass's code reads (crates/cc/src/logical.rs DISP_OFFSET, LIMIT_OFFSET). */
#define PORT_WINDOW_DISP_FROM_TP (PORT_STACK_DISP - PORT_TP)

#ifdef __ASSEMBLER__
/* Nothing to write on a resume: the code reads the resumed context's own words. */
.macro STACK_WINDOW_FROM r, off, base
.endm
#else
#include <stdint.h>
#include <stddef.h>

_Static_assert(PORT_STACK_DISP - PORT_TP == 32, "logical.rs reads the displacement at tp + 32");

/* The running task's words are its TCB's: nothing to write. */
static inline void port_window_set(uint32_t bound, uint32_t disp)
{
    (void)bound, (void)disp;
}
#define PORT_WINDOW_SOFTWARE 1
/* The descriptor's limit is the physical bound (sp is physical). */
#define PORT_WINDOW_LIMIT(bound, disp) ((bound) + (disp))
#define PORT_WINDOW_BOUND(limit, disp) ((limit) - (disp))
#define PORT_WINDOW_SP(logical, disp) ((logical) + (disp))
#define PORT_WINDOW_SP_LOGICAL(sp, disp) ((sp) - (disp))

/* A record of the pass's `cactus_lstack` section (logical.rs KIND_RESTART, KIND_PHYSICAL). */
struct port_lstack_record {
    uint32_t start, end, what, kind;
};
extern const struct port_lstack_record __start_cactus_lstack[] __attribute__((weak));
extern const struct port_lstack_record __stop_cactus_lstack[] __attribute__((weak));

/* Whether the records are sorted by start, and their longest range (port_window_init, at
 * start-up: a firmware `cactus build` links has them sorted, crates/firmware/src/lstack_sort.rs);
 * 0: not sorted, every record is read. */
extern uint32_t port_lstack_span;
/* Checks the records' order and measures their longest range (window_sw.c). */
void port_window_init(void);

/* The first record in [r, e) (sorted by start) whose start is above key. */
static inline const struct port_lstack_record *
port_lstack_above(const struct port_lstack_record *r, const struct port_lstack_record *e,
                  uint32_t key)
{
    while (r < e) {
        const struct port_lstack_record *m = r + (e - r) / 2;
        if (m->start <= key)
            r = m + 1;
        else
            e = m;
    }
    return r;
}

/* Task context c's stack moved by delta bytes; [lo, hi) is where it was (physical). Adjusts
 * the saved sp, every register a kind-1 record names at the saved pc whose value lies in
 * [lo, hi), and restarts the sequence a kind-0 record names there. A voluntary context
 * (pc == 0: a kernel call) holds no translated address (no sequence spans a call). With the
 * records sorted, only those starting in (pc - span, pc] can hold pc: a binary search finds
 * the last of them, O(log records), and they lie right before it. */
static inline void port_window_moved(struct port_context *c, int32_t delta, uint32_t lo,
                                     uint32_t hi)
{
    c->sp += (uint32_t)delta;
    uint32_t pc = c->pc, restart = 0;
    if (!pc)
        return;
    const struct port_lstack_record *r = __start_cactus_lstack, *e = __stop_cactus_lstack;
    uint32_t span = port_lstack_span;
    if (span) {
        const struct port_lstack_record *first = r;
        r = e = port_lstack_above(r, e, pc); /* every record from e on starts above pc */
        while (r > first && pc - r[-1].start < span)
            r--;
    }
    for (; r < e; r++) {
        if (pc < r->start || pc >= r->end)
            continue;
        if (r->kind == 0) {
            restart = r->what;
        } else if (r->what >= 5 && r->what <= 31) {
            uint32_t *x = &((uint32_t *)c)[r->what - 3]; /* CTX_X(n) */
            if (*x >= lo && *x < hi)
                *x += (uint32_t)delta;
        }
    }
    if (restart)
        c->pc = restart;
}

/* Kernel code running in the task's own context (a fast path with interrupts masked) about to
 * use p, a pointer the task gave: the physical address for a logical one, p for any other;
 * NULL when p lies below the task's bound (the caller takes its kernel-call path, whose
 * stack_task_ptr grows the stack). Only valid until interrupts are enabled again. */
static inline void *port_window_task_ptr(void *p)
{
    uintptr_t a = (uintptr_t)p, tp;
    if (a - PORT_WINDOW_BASE >= PORT_WINDOW_TOP - PORT_WINDOW_BASE)
        return p;
    __asm__ volatile("mv %0, tp" : "=r"(tp));
    a += *(const uint32_t *)(tp + PORT_WINDOW_DISP_FROM_TP);
    return a < *(const uint32_t *)(tp - 4) ? NULL : (void *)a;
}
/* Whether a pointer port_window_task_ptr gave may be used here (NULL: below the bound). */
#define port_window_ptr_usable(p) ((p) != NULL)
#endif

#endif
