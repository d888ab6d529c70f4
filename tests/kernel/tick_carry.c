/* The tick fast path's carry: the low word of the next tick's mtime wraps (once every 2^32
 * mtime units, about 7 minutes at 10 MHz). main() sets mtime just below 2^32 so the wrap comes
 * within the first ticks; a sleeper then sleeps one tick at a time across it while a busy
 * lower-priority task keeps the periodic tick running. A carry lost in the high word of
 * mtimecmp would leave the compare value in the past and fire ticks back to back, so the checks
 * are: the ticks never come faster than mtime allows (ticks counted - 1 periods of mtime at
 * least; only a lower bound, because on QEMU mtime is host time and a stalled host makes ticks
 * late, never early), and mtime has passed 2^32. */
#include "ktest.h"

const char ktest_name[] = "tick_carry";

#define MTIME ((volatile uint32_t *)0x0200BFF8u)
#define PERIOD (10000000u / 1000u) /* mtime units per tick at the default 1 kHz */
#define SLEEPS 20

static uint64_t mtime(void)
{
    uint32_t hi, lo;
    do {
        hi = MTIME[1];
        lo = MTIME[0];
    } while (hi != MTIME[1]);
    return (uint64_t)hi << 32 | lo;
}

static void sleeper(void *arg)
{
    (void)arg;
    uint32_t t0 = cactus_now();
    uint64_t m0 = mtime();
    CHECK(m0 < 0x100000000ull); /* still below the wrap */
    uint32_t last = t0;
    while (cactus_now() - t0 < SLEEPS) {
        CHECK_EQ(cactus_sleep(1), CACTUS_OK);
        uint32_t now = cactus_now();
        CHECK(now - last >= 1); /* at least one tick later */
        last = now;
    }
    uint64_t m1 = mtime();
    uint32_t ticks = cactus_now() - t0;
    CHECK(m1 >= 0x100000000ull);                     /* the low word wrapped */
    CHECK(m1 - m0 >= (uint64_t)(ticks - 1) * PERIOD); /* no tick came early */
    kprintf("%d ticks across the mtime wrap\n", SLEEPS);
    ktest_pass();
}

static void spinner(void *arg)
{
    (void)arg;
    for (;;) {
    }
}

static const cactus_task_desc tasks[] = {
    { .name = "sleeper", .entry = sleeper, .stack_size = 1024, .prio = 8 },
    { .name = "spinner", .entry = spinner, .stack_size = 512, .prio = 1 },
};

int main(void)
{
    /* Three ticks before the wrap: low word first, so the value never jumps past it. */
    MTIME[0] = 0;
    MTIME[1] = 0;
    MTIME[0] = 0u - 3u * PERIOD;
    ktest_start(tasks, 2);
}
