/* Waiters are served highest priority first, FIFO among equal priorities. */
#include "ktest.h"

const char ktest_name[] = "sem_wake_order";

static cactus_sem s;

static void waiter(void *arg)
{
    CHECK_EQ(cactus_sem_take(&s, CACTUS_FOREVER), CACTUS_OK);
    klog((int)(uintptr_t)arg);
}

static void giver(void *arg)
{
    (void)arg;
    for (int i = 0; i < 4; i++)
        CHECK_EQ(cactus_sem_give(&s), CACTUS_OK);
    KLOG_EXPECT("2431");
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "w1", .entry = waiter, .arg = (void *)'1', .stack_size = 512, .prio = 3 },
    { .name = "w2", .entry = waiter, .arg = (void *)'2', .stack_size = 512, .prio = 7 },
    { .name = "w3", .entry = waiter, .arg = (void *)'3', .stack_size = 512, .prio = 5 },
    { .name = "w4", .entry = waiter, .arg = (void *)'4', .stack_size = 512, .prio = 7 },
    { .name = "giver", .entry = giver, .stack_size = 1024, .prio = 1 },
};

int main(void)
{
    cactus_sem_init(&s, 0, 10);
    ktest_start(tasks, 5);
}
