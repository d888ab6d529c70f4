/* cactus_sleep_until makes drift-free periodic tasks: whatever the work done in each period,
 * wake-ups land exactly on t0 + k * period; an overrun is reported (returns 1) without
 * shifting the grid. */
#include "ktest.h"

const char ktest_name[] = "sleep_until";

static void periodic(void *arg)
{
    (void)arg;
    uint32_t last = cactus_now();
    uint32_t t0 = last;
    for (uint32_t k = 1; k <= 12; k++) {
        int late = cactus_sleep_until(&last, 4);
        uint32_t now = cactus_now();
        if (k == 7) {
            /* period 6 overran (5 ticks of work): no sleep, still on the grid afterwards */
            CHECK_EQ(late, 1);
            CHECK_EQ(now, t0 + 4 * 6 + 5);
        } else {
            CHECK_EQ(late, 0);
            CHECK_EQ(now, t0 + 4 * k);
        }
        klog('0' + (int)(k % 10));
        /* variable work: 0..2 ticks, 5 ticks in period 6 */
        uint32_t work = k == 6 ? 5 : k % 3;
        for (uint32_t i = 0; i < work; i++)
            ktest_wait_tick();
    }
    KLOG_EXPECT("123456789012");
    ktest_pass();
}

static void background(void *arg)
{
    (void)arg;
    for (;;) {
    }
}

static const cactus_task_desc tasks[] = {
    { .name = "periodic", .entry = periodic, .stack_size = 1024, .prio = 8 },
    { .name = "background", .entry = background, .stack_size = 512, .prio = 1 },
};

int main(void)
{
    ktest_start(tasks, 2);
}
