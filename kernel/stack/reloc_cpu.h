/* The `relocate` strategy's copy and reports on any core (CACTUS_COPIER unset: QEMU builds,
 * or `kernel.copier = false`; docs/sensmart.md "The copy"). The CPU copies: every word is one
 * load and one store, so on cactus-sim's `mcu` profile (load 2 cycles, store 2) a word costs at
 * least 4 cycles; the loop's own control is paid once per 32 words (about 0.16 cycles a word
 * more). Only the copy engine (reloc_sim.h, a simulation device) reaches 1 cycle a word. The
 * reports are the kernel's trace calls (trace_sim.c on cactus-sim, nothing on QEMU). */
#ifndef CACTUS_RELOC_CPU_H
#define CACTUS_RELOC_CPU_H

#include <stdint.h>
#include "../trace/ktrace.h"

/* Eight words at word offset o, loaded before they are stored: ascending (FWD8, for a copy
 * down) or descending (BWD8, for a copy up), so that overlapping ranges copy right. */
#define FWD8(d, s, o)                                                                              \
    do {                                                                                           \
        uint32_t a = s[o], b = s[o + 1], c = s[o + 2], e = s[o + 3], f = s[o + 4],                 \
                 g = s[o + 5], h = s[o + 6], k = s[o + 7];                                         \
        d[o] = a, d[o + 1] = b, d[o + 2] = c, d[o + 3] = e, d[o + 4] = f, d[o + 5] = g,            \
        d[o + 6] = h, d[o + 7] = k;                                                                \
    } while (0)
#define BWD8(d, s, o)                                                                              \
    do {                                                                                           \
        uint32_t a = s[o + 7], b = s[o + 6], c = s[o + 5], e = s[o + 4], f = s[o + 3],             \
                 g = s[o + 2], h = s[o + 1], k = s[o];                                             \
        d[o + 7] = a, d[o + 6] = b, d[o + 5] = c, d[o + 4] = e, d[o + 3] = f, d[o + 2] = g,        \
        d[o + 1] = h, d[o] = k;                                                                    \
    } while (0)

/* Copies n bytes (a multiple of 16) from src to dst, word by word in the direction that is
 * safe for overlapping ranges: 128 bytes (32 words) per iteration, so the loop's control (two
 * pointer steps, the count and the taken branch) is paid once per 32 words; then 16-byte steps
 * for what is left. Out of line, so the growth path keeps few registers of its own. */
static __attribute__((noinline)) void reloc_copy(uint32_t dst, uint32_t src, uint32_t n)
{
    volatile uint32_t *d, *s;
    if (dst < src) {
        d = (uint32_t *)dst, s = (uint32_t *)src;
        for (; n >= 128; n -= 128, d += 32, s += 32) {
            FWD8(d, s, 0);
            FWD8(d, s, 8);
            FWD8(d, s, 16);
            FWD8(d, s, 24);
        }
        for (; n; n -= 16, d += 4, s += 4) {
            uint32_t a = s[0], b = s[1], c = s[2], e = s[3];
            d[0] = a, d[1] = b, d[2] = c, d[3] = e;
        }
    } else if (dst > src) {
        d = (uint32_t *)(dst + n), s = (uint32_t *)(src + n);
        for (; n >= 128; n -= 128) {
            d -= 32, s -= 32;
            BWD8(d, s, 24);
            BWD8(d, s, 16);
            BWD8(d, s, 8);
            BWD8(d, s, 0);
        }
        for (; n; n -= 16) {
            d -= 4, s -= 4;
            uint32_t a = s[3], b = s[2], c = s[1], e = s[0];
            d[3] = a, d[2] = b, d[1] = c, d[0] = e;
        }
    }
}

static inline void reloc_bracket_enter(void)
{
    ktrace_kernel_enter();
}
static inline void reloc_bracket_leave(void)
{
    ktrace_kernel_leave();
}
static inline void reloc_assign(uint32_t base, uint32_t size, uint32_t owner)
{
    ktrace_region_assign(base, size, owner);
}
static inline void reloc_release(uint32_t base, uint32_t size)
{
    ktrace_region_release(base, size);
}
static inline void reloc_overflow(uint32_t id, uint32_t sp, uint32_t need)
{
    ktrace_overflow(id, sp, need, 3); /* 3: grown, as mtss reports */
}

#endif
