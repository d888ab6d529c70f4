/* Direct-to-task notifications: every action, wait and take semantics, clear on entry and on
 * exit, timeouts at their tick, and a notified higher-priority waiter running at once. The
 * notifier (tx) acts at fixed ticks while the receiver (rx) waits or sleeps. */
#include "ktest.h"

const char ktest_name[] = "notify_basic";

enum { RX, TX };

static void until(uint32_t tick)
{
    uint32_t now = cactus_now();
    if (tick > now)
        CHECK_EQ(cactus_sleep(tick - now), CACTUS_OK);
    CHECK_EQ(cactus_now(), tick);
}

static void rx(void *arg)
{
    (void)arg;
    uint32_t v = 0xDEAD;
    CHECK_EQ(cactus_notify_wait(0, 0, &v, 5), CACTUS_ETIMEOUT);
    CHECK_EQ(cactus_now(), 5);
    CHECK_EQ(v, 0xDEAD);
    klog('a');
    CHECK_EQ(cactus_notify_wait(0, ~0u, &v, CACTUS_FOREVER), CACTUS_OK); /* tx at 10 */
    CHECK_EQ(cactus_now(), 10);
    CHECK_EQ(v, 5);
    klog('A');
    until(15); /* tx sets bits 1 and 2 at 12 while we sleep */
    CHECK_EQ(cactus_notify_wait(0, 1, &v, CACTUS_NO_WAIT), CACTUS_OK);
    CHECK_EQ(v, 3);
    CHECK_EQ(cactus_notify_wait(0, 0, &v, CACTUS_NO_WAIT), CACTUS_ETIMEOUT); /* none pending */
    CHECK_EQ(cactus_notify_wait(2, 0, &v, 10), CACTUS_OK); /* bit 2 cleared; tx at 20 */
    CHECK_EQ(cactus_now(), 20);
    CHECK_EQ(v, 0x40);
    klog('B');
    CHECK_EQ(cactus_notify_take(1, CACTUS_NO_WAIT), 0x40); /* the value was kept: clear = 0 */
    CHECK_EQ(cactus_notify_take(0, CACTUS_NO_WAIT), 0);
    until(25); /* tx increments three times at 22 */
    CHECK_EQ(cactus_notify_take(0, CACTUS_NO_WAIT), 3);
    CHECK_EQ(cactus_notify_take(0, CACTUS_NO_WAIT), 2);
    CHECK_EQ(cactus_notify_take(1, CACTUS_NO_WAIT), 1);
    CHECK_EQ(cactus_notify_take(0, CACTUS_NO_WAIT), 0);
    CHECK_EQ(cactus_notify_take(0, CACTUS_FOREVER), 1); /* tx signals, then increments, at 30 */
    CHECK_EQ(cactus_now(), 30);
    klog('C');
    CHECK_EQ(cactus_notify_wait(0, 0, &v, CACTUS_NO_WAIT), CACTUS_ETIMEOUT); /* take cleared it */
    CHECK_EQ(cactus_notify_wait(0, 0, &v, 5), CACTUS_OK); /* a signal at 33: value unchanged */
    CHECK_EQ(cactus_now(), 33);
    CHECK_EQ(v, 0);
    klog('E');
    CHECK_EQ(cactus_notify_take(0, 4), 9); /* tx overwrites at 33: decremented to 8 */
    CHECK_EQ(cactus_now(), 33);
    CHECK_EQ(cactus_notify_take(1, CACTUS_NO_WAIT), 8);
    CHECK_EQ(cactus_notify_take(0, 4), 0); /* tx's last signal leaves 0: times out at 37 */
    CHECK_EQ(cactus_now(), 37);
    KLOG_EXPECT("aAbBCdE");
    ktest_pass();
}

static void tx(void *arg)
{
    (void)arg;
    CHECK_EQ(cactus_notify(7, 1, CACTUS_NOTIFY_SET_BITS), CACTUS_ESRCH);
    CHECK_EQ(cactus_notify(-1, 1, CACTUS_NOTIFY_SET_BITS), CACTUS_ESRCH);
    CHECK_EQ(cactus_notify(RX, 1, 77), CACTUS_EINVAL);
    until(10);
    CHECK_EQ(cactus_notify(RX, 5, CACTUS_NOTIFY_SET_BITS), CACTUS_OK); /* rx runs first */
    klog('b');
    until(12);
    CHECK_EQ(cactus_notify(RX, 1, CACTUS_NOTIFY_SET_BITS), CACTUS_OK);
    CHECK_EQ(cactus_notify(RX, 2, CACTUS_NOTIFY_SET_BITS), CACTUS_OK);
    CHECK_EQ(cactus_notify(RX, 7, CACTUS_NOTIFY_SET_IF_NONE), CACTUS_EFULL);
    until(20);
    CHECK_EQ(cactus_task_state(RX), CACTUS_TASK_BLOCKED);
    CHECK_EQ(cactus_notify(RX, 0x40, CACTUS_NOTIFY_SET_IF_NONE), CACTUS_OK);
    until(22);
    for (int i = 0; i < 3; i++)
        CHECK_EQ(cactus_notify(RX, 0, CACTUS_NOTIFY_INCREMENT), CACTUS_OK);
    until(30);
    CHECK_EQ(cactus_notify(RX, 0, CACTUS_NOTIFY_SIGNAL), CACTUS_OK);
    CHECK_EQ(cactus_task_state(RX), CACTUS_TASK_BLOCKED); /* a take waits for a non-zero value */
    CHECK_EQ(cactus_notify(RX, 0, CACTUS_NOTIFY_INCREMENT), CACTUS_OK);
    klog('d');
    until(33);
    CHECK_EQ(cactus_notify(RX, 0, CACTUS_NOTIFY_SIGNAL), CACTUS_OK);
    CHECK_EQ(cactus_notify(RX, 9, CACTUS_NOTIFY_OVERWRITE), CACTUS_OK);
    CHECK_EQ(cactus_notify(RX, 0, CACTUS_NOTIFY_SIGNAL), CACTUS_OK);
    for (;;)
        cactus_sleep(100);
}

static const cactus_task_desc tasks[] = {
    { .name = "rx", .entry = rx, .stack_size = 1024, .prio = 20 },
    { .name = "tx", .entry = tx, .stack_size = 1024, .prio = 10 },
};

int main(void)
{
    ktest_start(tasks, 2);
}
