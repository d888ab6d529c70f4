/* Event flags: any/all waits, clear-on-wake, NO_WAIT and timed waits (0 on timeout, on the
 * exact deadline tick). */
#include "ktest.h"

const char ktest_name[] = "event_basic";

static cactus_event ev;

static void waiter(void *arg)
{
    (void)arg;
    CHECK_EQ(cactus_event_wait(&ev, 0x3, 0, CACTUS_FOREVER), 0x1); /* any */
    klog('a');
    CHECK_EQ(cactus_event_get(&ev), 0x1); /* not cleared */
    CHECK_EQ(cactus_event_wait(&ev, 0x6, CACTUS_EVENT_ALL | CACTUS_EVENT_CLEAR, CACTUS_FOREVER),
             0x6);
    klog('b');
    CHECK_EQ(cactus_event_get(&ev), 0x1); /* 0x6 cleared */
    CHECK_EQ(cactus_event_wait(&ev, 0x8, 0, CACTUS_NO_WAIT), 0);
    uint32_t t0 = cactus_now();
    CHECK_EQ(cactus_event_wait(&ev, 0x8, 0, 3), 0);
    CHECK_EQ(cactus_now(), t0 + 3);
    CHECK_EQ(cactus_event_wait(&ev, 0x1, CACTUS_EVENT_CLEAR, CACTUS_NO_WAIT), 0x1);
    CHECK_EQ(cactus_event_get(&ev), 0);
    CHECK_EQ(cactus_event_wait(&ev, 0, 0, CACTUS_FOREVER), 0); /* empty mask: no wait */
    klog('c');
}

static void setter(void *arg)
{
    (void)arg;
    klog('1');
    cactus_event_set(&ev, 0x1); /* wakes the any-wait */
    klog('2');
    cactus_event_set(&ev, 0x2); /* not all of 0x6 yet */
    klog('3');
    cactus_event_set(&ev, 0x4);
    klog('4');
    cactus_sleep(10);
    KLOG_EXPECT("1a23b4c");
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "waiter", .entry = waiter, .stack_size = 1024, .prio = 6 },
    { .name = "setter", .entry = setter, .stack_size = 1024, .prio = 3 },
};

int main(void)
{
    cactus_event_init(&ev);
    ktest_start(tasks, 2);
}
