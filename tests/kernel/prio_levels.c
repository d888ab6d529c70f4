/* All 32 priority levels: 32 tasks in scrambled table order run strictly from 31 down to 0. */
#include "ktest.h"

const char ktest_name[] = "prio_levels";

static void task(void *arg)
{
    int p = (int)(uintptr_t)arg;
    CHECK_EQ(cactus_task_prio(cactus_task_self()), p);
    klog(p);
    if (p == 0) {
        CHECK_EQ(klog_len(), 32);
        for (int i = 0; i < 32; i++)
            CHECK_EQ(klog_at(i), 31 - i);
        kprintf("32 levels ran in order 31..0\n");
        ktest_pass();
    }
}

static cactus_task_desc tasks[32];

int main(void)
{
    for (int i = 0; i < 32; i++) {
        int p = (i * 13 + 5) % 32; /* a permutation of 0..31 */
        tasks[i] = (cactus_task_desc){ .name = "lvl", .entry = task, .arg = (void *)(uintptr_t)p,
                                       .stack_size = 512, .prio = (uint8_t)p };
    }
    ktest_start(tasks, 32);
}
