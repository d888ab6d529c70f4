/* Sleepers wake in deadline order; equal deadlines wake in the order they were set. */
#include "ktest.h"

const char ktest_name[] = "sleep_order";

static void sleeper(void *arg)
{
    uint32_t d = (uint32_t)(uintptr_t)arg;
    cactus_sleep(d);
    CHECK_EQ(cactus_now(), d);
    klog('0' + (int)d);
}

static void checker(void *arg)
{
    (void)arg;
    cactus_sleep(20);
    KLOG_EXPECT("33589");
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "s8", .entry = sleeper, .arg = (void *)8, .stack_size = 512, .prio = 5 },
    { .name = "s3a", .entry = sleeper, .arg = (void *)3, .stack_size = 512, .prio = 5 },
    { .name = "s5", .entry = sleeper, .arg = (void *)5, .stack_size = 512, .prio = 5 },
    { .name = "s9", .entry = sleeper, .arg = (void *)9, .stack_size = 512, .prio = 6 },
    { .name = "s3b", .entry = sleeper, .arg = (void *)3, .stack_size = 512, .prio = 5 },
    { .name = "checker", .entry = checker, .stack_size = 1024, .prio = 1 },
};

int main(void)
{
    static cactus_config cfg = { .tick_hz = 1000, .slice_ticks = 1000, .tasks = tasks, .ntasks = 6 };
    ktest_start_cfg(&cfg);
}
