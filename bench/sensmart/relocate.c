/* The relocation firmware of `cactus bench sensmart` (docs/sensmart.md): one task under the
 * `relocate` strategy (hardware stack window, or the software one: `--window sw`, the store
 * then goes through the logical-stack pass's translation and its slow path) whose region is
 * the pool's lowest, with the free
 * tail above it as the only donor, so a relocation moves exactly the task's live stack. For
 * each size n the task runs a probe with sp = the logical top - n + 16 (the live stack the
 * kernel sees is every byte from 16 below sp up: n bytes, all moved) and stores one word below its window's bound: the
 * store traps, the kernel grows the stack (moves n bytes) and the store is re-executed. The
 * probe reads mcycle right before and after the store, with interrupts masked (no tick in
 * between); the same probe with a store above the bound is the baseline subtracted.
 * Markers (host side: crates/bench/src/sensmart/relocate.rs): 2k+100 = bytes moved (from
 * cactus_relocate_stats), 2k+101 = cycles of relocation k; 99 = the number of sizes. */
#include "cactus/cactus.h"
#include "cactus/relocate.h"
#include "cactus/trace.h"

#define WINDOW_BASE 0x60000000u
#define WINDOW_TOP 0x70000000u

static const uint32_t sizes[] = { 256, 512, 1024, 2048, 4096 };

/* Cycles of one store to `addr` run with sp = sp_value (sp restored after). Under the
 * software window the logical-stack pass converts this code too: `mv saved, sp` to the
 * logical sp, each `mv sp, x` adds the displacement back (read afresh after the move) and the
 * store is translated, its slow path growing the stack. */
static uint32_t __attribute__((noinline)) probe(uint32_t sp_value, uint32_t addr)
{
    uint32_t before, after, saved;
    __asm__ volatile("mv %[saved], sp\n\t"
                     "mv sp, %[spv]\n\t"
                     "csrr %[before], mcycle\n\t"
                     "sw zero, 0(%[addr])\n\t"
                     "csrr %[after], mcycle\n\t"
                     "mv sp, %[saved]"
                     : [saved] "=&r"(saved), [before] "=&r"(before), [after] "=&r"(after)
                     : [spv] "r"(sp_value), [addr] "r"(addr)
                     : "memory");
    return after - before;
}

/* The task's logical bound: the descriptor's limit under the hardware window; under the
 * software one the limit is physical (sp is), so less the displacement (the TCB word at
 * tp + 32, PORT_STACK_DISP). */
static uint32_t bound(void)
{
    uint32_t limit, disp;
    __asm__ volatile("lw %0, -4(tp)\n\tlw %1, 32(tp)" : "=r"(limit), "=r"(disp));
    return limit - WINDOW_BASE < WINDOW_TOP - WINDOW_BASE ? limit : limit - disp;
}

void reloc_main(void *arg)
{
    (void)arg;
    uint32_t n_sizes = sizeof(sizes) / sizeof(sizes[0]);
    for (uint32_t k = 0; k < n_sizes; k++) {
        /* The kernel moves the live stack from 16 bytes below the saved sp (a preempt-traps
         * spill may sit at sp - 4, docs/sensmart.md): n bytes in all. */
        uint32_t sp_value = WINDOW_TOP - sizes[k] + 16u;
        cactus_relocate_counts before, after;
        uint32_t irq = cactus_irq_save();
        uint32_t base = probe(sp_value, sp_value - 16u); /* free stack above the bound */
        cactus_relocate_stats(&before);
        uint32_t cycles = probe(sp_value, bound() - 16u);
        cactus_relocate_stats(&after);
        cactus_irq_restore(irq);
        if (after.relocations != before.relocations + 1)
            cactus_exit(2);
        cactus_trace_marker(100 + 2 * k, after.bytes_moved - before.bytes_moved);
        cactus_trace_marker(101 + 2 * k, cycles - base);
    }
    cactus_trace_marker(99, n_sizes);
    cactus_exit(0);
}
