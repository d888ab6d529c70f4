/* The `relocate` strategy's copy with cactus-sim's copy engine (CACTUS_COPIER=1, manifest
 * `kernel.copier`, on by default for target = "sim"; docs/sensmart.md "The copy"). The engine
 * is a *simulation* device of the stack-window extension (crates/sim/src/devices/copier.rs,
 * docs/simulator-design.md "Stack-window extension"), like the trace device: no real core has
 * it, so QEMU builds take reloc_copy_cpu.h. Registers SRC, DST, WORDS, GO at
 * RELOC_COPIER_BASE: writing GO moves WORDS words as memmove does, stalling the hart one cycle
 * a word, and reading GO back gives the words moved (all ones: refused, nothing written).
 * The ownership oracle sees the destination words as the kernel's stores (the caller's store
 * bracket). */
#ifndef CACTUS_RELOC_COPY_ENGINE_H
#define CACTUS_RELOC_COPY_ENGINE_H

#include <stdint.h>

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

#endif
