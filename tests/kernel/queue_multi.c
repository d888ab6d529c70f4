/* Several receivers blocked on one queue: items go to the highest-priority receiver first,
 * FIFO among equals, each copied into that receiver's own buffer. */
#include "ktest.h"

const char ktest_name[] = "queue_multi";

static uint8_t storage[4];
static cactus_queue q;

static void receiver(void *arg)
{
    uint8_t v = 0;
    CHECK_EQ(cactus_queue_recv(&q, &v, CACTUS_FOREVER), CACTUS_OK);
    klog((int)(uintptr_t)arg);
    klog(v);
}

static void sender(void *arg)
{
    (void)arg;
    for (uint8_t v = 'a'; v <= 'd'; v++)
        CHECK_EQ(cactus_queue_send(&q, &v, CACTUS_NO_WAIT), CACTUS_OK);
    KLOG_EXPECT("3a4b2c1d");
    CHECK_EQ(cactus_queue_count(&q), 0);
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "r1", .entry = receiver, .arg = (void *)'1', .stack_size = 512, .prio = 2 },
    { .name = "r2", .entry = receiver, .arg = (void *)'2', .stack_size = 512, .prio = 4 },
    { .name = "r3", .entry = receiver, .arg = (void *)'3', .stack_size = 512, .prio = 8 },
    { .name = "r4", .entry = receiver, .arg = (void *)'4', .stack_size = 512, .prio = 8 },
    { .name = "sender", .entry = sender, .stack_size = 1024, .prio = 1 },
};

int main(void)
{
    cactus_queue_init(&q, storage, 1, 4);
    ktest_start(tasks, 5);
}
