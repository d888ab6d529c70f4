/* cactus_sleep(n) wakes exactly n ticks after the tick it was called in, while a busy
 * lower-priority task keeps the periodic tick running; sleep(0) only yields. */
#include "ktest.h"

const char ktest_name[] = "sleep_basic";

static void sleeper(void *arg)
{
    (void)arg;
    CHECK_EQ(cactus_now(), 0);
    CHECK_EQ(cactus_sleep(5), CACTUS_OK);
    CHECK_EQ(cactus_now(), 5);
    CHECK_EQ(cactus_sleep(1), CACTUS_OK);
    CHECK_EQ(cactus_now(), 6);
    CHECK_EQ(cactus_sleep(0), CACTUS_OK);
    CHECK_EQ(cactus_now(), 6);
    CHECK_EQ(cactus_sleep(7), CACTUS_OK);
    CHECK_EQ(cactus_now(), 13);
    CHECK_EQ(cactus_task_state(1), CACTUS_TASK_READY);
    kprintf("woke at ticks 5, 6, 13\n");
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
    ktest_start(tasks, 2);
}
