/* A sleeping high-priority task preempts a busy low-priority one at the tick its sleep ends,
 * and the low task resumes exactly where it was. */
#include "ktest.h"

const char ktest_name[] = "preempt_wake";

static volatile int low_progress;

static void high(void *arg)
{
    (void)arg;
    for (int i = 1; i <= 3; i++) {
        CHECK_EQ(cactus_sleep(3), CACTUS_OK);
        CHECK_EQ(cactus_now(), 3 * i);
        klog('H');
    }
    CHECK(low_progress > 0);
    KLOG_EXPECT("LHHH");
    ktest_pass();
}

static void low(void *arg)
{
    (void)arg;
    klog('L');
    for (;;)
        low_progress++;
}

static const cactus_task_desc tasks[] = {
    { .name = "high", .entry = high, .stack_size = 1024, .prio = 20 },
    { .name = "low", .entry = low, .stack_size = 512, .prio = 1 },
};

int main(void)
{
    ktest_start(tasks, 2);
}
