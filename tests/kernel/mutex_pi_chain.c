/* Transitive inheritance: H waits on m1 held by M, which waits on m2 held by L. L runs at H's
 * priority until it releases m2; releases then unwind the chain in priority order. */
#include "ktest.h"

const char ktest_name[] = "mutex_pi_chain";

static cactus_mutex m1, m2;
enum { L_ID, M_ID, H_ID, X_ID };

static void low(void *arg)
{
    (void)arg;
    CHECK_EQ(cactus_mutex_lock(&m2, CACTUS_FOREVER), CACTUS_OK);
    while (cactus_task_state(M_ID) != CACTUS_TASK_BLOCKED) {
    }
    CHECK_EQ(cactus_task_prio(L_ID), 5); /* inherited from M */
    while (cactus_task_state(H_ID) != CACTUS_TASK_BLOCKED) {
    }
    CHECK_EQ(cactus_task_prio(M_ID), 8); /* inherited from H */
    CHECK_EQ(cactus_task_prio(L_ID), 8); /* through M */
    while (cactus_now() < 8) {
    } /* X (prio 6) is ready from tick 6 but must not run */
    klog('L');
    CHECK_EQ(cactus_mutex_unlock(&m2), CACTUS_OK); /* M (8) runs now */
    CHECK_EQ(cactus_task_prio(L_ID), 2);
    klog('l');
    KLOG_EXPECT("LMHXml"); /* X (6) outranks M back at 5 */
    ktest_pass();
}

static void mid(void *arg)
{
    (void)arg;
    cactus_sleep(2);
    CHECK_EQ(cactus_mutex_lock(&m1, CACTUS_FOREVER), CACTUS_OK);
    CHECK_EQ(cactus_mutex_lock(&m2, CACTUS_FOREVER), CACTUS_OK);
    klog('M');
    CHECK_EQ(cactus_task_prio(M_ID), 8);
    CHECK_EQ(cactus_mutex_unlock(&m2), CACTUS_OK);
    CHECK_EQ(cactus_mutex_unlock(&m1), CACTUS_OK); /* H runs */
    CHECK_EQ(cactus_task_prio(M_ID), 5);
    klog('m');
}

static void high(void *arg)
{
    (void)arg;
    cactus_sleep(4);
    CHECK_EQ(cactus_mutex_lock(&m1, CACTUS_FOREVER), CACTUS_OK);
    klog('H');
    CHECK_EQ(cactus_mutex_unlock(&m1), CACTUS_OK);
}

static void x(void *arg)
{
    (void)arg;
    cactus_sleep(6);
    klog('X');
}

static const cactus_task_desc tasks[] = {
    [L_ID] = { .name = "low", .entry = low, .stack_size = 1024, .prio = 2 },
    [M_ID] = { .name = "mid", .entry = mid, .stack_size = 1024, .prio = 5 },
    [H_ID] = { .name = "high", .entry = high, .stack_size = 1024, .prio = 8 },
    [X_ID] = { .name = "x", .entry = x, .stack_size = 1024, .prio = 6 },
};

int main(void)
{
    cactus_mutex_init(&m1);
    cactus_mutex_init(&m2);
    ktest_start(tasks, 4);
}
