/* One set wakes every waiter it satisfies, in priority order, and clears requested bits only
 * after all waiters were evaluated; unsatisfied waiters keep waiting. */
#include "ktest.h"

const char ktest_name[] = "event_broadcast";

static cactus_event ev;

static void waiter(void *arg)
{
    int id = (int)(uintptr_t)arg;
    static const uint32_t mask[4] = { 0x1, 0x1, 0x3, 0x10 };
    static const uint32_t opts[4] = { CACTUS_EVENT_CLEAR, 0, CACTUS_EVENT_ALL, 0 };
    uint32_t got = cactus_event_wait(&ev, mask[id], opts[id], 20);
    klog('0' + id);
    klog(got ? 'y' : 'n');
}

static void setter(void *arg)
{
    (void)arg;
    cactus_event_set(&ev, 0x3); /* wakes 2 (prio 7), 1 (5), 0 (3); 3 keeps waiting */
    CHECK_EQ(cactus_event_get(&ev), 0x2); /* waiter 0 cleared bit 0 */
    cactus_sleep(30);
    KLOG_EXPECT("2y1y0y3n");
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "w0", .entry = waiter, .arg = (void *)0, .stack_size = 512, .prio = 3 },
    { .name = "w1", .entry = waiter, .arg = (void *)1, .stack_size = 512, .prio = 5 },
    { .name = "w2", .entry = waiter, .arg = (void *)2, .stack_size = 512, .prio = 7 },
    { .name = "w3", .entry = waiter, .arg = (void *)3, .stack_size = 512, .prio = 6 },
    { .name = "setter", .entry = setter, .stack_size = 1024, .prio = 1 },
};

int main(void)
{
    cactus_event_init(&ev);
    ktest_start(tasks, 5);
}
