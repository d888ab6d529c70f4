/* Priority order at start-up: the table's tasks run highest priority first, whatever their
 * order in the table; each runs to completion since none blocks. */
#include "ktest.h"

const char ktest_name[] = "prio_order";

static void task(void *arg)
{
    klog((int)(uintptr_t)arg);
}

static void last(void *arg)
{
    (void)arg;
    KLOG_EXPECT("DCBA");
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "b", .entry = task, .arg = (void *)'B', .stack_size = 512, .prio = 5 },
    { .name = "last", .entry = last, .stack_size = 1024, .prio = 1 },
    { .name = "d", .entry = task, .arg = (void *)'D', .stack_size = 512, .prio = 30 },
    { .name = "a", .entry = task, .arg = (void *)'A', .stack_size = 512, .prio = 2 },
    { .name = "c", .entry = task, .arg = (void *)'C', .stack_size = 512, .prio = 17 },
};

int main(void)
{
    ktest_start(tasks, 5);
}
