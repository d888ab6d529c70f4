/* The `relocate` strategy's copy and reports on cactus-sim's devices (CACTUS_COPIER=1:
 * manifest `kernel.copier`, on by default for target = "sim"; docs/sensmart.md "The copy").
 *
 * The copy engine is a *simulation* device of the stack-window extension
 * (crates/sim/src/devices/copier.rs, docs/simulator-design.md "Stack-window extension"), as the
 * trace device is: no real core has it, so QEMU builds take reloc_cpu.h. Registers SRC, DST,
 * WORDS, GO at RELOC_COPIER_BASE: writing GO moves WORDS words as memmove does, stalling the
 * hart one cycle a word, and reading GO back gives the words moved (all ones: refused, nothing
 * written). The ownership oracle sees the destination words as the kernel's stores (inside
 * the store bracket).
 *
 * A kernel with the engine runs on cactus-sim only, whose trace device is always there: its
 * reports are the trace device's writes inline (cactus/trace.h, what trace_sim.c's ktrace_*
 * calls do), without the calls. */
#ifndef CACTUS_RELOC_SIM_H
#define CACTUS_RELOC_SIM_H

#include <stdint.h>
#include "cactus/trace.h"

#define RELOC_COPIER_BASE 0x0E001000u

/* Moves n bytes (a multiple of 16) from src to dst, overlapping ranges as memmove does. */
static inline void reloc_copy(uint32_t dst, uint32_t src, uint32_t n)
{
    volatile uint32_t *r = (volatile uint32_t *)RELOC_COPIER_BASE;
    r[0] = src;
    r[1] = dst;
    r[2] = n / 4u;
    r[3] = 1u;
    if (r[3] != n / 4u)
        k_panic("relocate: the copy engine refused a copy (is the stack-window extension on?)");
}

/* The kernel store bracket around the copy (the oracle's KERNEL_ENTER / KERNEL_LEAVE). */
static inline void reloc_bracket_enter(void)
{
    cactus_trace_kernel_enter();
}
static inline void reloc_bracket_leave(void)
{
    cactus_trace_kernel_leave();
}
/* Region reports (REGION_ASSIGN / REGION_RELEASE) and the growth's OVERFLOW event. */
static inline void reloc_assign(uint32_t base, uint32_t size, uint32_t owner)
{
    cactus_trace_region_assign(base, size, owner);
}
static inline void reloc_release(uint32_t base, uint32_t size)
{
    cactus_trace_region_release(base, size);
}
static inline void reloc_overflow(uint32_t id, uint32_t sp, uint32_t need)
{
    cactus_trace_overflow(id, sp, need, 3); /* 3: grown, as mtss reports */
}

#endif
