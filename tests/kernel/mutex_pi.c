/* Priority inheritance against unbounded inversion: L holds the mutex, H blocks on it, a
 * middle-priority busy task M becomes ready. L inherits H's priority, so M cannot run until
 * L releases; then H, then M, then L. Without inheritance M would run first. */
#include "ktest.h"

const char ktest_name[] = "mutex_pi";

static cactus_mutex m;
enum { L_ID, M_ID, H_ID };

static void low(void *arg)
{
    (void)arg;
    CHECK_EQ(cactus_mutex_lock(&m, CACTUS_FOREVER), CACTUS_OK);
    while (cactus_now() < 6) {
    } /* H blocks at tick 2, M is ready from tick 3 */
    CHECK_EQ(cactus_task_prio(L_ID), 8);
    CHECK_EQ(cactus_task_state(M_ID), CACTUS_TASK_READY);
    klog('L');
    CHECK_EQ(cactus_mutex_unlock(&m), CACTUS_OK);
    CHECK_EQ(cactus_task_prio(L_ID), 2);
    klog('l');
    KLOG_EXPECT("LHMl");
    ktest_pass();
}

static void mid(void *arg)
{
    (void)arg;
    cactus_sleep(3);
    klog('M');
}

static void high(void *arg)
{
    (void)arg;
    cactus_sleep(2);
    CHECK_EQ(cactus_task_prio(L_ID), 2);
    CHECK_EQ(cactus_mutex_lock(&m, CACTUS_FOREVER), CACTUS_OK);
    klog('H');
    CHECK_EQ(cactus_mutex_unlock(&m), CACTUS_OK);
}

static const cactus_task_desc tasks[] = {
    [L_ID] = { .name = "low", .entry = low, .stack_size = 1024, .prio = 2 },
    [M_ID] = { .name = "mid", .entry = mid, .stack_size = 1024, .prio = 5 },
    [H_ID] = { .name = "high", .entry = high, .stack_size = 1024, .prio = 8 },
};

int main(void)
{
    cactus_mutex_init(&m);
    ktest_start(tasks, 3);
}
