/* The kernel starts the one task in the table, which prints and passes. */
#include "ktest.h"

const char ktest_name[] = "boot";

static void hello(void *arg)
{
    CHECK_EQ((uintptr_t)arg, 42);
    CHECK_EQ(cactus_task_self(), 0);
    CHECK_EQ(cactus_task_state(0), CACTUS_TASK_RUNNING);
    CHECK_EQ(cactus_now(), 0);
    kprintf("hello from task %d\n", cactus_task_self());
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "hello", .entry = hello, .arg = (void *)42, .stack_size = 1024, .prio = 5 },
};

int main(void)
{
    ktest_start(tasks, 1);
}
