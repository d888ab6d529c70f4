/* Blocking queue operations: a receiver blocked on an empty queue gets the item at the send
 * (and preempts the lower-priority sender); a sender blocked on a full queue completes when a
 * slot frees, keeping FIFO order; both time out on their exact deadline tick. */
#include "ktest.h"

const char ktest_name[] = "queue_block";

static uint32_t storage[2];
static cactus_queue q;

static void receiver(void *arg)
{
    (void)arg;
    uint32_t v = 0;
    CHECK_EQ(cactus_queue_recv(&q, &v, CACTUS_FOREVER), CACTUS_OK);
    klog('0' + (int)v);
    CHECK_EQ(cactus_queue_recv(&q, &v, 4), CACTUS_ETIMEOUT);
    CHECK_EQ(cactus_now(), 4);
    klog('T');
    cactus_sleep(6); /* tick 10: the sender has filled the queue and blocks on item 5 */
    for (int i = 0; i < 3; i++) {
        CHECK_EQ(cactus_queue_recv(&q, &v, CACTUS_NO_WAIT), CACTUS_OK);
        klog('0' + (int)v);
    }
}

static void sender(void *arg)
{
    (void)arg;
    uint32_t v = 1;
    klog('s');
    CHECK_EQ(cactus_queue_send(&q, &v, CACTUS_NO_WAIT), CACTUS_OK); /* receiver runs */
    klog('S');
    cactus_sleep(5);
    v = 2;
    CHECK_EQ(cactus_queue_send(&q, &v, CACTUS_NO_WAIT), CACTUS_OK);
    v = 3;
    CHECK_EQ(cactus_queue_send(&q, &v, CACTUS_NO_WAIT), CACTUS_OK);
    v = 9;
    CHECK_EQ(cactus_queue_send(&q, &v, 2), CACTUS_ETIMEOUT);
    CHECK_EQ(cactus_now(), 7);
    v = 4;
    CHECK_EQ(cactus_queue_send(&q, &v, CACTUS_FOREVER), CACTUS_OK); /* completes at tick 10 */
    CHECK_EQ(cactus_now(), 10);
    klog('F');
    KLOG_EXPECT("s1ST234F");
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "receiver", .entry = receiver, .stack_size = 1024, .prio = 6 },
    { .name = "sender", .entry = sender, .stack_size = 1024, .prio = 3 },
};

int main(void)
{
    cactus_queue_init(&q, storage, sizeof(uint32_t), 2);
    ktest_start(tasks, 2);
}
