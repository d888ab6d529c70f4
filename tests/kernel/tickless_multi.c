/* Tickless idle with several sleepers: one wake-up per distinct deadline (equal deadlines
 * share one), each sleeper waking on its exact tick. */
#include "ktest.h"

const char ktest_name[] = "tickless_multi";

static uint32_t woke[4];

static void sleeper(void *arg)
{
    int i = (int)(uintptr_t)arg;
    static const uint32_t d[4] = { 100, 250, 250, 400 };
    cactus_sleep(d[i]);
    woke[i] = cactus_now();
}

static void checker(void *arg)
{
    (void)arg;
    cactus_stats a, b;
    cactus_get_stats(&a);
    cactus_sleep(600);
    cactus_get_stats(&b);
    CHECK_EQ(woke[0], 100);
    CHECK_EQ(woke[1], 250);
    CHECK_EQ(woke[2], 250);
    CHECK_EQ(woke[3], 400);
    /* deadlines 100, 250, 400, 600: four wake-ups, no periodic tick */
    CHECK_EQ(b.idle_wakeups - a.idle_wakeups, 4);
    CHECK_EQ(b.tick_irqs - a.tick_irqs, 0);
    kprintf("wake-ups at 100 250 250 400 600: %d idle wake-ups\n", b.idle_wakeups - a.idle_wakeups);
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "checker", .entry = checker, .stack_size = 1024, .prio = 9 },
    { .name = "s0", .entry = sleeper, .arg = (void *)0, .stack_size = 512, .prio = 5 },
    { .name = "s1", .entry = sleeper, .arg = (void *)1, .stack_size = 512, .prio = 5 },
    { .name = "s2", .entry = sleeper, .arg = (void *)2, .stack_size = 512, .prio = 5 },
    { .name = "s3", .entry = sleeper, .arg = (void *)3, .stack_size = 512, .prio = 5 },
};

int main(void)
{
    ktest_start(tasks, 5);
}
