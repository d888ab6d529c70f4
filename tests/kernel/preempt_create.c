/* Run-time creation preempts at once when the new task outranks the creator, and does not
 * when it ranks lower or equal (the new task then waits for the creator to block). */
#include "ktest.h"

const char ktest_name[] = "preempt_create";

static void child(void *arg)
{
    klog((int)(uintptr_t)arg);
}

static const cactus_task_desc hi = { .name = "hi", .entry = child, .arg = (void *)'H',
                                     .stack_size = 512, .prio = 9 };
static const cactus_task_desc lo = { .name = "lo", .entry = child, .arg = (void *)'L',
                                     .stack_size = 512, .prio = 1 };
static const cactus_task_desc eq = { .name = "eq", .entry = child, .arg = (void *)'E',
                                     .stack_size = 512, .prio = 4 };

static void parent(void *arg)
{
    (void)arg;
    klog('1');
    CHECK(cactus_task_create(&hi) >= 0); /* runs and exits before create returns */
    klog('2');
    CHECK(cactus_task_create(&lo) >= 0);
    CHECK(cactus_task_create(&eq) >= 0);
    klog('3');
    cactus_sleep(2); /* eq then lo run */
    KLOG_EXPECT("1H23EL");
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "parent", .entry = parent, .stack_size = 1024, .prio = 4 },
};

int main(void)
{
    ktest_start(tasks, 1);
}
