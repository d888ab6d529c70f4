/* A configurable slice: with 3-tick slices, 30 ticks give the rotation A B C A B C A B C A,
 * i.e. 12, 9 and 9 ticks. */
#include "ktest.h"

const char ktest_name[] = "rr_slice";

static volatile int last = -1;

static void busy(void *arg)
{
    int me = (int)(uintptr_t)arg;
    for (;;) {
        if (last != me) {
            last = me;
            klog('A' + me);
        }
    }
}

static void monitor(void *arg)
{
    (void)arg;
    cactus_sleep(30);
    KLOG_EXPECT("ABCABCABCA");
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "monitor", .entry = monitor, .stack_size = 1024, .prio = 10 },
    { .name = "a", .entry = busy, .arg = (void *)0, .stack_size = 512, .prio = 3 },
    { .name = "b", .entry = busy, .arg = (void *)1, .stack_size = 512, .prio = 3 },
    { .name = "c", .entry = busy, .arg = (void *)2, .stack_size = 512, .prio = 3 },
};

int main(void)
{
    static cactus_config cfg = { .tick_hz = 1000, .slice_ticks = 3, .tasks = tasks, .ntasks = 4 };
    ktest_start_cfg(&cfg);
}
