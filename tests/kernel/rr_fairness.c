/* Round-robin time slicing among equal priorities: three busy tasks share 30 one-tick slices
 * in strict rotation while a monitor sleeps; each gets exactly 10. */
#include "ktest.h"

const char ktest_name[] = "rr_fairness";

static volatile int last = -1;
static int slices[3];

static void busy(void *arg)
{
    int me = (int)(uintptr_t)arg;
    for (;;) {
        if (last != me) {
            uint32_t irq = cactus_irq_save();
            last = me;
            slices[me]++;
            klog('A' + me);
            cactus_irq_restore(irq);
        }
    }
}

static void monitor(void *arg)
{
    (void)arg;
    cactus_sleep(30);
    CHECK_EQ(cactus_now(), 30);
    kprintf("slices: A=%d B=%d C=%d\n", slices[0], slices[1], slices[2]);
    KLOG_EXPECT("ABCABCABCABCABCABCABCABCABCABC");
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
    ktest_start(tasks, 4);
}
