/* Tickless idle: with nothing to run the kernel programs the timer for the next deadline and
 * waits with wfi, so a long sleep costs one wake-up and no periodic ticks, and ends exactly
 * on its deadline tick. */
#include "ktest.h"

const char ktest_name[] = "tickless_idle";

static void sleeper(void *arg)
{
    (void)arg;
    cactus_stats a, b;
    cactus_get_stats(&a);
    uint32_t t0 = cactus_now();
    CHECK_EQ(cactus_sleep(500), CACTUS_OK);
    cactus_get_stats(&b);
    CHECK_EQ(cactus_now(), t0 + 500);
    CHECK_EQ(b.idle_wakeups - a.idle_wakeups, 1);
    CHECK_EQ(b.tick_irqs - a.tick_irqs, 0);
    kprintf("sleep 500: %d wake-up, %d ticks\n", b.idle_wakeups - a.idle_wakeups,
            b.tick_irqs - a.tick_irqs);
    /* a deadline far away: still one wake-up */
    cactus_get_stats(&a);
    CHECK_EQ(cactus_sleep(20000), CACTUS_OK);
    cactus_get_stats(&b);
    CHECK_EQ(cactus_now(), t0 + 20500);
    CHECK_EQ(b.idle_wakeups - a.idle_wakeups, 1);
    CHECK_EQ(b.tick_irqs - a.tick_irqs, 0);
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "sleeper", .entry = sleeper, .stack_size = 1024, .prio = 8 },
};

int main(void)
{
    ktest_start(tasks, 1);
}
