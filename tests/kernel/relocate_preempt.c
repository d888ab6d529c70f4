/* The software stack window's preemption fix-up (docs/sensmart.md, "The software variant";
 * kernel/arch/rv32/window_sw.h), independent of timing. `v` runs straight-line runs of
 * accesses through a pointer to its own stack, which the logical-stack pass translates once
 * per run (a group: the physical address lives in a scratch register until the run ends). In
 * the middle of each such run, between two accesses, `v` raises the software interrupt itself
 * (a store to the CLINT's msip: a volatile access, so the compiler keeps it between them). Its
 * handler wakes a grower that outranks `v`; the grower recurses past its 512-byte stack at
 * once, and its growth takes room from the free region above `v` (regions
 * [g0][g1][g2][v][free] in a 12 KiB pool; each grower then blocks at the bottom of its
 * recursion, so its surplus stays small and the free region stays the donor): `v`'s stack
 * moves up while `v` is stopped inside its run, every round, whatever the copy's speed or the
 * tick. The kernel must adjust the scratch register of that run (the pass's `cactus_lstack`
 * records): without the records `v` resumes with a stale physical address and its writes land
 * in a grower's region (the ownership oracle stops the run; on QEMU its buffer no longer
 * matches the shadow copy it keeps in globals). With them every word matches, the growers'
 * frames survive, and the stack moved once per round. On QEMU the interrupt may be taken a
 * few instructions late; the run then still passes (this scenario's negative test runs on
 * cactus-sim, where it is taken right after the store). */
#include "ktest.h"
#include "cactus/relocate.h"

const char ktest_name[] = "relocate_preempt";

#define WORDS 32
#define HALF (WORDS / 2)
#define DEPTH 24
#define GROWERS 3
/* The CLINT's msip word (PORT_CLINT_MSIP in kernel/arch/rv32/plic.h; the same on cactus-sim
 * and QEMU virt). */
#define CLINT_MSIP ((volatile uint32_t *)0x02000000u)

static cactus_sem go[GROWERS], never;
static volatile uint32_t round_now, isr_runs, at_bottom;
static uint32_t shadow[WORDS];

static void kick_isr(uint32_t source)
{
    (void)source;
    CHECK_EQ(cactus_sem_give(&go[round_now]), CACTUS_OK);
    isr_runs++;
}

/* One run of loads and stores through p (one translation), with the software interrupt
 * raised between its two halves. */
static void __attribute__((noinline)) churn_kick(volatile uint32_t *p, uint32_t seed)
{
#pragma GCC unroll 16
    for (int i = 0; i < HALF; i++)
        p[i] = p[i] * 1103515245u + seed + (uint32_t)i;
    *CLINT_MSIP = 1;
#pragma GCC unroll 16
    for (int i = HALF; i < WORDS; i++)
        p[i] = p[i] * 1103515245u + seed + (uint32_t)i;
}

/* The same arithmetic on the shadow copy, without the interrupt. */
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
    CHECK_EQ(cactus_irq_attach(CACTUS_IRQ_SOFTWARE, kick_isr, 0, "kick"), CACTUS_OK);
    uint32_t buf[WORDS];
    for (int i = 0; i < WORDS; i++)
        buf[i] = shadow[i] = 0x1234u * (uint32_t)i;
    for (uint32_t r = 0; r < GROWERS; r++) {
        cactus_relocate_counts before, after;
        cactus_relocate_stats(&before);
        round_now = r;
        churn_kick(buf, r + 1);
        churn(shadow, r + 1);
        CHECK(same(buf, shadow));
        CHECK_EQ(isr_runs, r + 1);
        CHECK_EQ(at_bottom, r + 1); /* the grower ran inside the run and stopped deep */
        cactus_relocate_stats(&after);
        CHECK(after.relocations > before.relocations); /* and moved v's stack */
    }
    cactus_relocate_counts c;
    cactus_relocate_stats(&c);
    CHECK_EQ(c.refusals, 0);
    CHECK(same(buf, shadow));
    ktest_pass();
}

/* About 64 bytes per level, checked on the way back (never: the grower blocks at the bottom,
 * holding its depth, so its surplus stays below the free region's). */
static uint32_t __attribute__((noinline)) descend(uint32_t level)
{
    volatile uint32_t mine[8];
    for (int i = 0; i < 8; i++)
        mine[i] = level * 8u + (uint32_t)i;
    if (level == 0) {
        at_bottom++;
        cactus_sem_take(&never, CACTUS_FOREVER);
    }
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
    uint32_t me = (uint32_t)(uintptr_t)arg;
    CHECK_EQ(cactus_sem_take(&go[me], CACTUS_FOREVER), CACTUS_OK);
    (void)descend(DEPTH);
}

static const cactus_task_desc tasks[] = {
    { .name = "g0", .entry = grower, .arg = (void *)0, .stack_size = 512, .prio = 5 },
    { .name = "g1", .entry = grower, .arg = (void *)1, .stack_size = 512, .prio = 5 },
    { .name = "g2", .entry = grower, .arg = (void *)2, .stack_size = 512, .prio = 5 },
    { .name = "v", .entry = v, .stack_size = 512, .prio = 3 },
};

int main(void)
{
    for (int i = 0; i < GROWERS; i++)
        cactus_sem_init(&go[i], 0, 1);
    cactus_sem_init(&never, 0, 1);
    ktest_start(tasks, 4);
}
