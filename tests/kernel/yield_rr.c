/* cactus_yield passes the CPU to the next task of the same priority, in FIFO order; a task
 * alone at its level keeps running; lower levels never run while the level is busy. */
#include "ktest.h"

const char ktest_name[] = "yield_rr";

static void peer(void *arg)
{
    for (int i = 0; i < 3; i++) {
        klog((int)(uintptr_t)arg);
        cactus_yield();
    }
}

static void low(void *arg)
{
    (void)arg;
    KLOG_EXPECT("ABCABCABC");
    /* Alone at its level: yield returns to the caller. */
    cactus_yield();
    cactus_yield();
    klog('Z');
    KLOG_EXPECT("ABCABCABCZ");
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "a", .entry = peer, .arg = (void *)'A', .stack_size = 512, .prio = 6 },
    { .name = "b", .entry = peer, .arg = (void *)'B', .stack_size = 512, .prio = 6 },
    { .name = "c", .entry = peer, .arg = (void *)'C', .stack_size = 512, .prio = 6 },
    { .name = "low", .entry = low, .stack_size = 1024, .prio = 2 },
};

int main(void)
{
    static cactus_config cfg = { .tick_hz = 1000, .slice_ticks = 100000, .tasks = tasks, .ntasks = 4 };
    ktest_start_cfg(&cfg);
}
