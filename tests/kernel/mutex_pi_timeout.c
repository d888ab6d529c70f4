/* Inheritance is withdrawn when a waiter gives up: H's timed lock expires and L drops back to
 * its base priority; with two mutexes held, releasing one drops L only to the priority of the
 * other mutex's waiter. */
#include "ktest.h"

const char ktest_name[] = "mutex_pi_timeout";

static cactus_mutex m1, m2;
enum { L_ID, H_ID, W1_ID, W2_ID };

static void low(void *arg)
{
    (void)arg;
    CHECK_EQ(cactus_mutex_lock(&m1, CACTUS_FOREVER), CACTUS_OK);
    while (cactus_now() < 2) {
    }
    CHECK_EQ(cactus_task_prio(L_ID), 9); /* H waits (timeout at tick 6) */
    while (cactus_now() < 7) {
    }
    CHECK_EQ(cactus_task_prio(L_ID), 1); /* H timed out */
    klog('a');
    CHECK_EQ(cactus_mutex_lock(&m2, CACTUS_FOREVER), CACTUS_OK);
    while (cactus_now() < 12) {
    } /* W1 (5) waits on m1 from 10, W2 (7) on m2 from 11 */
    CHECK_EQ(cactus_task_prio(L_ID), 7);
    CHECK_EQ(cactus_mutex_unlock(&m2), CACTUS_OK); /* W2 runs */
    CHECK_EQ(cactus_task_prio(L_ID), 5);
    klog('b');
    CHECK_EQ(cactus_mutex_unlock(&m1), CACTUS_OK); /* W1 runs */
    CHECK_EQ(cactus_task_prio(L_ID), 1);
    klog('c');
    KLOG_EXPECT("Ta2b1c");
    ktest_pass();
}

static void high(void *arg)
{
    (void)arg;
    cactus_sleep(1);
    CHECK_EQ(cactus_mutex_lock(&m1, 5), CACTUS_ETIMEOUT);
    CHECK_EQ(cactus_now(), 6);
    klog('T');
}

static void waiter(void *arg)
{
    int which = (int)(uintptr_t)arg;
    cactus_sleep(which == 1 ? 10 : 11);
    cactus_mutex *m = which == 1 ? &m1 : &m2;
    CHECK_EQ(cactus_mutex_lock(m, CACTUS_FOREVER), CACTUS_OK);
    klog('0' + which);
    CHECK_EQ(cactus_mutex_unlock(m), CACTUS_OK);
}

static const cactus_task_desc tasks[] = {
    [L_ID] = { .name = "low", .entry = low, .stack_size = 1024, .prio = 1 },
    [H_ID] = { .name = "high", .entry = high, .stack_size = 1024, .prio = 9 },
    [W1_ID] = { .name = "w1", .entry = waiter, .arg = (void *)1, .stack_size = 1024, .prio = 5 },
    [W2_ID] = { .name = "w2", .entry = waiter, .arg = (void *)2, .stack_size = 1024, .prio = 7 },
};

int main(void)
{
    cactus_mutex_init(&m1);
    cactus_mutex_init(&m2);
    ktest_start(tasks, 4);
}
