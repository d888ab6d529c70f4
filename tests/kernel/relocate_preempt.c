/* The software stack window's preemption fix-up (docs/sensmart.md, "The software variant";
 * kernel/arch/rv32/window_sw.h): `v` spends nearly all its time in straight-line runs of
 * accesses through a pointer to its own stack, which the logical-stack pass translates once
 * per run (a group: the physical address lives in a scratch register until the run ends).
 * Three growers below it (regions [g0][g1][g2][v][free] in a 12 KiB pool) recurse a little
 * deeper every time they run; each growth takes room from the free region above `v`, so `v`'s
 * stack moves up while `v` is preempted (1-tick round-robin slices, all at one priority) - as
 * often as not inside a run. The kernel must adjust the scratch register of the run `v` was
 * stopped in (the pass's `cactus_lstack` records): without the records `v` resumes with a
 * stale physical address, its writes land in the region a grower now owns (the oracle flags
 * them) and its buffer no longer matches the shadow copy it keeps in globals. With them every
 * word matches, the growers' frames survive, and the stacks moved several times. */
#include "ktest.h"
#include "cactus/relocate.h"

const char ktest_name[] = "relocate_preempt";

#define WORDS 32
#define DEPTH 64

static volatile uint32_t growers_done;
static uint32_t shadow[WORDS];

/* One run of 32 loads and 32 stores through p: one translation. */
static void __attribute__((noinline)) churn(uint32_t *p, uint32_t seed)
{
#pragma GCC unroll 32
    for (int i = 0; i < WORDS; i++)
        p[i] = p[i] * 1103515245u + seed + (uint32_t)i;
}

static int __attribute__((noinline)) same(const uint32_t *a, const uint32_t *b)
{
    uint32_t diff = 0;
#pragma GCC unroll 32
    for (int i = 0; i < WORDS; i++)
        diff |= a[i] ^ b[i];
    return diff == 0;
}

static void v(void *arg)
{
    (void)arg;
    uint32_t buf[WORDS];
    for (int i = 0; i < WORDS; i++)
        buf[i] = shadow[i] = 0x1234u * (uint32_t)i;
    uint32_t seed = 1;
    while (growers_done < 3) {
        churn(buf, seed);
        churn(shadow, seed);
        CHECK(same(buf, shadow));
        seed++;
    }
    cactus_relocate_counts c;
    cactus_relocate_stats(&c);
    CHECK(c.relocations >= 5);
    CHECK_EQ(c.refusals, 0);
    CHECK(same(buf, shadow));
    ktest_pass();
}

/* About 64 bytes per level, checked on the way back; a yield at every level, so the grower is
 * switched out deep in its recursion (its surplus stays small and the free region above `v`
 * stays the best donor: every growth moves `v`'s stack). */
static uint32_t __attribute__((noinline)) descend(uint32_t level)
{
    volatile uint32_t mine[8];
    for (int i = 0; i < 8; i++)
        mine[i] = level * 8u + (uint32_t)i;
    cactus_yield(); /* v runs a whole slice and is preempted wherever it is */
    uint32_t below = level ? descend(level - 1) : 0;
    uint32_t sum = 0;
    for (int i = 0; i < 8; i++) {
        CHECK_EQ(mine[i], level * 8u + (uint32_t)i);
        sum += mine[i];
    }
    return below + sum;
}

static void grower(void *arg)
{
    uint32_t depth = (uint32_t)(uintptr_t)arg, want = 0;
    for (uint32_t l = 0; l <= depth; l++)
        for (uint32_t i = 0; i < 8; i++)
            want += l * 8u + i;
    CHECK_EQ(descend(depth), want);
    uint32_t irq = cactus_irq_save();
    growers_done++;
    cactus_irq_restore(irq);
}

static const cactus_task_desc tasks[] = {
    { .name = "g0", .entry = grower, .arg = (void *)DEPTH, .stack_size = 512, .prio = 3 },
    { .name = "g1", .entry = grower, .arg = (void *)DEPTH, .stack_size = 512, .prio = 3 },
    { .name = "g2", .entry = grower, .arg = (void *)DEPTH, .stack_size = 512, .prio = 3 },
    { .name = "v", .entry = v, .stack_size = 512, .prio = 3 },
};

int main(void)
{
    ktest_start(tasks, 4);
}
