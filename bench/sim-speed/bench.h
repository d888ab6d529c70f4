/* Shared helpers for the sim-speed benchmarks: a deterministic LCG, and the
 * result printer. Each benchmark runs ITERS rounds of its kernel (the
 * default gives about 10^9 dynamic instructions; the Makefile builds a
 * -small variant with about 10^6), prints "NAME iters=N checksum=0x........"
 * and exits 0. Nothing printed depends on time.
 *
 * Build with -DREPORT_INSTRET to also print minstret at the end: only for
 * measuring instruction counts under `qemu-system-riscv32 -icount shift=0`
 * (that line is not deterministic across simulators with other counters). */
#ifndef CACTUS_BENCH_H
#define CACTUS_BENCH_H

#include "rt.h"

static inline uint32_t bench_lcg(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state;
}

static inline int bench_finish(const char *name, uint32_t iters, uint32_t checksum)
{
    rt_puts(name);
    rt_puts(" iters=");
    rt_putu(iters);
    rt_puts(" checksum=");
    rt_puthex(checksum);
    rt_putc('\n');
#ifdef REPORT_INSTRET
    uint32_t lo = csr_read(minstret), hi = csr_read(minstreth);
    rt_puts("instret=");
    rt_puthex64(((uint64_t)hi << 32) | lo);
    rt_putc('\n');
#endif
    return 0;
}

#endif
